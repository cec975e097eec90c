//! [`PrivacyRepo`]: export and erasure of a human's data (D44, D45) and retention (D46).

use crate::events::OutboxEvent;
use crate::ids::{HumanId, InvitationId, OrgId};
use crate::ports::{BoxFuture, EmailStamp, StoreResult, StoredText};
use crate::values::Email;
use time::OffsetDateTime;

/// Export and erasure of a human's data (D44, D45) and retention (D46). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL erasure
/// and export read and write by human across organizations in one transaction; retention deletes
/// in batches of a given size, each its own transaction.
pub trait PrivacyRepo: Send {
    /// Stored JSON texts that may carry a person's data and contain one of `needles` (plain
    /// substrings, matched case-insensitively or not as the backend's `LIKE` does; the caller
    /// checks): outbox events' `data`, deliveries' payloads and stored idempotent responses, of
    /// `org` or of every organization.
    fn list_texts_mentioning<'a>(
        &'a mut self,
        org: Option<OrgId>,
        needles: &'a [String],
    ) -> BoxFuture<'a, StoreResult<Vec<StoredText>>>;
    /// Overwrites one stored text found by [`PrivacyRepo::list_texts_mentioning`].
    fn rewrite_text<'a>(&'a mut self, t: &'a StoredText) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes the stored emails of an invitation; returns how many.
    fn delete_emails_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<u64>>;
    /// Outbox events (any organization) whose `data` contains `needle` (as
    /// [`PrivacyRepo::list_texts_mentioning`] matches), oldest first (D45 export).
    fn list_events_mentioning<'a>(&'a mut self, needle: &'a str) -> BoxFuture<'a, StoreResult<Vec<OutboxEvent>>>;
    /// Deletes up to `limit` stored emails created before `before`, oldest first; returns how
    /// many (D46).
    fn purge_emails(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
    /// Deletes up to `limit` one-time codes created before `before`; returns how many (D46).
    fn purge_consent_codes(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
    /// The emails queued to `to` (any organization) at or after `since`, newest first, at most
    /// `limit`: what the email limits of T93 count.
    fn list_emails_to_since<'a>(
        &'a mut self,
        to: &'a Email,
        since: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailStamp>>>;
    /// Deletes every stored email to `to`; returns how many (D45).
    fn delete_emails_to<'a>(&'a mut self, to: &'a Email) -> BoxFuture<'a, StoreResult<u64>>;
    /// Deletes a human's assessments with their responses and counts; returns how many (D45).
    fn delete_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<u64>>;
    /// Deletes a human that no membership and no assessment refers to any more (D45).
    fn delete_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<()>>;
}
