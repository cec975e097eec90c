//! Webhook endpoints, their deliveries and the test ping (D29-D35); the delivery engine's use
//! cases are in [`super::deliveries`].

use super::idempotency::{take, unkeyed, Claim, Keyed};
use super::{Page, Services};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::events::EventType;
use crate::ids::*;
use crate::ports::{AttemptRecord, Store, Tx, WebhookMessage};
use crate::values::FieldErrors;
use crate::webhook::*;
use time::OffsetDateTime;

/// `POST /webhooks` (D29), parsed.
#[derive(Clone, Debug)]
pub struct NewEndpoint {
    /// Target URL.
    pub url: String,
    pub events: Subscription,
    pub description: Option<String>,
}

/// `PATCH /webhooks/{id}` (D29), parsed; `None` = unchanged.
#[derive(Clone, Debug, Default)]
pub struct EndpointPatch {
    pub url: Option<String>,
    pub events: Option<Subscription>,
    /// Description (`Some(None)` clears).
    pub description: Option<Option<String>>,
    pub enabled: Option<bool>,
}

/// The answer of `POST /webhooks/{id}/test` (D33).
#[derive(Clone, Debug)]
pub struct PingResult {
    /// The ping's delivery id.
    pub delivery_id: DeliveryId,
    /// 2xx received.
    pub success: bool,
    /// The receiver's status.
    pub response_status: Option<u16>,
    /// First 1 KiB of its body.
    pub response_body: Option<String>,
    /// Duration.
    pub duration_ms: u64,
    /// Transport error.
    pub error: Option<String>,
}

impl<S: Store> Services<S> {
    fn new_secret(&self) -> String {
        self.secrets.webhook_secret()
    }

    fn check_url(&self, url: &str) -> Result<(), UseCaseError> {
        self.webhooks.check_url(url).map_err(|m| UseCaseError::from(FieldErrors::one("url", m)))
    }

    /// `POST /webhooks` (D29, D30): 201 with the secret (shown once). Errors: 400 (URL refused,
    /// D35), 404 (organization), 409 `conflict` for the 11th endpoint.
    pub async fn create_endpoint(&self, org: OrgId, n: NewEndpoint) -> Result<Endpoint, UseCaseError> {
        unkeyed(self.create_endpoint_keyed(org, n, None).await?)
    }

