//! The delivery engine's use cases (D31-D35, D50, D57, T60): claiming due webhook deliveries
//! and ATS pushes, making and recording attempts, disabling an endpoint that fails for days, and
//! retention of deliveries and events.

use super::Services;
use crate::errors::UseCaseError;
use crate::events::{EventType, OutboxEvent};
use crate::ids::*;
use crate::ports::Ids as _;
use crate::ports::{AttemptRecord, ClaimRequest, EmailRecord, Store, WebhookMessage};
use crate::values::OrgRole;
use crate::webhook::*;
use time::{Duration, OffsetDateTime};

/// How long a worker may hold a claimed delivery (covers the 10 s timeout); after that another
/// worker may attempt it again (a crash loses nothing).
pub const CLAIM_LEASE: Duration = Duration::seconds(60);

/// What an attempt may take of its claim's lease, its outcome's record included: the sender's
/// 10 s timeout (T60) and 5 s for the recorder's batch. A claimed job that would start with less
/// of its lease left is not attempted ([`DeliveryJob::startable`], T303).
pub const ATTEMPT_ALLOWANCE: Duration = Duration::seconds(15);

impl<S: Store> Services<S> {
    /// Claims due deliveries for a delivery engine (D31, T60): at most `limit`, within the
    /// per-endpoint and per-organization caps less what the caller has in flight, skipping
    /// disabled endpoints and open breakers (T59). Each job carries what sending needs (URL and
    /// signing secrets at `now`), read in the same transaction: no per-delivery endpoint read.
    pub async fn claim_due(&self, caps: ClaimCaps) -> Result<Vec<DeliveryJob>, UseCaseError> {
        let now = self.clock.now();
        let req = ClaimRequest {
            now,
            lease_until: now + CLAIM_LEASE,
            limit: caps.limit,
            per_endpoint: caps.per_endpoint,
            per_org: caps.per_org,
            busy_endpoints: caps.busy_endpoints,
            busy_orgs: caps.busy_orgs,
        };
        let claimed = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let claimed = tx.claim_deliveries(&req).await?;
                    if claimed.is_empty() {
                        tx.relax_durability().await?;
                        return Ok::<_, UseCaseError>(vec![]);
                    }
                    let mut ids: Vec<WebhookId> = claimed.iter().map(|d| d.endpoint_id).collect();
                    ids.sort_by_key(|i| i.0);
                    ids.dedup();
                    let endpoints = tx.list_endpoints_by_ids(&ids).await?;
                    let events: Vec<EventId> = claimed.iter().filter_map(|d| d.event_id).collect();
                    let mut sequences = tx.event_sequences(&events).await?;
                    // Events committed within the last second are not numbered yet (the sequencer
                    // runs every second): numbered here, in the claim's own transaction (T277),
                    // which then commits durably, since the numbers are sent. Otherwise a claim,
                    // which at-least-once delivery lets a crash lose, commits without waiting.
                    let unnumbered: Vec<EventId> = claimed
                        .iter()
                        .filter(|d| endpoints.iter().any(|e| e.id == d.endpoint_id && e.kind != EndpointKind::Ats))
                        .filter_map(|d| d.event_id)
                        .filter(|e| !sequences.iter().any(|s| s.0 == *e))
                        .collect();
                    if unnumbered.is_empty() {
                        tx.relax_durability().await?;
                    } else {
                        tx.sequence_events(super::feed::SEQUENCE_BATCH).await?;
                        sequences.extend(tx.event_sequences(&unnumbered).await?);
                    }
                    Ok(claimed
                        .into_iter()
                        .filter_map(|d| {
                            let ep = endpoints.iter().find(|e| e.id == d.endpoint_id)?;
                            let sequence = d.event_id.and_then(|e| sequences.iter().find(|s| s.0 == e)).map(|s| s.1);
                            Some((
                                DeliveryJob {
                                    lease_until: req.lease_until,
                                    sequence,
                                    url: ep.url.clone(),
                                    secrets: ep.signing_secrets(now).into_iter().map(str::to_string).collect(),
                                    delivery: d,
                                    push: None,
                                },
                                ep.kind,
                            ))
                        })
                        .collect::<Vec<_>>())
                })
            })
            .await?;
        let claimed = self.number_claimed(claimed).await?;
        // Pushes to ATSs (D69) are rendered after the claim, from the order as it is now.
        let mut jobs = Vec::with_capacity(claimed.len());
        for (mut job, kind) in claimed {
            if kind == EndpointKind::Ats {
                job.push = Some(self.render_push(&job.delivery).await);
            }
            jobs.push(job);
        }
        Ok(jobs)
    }

    /// The sequences of claimed webhook deliveries whose events the claim's transaction did not
    /// number (D57: every delivery of a feed event is sent with its `sequence`; the claim numbers
    /// at most one batch of the oldest events, T277): the sequencer runs (events commit before
    /// their deliveries can be claimed, so it numbers them), then the numbers are read. Most
    /// claims need nothing.
    async fn number_claimed(
        &self,
        mut claimed: Vec<(DeliveryJob, EndpointKind)>,
    ) -> Result<Vec<(DeliveryJob, EndpointKind)>, UseCaseError> {
        let missing: Vec<EventId> = claimed
            .iter()
            .filter(|(j, kind)| *kind != EndpointKind::Ats && j.sequence.is_none())
            .filter_map(|(j, _)| j.delivery.event_id)
            .collect();
        if missing.is_empty() {
            return Ok(claimed);
        }
        self.sequence_events().await?;
        let sequences = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.event_sequences(&missing).await?) }))
            .await?;
        for (job, _) in &mut claimed {
            if let Some(e) = job.delivery.event_id.filter(|_| job.sequence.is_none()) {
                job.sequence = sequences.iter().find(|s| s.0 == e).map(|s| s.1);
            }
        }
        Ok(claimed)
    }

    /// Makes one attempt of a claimed job at `at`: a signed webhook delivery (D30, D57, D58), or a
    /// push to an ATS (D69; one that could not be rendered fails without a request).
    pub async fn attempt(&self, job: &DeliveryJob, at: OffsetDateTime) -> AttemptOutcome {
        let d = &job.delivery;
        match &job.push {
            None => {
                let secrets: Vec<&str> = job.secrets.iter().map(String::as_str).collect();
                let message = WebhookMessage {
                    delivery_id: d.id.to_string(),
                    event_id: sent_event_id(d),
                    body: sent_body(d, job.sequence),
                };
                self.webhooks.send(&job.url, &secrets, d.event_type.as_str(), &message, at).await
            }
            Some(Ok(req)) => self.webhooks.push(req).await,
            Some(Err(why)) => {
                AttemptOutcome { status: None, duration_ms: 0, error: Some(why.clone()), response_body: None }
            }
        }
    }

    /// Records the outcomes of many attempts in one transaction (D31, D32, T59): each attempt in
    /// the log, the delivery's new state and retry time (applied to the delivery *as stored now*,
    /// so a concurrent redeliver or a deleted endpoint is respected), the endpoint's breaker, and
    /// D50's disable after 3 days of failures with the email to the organization's admins and
    /// `webhook.disabled` (D47).
    pub async fn record_attempts(&self, done: Vec<FinishedAttempt>) -> Result<(), UseCaseError> {
        if done.is_empty() {
            return Ok(());
        }
        let new_ids = self.event_source();
        let emailed = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    tx.relax_durability().await?;
                    // T104: the endpoints first (their counters are read-modify-written), then
                    // the deliveries, each in id order: the lock order of `WebhookRepo`.
                    let mut ep_ids: Vec<WebhookId> = done.iter().map(|f| f.endpoint).collect();
                    ep_ids.sort_by_key(|i| i.0);
                    ep_ids.dedup();
                    let mut endpoints = tx.lock_endpoints(&ep_ids).await?;
                    let ids: Vec<DeliveryId> = done.iter().map(|f| f.delivery).collect();
                    let mut current = tx.list_deliveries_by_ids(&ids).await?;
                    endpoints.sort_by_key(|e| e.id.0);
                    current.sort_by_key(|d| d.id.0);
                    let before: Vec<Endpoint> = endpoints.clone();
                    let mut log = Vec::with_capacity(done.len());
                    let mut disabled = Vec::new();
                    for f in done {
                        let Some(d) = current.iter_mut().find(|d| d.id == f.delivery) else { continue };
                        let kind = endpoints.iter().find(|e| e.id == d.endpoint_id).map(|e| e.kind).unwrap_or_default();
                        let failed_for_good = apply_attempt_with(d, &f.outcome, f.at, kind.retry_delays());
                        if let Some(e) = endpoints.iter_mut().find(|e| e.id == d.endpoint_id) {
                            e.breaker.record(f.outcome.succeeded(), f.at);
                            if f.outcome.succeeded() {
                                e.consecutive_failures = 0;
                                e.failing_since = None;
                            } else if failed_for_good && e.kind == EndpointKind::Webhook {
                                // D50: disabled after 3 days of deliveries failing for good (a
                                // connection's pushes have their own 3 days of retries, D69).
                                e.consecutive_failures += 1;
                                let since = *e.failing_since.get_or_insert(f.at);
                                if f.at - since >= DISABLE_AFTER_FAILING && e.enabled {
                                    e.enabled = false;
                                    disabled.push((e.clone(), f.at));
                                }
                            }
                        }
                        log.push(AttemptRecord { delivery: f.delivery, at: f.at, outcome: f.outcome });
                    }
                    tx.insert_attempts(&log).await?;
                    tx.update_deliveries(&current).await?;
                    for e in endpoints.iter_mut() {
                        if before.iter().any(|b| b == e) {
                            continue;
                        }
                        e.updated_at = log.last().map(|a| a.at).unwrap_or(e.updated_at);
                        tx.update_endpoint(e).await?;
                    }
                    let emailed = !disabled.is_empty();
                    for (e, at) in disabled {
                        notify_disabled(tx, &e, at, &new_ids).await?;
                    }
                    Ok::<_, UseCaseError>(emailed)
                })
            })
            .await?;
        if emailed {
            self.wake_emails();
        }
        Ok(())
    }

    /// One round of delivery without an engine (the sandbox clock, D39, and tests): claims up to
    /// `batch` due deliveries, sends them one after another and records the outcomes in one
    /// transaction. Returns how many attempts were made.
    pub async fn run_deliveries(&self, batch: u32) -> Result<u32, UseCaseError> {
        let jobs = self.claim_due(ClaimCaps::total(batch)).await?;
        let mut done = Vec::with_capacity(jobs.len());
        for j in &jobs {
            let at = self.clock.now();
            let outcome = self.attempt(j, at).await;
            done.push(FinishedAttempt { delivery: j.delivery.id, endpoint: j.delivery.endpoint_id, at, outcome });
        }
        let n = done.len() as u32;
        self.record_attempts(done).await?;
        Ok(n)
    }

    /// Retention (T61): deletes deliveries (with their attempts) and outbox events created more
    /// than `days` days ago (service clock), `batch` rows per transaction until none is left.
    /// Returns (deliveries, events) deleted.
    pub async fn purge_webhook_history(&self, days: u32, batch: u32) -> Result<(u64, u64), UseCaseError> {
        let before = self.clock.now() - Duration::days(i64::from(days));
        let (mut deliveries, mut events) = (0, 0);
        loop {
            let (d, e) = self
                .store
                .write(move |tx| {
                    Box::pin(async move { Ok::<_, UseCaseError>(tx.purge_webhook_history(before, batch).await?) })
                })
                .await?;
            deliveries += d;
            events += e;
            if d < u64::from(batch) && e < u64::from(batch) {
                return Ok((deliveries, events));
            }
        }
    }
}

