//! [`InvitationRepo`] on the fake: invitations and one-time consent codes.

use super::{all, first, newest, ok, replace, FakeTx};
use crate::consent::ConsentCode;
use crate::ids::{InvitationId, OrgId};
use crate::invitation::{Invitation, InvitationStatus};
use crate::ports::{BoxFuture, InvitationQuery, InvitationRepo, StoreResult};
use crate::values::Email;
use time::OffsetDateTime;

impl InvitationRepo for FakeTx {
    insert_and_update!(insert_invitation, update_invitation, invitations: Invitation);
    fn stamp_invitations_emailed<'a>(
        &'a mut self,
        ids: &'a [InvitationId],
        at: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<()>> {
        for i in self.s.invitations.iter_mut().filter(|i| ids.contains(&i.id)) {
            i.email_sent_at = Some(at);
            i.updated_at = at;
        }
        ok(())
    }
    fn get_invitation(&mut self, org: OrgId, id: InvitationId) -> BoxFuture<'_, StoreResult<Option<Invitation>>> {
        ok(first(&self.s.invitations, |i| i.org_id == org && i.id == id))
    }
    fn get_invitation_any(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<Option<Invitation>>> {
        ok(first(&self.s.invitations, |i| i.id == id))
    }
    fn list_invitations_by_ids<'a>(
        &'a mut self,
        ids: &'a [InvitationId],
    ) -> BoxFuture<'a, StoreResult<Vec<Invitation>>> {
        ok(all(&self.s.invitations, |i| ids.contains(&i.id)))
    }
    fn find_invitation_by_token_hash<'a>(
        &'a mut self,
        hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<Invitation>>> {
        ok(first(&self.s.invitations, |i| i.token_hash == hash))
    }
    fn find_pending_invitation_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Option<Invitation>>> {
        let pending = all(&self.s.invitations, |i| i.org_id == org && &i.email == email && pending_at(i, now));
        ok(pending.into_iter().max_by_key(|i| i.id))
    }
    fn list_invitations<'a>(&'a mut self, q: &'a InvitationQuery) -> BoxFuture<'a, StoreResult<Vec<Invitation>>> {
        let now = q.now.unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let v = all(&self.s.invitations, |i| {
            q.org_id.is_none_or(|o| i.org_id == o)
                && q.status.is_none_or(|s| i.status_at(now) == s)
                && q.variant.is_none_or(|s| i.variant == s)
                && q.email.as_ref().is_none_or(|e| &i.email == e)
                && q.external_id.as_ref().is_none_or(|e| i.external_id.as_ref().map(|x| x.as_str()) == Some(e.as_str()))
                && q.person_id.is_none_or(|p| i.person_id == Some(p))
                && q.updated_after.is_none_or(|u| i.updated_at > u)
                && q.before_id.is_none_or(|b| i.id < b)
        });
        ok(newest(v, |i| i.id, q.limit))
    }
    fn list_due_invitations(
        &mut self,
        org: Option<OrgId>,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
        let due = |i: &&Invitation| {
            org.is_none_or(|o| i.org_id == o) && i.status == InvitationStatus::Pending && i.expires_at <= now
        };
        ok(self.s.invitations.iter().filter(due).take(limit as usize).map(|i| i.id).collect())
    }
    fn list_reminders_due(
        &mut self,
        org: Option<OrgId>,
        sent_before: OffsetDateTime,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
        let due = |i: &&Invitation| {
            org.is_none_or(|o| i.org_id == o)
                && pending_at(i, now)
                && i.reminder_sent_at.is_none()
                && i.email_sent_at.is_some_and(|t| t <= sent_before)
        };
        ok(self.s.invitations.iter().filter(due).take(limit as usize).map(|i| i.id).collect())
    }
    fn expire_invitation_if_pending(
        &mut self,
        id: InvitationId,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>> {
        let mut done = false;
        for i in self.s.invitations.iter_mut().filter(|i| i.id == id) {
            done = i.expire(now);
        }
        ok(done)
    }
    fn mark_reminder_if_unset(&mut self, id: InvitationId, now: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>> {
        let mut done = false;
        for i in self.s.invitations.iter_mut().filter(|i| i.id == id && i.reminder_sent_at.is_none()) {
            i.reminder_sent_at = Some(now);
            done = true;
        }
        ok(done)
    }
    fn insert_consent_code<'a>(&'a mut self, c: &'a ConsentCode) -> BoxFuture<'a, StoreResult<()>> {
        self.s.consent_codes.push(c.clone());
        ok(())
    }
    fn update_consent_code<'a>(&'a mut self, c: &'a ConsentCode) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.consent_codes.iter_mut().filter(|x| x.id == c.id) {
            x.tries = c.tries;
            x.used_at = c.used_at;
        }
        ok(())
    }
    fn list_consent_codes_since(
        &mut self,
        invitation: InvitationId,
        since: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<Vec<ConsentCode>>> {
        ok(all(&self.s.consent_codes, |c| c.invitation_id == invitation && c.created_at > since))
    }
    fn list_consent_codes_of_address_since<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<ConsentCode>>> {
        let invitations: Vec<InvitationId> =
            self.s.invitations.iter().filter(|i| i.org_id == org && &i.email == email).map(|i| i.id).collect();
        ok(all(&self.s.consent_codes, |c| invitations.contains(&c.invitation_id) && c.created_at > since))
    }
}

/// Whether `i` is stored as pending and not past `now`.
fn pending_at(i: &Invitation, now: OffsetDateTime) -> bool {
    i.status == InvitationStatus::Pending && i.expires_at > now
}
