//! Webhook endpoints, deliveries, the test ping and the delivery worker (D29-D35).

use super::{Page, Services};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::*;
use crate::model::*;
use crate::ports::{EmailRecord, Store};
use crate::values::{FieldErrors, OrgRole};
use crate::webhook::*;
use time::{Duration, OffsetDateTime};

/// `POST /webhooks` (D29), parsed.
#[derive(Clone, Debug)]
pub struct NewEndpoint {
    /// Target URL.
    pub url: String,
    /// Events.
    pub events: Subscription,
    /// Description.
    pub description: Option<String>,
}

/// `PATCH /webhooks/{id}` (D29), parsed; `None` = unchanged.
#[derive(Clone, Debug, Default)]
pub struct EndpointPatch {
    /// URL.
    pub url: Option<String>,
    /// Events.
    pub events: Option<Subscription>,
    /// Description (`Some(None)` clears).
    pub description: Option<Option<String>>,
    /// Enabled.
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

/// How long a worker may hold a claimed delivery (covers the 10 s timeout); after that another
/// worker may attempt it again (a crash loses nothing).
pub const CLAIM_LEASE: Duration = Duration::seconds(60);

impl<S: Store> Services<S> {
    fn new_secret(&self) -> String {
        format!("whsec_{}", self.secrets.random_token(32))
    }

    fn check_url(&self, url: &str) -> Result<(), UseCaseError> {
        self.webhooks.check_url(url).map_err(|m| {
            let mut e = FieldErrors::default();
            e.push("url", m);
            UseCaseError::from(e)
        })
    }

    /// `POST /webhooks` (D29, D30): 201 with the secret (shown once). Errors: 400 (URL refused,
    /// D35), 404 (organization), 409 `conflict` for the 11th endpoint.
    pub async fn create_endpoint(&self, org: OrgId, n: NewEndpoint) -> Result<Endpoint, UseCaseError> {
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
            created_at: now,
            updated_at: now,
        };
        let ep = e.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.lock_org(org).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let n = tx.endpoints_of_org(org).await?.len() as u32;
                    if n >= MAX_ENDPOINTS {
                        return Err(ClientError::new(
                            Code::Conflict,
                            "An organization can have at most 10 webhook endpoints",
                        )
                        .with_details(serde_json::json!({"limit": MAX_ENDPOINTS}))
                        .into());
                    }
                    tx.insert_endpoint(&ep).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        Ok(e)
    }

