//! Ports: what the domain needs from the outside world. Adapters implement them (store: diesel;
//! rate limiter: governor; clock, ids and secrets: the app's system adapters). Every port is
//! `Send + Sync + 'static`; async methods return boxed `Send` futures so the transaction port stays
//! object-safe and the domain needs no async runtime.
//!
//! `system`: clock, ids, secrets; `outside`: rate limiter, mailer, personality, reports, webhook
//! sender; `records`: queries and records of the transaction ports; `tx`: the aggregate ports
//! and [`Tx`]; `store`: [`Store`].

mod outside;
mod records;
mod store;
mod system;
mod tx;

pub use outside::*;
pub use records::*;
pub use store::*;
pub use system::*;
pub use tx::*;

use crate::errors::StoreError;
use std::future::Future;
use std::pin::Pin;

/// A boxed, `Send` future borrowing for `'a`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Result of a store call.
pub type StoreResult<T> = Result<T, StoreError>;
