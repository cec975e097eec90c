//! Data rights (D44, D45): erasure of a membership by its organization, and the human's own
//! export and erasure through the operator. Each runs in one transaction with its events.

use super::idempotency::{Claim, Keyed};
use super::Services;
use crate::erasure::Personal;
use crate::errors::{ClientError, UseCaseError};
use crate::events::{EventType, OutboxEvent};
use crate::ids::*;
use crate::invitation::{Invitation, InvitationStatus};
use crate::organization::Organization;
use crate::person;
use crate::person::Person;
use crate::ports::{Ids, InvitationQuery, Store, Tx};
use crate::results::Assessment;
use crate::values::{Email, Locale};
use time::OffsetDateTime;

/// Invitations of one membership looked at by an erasure (per query; the organization's
/// invitations to one address or one person are far fewer).
const INVITATION_SCAN: u32 = 10_000;

impl<S: Store> Services<S> {
    /// `POST /api/v1/persons/{id}/erase` (D44): erases the organization's personal data of the
    /// membership ([`person::erase`]), moves it to a human of its own (the real human's
    /// assessments are never visible to the organization again), removes it from teams,
    /// revokes its pending invitations (`invitation.revoked`) and scrubs every invitation of it,
    /// deletes their stored emails, scrubs the organization's stored events, delivery payloads
    /// and idempotent responses that carried it, and emits `person.archived` with the erased
    /// Person. Idempotent: on an erased membership it changes nothing and returns it. Errors:
    /// 404 outside the organization.
    pub async fn erase_person(&self, org: OrgId, id: PersonId) -> Result<Person, UseCaseError> {
        super::idempotency::unkeyed(self.erase_person_keyed(org, id, None).await?)
    }