/// Tells the organization that `e` was disabled after 3 days of failed deliveries (D50): an
/// email to each admin, and `webhook.disabled` (D47) to its other enabled endpoints (the caller
/// has stored `e` disabled already, so it is not one of them).
async fn notify_disabled(
    tx: &mut dyn crate::ports::Tx,
    e: &Endpoint,
    at: OffsetDateTime,
    ids: &crate::outbox::EventSource,
) -> Result<(), UseCaseError> {
    let data = crate::wire::WebhookDisabledData {
        webhook_id: e.id.0,
        url: e.url.clone(),
        failing_since: e.failing_since.unwrap_or(at),
        failed_deliveries: e.consecutive_failures,
        disabled_at: at,
    };
    let event = OutboxEvent {
        id: EventId(ids.new_uuid()),
        org_id: e.org_id,
        event_type: EventType::WebhookDisabled,
        data: crate::events::EventData::of(&data),
        created_at: at,
        request_id: None,
    };
    crate::outbox::append(tx, ids, &event).await?;
    let company = tx.get_org(e.org_id).await?.map(|o| o.company_name).unwrap_or_default();
    let admins = tx.list_users_of_org(e.org_id).await?;
    for u in admins.iter().filter(|u| u.role == OrgRole::Admin) {
        let mail = EmailRecord {
            id: EmailId(ids.new_uuid()),
            org_id: e.org_id,
            invitation_id: None,
            to: u.email.clone(),
            subject: format!("{company}: webhook endpoint disabled"),
            body: format!(
                "The webhook endpoint {} ({}) has failed every delivery since {} ({} deliveries, \
                 each after all its retries) and was disabled.\n\
                 Events keep waiting for it: re-enable it (PATCH /api/v1/webhooks/{} with \
                 {{\"enabled\": true}}) and they go out.\n",
                e.url,
                e.id,
                crate::timefmt::for_people(e.failing_since.unwrap_or(at)),
                e.consecutive_failures,
                e.id
            ),
            invitation_url: None,
            sent_at: None,
            attempts: 0,
            last_error: None,
            next_attempt_at: at,
            created_at: at,
        };
        tx.insert_email(&mail).await?;
    }
    Ok(())
}

