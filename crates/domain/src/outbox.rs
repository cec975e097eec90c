//! The transactional outbox and its fan-out (D31; issue 14, point 1, T96). A use case appends an
//! event in the transaction of the change it describes; in the same transaction the event becomes
//! one pending delivery per endpoint of the organization subscribed to its type. This rule lives
//! here once: the store only inserts rows.

use crate::events::{EventType, OutboxEvent};
use crate::ids::DeliveryId;
use crate::ports::{Ids, StoreResult, Tx};
use crate::webhook::{envelope, Delivery, DeliveryStatus, Endpoint};
use std::sync::Arc;

/// Where a use case's events come from: new ids, and the request that caused them (T121). Made
/// per use case call by [`crate::Services::event_source`] *before* the transaction (the request
/// id is read from the caller's context, which the store's transaction task does not see). It is
/// an [`Ids`] itself, so a use case uses it for every id it makes.
pub struct EventSource {
    /// New ids.
    pub ids: Arc<dyn Ids>,
    /// The `X-Request-Id` of the request being served; `None` in background jobs.
    pub request_id: Option<String>,
}

impl Ids for EventSource {
    fn new_uuid(&self) -> uuid::Uuid {
        self.ids.new_uuid()
    }
}

/// Appends `e` to the outbox and, unless it is a `ping` (which goes to the tested endpoint only),
/// fans it out: one pending delivery, due at the event's time, per endpoint of its organization
/// that [`receives`] it (subscribed to its type; disabled endpoints included, their deliveries
/// wait, D33, except for `webhook.disabled`), each with a new id from `ids` (UUIDv7, so deliveries list by time, D36). Wakes the
/// delivery engine when an enabled endpoint got one. The event and its deliveries carry the
/// source's request id (T121). The ATS orders the event concerns follow it in the same
/// transaction ([`crate::connector::follow`], D67). Errors: the store's.
pub async fn append(tx: &mut dyn Tx, ids: &EventSource, e: &OutboxEvent) -> StoreResult<()> {
    let caused;
    let e = if e.request_id == ids.request_id {
        e
    } else {
        caused = OutboxEvent { request_id: ids.request_id.clone(), ..e.clone() };
        &caused
    };
    tx.insert_event(e).await?;
    if e.event_type == EventType::Ping {
        return Ok(());
    }
    crate::connector::follow(tx, ids, e).await?;
    let endpoints = tx.list_endpoints_of_org(e.org_id).await?;
    for ep in endpoints.iter().filter(|w| receives(w, e.event_type)) {
        let d = delivery(ids, ep, e, e.created_at);
        tx.insert_delivery(&d).await?;
        if ep.enabled {
            tx.wake_deliveries();
        }
    }
    Ok(())
}

/// Whether endpoint `ep` gets a delivery of an event of type `t`: it subscribes to `t` (or to
/// `*`), and for `webhook.disabled` it is enabled (D47: the organization's *other enabled*
/// endpoints; a disabled one would only hold it, and the one the event is about is disabled).
pub fn receives(ep: &Endpoint, t: EventType) -> bool {
    ep.events.includes(t) && (t != EventType::WebhookDisabled || ep.enabled)
}

/// A new pending delivery of event `e` to endpoint `ep`, due at `due` (also its `created_at`), with
/// a new id from `ids` and the event's envelope (its own time and data, D34).
pub fn delivery(ids: &dyn Ids, ep: &Endpoint, e: &OutboxEvent, due: time::OffsetDateTime) -> Delivery {
    let id = DeliveryId(ids.new_uuid());
    Delivery {
        id,
        endpoint_id: ep.id,
        org_id: e.org_id,
        event_type: e.event_type,
        event_id: Some(e.id),
        payload: envelope(id, e.id, e.event_type, e.created_at, &e.data),
        status: DeliveryStatus::Pending,
        attempts: 0,
        next_attempt_at: Some(due),
        last_attempt_at: None,
        last_response_status: None,
        last_error: None,
        created_at: due,
        request_id: e.request_id.clone(),
    }
}
