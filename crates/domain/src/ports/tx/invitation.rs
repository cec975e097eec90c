//! [`InvitationRepo`]: invitations and the one-time codes of consent (D17-D21, D43).

use crate::consent::ConsentCode;
use crate::ids::{InvitationId, OrgId};
use crate::invitation::Invitation;
use crate::ports::{BoxFuture, InvitationQuery, StoreResult};
use crate::values::Email;
use time::OffsetDateTime;

/// Invitations and the one-time codes of consent (D17-D21, D43). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL an
/// invitation read in a write transaction is locked until commit
/// ([`InvitationRepo::get_invitation`]); the expiry and the reminder are conditional updates
/// that exactly one of concurrent sweeps wins.
pub trait InvitationRepo: Send {
    /// Inserts an invitation.
    fn insert_invitation<'a>(&'a mut self, i: &'a Invitation) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an invitation.
    fn update_invitation<'a>(&'a mut self, i: &'a Invitation) -> BoxFuture<'a, StoreResult<()>>;
    /// Sets the `emailSentAt` and `updatedAt` of invitations `ids` to `at`, nothing else, in one
    /// statement (the email job, T202); those gone are skipped.
    fn stamp_invitations_emailed<'a>(
        &'a mut self,
        ids: &'a [InvitationId],
        at: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<()>>;
    /// An invitation of the organization (locked for update in a write transaction).
    fn get_invitation(&mut self, org: OrgId, id: InvitationId) -> BoxFuture<'_, StoreResult<Option<Invitation>>>;
    /// An invitation in any organization (admin API, sweeps).
    fn get_invitation_any(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<Option<Invitation>>>;
    /// The invitations among `ids`, in any organization, in no particular order and not locked
    /// (the email job's look at whether its emails' invitations are still pending, T203).
    fn list_invitations_by_ids<'a>(
        &'a mut self,
        ids: &'a [InvitationId],
    ) -> BoxFuture<'a, StoreResult<Vec<Invitation>>>;
    /// The invitation whose token hashes to `hash`.
    fn find_invitation_by_token_hash<'a>(
        &'a mut self,
        hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<Invitation>>>;
    /// The newest invitation of the organization for `email` stored as pending and not past
    /// `now`.
    fn find_pending_invitation_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Option<Invitation>>>;
    /// One page of invitations, newest first.
    fn list_invitations<'a>(&'a mut self, q: &'a InvitationQuery) -> BoxFuture<'a, StoreResult<Vec<Invitation>>>;
    /// Ids of invitations stored as pending whose `expiresAt` is at or before `now`, of the
    /// organization `org` only when given.
    fn list_due_invitations(
        &mut self,
        org: Option<OrgId>,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>>;
    /// Pending, unexpired invitations sent at or before `sent_before` without a reminder yet, of
    /// the organization `org` only when given.
    fn list_reminders_due(
        &mut self,
        org: Option<OrgId>,
        sent_before: OffsetDateTime,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>>;
    /// Sets the status to expired if (and only if) it is still stored as pending and due: the
    /// conditional update makes the sweep exactly-once across instances. Returns whether it did.
    fn expire_invitation_if_pending(
        &mut self,
        id: InvitationId,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>>;
    /// Sets `reminder_sent_at` if still unset; returns whether it did (exactly-once reminders).
    fn mark_reminder_if_unset(&mut self, id: InvitationId, now: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>>;

    /// Inserts a code.
    fn insert_consent_code<'a>(&'a mut self, c: &'a ConsentCode) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a code's `tries` and `used_at`.
    fn update_consent_code<'a>(&'a mut self, c: &'a ConsentCode) -> BoxFuture<'a, StoreResult<()>>;
    /// The invitation's codes created after `since`, in any order. The caller serializes issuing
    /// and checking by locking the invitation first ([`InvitationRepo::get_invitation`]).
    fn list_consent_codes_since(
        &mut self,
        invitation: InvitationId,
        since: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<Vec<ConsentCode>>>;
    /// The codes created after `since` for every invitation of organization `org` to `email`
    /// (revoked, expired and accepted ones included), in any order: the codes one person was
    /// sent by one organization, whatever the invitation (D53). The caller serializes issuing
    /// per organization by locking it first ([`OrgRepo::lock_org`](super::OrgRepo::lock_org)).
    fn list_consent_codes_of_address_since<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<ConsentCode>>>;
}
