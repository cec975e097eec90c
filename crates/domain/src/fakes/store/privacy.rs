//! [`PrivacyRepo`] on the fake: stored texts that may carry a person's data, export, erasure and
//! retention.

use super::idempotency::same_key;
use super::{all, newest, ok, remove, remove_up_to, FakeTx};
use crate::events::OutboxEvent;
use crate::ids::{AssessmentId, HumanId, InvitationId, OrgId};
use crate::ports::{BoxFuture, EmailStamp, IdempotencyState, PrivacyRepo, StoreResult, StoredText, TextRef};
use crate::values::Email;
use time::OffsetDateTime;

impl PrivacyRepo for FakeTx {
    fn list_texts_mentioning<'a>(
        &'a mut self,
        org: Option<OrgId>,
        needles: &'a [String],
    ) -> BoxFuture<'a, StoreResult<Vec<StoredText>>> {
        let hit = |o: OrgId, t: &str| org.is_none_or(|x| x == o) && needles.iter().any(|n| t.contains(n.as_str()));
        let mut v: Vec<StoredText> = vec![];
        for e in &self.s.events {
            let text = e.data.as_str().to_string();
            if hit(e.org_id, &text) {
                v.push(StoredText { at: TextRef::Event(e.id), text });
            }
        }
        for (d, _) in &self.s.deliveries {
            if hit(d.org_id, &d.payload) {
                v.push(StoredText { at: TextRef::Delivery(d.id), text: d.payload.clone() });
            }
        }
        for r in &self.s.idem {
            if let IdempotencyState::Done { body, .. } = &r.state {
                if hit(r.org_id, body) {
                    let at = TextRef::Idempotency { org: r.org_id, path: r.path.clone(), key: r.key.clone() };
                    v.push(StoredText { at, text: body.clone() });
                }
            }
        }
        ok(v)
    }
    fn rewrite_text<'a>(&'a mut self, t: &'a StoredText) -> BoxFuture<'a, StoreResult<()>> {
        match &t.at {
            TextRef::Event(id) => {
                for e in self.s.events.iter_mut().filter(|e| e.id == *id) {
                    e.data = crate::events::EventData::parse(t.text.clone())
                        .unwrap_or_else(|_| crate::events::EventData::of(&serde_json::Value::Null));
                }
            }
            TextRef::Delivery(id) => {
                for (d, _) in self.s.deliveries.iter_mut().filter(|(d, _)| d.id == *id) {
                    d.payload = t.text.clone();
                }
            }
            TextRef::Idempotency { org, path, key } => {
                for r in self.s.idem.iter_mut().filter(|r| same_key(r, *org, path, key)) {
                    if let IdempotencyState::Done { body, .. } = &mut r.state {
                        *body = t.text.clone();
                    }
                }
            }
        }
        ok(())
    }
    fn delete_emails_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<u64>> {
        ok(remove(&mut self.s.emails, |e| e.invitation_id == Some(id)))
    }
    fn list_events_mentioning<'a>(&'a mut self, needle: &'a str) -> BoxFuture<'a, StoreResult<Vec<OutboxEvent>>> {
        ok(all(&self.s.events, |e| e.data.as_str().contains(needle)))
    }
    fn purge_emails(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        let mut old: Vec<_> =
            self.s.emails.iter().filter(|e| e.created_at < before).map(|e| (e.created_at, e.id)).collect();
        old.sort_by_key(|(t, _)| *t);
        old.truncate(limit as usize);
        ok(remove(&mut self.s.emails, |e| old.iter().any(|(_, id)| *id == e.id)))
    }
    fn purge_consent_codes(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        ok(remove_up_to(&mut self.s.consent_codes, limit, |c| c.created_at < before))
    }
    fn list_emails_to_since<'a>(
        &'a mut self,
        to: &'a Email,
        since: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailStamp>>> {
        let v: Vec<EmailStamp> = self
            .s
            .emails
            .iter()
            .filter(|e| &e.to == to && e.created_at >= since)
            .map(|e| EmailStamp { invitation_id: e.invitation_id, created_at: e.created_at })
            .collect();
        ok(newest(v, |e| e.created_at, limit))
    }
    fn delete_emails_to<'a>(&'a mut self, to: &'a Email) -> BoxFuture<'a, StoreResult<u64>> {
        ok(remove(&mut self.s.emails, |e| &e.to == to))
    }
    fn delete_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<u64>> {
        let n = remove(&mut self.s.assessments, |a| a.human_id == human);
        let kept: Vec<AssessmentId> = self.s.assessments.iter().map(|a| a.id).collect();
        remove(&mut self.s.need_counts, |(id, _)| !kept.contains(id));
        ok(n)
    }
    fn delete_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<()>> {
        remove(&mut self.s.humans, |(id, _)| *id == human);
        ok(())
    }
}
