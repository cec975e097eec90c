//! [`EmailRepo`] on the fake: the email outbox.

use super::{ok, FakeTx};
use crate::ids::{EmailId, OrgId};
use crate::ports::{BoxFuture, EmailRecord, EmailRepo, StoreResult};
use crate::values::Email;
use time::OffsetDateTime;

impl EmailRepo for FakeTx {
    fn insert_email<'a>(&'a mut self, e: &'a EmailRecord) -> BoxFuture<'a, StoreResult<()>> {
        self.s.emails.push(e.clone());
        ok(())
    }
    fn list_due_emails(&mut self, now: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>> {
        ok(self.s.emails.iter().filter(|e| due(e, now)).take(limit as usize).cloned().collect())
    }
    fn claim_emails<'a>(
        &'a mut self,
        ids: &'a [EmailId],
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailId>>> {
        let mut claimed = Vec::new();
        for e in self.s.emails.iter_mut().filter(|e| ids.contains(&e.id) && due(e, now)) {
            e.next_attempt_at = lease_until;
            claimed.push(e.id);
        }
        ok(claimed)
    }
    fn record_emails_sent<'a>(&'a mut self, ids: &'a [EmailId], at: OffsetDateTime) -> BoxFuture<'a, StoreResult<()>> {
        for e in self.s.emails.iter_mut().filter(|e| ids.contains(&e.id)) {
            e.attempts += 1;
            e.sent_at = Some(at);
        }
        ok(())
    }
    fn record_email_attempt<'a>(
        &'a mut self,
        id: EmailId,
        result: Result<OffsetDateTime, (&'a str, OffsetDateTime)>,
    ) -> BoxFuture<'a, StoreResult<()>> {
        for e in self.s.emails.iter_mut().filter(|e| e.id == id) {
            e.attempts += 1;
            match result {
                Ok(at) => e.sent_at = Some(at),
                Err((err, next)) => {
                    e.last_error = Some(err.to_string());
                    e.next_attempt_at = next;
                }
            }
        }
        ok(())
    }
    fn list_emails<'a>(
        &'a mut self,
        to: Option<&'a Email>,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailRecord>>> {
        ok(self.s.emails.iter().rev().filter(|e| to.is_none_or(|t| &e.to == t)).take(limit as usize).cloned().collect())
    }
    fn list_emails_of_org(&mut self, org: OrgId, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>> {
        ok(self.s.emails.iter().rev().filter(|e| e.org_id == org).take(limit as usize).cloned().collect())
    }
}

/// Whether email `e` is unsent and due at `now`.
fn due(e: &EmailRecord, now: OffsetDateTime) -> bool {
    e.sent_at.is_none() && e.next_attempt_at <= now
}