/// The caps of one claim (T60); see [`ClaimRequest`].
#[derive(Clone, Debug, Default)]
pub struct ClaimCaps {
    /// Most deliveries to claim.
    pub limit: u32,
    /// Most in flight per endpoint.
    pub per_endpoint: u32,
    /// Most in flight per organization.
    pub per_org: u32,
    /// The caller's attempts in flight per endpoint.
    pub busy_endpoints: Vec<(WebhookId, u32)>,
    /// The caller's attempts in flight per organization.
    pub busy_orgs: Vec<(OrgId, u32)>,
}

impl ClaimCaps {
    /// Up to `n` deliveries with no per-endpoint or per-organization cap.
    pub fn total(n: u32) -> Self {
        ClaimCaps { limit: n, per_endpoint: n, per_org: n, ..Default::default() }
    }
}

/// A claimed delivery with what sending it needs.
#[derive(Clone, Debug)]
pub struct DeliveryJob {
    /// The delivery (its payload is the envelope to send).
    pub delivery: Delivery,
    /// The endpoint's URL.
    pub url: String,
    /// The secrets that sign it (D30: two during a rotation).
    pub secrets: Vec<String>,
    /// Its event's number in the organization's feed, sent as the envelope's `sequence` (D57);
    /// `None` for a delivery without an event and for an event the feed no longer holds.
    pub sequence: Option<u64>,
    /// For a push to an ATS (D69): the request its connector rendered, or why none could be
    /// (recorded as the attempt's error); `None` for a webhook delivery.
    pub push: Option<Result<crate::ports::PushRequest, String>>,
    /// When the claim that holds it ends (claim time + [`CLAIM_LEASE`]); after that another
    /// worker may claim it again.
    pub lease_until: OffsetDateTime,
}

impl DeliveryJob {
    /// Whether an attempt starting at `at` (service clock) ends inside the job's claim: at least
    /// [`ATTEMPT_ALLOWANCE`] of the lease is left (T303). A job held past that point (its lanes
    /// busy with slow attempts) is not attempted: it stays claimed until its lease ends and is
    /// claimed again then, so no other worker sends it while this one does.
    pub fn startable(&self, at: OffsetDateTime) -> bool {
        at + ATTEMPT_ALLOWANCE <= self.lease_until
    }
}

/// An attempt that has been made, to record ([`Services::record_attempts`]).
#[derive(Clone, Debug)]
pub struct FinishedAttempt {
    /// The delivery.
    pub delivery: DeliveryId,
    /// Its endpoint (locked before the delivery when the outcome is recorded, T104).
    pub endpoint: WebhookId,
    /// When the attempt started (service clock).
    pub at: OffsetDateTime,
    /// Its outcome.
    pub outcome: AttemptOutcome,
}
