//! The delivery engine (issue 10; decisions T59-T61): attempts many deliveries at once, fairly
//! between endpoints and organizations, within milliseconds of the commit that made them due.
//!
//! The rules stay in the domain (D31 schedule, attempt log, disable-after-failures, the breaker of
//! T59); this module only schedules:
//!
//! - **Claim** ([`Services::claim_due`]): one transaction claims, oldest due first and skipping
//!   open breakers, enough to fill the lanes sixteen times over ([`HOLD_ROUNDS`]): at most
//!   `16 × per_endpoint` held per endpoint, `16 × per_org` per organization and
//!   `16 × concurrency` in all (counting what this instance already holds). One round is in
//!   flight, the next ones are ready, so a lane that frees starts its next attempt without
//!   waiting for a claim, and one claim takes what many rounds of attempts need.
//! - **Send**: each claimed delivery is one task that waits for a lane of its endpoint, of its
//!   organization and of the instance (FIFO semaphores, taken in that order), then calls the
//!   [`WebhookSender`] port (ureq on tokio's blocking pool): at most `per_endpoint`,
//!   `per_org` and `concurrency` attempts are in flight. A delivery whose lanes came too late
//!   for its claim's lease ([`DeliveryJob::startable`]) is not sent: it is claimed again when
//!   the lease ends.
//! - **Record** ([`Services::record_attempts`]): finished attempts are collected by one recorder
//!   task and written many per transaction.
//! - **Wake-ups**: the engine claims while claims fill the free lanes; then again when the store signals
//!   a commit that made a delivery due (in this process, and on PostgreSQL from any instance
//!   through `LISTEN/NOTIFY`), when a lane frees while more may be claimable (the last round got
//!   something, or a cap was full), and every `poll` (the safety net for retries, the sandbox clock
//!   and missed signals).
//!
//! [`WebhookSender`]: talent_domain::ports::WebhookSender

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use talent_domain::ids::{OrgId, WebhookId};
use talent_domain::ports::Store;
use talent_domain::usecases::deliveries::{ClaimCaps, DeliveryJob, FinishedAttempt};
use talent_domain::Services;
use tokio::sync::{mpsc, Notify, Semaphore};
use tracing::Instrument;

/// How many rounds of the caps the engine holds claimed (T60, T281, T303): one in flight, the
/// others ready. With two, a claim of 6-7 ms on a busy PostgreSQL could take at most one round
/// (8) of an endpoint's deliveries, which capped one endpoint near 1,200 deliveries per s however
/// few of its lanes were busy; with four, the claim loop still ran back to back under a
/// sustained import load and deliveries queued in the database behind it. A held delivery whose
/// lanes are slow waits for them only while its claim's lease leaves an attempt its time
/// ([`DeliveryJob::startable`]); past that it is left to the next claim.
pub const HOLD_ROUNDS: u32 = 16;

/// The engine's limits (T60; configuration in `docs/webhooks.md`).
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Attempts in flight on this instance (`TALENT_WEBHOOK_CONCURRENCY`, default 64). 0 turns
    /// the engine off (another instance delivers).
    pub concurrency: u32,
    /// Attempts in flight per endpoint (`TALENT_WEBHOOK_PER_ENDPOINT`, default 8).
    pub per_endpoint: u32,
    /// Attempts in flight per organization (`TALENT_WEBHOOK_PER_ORG`, default 16).
    pub per_org: u32,
    /// Claim at least this often even without a wake-up (`TALENT_WEBHOOK_POLL_MS`, default 1,000).
    pub poll: Duration,
    /// Most outcomes recorded in one transaction.
    pub record_batch: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { concurrency: 64, per_endpoint: 8, per_org: 16, poll: Duration::from_secs(1), record_batch: 256 }
    }
}

/// What this instance holds (claimed, not yet finished), and the lanes the held deliveries wait
/// for: one semaphore per endpoint and per organization with a held delivery, and the instance's.
struct Held {
    total: u32,
    endpoints: HashMap<WebhookId, (u32, Arc<Semaphore>)>,
    orgs: HashMap<OrgId, (u32, Arc<Semaphore>)>,
    lanes: Arc<Semaphore>,
    per_endpoint: usize,
    per_org: usize,
}

/// The lanes one delivery needs: its endpoint's, its organization's, the instance's.
struct Lanes([Arc<Semaphore>; 3]);