    /// Endpoints of the organization, oldest first.
    pub async fn list_endpoints(&self, org: OrgId) -> Result<Vec<Endpoint>, UseCaseError> {
        self.store.read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.endpoints_of_org(org).await?) })).await
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
                    let mut e =
                        tx.get_endpoint(org, id).await?.ok_or_else(|| ClientError::not_found("Webhook endpoint"))?;
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
        let now = self.clock.now();
        let fresh = self.new_secret();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut e =
                        tx.get_endpoint(org, id).await?.ok_or_else(|| ClientError::not_found("Webhook endpoint"))?;
                    e.previous_secret = Some(std::mem::replace(&mut e.secret, fresh));
                    e.previous_secret_expires_at = Some(now + ROTATION_OVERLAP);
                    e.updated_at = now;
                    tx.update_endpoint(&e).await?;
                    Ok::<_, UseCaseError>(e)
                })
            })
            .await
    }

    /// `GET /webhooks/{id}/deliveries` (D32): newest first, keyset by id, optional status.
    pub async fn list_deliveries(
        &self,
        org: OrgId,
        id: WebhookId,
        status: Option<DeliveryStatus>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> Result<Page<Delivery>, UseCaseError> {
        let mut items = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_endpoint(org, id).await?.ok_or_else(|| ClientError::not_found("Webhook endpoint"))?;
                    Ok::<_, UseCaseError>(tx.list_deliveries(id, status, before, limit + 1).await?)
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
                    let a = tx.attempts_of(delivery).await?;
                    Ok::<_, UseCaseError>((d, a))
                })
            })
            .await
    }

    /// `POST /webhooks/{id}/deliveries/{deliveryId}/redeliver`: the same delivery (same id) goes
    /// out again now with a fresh retry schedule. Errors: 404.
    pub async fn redeliver(&self, org: OrgId, id: WebhookId, delivery: DeliveryId) -> Result<Delivery, UseCaseError> {
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.get_endpoint(org, id).await?.ok_or_else(|| ClientError::not_found("Webhook endpoint"))?;
                    let mut d =
                        tx.get_delivery(id, delivery).await?.ok_or_else(|| ClientError::not_found("Delivery"))?;
                    d.status = DeliveryStatus::Pending;
                    d.attempts = 0;
                    d.next_attempt_at = Some(now);
                    tx.update_delivery(&d).await?;
                    Ok::<_, UseCaseError>(d)
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
        let payload = envelope(did, EventType::Ping, now, &serde_json::json!({"webhookId": ep.id.to_string()}));
        let secrets = ep.signing_secrets(now);
        let out = self.webhooks.send(&ep.url, &secrets, &did.to_string(), "ping", &payload, now).await;
        let mut d = Delivery {
            id: did,
            endpoint_id: ep.id,
            org_id: org,
            event_type: EventType::Ping,
            payload,
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: None,
            last_attempt_at: None,
            last_response_status: None,
            last_error: None,
            created_at: now,
        };
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
                    tx.insert_attempt(d.id, now, &rec).await?;
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

    /// One round of the delivery worker: claims due deliveries (safe across instances), sends
    /// them, records each attempt and schedules retries (D31); an endpoint whose deliveries failed
    /// 5 times in a row is disabled and the organization's admins are emailed. Returns how many
    /// attempts were made.
    pub async fn run_deliveries(&self, batch: u32) -> Result<u32, UseCaseError> {
        let now = self.clock.now();
        let lease = now + CLAIM_LEASE;
        let claimed = self
            .store
            .write(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.claim_deliveries(now, lease, batch).await?) })
            })
            .await?;
        let mut n = 0;
        for d in claimed {
            let (org, eid) = (d.org_id, d.endpoint_id);
            let Some(ep) = self
                .store
                .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_endpoint(org, eid).await?) }))
                .await?
            else {
                continue;
            };
            let sent_at = self.clock.now();
            let secrets = ep.signing_secrets(sent_at);
            let out = self
                .webhooks
                .send(&ep.url, &secrets, &d.id.to_string(), d.event_type.as_str(), &d.payload, sent_at)
                .await;
            let email_ids: Vec<EmailId> = (0..20).map(|_| EmailId(self.ids.new_uuid())).collect();
            let mut d = d;
            self.store
                .write(move |tx| {
                    Box::pin(async move {
                        let failed_for_good = apply_attempt(&mut d, &out, sent_at);
                        tx.insert_attempt(d.id, sent_at, &out).await?;
                        tx.update_delivery(&d).await?;
                        if let Some(mut e) = tx.get_endpoint(org, eid).await? {
                            let before = (e.consecutive_failures, e.enabled);
                            if out.succeeded() {
                                e.consecutive_failures = 0;
                            } else if failed_for_good {
                                e.consecutive_failures += 1;
                                if e.consecutive_failures >= DISABLE_AFTER_FAILURES && e.enabled {
                                    e.enabled = false;
                                    let org_row = tx.get_org(org).await?;
                                    let company = org_row.map(|o| o.company_name).unwrap_or_default();
                                    let admins = tx.users_of_org(org).await?;
                                    for (u, id) in admins.iter().filter(|u| u.role == OrgRole::Admin).zip(email_ids) {
                                        let mail = EmailRecord {
                                            id,
                                            org_id: org,
                                            invitation_id: None,
                                            to: u.email.clone(),
                                            subject: format!("{company}: webhook endpoint disabled"),
                                            body: format!(
                                                "The webhook endpoint {} ({}) failed {} deliveries in a row and was disabled.\n\
                                                 Events keep waiting for it: re-enable it (PATCH /api/v1/webhooks/{} with \
                                                 {{\"enabled\": true}}) and they go out.\n",
                                                e.url, e.id, e.consecutive_failures, e.id
                                            ),
                                            invitation_url: None,
                                            sent_at: None,
                                            attempts: 0,
                                            last_error: None,
                                            next_attempt_at: sent_at,
                                            created_at: sent_at,
                                        };
                                        tx.insert_email(&mail).await?;
                                    }
                                }
                            }
                            if (e.consecutive_failures, e.enabled) != before {
                                e.updated_at = sent_at;
                                tx.update_endpoint(&e).await?;
                            }
                        }
                        Ok::<_, UseCaseError>(())
                    })
                })
                .await?;
            n += 1;
        }
        Ok(n)
    }
}
