//! Talent's composition root: configuration, start-up, background jobs and the `talent` binary.
//! It builds the adapters, hands them to the HTTP server and the background workers, and holds
//! no global state.

pub mod adapters;
pub mod admin_token;
pub mod config;
pub mod demo;
pub mod import;
mod jobs;
mod log_queue;
mod logging;
pub mod metrics;
pub mod server;
