//! [`WebhookRepo`] on the fake: endpoints, deliveries with their claims, and attempts.

use super::{all, first, newest, ok, remove, remove_up_to, replace, FakeState, FakeTx};
use crate::errors::StoreError;
use crate::events::EventType;
use crate::ids::{DeliveryId, OrgId, WebhookId};
use crate::ports::{AttemptRecord, BoxFuture, ClaimRequest, StoreResult, WebhookRepo};
use crate::webhook::{AttemptOutcome, Delivery, DeliveryStatus, Endpoint, EndpointKind};
use std::collections::HashMap;
use time::OffsetDateTime;

impl WebhookRepo for FakeTx {
    insert_and_update!(insert_endpoint, update_endpoint, endpoints: Endpoint);
    fn get_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<Option<Endpoint>>> {
        ok(first(&self.s.endpoints, |e| e.org_id == org && e.id == id && e.kind == EndpointKind::Webhook))
    }
    fn list_endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Endpoint>>> {
        ok(all(&self.s.endpoints, |e| e.org_id == org && e.kind == EndpointKind::Webhook))
    }
    fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>> {
        remove(&mut self.s.endpoints, |e| e.org_id == org && e.id == id);
        remove(&mut self.s.deliveries, |(d, _)| d.endpoint_id == id);
        ok(())
    }
    fn insert_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
        self.s.deliveries.push((d.clone(), None));
        ok(())
    }
    fn update_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
        replace(&mut self.s.deliveries, &(d.clone(), None), |x| x.0.id == d.id);
        ok(())
    }
    fn insert_attempts<'a>(&'a mut self, attempts: &'a [AttemptRecord]) -> BoxFuture<'a, StoreResult<()>> {
        for a in attempts {
            if !deliveries(&self.s).any(|d| d.id == a.delivery) {
                return Box::pin(async { Err(StoreError::Internal("attempt of a missing delivery".into())) });
            }
            self.s.attempts.push((a.delivery, a.at, a.outcome.clone()));
        }
        ok(())
    }
    fn list_endpoints_by_ids<'a>(&'a mut self, ids: &'a [WebhookId]) -> BoxFuture<'a, StoreResult<Vec<Endpoint>>> {
        ok(all(&self.s.endpoints, |e| ids.contains(&e.id)))
    }
    fn lock_endpoints<'a>(&'a mut self, ids: &'a [WebhookId]) -> BoxFuture<'a, StoreResult<Vec<Endpoint>>> {
        // Writes are serialized (one write turn at a time): reading is locking.
        self.list_endpoints_by_ids(ids)
    }
    fn list_deliveries_by_ids<'a>(&'a mut self, ids: &'a [DeliveryId]) -> BoxFuture<'a, StoreResult<Vec<Delivery>>> {
        ok(deliveries(&self.s).filter(|d| ids.contains(&d.id)).cloned().collect())
    }
    fn get_delivery(&mut self, endpoint: WebhookId, id: DeliveryId) -> BoxFuture<'_, StoreResult<Option<Delivery>>> {
        ok(deliveries(&self.s).find(|d| d.endpoint_id == endpoint && d.id == id).cloned())
    }
    fn list_attempts_of(
        &mut self,
        delivery: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Vec<(OffsetDateTime, AttemptOutcome)>>> {
        ok(self.s.attempts.iter().filter(|(d, _, _)| *d == delivery).map(|(_, t, o)| (*t, o.clone())).collect())
    }
    fn count_deliveries(
        &mut self,
        endpoint: WebhookId,
        status: crate::webhook::DeliveryStatus,
    ) -> BoxFuture<'_, StoreResult<u64>> {
        ok(deliveries(&self.s).filter(|d| d.endpoint_id == endpoint && d.status == status).count() as u64)
    }
    fn list_deliveries(
        &mut self,
        endpoint: WebhookId,
        status: Option<crate::webhook::DeliveryStatus>,
        event_type: Option<EventType>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Delivery>>> {
        let v: Vec<Delivery> = deliveries(&self.s)
            .filter(|d| {
                d.endpoint_id == endpoint
                    && status.is_none_or(|s| d.status == s)
                    && event_type.is_none_or(|t| d.event_type == t)
                    && before.is_none_or(|b| d.id < b)
            })
            .cloned()
            .collect();
        ok(newest(v, |d| d.id, limit))
    }
    fn claim_deliveries<'a>(&'a mut self, c: &'a ClaimRequest) -> BoxFuture<'a, StoreResult<Vec<Delivery>>> {
        let open: Vec<WebhookId> =
            self.s.endpoints.iter().filter(|e| e.enabled && !e.breaker.is_open(c.now)).map(|e| e.id).collect();
        let mut per_ep: HashMap<WebhookId, u32> = c.busy_endpoints.iter().copied().collect();
        let mut per_org: HashMap<OrgId, u32> = c.busy_orgs.iter().copied().collect();
        let mut due: Vec<usize> = (0..self.s.deliveries.len())
            .filter(|&i| {
                let (d, claim) = &self.s.deliveries[i];
                d.status == DeliveryStatus::Pending
                    && d.next_attempt_at.is_some_and(|t| t <= c.now)
                    && claim.is_none_or(|t| t <= c.now)
                    && open.contains(&d.endpoint_id)
            })
            .collect();
        due.sort_by_key(|&i| (self.s.deliveries[i].0.next_attempt_at, self.s.deliveries[i].0.id.0));
        let mut out = Vec::new();
        for i in due {
            if out.len() >= c.limit as usize {
                break;
            }
            let (d, claim) = &mut self.s.deliveries[i];
            let e = per_ep.entry(d.endpoint_id).or_insert(0);
            let o = per_org.entry(d.org_id).or_insert(0);
            if *e >= c.per_endpoint || *o >= c.per_org {
                continue;
            }
            *e += 1;
            *o += 1;
            *claim = Some(c.lease_until);
            out.push(d.clone());
        }
        ok(out)
    }
    fn purge_webhook_history(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<(u64, u64)>> {
        let old: Vec<DeliveryId> = self
            .s
            .deliveries
            .iter()
            .filter(|(d, claim)| d.created_at < before && claim.is_none())
            .take(limit as usize)
            .map(|(d, _)| d.id)
            .collect();
        remove(&mut self.s.deliveries, |(d, _)| old.contains(&d.id));
        remove(&mut self.s.attempts, |(d, _, _)| old.contains(d));
        let events = remove_up_to(&mut self.s.events, limit, |e| e.created_at < before);
        ok((old.len() as u64, events))
    }
    fn wake_deliveries(&mut self) {}
}

/// The stored deliveries, without their claims.
fn deliveries(s: &FakeState) -> impl Iterator<Item = &Delivery> {
    s.deliveries.iter().map(|(d, _)| d)
}
