//! The events feed and replay (D48, T106): every event of the organization, numbered in commit
//! order, readable from any point of the retention window, and queued again for one endpoint.
//!
//! Events get their `sequence` after their transaction committed, from the sequencer
//! ([`Services::sequence_events`]): a background job every second, and the first step of every
//! feed read and replay, so an event is readable as soon as its transaction committed. A store
//! whose transactions commit in the order they run numbers each event as it writes it instead
//! (SQLite, T316), and the sequencer then finds nothing to do.

use super::idempotency::{Claim, Keyed};
use super::{Page, Services};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::events::{EventType, OutboxEvent, SequencedEvent};
use crate::ids::*;
use crate::person::Person;
use crate::ports::{FeedQuery, Store, Tx};
use crate::results::Assessment;
use crate::values::{Scope, Scopes};
use crate::webhook::EVENT_TYPES;
use std::collections::HashMap;

/// Events numbered per sequencer transaction.
pub const SEQUENCE_BATCH: u32 = 1_000;
/// Events queued per replay call at most (one transaction each; the answer says where to go on).
pub const REPLAY_BATCH: u32 = 1_000;

/// The event types of the feed: every type but `ping` (a delivery to one endpoint, not a change).
pub fn feed_types() -> impl Iterator<Item = EventType> {
    EVENT_TYPES.into_iter().filter(|t| *t != EventType::Ping)
}

/// A read of `GET /events` (D48), parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedRequest {
    /// Only events with a sequence above this (0: from the oldest kept).
    pub after: u64,
    /// Only these types (repeatable `type`); empty: every type the key can read.
    pub types: Vec<EventType>,
    /// Page size, 1..=100.
    pub limit: u32,
}

/// What `POST /webhooks/{id}/replay` queued (D48).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// Deliveries queued.
    pub queued: u32,
    /// The sequence of the last event queued; `None` when nothing was.
    pub last_sequence: Option<u64>,
    /// More events follow: call again with `after` = `last_sequence`.
    pub has_more: bool,
}

/// The types of the feed `scopes` may read (D48): the read scope of each event's resource, or
/// every type with `webhooks:manage`. Errors: 403 `insufficient_scope` when `wanted` names a type
/// the key cannot read, or when it can read none.
pub fn readable_types(scopes: &Scopes, wanted: &[EventType]) -> Result<Vec<EventType>, ClientError> {
    let can = |t: EventType| scopes.grants(Scope::WebhooksManage) || scopes.grants(t.read_scope());
    if let Some(t) = wanted.iter().find(|t| !can(**t)) {
        return Err(ClientError::new(
            Code::InsufficientScope,
            format!("This API key lacks the '{}' scope that reads {} events", t.read_scope().as_str(), t.as_str()),
        )
        .with_details(serde_json::json!({"requiredScope": t.read_scope().as_str()})));
    }
    let types: Vec<EventType> =
        if wanted.is_empty() { feed_types().filter(|t| can(*t)).collect() } else { wanted.to_vec() };
    if types.is_empty() {
        return Err(ClientError::new(
            Code::InsufficientScope,
            "Reading events needs persons:read, invitations:read, results:read or webhooks:manage",
        )
        .with_details(serde_json::json!({"requiredScope": Scope::PersonsRead.as_str()})));
    }
    Ok(types)
}

/// [`crate::ports::OutboxRepo::list_feed`] without the `assessment.*` events of assessments the
/// organization can no longer see (D51: a person's withdrawal hides at once what only her
/// consent showed; events written before assessments recorded their origin). Reads on until
/// `q.limit` visible events are found or the feed ends, so a page is full whenever more follow.
/// The sequence numbers of hidden events are skipped.
async fn visible_feed(tx: &mut dyn Tx, q: FeedQuery) -> Result<Vec<SequencedEvent>, UseCaseError> {
    let mut out: Vec<SequencedEvent> = Vec::new();
    let mut seen = HashMap::new();
    let mut q = q;
    loop {
        let batch = tx.list_feed(&q).await?;
        let full = batch.len() >= q.limit as usize;
        let Some(last) = batch.last().map(|e| e.sequence) else { return Ok(out) };
        for e in batch {
            if assessment_event_visible(tx, &e.event, &mut seen).await? {
                out.push(e);
            }
        }
        if !full || out.len() >= q.limit as usize {
            out.truncate(q.limit as usize);
            return Ok(out);
        }
        q.after = last;
    }
}