    /// [`Services::create_endpoint`], with the request's idempotency key claimed and answered in
    /// its transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn create_endpoint_keyed(
        &self,
        org: OrgId,
        n: NewEndpoint,
        claim: Option<Claim<Endpoint>>,
    ) -> Result<Keyed<Endpoint>, UseCaseError> {
        self.check_url(&n.url)?;
        let now = self.clock.now();
        let e = Endpoint {
            id: WebhookId(self.ids.new_uuid()),
            org_id: org,
            url: n.url,
            events: n.events,
            description: n.description,
            enabled: true,
            secret: self.new_secret(),
            previous_secret: None,
            previous_secret_expires_at: None,
            consecutive_failures: 0,
            failing_since: None,
            breaker: Breaker::default(),
            created_at: now,
            updated_at: now,
            kind: crate::webhook::EndpointKind::Webhook,
        };
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    tx.lock_org(org).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let n = tx.list_endpoints_of_org(org).await?.len() as u32;
                    if n >= MAX_ENDPOINTS {
                        return Err(ClientError::new(
                            Code::Conflict,
                            "An organization can have at most 10 webhook endpoints",
                        )
                        .with_details(serde_json::json!({"limit": MAX_ENDPOINTS}))
                        .into());
                    }
                    tx.insert_endpoint(&e).await?;
                    if let Some(c) = &claim {
                        c.answer(tx, &e, now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(e))
                })
            })
            .await
    }

    /// Endpoints of the organization, oldest first.
    pub async fn list_endpoints(&self, org: OrgId) -> Result<Vec<Endpoint>, UseCaseError> {
        self.store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_endpoints_of_org(org).await?) }))
            .await
    }

    /// One endpoint. Errors: 404.
    pub async fn get_endpoint(&self, org: OrgId, id: WebhookId) -> Result<Endpoint, UseCaseError> {
        self.store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_endpoint(org, id).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Webhook endpoint").into())
    }

    /// `PATCH /webhooks/{id}`. Re-enabling resets the failure count; deliveries held while it was
    /// disabled then go out. Errors: 400 (URL), 404.
    pub async fn patch_endpoint(&self, org: OrgId, id: WebhookId, p: EndpointPatch) -> Result<Endpoint, UseCaseError> {
        if let Some(u) = &p.url {
            self.check_url(u)?;
        }
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut e = locked_endpoint(tx, org, id).await?;
                    if let Some(u) = p.url {
                        e.url = u;
                    }
                    if let Some(ev) = p.events {
                        e.events = ev;
                    }
                    if let Some(d) = p.description {
                        e.description = d;
                    }
                    if let Some(en) = p.enabled {
                        if en && !e.enabled {
                            e.consecutive_failures = 0;
                            e.failing_since = None;
                            e.breaker = Breaker::default();
                            tx.wake_deliveries();
                        }
                        e.enabled = en;
                    }
                    e.updated_at = now;
                    tx.update_endpoint(&e).await?;
                    Ok::<_, UseCaseError>(e)
                })
            })
            .await
    }

    /// `DELETE /webhooks/{id}`: the endpoint and its deliveries. Errors: 404.
    pub async fn delete_endpoint(&self, org: OrgId, id: WebhookId) -> Result<(), UseCaseError> {
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.get_endpoint(org, id).await?.ok_or_else(|| ClientError::not_found("Webhook endpoint"))?;
                    tx.delete_endpoint(org, id).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await
    }

    /// `POST /webhooks/{id}/rotate-secret`: a new secret (shown once); the old one keeps signing
    /// beside it for 24 h. Errors: 404.
    pub async fn rotate_secret(&self, org: OrgId, id: WebhookId) -> Result<Endpoint, UseCaseError> {
        unkeyed(self.rotate_secret_keyed(org, id, None).await?)
    }

    /// [`Services::rotate_secret`], with the request's idempotency key claimed and answered in its
    /// transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn rotate_secret_keyed(
        &self,
        org: OrgId,
        id: WebhookId,
        claim: Option<Claim<Endpoint>>,
    ) -> Result<Keyed<Endpoint>, UseCaseError> {
        let now = self.clock.now();
        let fresh = self.new_secret();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let mut e = locked_endpoint(tx, org, id).await?;
                    e.previous_secret = Some(std::mem::replace(&mut e.secret, fresh));
                    e.previous_secret_expires_at = Some(now + ROTATION_OVERLAP);
                    e.updated_at = now;
                    tx.update_endpoint(&e).await?;
                    if let Some(c) = &claim {
                        c.answer(tx, &e, now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(e))
                })
            })
            .await
    }

    /// `GET /webhooks/{id}/deliveries` (D32): newest first, keyset by id, optional status and
    /// event type (the dashboard's filter, issue 18). Errors: 404 (endpoint).
    pub async fn list_deliveries(
        &self,
        org: OrgId,
        id: WebhookId,
        status: Option<DeliveryStatus>,
        event_type: Option<EventType>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> Result<Page<Delivery>, UseCaseError> {
        let mut items = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_endpoint(org, id).await?.ok_or_else(|| ClientError::not_found("Webhook endpoint"))?;
                    Ok::<_, UseCaseError>(tx.list_deliveries(id, status, event_type, before, limit + 1).await?)
                })
            })
            .await?;
        let has_more = items.len() > limit as usize;
        items.truncate(limit as usize);
        Ok(Page { items, has_more })
    }

    /// One delivery with its attempts. Errors: 404.
    pub async fn get_delivery(
        &self,
        org: OrgId,
        id: WebhookId,
        delivery: DeliveryId,
    ) -> Result<(Delivery, Vec<(OffsetDateTime, AttemptOutcome)>), UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_endpoint(org, id).await?.ok_or_else(|| ClientError::not_found("Webhook endpoint"))?;
                    let d = tx.get_delivery(id, delivery).await?.ok_or_else(|| ClientError::not_found("Delivery"))?;
                    let a = tx.list_attempts_of(delivery).await?;
                    Ok::<_, UseCaseError>((d, a))
                })
            })
            .await
    }

    /// `POST /webhooks/{id}/deliveries/{deliveryId}/redeliver`: the same delivery (same id) goes
    /// out again now with a fresh retry schedule, past an open breaker (T59). Errors: 404.
    pub async fn redeliver(&self, org: OrgId, id: WebhookId, delivery: DeliveryId) -> Result<Delivery, UseCaseError> {
        unkeyed(self.redeliver_keyed(org, id, delivery, None).await?)
    }

    /// [`Services::redeliver`], with the request's idempotency key claimed and answered in its
    /// transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn redeliver_keyed(
        &self,
        org: OrgId,
        id: WebhookId,
        delivery: DeliveryId,
        claim: Option<Claim<Delivery>>,
    ) -> Result<Keyed<Delivery>, UseCaseError> {
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let mut e = locked_endpoint(tx, org, id).await?;
                    let mut d =
                        tx.get_delivery(id, delivery).await?.ok_or_else(|| ClientError::not_found("Delivery"))?;
                    d.status = DeliveryStatus::Pending;
                    d.attempts = 0;
                    d.next_attempt_at = Some(now);
                    // The endpoint was locked first: the lock order of `WebhookRepo` (T104).
                    tx.update_delivery(&d).await?;
                    if e.breaker.open_until.take().is_some() {
                        // A redeliver is a request to try now (T59): the breaker lets this one
                        // through; its failure re-opens it for longer.
                        e.updated_at = now;
                        tx.update_endpoint(&e).await?;
                    }
                    tx.wake_deliveries();
                    if let Some(c) = &claim {
                        c.answer(tx, &d, now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(d))
                })
            })
            .await
    }

    /// `POST /webhooks/{id}/test` (D33): sends a signed `ping` now and returns the receiver's answer.
    /// The ping is recorded as a delivery with one attempt (no retries). Errors: 404.
    pub async fn test_ping(&self, org: OrgId, id: WebhookId) -> Result<PingResult, UseCaseError> {
        let ep = self.get_endpoint(org, id).await?;
        let now = self.clock.now();
        let did = DeliveryId(self.ids.new_uuid());
        // A test ping is no event of the feed: its event id is its delivery id (D57).
        let data = crate::events::EventData::of(&crate::wire::PingData { webhook_id: ep.id.0 });
        let mut d = Delivery {
            id: did,
            endpoint_id: ep.id,
            org_id: org,
            event_type: EventType::Ping,
            event_id: None,
            payload: envelope(did, EventId(did.0), EventType::Ping, now, &data),
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: None,
            last_attempt_at: None,
            last_response_status: None,
            last_error: None,
            created_at: now,
            request_id: self.correlation.request_id(),
        };
        let secrets = ep.signing_secrets(now);
        let message =
            WebhookMessage { delivery_id: did.to_string(), event_id: sent_event_id(&d), body: sent_body(&d, None) };
        let out = self.webhooks.send(&ep.url, &secrets, "ping", &message, now).await;
        apply_attempt(&mut d, &out, now);
        if d.status == DeliveryStatus::Pending {
            d.status = DeliveryStatus::Failed;
            d.next_attempt_at = None;
        }
        let rec = out.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.insert_delivery(&d).await?;
                    tx.insert_attempts(&[AttemptRecord { delivery: d.id, at: now, outcome: rec }]).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        Ok(PingResult {
            delivery_id: did,
            success: out.succeeded(),
            response_status: out.status,
            response_body: out.response_body,
            duration_ms: out.duration_ms,
            error: out.error,
        })
    }
}

/// The organization's endpoint `id`, locked until the transaction ends: every read-modify-write
/// of an endpoint reads it this way, before it touches any delivery (the lock order of
/// `WebhookRepo`, T104). Errors: 404 when it is not the organization's.
pub(crate) async fn locked_endpoint<T: Tx + ?Sized>(
    tx: &mut T,
    org: OrgId,
    id: WebhookId,
) -> Result<Endpoint, UseCaseError> {
    tx.lock_endpoints(&[id])
        .await?
        .into_iter()
        .find(|e| e.org_id == org)
        .ok_or_else(|| ClientError::not_found("Webhook endpoint").into())
}
