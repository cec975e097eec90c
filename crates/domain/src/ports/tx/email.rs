//! [`EmailRepo`]: the email outbox (D22, T58, T93).

use crate::ids::{EmailId, OrgId};
use crate::ports::{BoxFuture, EmailRecord, StoreResult};
use crate::values::Email;
use time::OffsetDateTime;

/// The email outbox (D22, T58, T93). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL an
/// email is claimed by one conditional update ([`EmailRepo::claim_emails`]): of concurrent
/// claimers exactly one wins.
pub trait EmailRepo: Send {
    /// Inserts an email.
    fn insert_email<'a>(&'a mut self, e: &'a EmailRecord) -> BoxFuture<'a, StoreResult<()>>;
    /// Unsent emails due at `now`, oldest first.
    fn list_due_emails(&mut self, now: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>>;
    /// Claims the unsent emails among `ids` that are due at `now` for one sender: moves their
    /// `next_attempt_at` to `lease_until` and returns the ids this caller claimed, in one
    /// statement (T203). Concurrent deliverers get disjoint sets, so each email is sent once; a
    /// crashed sender's emails are due again after the lease.
    fn claim_emails<'a>(
        &'a mut self,
        ids: &'a [EmailId],
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailId>>>;
    /// Records a send attempt: `Ok` sets `sent_at`; `Err` records the error and the next attempt.
    fn record_email_attempt<'a>(
        &'a mut self,
        id: EmailId,
        result: Result<OffsetDateTime, (&'a str, OffsetDateTime)>,
    ) -> BoxFuture<'a, StoreResult<()>>;
    /// Records emails `ids` as sent at `at` (`sent_at`, one more attempt) in one statement (the
    /// email job, T202); those gone are skipped.
    fn record_emails_sent<'a>(&'a mut self, ids: &'a [EmailId], at: OffsetDateTime) -> BoxFuture<'a, StoreResult<()>>;
    /// Emails, newest first, optionally to one address (admin API).
    fn list_emails<'a>(&'a mut self, to: Option<&'a Email>, limit: u32)
        -> BoxFuture<'a, StoreResult<Vec<EmailRecord>>>;
    /// The emails of organization `org`, newest first, at most `limit` (a test twin's recorded
    /// emails, D60).
    fn list_emails_of_org(&mut self, org: OrgId, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>>;
}
