//! End-to-end tests: the real `talent` binary over real HTTP, on SQLite and on PostgreSQL
//! (when `TEST_DATABASE_URL` is set). Each test starts its own server on a free port with its
//! own database.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod abuse;
mod admin;
mod auth;
mod auth_cache;
mod batch;
mod catalogue;
mod client;
mod connectors;
mod consent;
mod crash_idempotency;
mod dashboard;
mod errors;
mod events;
mod fuzz;
mod hardening;
mod idempotency;
mod idna;
mod import;
mod invitations;
mod listing;
mod locales;
mod openapi;
mod operations;
mod persons;
mod privacy;
mod public_surface;
mod ratelimit;
mod ratelimit_shared;
mod results;
mod smoke;
mod smtp_tls;
mod sync;
mod test_mode;
mod webhook_engine;
mod webhook_resilience;
mod webhooks;
