//! [`SettingsRepo`]: server settings and secrets at rest (T84), and the transaction's durability.

use crate::ports::{BoxFuture, StoreResult};

/// Server settings and secrets at rest (T84), and the transaction's durability. Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL a
/// setting is inserted once with `ON CONFLICT DO NOTHING` and read back, so every instance reads
/// the same value.
pub trait SettingsRepo: Send {
    /// Lets this transaction's commit return before it is durable (PostgreSQL: `SET LOCAL
    /// synchronous_commit = off`; SQLite in WAL with `synchronous=NORMAL` already is). For the
    /// delivery engine's claims and outcomes only (T60): a crash may lose the last few of them,
    /// which at-least-once delivery absorbs (a lost claim is claimed again; a lost outcome means
    /// the delivery is sent again after its lease). Never for a use case whose answer a client
    /// receives.
    fn relax_durability(&mut self) -> BoxFuture<'_, StoreResult<()>>;

    /// Seals again, with the store's current [`SecretBox`](crate::ports::SecretBox) key, every
    /// stored secret that needs it ([`SecretBox::needs_reseal`](crate::ports::SecretBox::needs_reseal)):
    /// webhook signing secrets and settings. Run at start-up, so a
    /// database from before sealing, or from before a key rotation, is sealed under the current
    /// key. Returns how many values were rewritten. Errors: a value no configured key opens.
    fn reseal_secrets(&mut self) -> BoxFuture<'_, StoreResult<u64>>;

    /// The value of a setting, inserting `value` first when absent (race-safe); returns the stored
    /// value. Values are secrets: the store seals them ([`SecretBox`](crate::ports::SecretBox)).
    fn setting_get_or_insert<'a>(&'a mut self, name: &'a str, value: &'a str) -> BoxFuture<'a, StoreResult<String>>;
}