    /// [`Services::erase_person`], with the request's idempotency key claimed and answered in its
    /// transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn erase_person_keyed(
        &self,
        org: OrgId,
        id: PersonId,
        claim: Option<Claim<Person>>,
    ) -> Result<Keyed<Person>, UseCaseError> {
        let now = self.clock.now();
        let ghost = HumanId(self.ids.new_uuid());
        let base = self.invites.public_url.clone();
        let (secrets, id_source) = (self.secrets.clone(), self.event_source());
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = super::idempotency::take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let mut p = tx.get_person(org, id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    let url =
                        |i: InvitationId| format!("{}/i/{}", base.trim_end_matches('/'), secrets.invitation_token(i));
                    erase_in_tx(tx, &id_source, &mut p, ghost, now, &url).await?;
                    if let Some(c) = &claim {
                        c.answer(tx, &p, now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(p))
                })
            })
            .await
    }

    /// `GET /admin/v1/humans/export?email=` (D45): every record held about the address, test
    /// data's included (D60). Errors:
    /// 404 when nothing is held.
    pub async fn export_human(&self, email: Email) -> Result<HumanExport, UseCaseError> {
        let needle = email.as_str().to_string();
        let (memberships, assessments, invitations, emails, events) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    // The address's human and its test twins' ones (D60): test data is the
                    // person's data too.
                    let (mut persons, mut assessments) = (vec![], vec![]);
                    for h in tx.find_humans_of_address(email.as_str()).await? {
                        persons.extend(tx.list_persons_of_human(h).await?);
                        assessments.extend(tx.list_assessments_of_human(h).await?);
                    }
                    let mut memberships = vec![];
                    for p in persons {
                        if let Some(o) = tx.get_org(p.org_id).await? {
                            memberships.push((o, p));
                        }
                    }
                    let q =
                        InvitationQuery { email: Some(email.clone()), limit: INVITATION_SCAN, ..Default::default() };
                    let invitations = tx.list_invitations(&q).await?;
                    let emails = tx.list_emails(Some(&email), INVITATION_SCAN).await?;
                    // Every spelling of the address (D55: events from before it was stored in
                    // ASCII form spell its domain in Unicode), oldest first, each event once.
                    let mut events: Vec<OutboxEvent> = vec![];
                    for spelling in crate::erasure::spellings(&needle) {
                        for e in tx.list_events_mentioning(&spelling).await? {
                            if crate::erasure::mentions(&e.data.value(), &needle)
                                && !events.iter().any(|x| x.id == e.id)
                            {
                                events.push(e);
                            }
                        }
                    }
                    events.sort_by_key(|e| (e.created_at, e.id));
                    Ok::<_, UseCaseError>((memberships, assessments, invitations, emails, events))
                })
            })
            .await?;
        if memberships.is_empty()
            && assessments.is_empty()
            && invitations.is_empty()
            && emails.is_empty()
            && events.is_empty()
        {
            return Err(ClientError::not_found("Data for this address").into());
        }
        let memberships = memberships
            .into_iter()
            .map(|(org, p)| {
                let results = self.scores_of(&assessments, &p).map(|(scores, at)| {
                    let text = self.assessment.personality.describe(&self.assessment.model, &scores, Locale::En);
                    super::assessments::PersonResults {
                        person: p.clone(),
                        scores: Some(scores),
                        personality: Some((text, at)),
                        accommodations: self.accommodations_of(&assessments, &p),
                    }
                });
                ExportedMembership { organization: org, person: p, results }
            })
            .collect();
        let invitations = invitations.into_iter().map(|i| self.view(i)).collect();
        Ok(HumanExport { memberships, assessments, invitations, emails, events, exported_at: self.clock.now() })
    }

    /// `POST /admin/v1/humans/erase` (D45): erases every membership of the address as D44 does
    /// (test data's too, D60),
    /// retires the invitations to it in every organization, deletes the human's assessments
    /// (responses and counts), every stored email to it and the human, and scrubs the address
    /// from every stored event, delivery payload and idempotent response. One transaction.
    /// Nothing held is not an error: every count is 0.
    pub async fn erase_human(&self, email: Email) -> Result<HumanErasure, UseCaseError> {
        let now = self.clock.now();
        let base = self.invites.public_url.clone();
        let (secrets, id_source) = (self.secrets.clone(), self.event_source());
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let url =
                        |i: InvitationId| format!("{}/i/{}", base.trim_end_matches('/'), secrets.invitation_token(i));
                    let mut out = HumanErasure::default();
                    // The address's human and its test twins' ones (D60).
                    let humans = tx.find_humans_of_address(email.as_str()).await?;
                    for &h in &humans {
                        for mut p in tx.list_persons_of_human(h).await? {
                            let ghost = HumanId(id_source.new_uuid());
                            if erase_in_tx(tx, &id_source, &mut p, ghost, now, &url).await? {
                                out.memberships += 1;
                            }
                        }
                        out.assessments += tx.delete_assessments_of_human(h).await?;
                    }
                    let q =
                        InvitationQuery { email: Some(email.clone()), limit: INVITATION_SCAN, ..Default::default() };
                    let rest = tx.list_invitations(&q).await?;
                    let mut fields: Vec<String> = vec![];
                    for i in &rest {
                        fields.extend(i.first_name.as_ref().map(|n| n.as_str().to_string()));
                        fields.extend(i.last_name.as_ref().map(|n| n.as_str().to_string()));
                        fields.extend(i.external_id.as_ref().map(|n| n.as_str().to_string()));
                    }
                    let (n, mails) =
                        retire_invitations(tx, &id_source, rest, &|i| Email::erased_record(i.id.0), now, &url).await?;
                    out.invitations = n;
                    out.emails = mails + tx.delete_emails_to(&email).await?;
                    let personal = Personal {
                        email: email.as_str().to_string(),
                        replacement: Email::erased_record(uuid::Uuid::nil()).as_str().to_string(),
                        fields,
                        tags: vec![],
                    };
                    out.texts = scrub_stored(tx, None, &personal).await?;
                    for h in humans {
                        tx.delete_human(h).await?;
                    }
                    Ok::<_, UseCaseError>(out)
                })
            })
            .await
    }
}

impl<S: Store> Services<S> {
    /// The retention job (D46): deletes idempotency records older than 24 hours, deliveries
    /// (with their attempts) and outbox events older than `days` days, stored emails older than
    /// `days` days and one-time codes older than 24 hours, `batch` rows per transaction, each kind
    /// until none is left, and dashboard sessions and sign-in links expired for
    /// [`crate::dashboard::EXPIRED_KEPT`] (issue 18, T242). A delivery
    /// a worker is sending is left for the next run.
    pub async fn retention(&self, days: u32, batch: u32) -> Result<Retention, UseCaseError> {
        let batch = batch.max(1);
        let idempotency = self.idempotency_purge_in(batch).await?;
        let (deliveries, events) = self.purge_webhook_history(days, batch).await?;
        let now = self.clock.now();
        let mail_before = now - time::Duration::days(i64::from(days));
        let code_before = now - crate::consent::CODE_RETENTION;
        let sign_in_before = now - crate::dashboard::EXPIRED_KEPT;
        let (mut emails, mut codes, mut sign_ins) = (0, 0, 0);
        loop {
            let (e, c, s) = self
                .store
                .write(move |tx| {
                    Box::pin(async move {
                        let e = tx.purge_emails(mail_before, batch).await?;
                        let c = tx.purge_consent_codes(code_before, batch).await?;
                        // Dashboard sessions and sign-in links (issue 18) expired for a day:
                        // nothing can use them, and a link's page no longer says it expired.
                        let s = tx.purge_sign_ins(sign_in_before, batch).await?;
                        Ok::<_, UseCaseError>((e, c, s))
                    })
                })
                .await?;
            emails += e;
            codes += c;
            sign_ins += s;
            if e < u64::from(batch) && c < u64::from(batch) && s < u64::from(batch) {
                return Ok(Retention { idempotency, deliveries, events, emails, codes, sign_ins });
            }
        }
    }
}