/// Whether an event is still visible to its organization (D51): true for every event but an
/// `assessment.*` one whose assessment the membership it names no longer sees. An event whose
/// membership or assessment is gone (erasure scrubbed it, D44/D45) stays as erasure left it.
/// `seen` keeps each membership read (with its human's assessments) for the rest of the call.
async fn assessment_event_visible(
    tx: &mut dyn Tx,
    e: &OutboxEvent,
    seen: &mut HashMap<PersonId, Option<(Person, Vec<Assessment>)>>,
) -> Result<bool, UseCaseError> {
    if !matches!(e.event_type, EventType::AssessmentCompleted | EventType::AssessmentStarted) {
        return Ok(true);
    }
    let data = e.data.value();
    let id = |k: &str| data.get(k).and_then(|v| v.as_str()).and_then(|s| uuid::Uuid::parse_str(s).ok());
    let (Some(person), Some(assessment)) = (id("personId"), id("assessmentId")) else { return Ok(true) };
    let person = PersonId(person);
    if let std::collections::hash_map::Entry::Vacant(slot) = seen.entry(person) {
        let read = match tx.get_person(e.org_id, person).await? {
            Some(p) => {
                let all = tx.list_assessments_of_human(p.human_id).await?;
                Some((p, all))
            }
            None => None,
        };
        slot.insert(read);
    }
    let Some(Some((p, all))) = seen.get(&person) else { return Ok(true) };
    Ok(all.iter().find(|a| a.id.0 == assessment).is_none_or(|a| a.visible_to(p)))
}

impl<S: Store> Services<S> {
    /// The sequencer (T106): numbers every committed event that has no sequence yet, in batches of
    /// [`SEQUENCE_BATCH`], one transaction each. Cheap when there is nothing to do (one read).
    /// Returns how many it numbered.
    pub async fn sequence_events(&self) -> Result<u64, UseCaseError> {
        let mut total = 0u64;
        loop {
            let pending = self
                .store
                .read(|tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.has_unsequenced_events().await?) }))
                .await?;
            if !pending {
                return Ok(total);
            }
            let n = self
                .store
                .write(|tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.sequence_events(SEQUENCE_BATCH).await?) }))
                .await?;
            total += u64::from(n);
            if n < SEQUENCE_BATCH {
                return Ok(total);
            }
        }
    }

    /// `GET /api/v1/events` (D48): the organization's events after `req.after`, ascending by
    /// sequence, of the types the key may read ([`readable_types`]). Every event committed before
    /// the call is numbered first, so it is in the answer. Errors: 403 `insufficient_scope`.
    pub async fn events_feed(
        &self,
        org: OrgId,
        scopes: &Scopes,
        req: FeedRequest,
    ) -> Result<Page<SequencedEvent>, UseCaseError> {
        let types = readable_types(scopes, &req.types)?;
        self.sequence_events().await?;
        let q = FeedQuery { org_id: org, after: req.after, types, limit: req.limit + 1 };
        let mut items = self.store.read(move |tx| Box::pin(visible_feed(tx, q))).await?;
        let has_more = items.len() > req.limit as usize;
        items.truncate(req.limit as usize);
        Ok(Page { items, has_more })
    }

    /// `POST /api/v1/webhooks/{id}/replay` (D48): queues for the endpoint a new delivery (new id,
    /// the event's envelope, due now) of each kept event after `after` that it subscribes to,
    /// oldest first, at most [`REPLAY_BATCH`] per call, in one transaction. A disabled endpoint's
    /// deliveries wait as any do (D33). Errors: 404.
    pub async fn replay(&self, org: OrgId, id: WebhookId, after: u64) -> Result<Replayed, UseCaseError> {
        super::idempotency::unkeyed(self.replay_keyed(org, id, after, None).await?)
    }

    /// [`Services::replay`], with the request's idempotency key claimed and answered in its
    /// transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn replay_keyed(
        &self,
        org: OrgId,
        id: WebhookId,
        after: u64,
        claim: Option<Claim<Replayed>>,
    ) -> Result<Keyed<Replayed>, UseCaseError> {
        self.sequence_events().await?;
        let now = self.clock.now();
        let ids = self.ids.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = super::idempotency::take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let ep = super::webhooks::locked_endpoint(tx, org, id).await?;
                    let types: Vec<EventType> = feed_types().filter(|t| ep.events.includes(*t)).collect();
                    let q = FeedQuery { org_id: org, after, types, limit: REPLAY_BATCH + 1 };
                    let mut events = visible_feed(tx, q).await?;
                    let has_more = events.len() > REPLAY_BATCH as usize;
                    events.truncate(REPLAY_BATCH as usize);
                    for e in &events {
                        let d = crate::outbox::delivery(&*ids, &ep, &e.event, now);
                        tx.insert_delivery(&d).await?;
                    }
                    if ep.enabled && !events.is_empty() {
                        tx.wake_deliveries();
                    }
                    let done = Replayed {
                        queued: events.len() as u32,
                        last_sequence: events.last().map(|e| e.sequence),
                        has_more,
                    };
                    if let Some(c) = &claim {
                        c.answer(tx, &done, now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(done))
                })
            })
            .await
    }
}
