//! Talent's domain: value objects, the person state machine, use cases and the ports they need.
//!
//! Pure: no I/O, no async runtime, no framework types. Adapters (store, HTTP, rate limiter) live in
//! their own crates and depend on this one; the app crate wires them together.

pub mod api_key;
pub mod assessment;
pub mod at_rest;
pub mod connector;
pub mod consent;
pub mod dashboard;
pub mod erasure;
pub mod errors;
pub mod events;
pub mod ids;
pub mod invitation;
pub mod net;
pub mod organization;
pub mod outbox;
pub mod person;
pub mod ports;
pub mod results;
pub mod timefmt;
pub mod usecases;
pub mod values;
pub mod webhook;
pub mod wire;

#[cfg(any(test, feature = "fakes"))]
pub mod fakes;

pub use usecases::Services;