/// What one run of [`Services::retention`] deleted (D46).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Retention {
    /// Idempotency records.
    pub idempotency: u64,
    /// Deliveries (with their attempts).
    pub deliveries: u64,
    /// Outbox events.
    pub events: u64,
    /// Stored emails.
    pub emails: u64,
    /// One-time codes.
    pub codes: u64,
    /// Expired dashboard sessions and sign-in links (issue 18).
    pub sign_ins: u64,
}

impl Retention {
    /// Rows deleted in all.
    pub fn total(&self) -> u64 {
        self.idempotency + self.deliveries + self.events + self.emails + self.codes + self.sign_ins
    }
}

/// One membership in an export (D45): its organization, the Person, and the results as that
/// organization sees them (`None` without a visible completed assessment).
#[derive(Clone, Debug)]
pub struct ExportedMembership {
    /// The organization.
    pub organization: Organization,
    /// The membership.
    pub person: Person,
    /// Its visible results.
    pub results: Option<super::assessments::PersonResults>,
}

/// Every record held about one address (D45).
#[derive(Clone, Debug)]
pub struct HumanExport {
    /// Memberships in every organization.
    pub memberships: Vec<ExportedMembership>,
    /// The human's assessments with their responses, oldest first.
    pub assessments: Vec<Assessment>,
    /// Invitations to the address in every organization.
    pub invitations: Vec<super::invitations::InvitationView>,
    /// Stored emails to the address, newest first.
    pub emails: Vec<crate::ports::EmailRecord>,
    /// Stored webhook events that carried the address, oldest first.
    pub events: Vec<OutboxEvent>,
    /// When the export was made.
    pub exported_at: OffsetDateTime,
}

/// What [`Services::erase_human`] removed (D45).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HumanErasure {
    /// Memberships erased (D44).
    pub memberships: u32,
    /// Assessments deleted.
    pub assessments: u64,
    /// Invitations without a membership that were retired.
    pub invitations: u32,
    /// Stored emails deleted (those of the retired invitations and every other one to the
    /// address).
    pub emails: u64,
    /// Stored texts (events, payloads, responses) scrubbed.
    pub texts: u32,
}

/// D44 inside the caller's transaction. `p` becomes the erased membership; nothing is written
/// when it already was erased.
pub(crate) async fn erase_in_tx(
    tx: &mut dyn Tx,
    id_source: &crate::outbox::EventSource,
    p: &mut Person,
    ghost: HumanId,
    now: OffsetDateTime,
    url: &(dyn Fn(InvitationId) -> String + Send + Sync),
) -> Result<bool, UseCaseError> {
    let before = p.clone();
    if !person::erase(p, now) {
        return Ok(false);
    }
    let erased = p.email.clone();
    p.human_id = tx.ensure_human(ghost, erased.as_str(), now).await?;
    tx.update_person(p).await?;
    tx.remove_person_from_teams(p.id).await?;
    let invitations = invitations_of(tx, &before).await?;
    retire_invitations(tx, id_source, invitations, &|_| erased.clone(), now, url).await?;
    let personal = Personal::of(&before, erased.as_str());
    scrub_stored(tx, Some(p.org_id), &personal).await?;
    let e = OutboxEvent {
        id: EventId(id_source.new_uuid()),
        org_id: p.org_id,
        event_type: EventType::PersonArchived,
        data: crate::wire::person_archived_data(p),
        created_at: now,
        request_id: None,
    };
    crate::outbox::append(tx, id_source, &e).await?;
    Ok(true)
}

