//! [`IdempotencyRepo`]: idempotency records (D38).

use crate::ids::OrgId;
use crate::ports::{BoxFuture, IdempotencyRecord, StoreResult};
use time::OffsetDateTime;

/// Idempotency records (D38). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL the
/// record of a key is locked while a request holds it (D38): concurrent requests with one key
/// see exactly one `Proceed`.
pub trait IdempotencyRepo: Send {
    /// Reads a record.
    fn find_idempotency<'a>(
        &'a mut self,
        org: OrgId,
        path: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>>;
    /// Reads a record without locking it (in a read transaction, T223).
    fn peek_idempotency<'a>(
        &'a mut self,
        org: OrgId,
        path: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>>;
    /// Inserts a record unless (org, path, key) exists (race-safe); returns whether it inserted.
    /// On PostgreSQL an insert of a key another transaction inserted and has not committed waits
    /// for that transaction's end (T223: concurrent requests with one key wait for the first).
    fn idem_insert<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<bool>>;
    /// Overwrites a record's state.
    fn idem_update<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes a record.
    fn idem_delete<'a>(&'a mut self, org: OrgId, path: &'a str, key: &'a str) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes the oldest records created before `before`, about `limit` of them (records created
    /// at the same instant as the `limit`-th go together); returns how many (D46).
    fn idem_purge(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
}