impl Held {
    fn new(cfg: &EngineConfig) -> Self {
        Held {
            total: 0,
            endpoints: HashMap::new(),
            orgs: HashMap::new(),
            lanes: Arc::new(Semaphore::new(cfg.concurrency as usize)),
            per_endpoint: cfg.per_endpoint.max(1) as usize,
            per_org: cfg.per_org.max(1) as usize,
        }
    }

    /// Holds one claimed delivery; returns the lanes it must take before it is sent.
    fn hold(&mut self, ep: WebhookId, org: OrgId) -> Lanes {
        self.total += 1;
        let (per_endpoint, per_org) = (self.per_endpoint, self.per_org);
        let e = self.endpoints.entry(ep).or_insert_with(|| (0, Arc::new(Semaphore::new(per_endpoint))));
        e.0 += 1;
        let e = e.1.clone();
        let o = self.orgs.entry(org).or_insert_with(|| (0, Arc::new(Semaphore::new(per_org))));
        o.0 += 1;
        Lanes([e, o.1.clone(), self.lanes.clone()])
    }

    /// Ends one held delivery (sent, or given up).
    fn finish(&mut self, ep: WebhookId, org: OrgId) {
        self.total = self.total.saturating_sub(1);
        dec(&mut self.endpoints, ep);
        dec(&mut self.orgs, org);
    }
}

fn dec<K: std::hash::Hash + Eq, V>(m: &mut HashMap<K, (u32, V)>, k: K) {
    if let Some(n) = m.get_mut(&k) {
        n.0 = n.0.saturating_sub(1);
        if n.0 == 0 {
            m.remove(&k);
        }
    }
}

/// Logs the first failure of a run of failures and the recovery, not every failure (a database
/// outage would otherwise log one line per claim).
#[derive(Default)]
struct Outage(bool);

impl Outage {
    fn failed(&mut self, what: &str, e: &dyn std::fmt::Display) {
        if !self.0 {
            tracing::warn!(error = %e, "webhook engine: {what} failed; retrying");
            self.0 = true;
        }
    }
    fn ok(&mut self, what: &str) {
        if std::mem::take(&mut self.0) {
            tracing::info!("webhook engine: {what} works again");
        }
    }
}

/// Starts the engine on the current tokio runtime: the claim loop and the recorder. `wake` is the
/// store's commit signal (`DbStore::delivery_wakeups`).
pub fn spawn<S: Store + Clone>(svc: Services<S>, cfg: EngineConfig, wake: Arc<Notify>) {
    if cfg.concurrency == 0 {
        tracing::info!("webhook engine off (TALENT_WEBHOOK_CONCURRENCY=0)");
        return;
    }
    let (done_tx, done_rx) = mpsc::unbounded_channel::<FinishedAttempt>();
    tokio::spawn(record_loop(svc.clone(), done_rx, cfg.record_batch.max(1)));
    tokio::spawn(claim_loop(svc, cfg, wake, done_tx));
}

async fn claim_loop<S: Store + Clone>(
    svc: Services<S>,
    cfg: EngineConfig,
    wake: Arc<Notify>,
    done: mpsc::UnboundedSender<FinishedAttempt>,
) {
    let held = Arc::new(Mutex::new(Held::new(&cfg)));
    let (per_endpoint, per_org) = (cfg.per_endpoint * HOLD_ROUNDS, cfg.per_org * HOLD_ROUNDS);
    let most = cfg.concurrency * HOLD_ROUNDS;
    let freed = Arc::new(Notify::new());
    let mut outage = Outage::default();
    loop {
        // Claim until a claim finds nothing. `more`: a lane that frees may make more claimable
        // (the last claim got something, or a cap was full in the counts it was made with).
        let mut more = false;
        loop {
            let (caps, full) = {
                let f = held.lock().unwrap_or_else(|p| p.into_inner());
                let full = f.total >= most
                    || f.endpoints.values().any(|n| n.0 >= per_endpoint)
                    || f.orgs.values().any(|n| n.0 >= per_org);
                let caps = ClaimCaps {
                    limit: most.saturating_sub(f.total),
                    per_endpoint,
                    per_org,
                    busy_endpoints: f.endpoints.iter().map(|(k, v)| (*k, v.0)).collect(),
                    busy_orgs: f.orgs.iter().map(|(k, v)| (*k, v.0)).collect(),
                };
                (caps, full)
            };
            more |= full;
            if caps.limit == 0 {
                break;
            }
            let asked = caps.limit;
            let t = std::time::Instant::now();
            let jobs = match svc.claim_due(caps).await {
                Ok(j) => {
                    outage.ok("claiming deliveries");
                    j
                }
                Err(e) => {
                    outage.failed("claiming deliveries", &e);
                    break;
                }
            };
            let got = jobs.len() as u32;
            tracing::debug!(asked, got, ms = t.elapsed().as_millis() as u64, "claimed");
            more |= got > 0;
            for job in jobs {
                start_attempt(&svc, job, &held, &freed, &done);
            }
            // Fewer than asked: every claimable endpoint got its allowance; what becomes claimable
            // next comes with a wake-up, a freed lane or the poll.
            if got < asked {
                break;
            }
        }
        tokio::select! {
            _ = wake.notified() => {}
            _ = freed.notified(), if more => {}
            _ = tokio::time::sleep(cfg.poll) => {}
        }
    }
}

