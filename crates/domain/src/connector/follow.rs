//! Orders follow the events that already exist (D67): [`follow`] is called by
//! [`crate::outbox::append`] for every event, in the transaction that writes it, so whatever path
//! accepts, revokes or expires an invitation or completes an assessment moves its orders.

use super::connection::{Ats, Connection};
use super::order::OrderChange;
use crate::events::{EventType, OutboxEvent};
use crate::ids::*;
use crate::invitation::Variant;
use crate::ports::{Ids, StoreResult, Tx};
use crate::results::AssessmentState;
use crate::webhook::{Delivery, DeliveryStatus};

/// The member of an event's `data` holding an id (the published shapes: the Invitation's `id`,
/// `assessment.completed`'s `personId` and `assessmentId`).
fn id_in(e: &OutboxEvent, member: &str) -> Option<uuid::Uuid> {
    e.data.value().get(member)?.as_str()?.parse().ok()
}

/// Moves the orders event `e` concerns (D67), in this transaction; returns how many changed.
/// `invitation.accepted` starts the invitation's orders (or, on an access request the person
/// consented to, completes them: the organization now sees results it could not); `.revoked`
/// cancels and `.expired` expires them; `assessment.completed` completes the person's open
/// orders when the assessment is the organization's own (D51 a). Other events: nothing, no read.
/// Errors: the store's.
pub async fn follow(tx: &mut dyn Tx, ids: &dyn Ids, e: &OutboxEvent) -> StoreResult<usize> {
    let now = e.created_at;
    let (orders, change) = match e.event_type {
        EventType::InvitationAccepted | EventType::InvitationRevoked | EventType::InvitationExpired => {
            let Some(id) = id_in(e, "id").map(InvitationId) else { return Ok(0) };
            let orders = tx.list_orders_of_invitation(id).await?;
            if orders.iter().all(|o| !o.status.is_open()) {
                return Ok(0);
            }
            let change = match e.event_type {
                EventType::InvitationRevoked => OrderChange::Cancelled,
                EventType::InvitationExpired => OrderChange::Expired,
                _ => accepted(tx, id).await?,
            };
            (orders, change)
        }
        EventType::AssessmentCompleted => {
            let (Some(person), Some(assessment)) = (id_in(e, "personId"), id_in(e, "assessmentId")) else {
                return Ok(0);
            };
            let orders = tx.list_open_orders_of_person(e.org_id, PersonId(person)).await?;
            if orders.is_empty() {
                return Ok(0);
            }
            let Some(p) = tx.get_person(e.org_id, PersonId(person)).await? else { return Ok(0) };
            let own = tx
                .list_assessments_of_human(p.human_id)
                .await?
                .iter()
                .any(|a| a.id.0 == assessment && a.origin_org == Some(e.org_id));
            if !own {
                return Ok(0);
            }
            (orders, OrderChange::Completed(Some(AssessmentId(assessment))))
        }
        _ => return Ok(0),
    };
    let mut changed = 0;
    for mut o in orders {
        if o.apply(change, now) {
            tx.update_order(&o).await?;
            push(tx, ids, e, &o).await?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// Writes the push that tells the order's ATS of its new state, when its protocol takes one
/// (D69, [`super::Ats::pushes_on`]): a pending delivery to the connection's hidden endpoint, due
/// now, caused by `e`, whose payload names the order and the state. The request itself is
/// rendered when the delivery engine claims it (the order's result as the organization sees it
/// then, the connection's credentials as they are then).
async fn push(tx: &mut dyn Tx, ids: &dyn Ids, e: &OutboxEvent, o: &super::Order) -> StoreResult<()> {
    let Some(c) = tx.get_connection(o.connection_id).await? else { return Ok(()) };
    if !c.ats.pushes_on(o.status) {
        return Ok(());
    }
    let d = Delivery {
        id: DeliveryId(ids.new_uuid()),
        endpoint_id: c.endpoint_id,
        org_id: o.org_id,
        event_type: e.event_type,
        event_id: Some(e.id),
        payload: serde_json::json!({"order": o.id.to_string(), "status": o.status.as_str()}).to_string(),
        status: DeliveryStatus::Pending,
        attempts: 0,
        next_attempt_at: Some(e.created_at),
        last_attempt_at: None,
        last_response_status: None,
        last_error: None,
        created_at: e.created_at,
        request_id: e.request_id.clone(),
    };
    tx.insert_delivery(&d).await?;
    if c.enabled {
        tx.wake_deliveries();
    }
    Ok(())
}

/// The connection an ATS's call authenticated with `key` (of organization `org`) speaks for
/// (D64): the key's own connection when it was minted for a connection to `ats` of `org`, else
/// the organization's oldest enabled connection to `ats`; `None` when there is neither. The
/// connection found may be disabled (the caller refuses it). One or two reads.
/// Errors: the store's.
pub async fn call_connection(tx: &mut dyn Tx, key: ApiKeyId, org: OrgId, ats: Ats) -> StoreResult<Option<Connection>> {
    match tx.find_connection_by_key(key).await?.filter(|c| c.ats == ats && c.org_id == org) {
        Some(c) => Ok(Some(c)),
        None => tx.find_enabled_connection(org, ats).await,
    }
}

/// The payload of a push that replaces the ATS's list of tests ([`sync_packages`]).
const PACKAGES: &str = r#"{"packages":true}"#;

/// Writes a push of the organization's tests to each of its enabled connections whose ATS keeps
/// a list of them (Kombo's packages, D81), or to `only` when given: a pending delivery to the
/// connection's hidden endpoint, due at `at`. The list itself is read when the engine claims
/// the push, so a later push always sends the list as it is then. Returns how many were written.
/// Errors: the store's.
pub async fn sync_packages(
    tx: &mut dyn Tx,
    ids: &dyn Ids,
    org: OrgId,
    only: Option<ConnectionId>,
    at: time::OffsetDateTime,
) -> StoreResult<usize> {
    let mut written = 0;
    for c in tx.list_connections_of_org(org).await? {
        if !c.enabled || !c.ats.takes_packages() || only.is_some_and(|id| id != c.id) {
            continue;
        }
        let d = Delivery {
            id: DeliveryId(ids.new_uuid()),
            endpoint_id: c.endpoint_id,
            org_id: org,
            event_type: EventType::Ping,
            event_id: None,
            payload: PACKAGES.to_string(),
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: Some(at),
            last_attempt_at: None,
            last_response_status: None,
            last_error: None,
            created_at: at,
            request_id: None,
        };
        tx.insert_delivery(&d).await?;
        written += 1;
    }
    if written > 0 {
        tx.wake_deliveries();
    }
    Ok(written)
}

/// Whether a push's payload is a list of tests ([`sync_packages`]) rather than an order's state.
pub fn pushes_packages(payload: &str) -> bool {
    payload == PACKAGES
}

/// What a push is about, as the push log shows it: `packages` for a list of tests
/// ([`sync_packages`]), else the type of the event that moved the order.
pub fn push_about(d: &Delivery) -> &'static str {
    match pushes_packages(&d.payload) {
        true => "packages",
        false => d.event_type.as_str(),
    }
}

/// The order a push's payload names ([`push`]).
pub fn pushed_order(payload: &str) -> Option<OrderId> {
    pushed(payload).map(|(o, _)| o)
}

/// The order and the state a push's payload names ([`push`]): a push tells the ATS of that
/// state even when the order has moved on since (a start claimed after the completion is still
/// the start).
pub fn pushed(payload: &str) -> Option<(OrderId, super::OrderStatus)> {
    let v: serde_json::Value = serde_json::from_str(payload).ok()?;
    let order = v.get("order")?.as_str()?.parse().ok()?;
    let status = super::OrderStatus::parse(v.get("status")?.as_str()?).ok()?;
    Some((order, status))
}

/// What an accepted invitation does to its orders: an access request the person consented to
/// completes them with the latest completed assessment the organization now sees; any other
/// acceptance starts them.
async fn accepted(tx: &mut dyn Tx, id: InvitationId) -> StoreResult<OrderChange> {
    let Some(inv) = tx.get_invitation_any(id).await? else { return Ok(OrderChange::Accepted) };
    let Some(person_id) = inv.person_id.filter(|_| inv.variant == Variant::AccessRequest) else {
        return Ok(OrderChange::Accepted);
    };
    let Some(p) = tx.get_person(inv.org_id, person_id).await?.filter(|p| p.shared_existing_profile) else {
        return Ok(OrderChange::Accepted);
    };
    let latest = tx
        .list_assessments_of_human(p.human_id)
        .await?
        .into_iter()
        .filter(|a| a.state == AssessmentState::Completed && a.visible_to(&p))
        .max_by_key(|a| a.completed_at);
    Ok(match latest {
        Some(a) => OrderChange::Completed(Some(a.id)),
        None => OrderChange::Accepted,
    })
}
