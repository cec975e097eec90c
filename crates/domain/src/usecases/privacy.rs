//! Data rights (D44, D45): erasure of a membership by its organization, and the human's own
//! export and erasure through the operator. Each runs in one transaction with its events.

use super::Services;
use crate::erasure::Personal;
use crate::errors::{ClientError, UseCaseError};
use crate::ids::*;
use crate::invitation::{Invitation, InvitationStatus};
use crate::model::*;
use crate::person;
use crate::ports::{InvitationQuery, Store, Tx};
use crate::values::Email;
use crate::wire::{invitation_json, person_json};
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
        let now = self.clock.now();
        let ghost = HumanId(self.ids.new_uuid());
        let event_ids: Vec<EventId> = (0..101).map(|_| EventId(self.ids.new_uuid())).collect();
        let base = self.invites.public_url.clone();
        let secrets = self.secrets.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut p = tx.person_by_id(org, id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    let mut ids = event_ids.into_iter();
                    let url =
                        |i: InvitationId| format!("{}/i/{}", base.trim_end_matches('/'), secrets.invitation_token(i));
                    erase_in_tx(tx, &mut p, ghost, now, &mut ids, &url).await?;
                    Ok::<_, UseCaseError>(p)
                })
            })
            .await
    }
}

/// D44 inside the caller's transaction. `p` becomes the erased membership; nothing is written
/// when it already was erased.
pub(crate) async fn erase_in_tx(
    tx: &mut dyn Tx,
    p: &mut Person,
    ghost: HumanId,
    now: OffsetDateTime,
    event_ids: &mut std::vec::IntoIter<EventId>,
    url: &(dyn Fn(InvitationId) -> String + Send + Sync),
) -> Result<bool, UseCaseError> {
    let before = p.clone();
    if !person::erase(p, now) {
        return Ok(false);
    }
    let erased = p.email.clone();
    p.human_id = tx.ensure_human(ghost, &erased, now).await?;
    tx.update_person(p).await?;
    tx.remove_person_from_teams(p.id).await?;
    for inv in invitations_of(tx, &before).await? {
        let mut i = inv.clone();
        let pending = i.status_at(now) == InvitationStatus::Pending;
        if pending {
            i.revoke(now)?;
        }
        scrub_invitation(&mut i, &erased, now);
        tx.update_invitation(&i).await?;
        tx.delete_emails_of_invitation(i.id).await?;
        if pending {
            if let Some(eid) = event_ids.next() {
                let e = OutboxEvent {
                    id: eid,
                    org_id: p.org_id,
                    event_type: EventType::InvitationRevoked,
                    data: invitation_json(&i, &url(i.id), now),
                    created_at: now,
                };
                tx.append_event(&e).await?;
            }
        }
    }
    let personal = Personal::of(&before, erased.as_str());
    scrub_stored(tx, Some(p.org_id), &personal).await?;
    if let Some(eid) = event_ids.next() {
        let e = OutboxEvent {
            id: eid,
            org_id: p.org_id,
            event_type: EventType::PersonArchived,
            data: person_json(p),
            created_at: now,
        };
        tx.append_event(&e).await?;
    }
    Ok(true)
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

/// Rewrites the stored texts (events, delivery payloads, idempotent responses) of `org`, or of
/// every organization, that carry `personal`. Returns how many changed.
pub(crate) async fn scrub_stored(
    tx: &mut dyn Tx,
    org: Option<OrgId>,
    personal: &Personal,
) -> Result<u32, UseCaseError> {
    let needles = personal.needles();
    let mut changed = 0;
    for mut t in tx.texts_mentioning(org, &needles).await? {
        if let Some(text) = personal.scrub_text(&t.text) {
            t.text = text;
            tx.rewrite_text(&t).await?;
            changed += 1;
        }
    }
    Ok(changed)
}