fn start_attempt<S: Store + Clone>(
    svc: &Services<S>,
    job: DeliveryJob,
    held: &Arc<Mutex<Held>>,
    freed: &Arc<Notify>,
    done: &mpsc::UnboundedSender<FinishedAttempt>,
) {
    let (ep, org) = (job.delivery.endpoint_id, job.delivery.org_id);
    let Lanes(lanes) = held.lock().unwrap_or_else(|p| p.into_inner()).hold(ep, org);
    let (svc, held, freed, done) = (svc.clone(), held.clone(), freed.clone(), done.clone());
    // Every line of the attempt names the delivery and the request that caused its event (T121).
    let span = tracing::info_span!(
        "attempt",
        delivery_id = %job.delivery.id,
        request_id = job.delivery.request_id.as_deref().unwrap_or("-")
    );
    let attempt = async move {
        // Endpoint, organization, instance: always in this order, so no task holds an instance
        // lane while it waits for its endpoint's. The semaphores are never closed.
        let mut permits = Vec::with_capacity(3);
        for lane in lanes {
            match lane.acquire_owned().await {
                Ok(p) => permits.push(p),
                Err(_) => break,
            }
        }
        let at = svc.clock.now();
        let d = &job.delivery;
        if !job.startable(at) {
            // Too little of the claim's lease is left for an attempt: another worker may claim
            // it before this one has recorded it. It stays claimed and is claimed again (by any
            // instance) when the lease ends (T303).
            tracing::debug!("held past its claim's lease; left for the next claim");
            drop(permits);
            held.lock().unwrap_or_else(|p| p.into_inner()).finish(ep, org);
            freed.notify_one();
            return;
        }
        let outcome = svc.attempt(&job, at).await;
        tracing::debug!(
            status = outcome.status,
            duration_ms = outcome.duration_ms,
            error = outcome.error.as_deref(),
            "webhook attempt"
        );
        drop(permits);
        let _ = done.send(FinishedAttempt { delivery: d.id, endpoint: d.endpoint_id, at, outcome });
        held.lock().unwrap_or_else(|p| p.into_inner()).finish(ep, org);
        // Coalesced: one stored permit however many lanes free before the claim loop looks.
        freed.notify_one();
    };
    tokio::spawn(attempt.instrument(span));
}

/// Writes finished attempts, up to `batch` per transaction. A batch that cannot be written is
/// retried (1 s, doubling to 30 s) for a minute, then dropped: its deliveries are still claimed
/// and go out again when the claim's lease ends (at-least-once, D31).
async fn record_loop<S: Store + Clone>(
    svc: Services<S>,
    mut rx: mpsc::UnboundedReceiver<FinishedAttempt>,
    batch: usize,
) {
    let mut outage = Outage::default();
    let mut buf = Vec::with_capacity(batch);
    while rx.recv_many(&mut buf, batch).await > 0 {
        let mut wait = Duration::from_secs(1);
        let mut waited = Duration::ZERO;
        loop {
            let t = std::time::Instant::now();
            match svc.record_attempts(buf.clone()).await {
                Ok(()) => {
                    tracing::debug!(n = buf.len(), ms = t.elapsed().as_millis() as u64, "recorded");
                    outage.ok("recording attempts");
                    break;
                }
                Err(e) => {
                    outage.failed("recording attempts", &e);
                    if waited >= Duration::from_secs(60) {
                        tracing::warn!(
                            attempts = buf.len(),
                            "webhook engine: attempts not recorded; they are sent again"
                        );
                        break;
                    }
                    tokio::time::sleep(wait).await;
                    waited += wait;
                    wait = (wait * 2).min(Duration::from_secs(30));
                }
            }
        }
        buf.clear();
    }
}