/// Revokes the pending ones of `invitations` (`invitation.revoked`), removes the personal fields
/// of all of them (the address becomes `address(invitation)`) and deletes their stored emails.
/// Returns (invitations, emails deleted).
async fn retire_invitations(
    tx: &mut dyn Tx,
    id_source: &crate::outbox::EventSource,
    invitations: Vec<Invitation>,
    address: &(dyn Fn(&Invitation) -> Email + Send + Sync),
    now: OffsetDateTime,
    url: &(dyn Fn(InvitationId) -> String + Send + Sync),
) -> Result<(u32, u64), UseCaseError> {
    let (mut n, mut emails) = (0, 0);
    for mut i in invitations {
        let pending = i.status_at(now) == InvitationStatus::Pending;
        if pending {
            i.revoke(now)?;
        }
        let erased = address(&i);
        scrub_invitation(&mut i, &erased, now);
        tx.update_invitation(&i).await?;
        emails += tx.delete_emails_of_invitation(i.id).await?;
        n += 1;
        if pending {
            let link = url(i.id);
            super::invitations::append_invitation_event(tx, id_source, EventType::InvitationRevoked, &i, &link, now)
                .await?;
        }
    }
    Ok((n, emails))
}

/// The organization's invitations to the membership's address or linked to it.
async fn invitations_of(tx: &mut dyn Tx, p: &Person) -> Result<Vec<Invitation>, UseCaseError> {
    let mut found: Vec<Invitation> = vec![];
    let by_email = InvitationQuery {
        org_id: Some(p.org_id),
        email: Some(p.email.clone()),
        limit: INVITATION_SCAN,
        ..Default::default()
    };
    let by_person =
        InvitationQuery { org_id: Some(p.org_id), person_id: Some(p.id), limit: INVITATION_SCAN, ..Default::default() };
    for q in [by_email, by_person] {
        for i in tx.list_invitations(&q).await? {
            if !found.iter().any(|f| f.id == i.id) {
                found.push(i);
            }
        }
    }
    Ok(found)
}

/// D44: an invitation keeps its status and dates; its personal fields go.
fn scrub_invitation(i: &mut Invitation, erased: &Email, now: OffsetDateTime) {
    i.email = erased.clone();
    i.first_name = None;
    i.last_name = None;
    i.external_id = None;
    i.message = None;
    i.labels = None;
    i.tags = None;
    i.updated_at = now;
}

/// Where a stored text comes in the order erasure rewrites them (T284): deliveries first, then
/// events, then idempotent responses, each by id. The delivery engine's claim locks the
/// deliveries it takes and then numbers their events in the same transaction; an erasure that
/// rewrote an event first and then waited for a claimed delivery of it deadlocked with the
/// claim on PostgreSQL (one of them answered 503). Taken in the claim's order, the erasure
/// waits for the claim to commit instead.
fn lock_order(at: &crate::ports::TextRef) -> (u8, String) {
    use crate::ports::TextRef;
    match at {
        TextRef::Delivery(id) => (0, id.0.to_string()),
        TextRef::Event(id) => (1, id.0.to_string()),
        TextRef::Idempotency { org, path, key } => (2, format!("{}\u{0}{path}\u{0}{key}", org.0)),
    }
}

/// Rewrites the stored texts (events, delivery payloads, idempotent responses) of `org`, or of
/// every organization, that carry `personal`, in [`lock_order`]. Returns how many changed.
pub(crate) async fn scrub_stored(
    tx: &mut dyn Tx,
    org: Option<OrgId>,
    personal: &Personal,
) -> Result<u32, UseCaseError> {
    let needles = personal.needles();
    let mut changed = 0;
    let mut texts = tx.list_texts_mentioning(org, &needles).await?;
    texts.sort_by_cached_key(|t| lock_order(&t.at));
    for mut t in texts {
        if let Some(text) = personal.scrub_text(&t.text) {
            t.text = text;
            tx.rewrite_text(&t).await?;
            changed += 1;
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::lock_order;
    use crate::ids::{DeliveryId, EventId, OrgId};
    use crate::ports::TextRef;
    use uuid::Uuid;

    /// T284: deliveries before events (the claim's order), idempotent responses last, each kind
    /// by id, whatever order the store listed them in.
    #[test]
    fn erasure_rewrites_deliveries_before_events_each_by_id_t284() {
        let id = |n: u128| Uuid::from_u128(n);
        let mut texts = vec![
            TextRef::Idempotency { org: OrgId(id(1)), path: "/p".into(), key: "k".into() },
            TextRef::Event(EventId(id(2))),
            TextRef::Event(EventId(id(1))),
            TextRef::Delivery(DeliveryId(id(9))),
            TextRef::Delivery(DeliveryId(id(3))),
        ];
        texts.sort_by_cached_key(lock_order);
        assert_eq!(
            texts,
            vec![
                TextRef::Delivery(DeliveryId(id(3))),
                TextRef::Delivery(DeliveryId(id(9))),
                TextRef::Event(EventId(id(1))),
                TextRef::Event(EventId(id(2))),
                TextRef::Idempotency { org: OrgId(id(1)), path: "/p".into(), key: "k".into() },
            ]
        );
    }
}
