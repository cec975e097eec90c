//! Background jobs: the email job (woken after the commits that queue emails, T175), the
//! invitation sweep (D21), the events feed's sequencer (D48), retention (D46, T61, T82), the
//! rate limiter's memory, Kombo's order poll (D82), and the webhook delivery engine (D31, T60). None of them runs on a
//! request's time.

use std::sync::Arc;
use std::time::Duration;
use talent_domain::errors::UseCaseError;
use talent_domain::usecases::invitations::EmailWakeup;
use talent_domain::Services;
use talent_ratelimit::GovernorRateLimiter;
use talent_store::DbStore;
use tokio::sync::Notify;

/// How often the email job looks for due emails without being woken (T175): retries after a
/// failed send, emails queued by another instance, a wake-up lost with a crashed instance.
const EMAIL_SWEEP: Duration = Duration::from_secs(15);

/// What the background jobs need besides the services.
pub(crate) struct JobsConfig {
    /// `TALENT_RETENTION_DAYS`.
    pub retention_days: u32,
    /// The delivery engine's caps (`TALENT_WEBHOOK_*`).
    pub engine: talent_webhooks::engine::EngineConfig,
    /// `TALENT_KOMBO_POLL_SECONDS`: the period of Kombo's order poll (D82).
    pub kombo_poll: Duration,
}

/// The email job's wake-up (T175): the use cases call the [`EmailWakeup`] after a commit that
/// queued an email; the job waits on the `Notify`. A wake-up while the job is sending is kept
/// (one permit), so the job makes one more pass after it.
pub(crate) fn email_wakeup() -> (EmailWakeup, Arc<Notify>) {
    let notify = Arc::new(Notify::new());
    let held = notify.clone();
    (Arc::new(move || held.notify_one()), notify)
}

/// Starts every background job on the current runtime, for as long as it lives. `emails` is the
/// `Notify` of [`email_wakeup`] that `svc` calls and the lock each pass of email delivery holds
/// (shared with the sandbox clock, T180).
pub(crate) fn start(
    svc: &Services<DbStore>,
    store: &DbStore,
    limiter: Arc<GovernorRateLimiter>,
    emails: (Arc<Notify>, Arc<tokio::sync::Mutex<()>>),
    cfg: JobsConfig,
) -> anyhow::Result<()> {
    // Bounded limiter memory (governor retain_recent).
    every(Duration::from_secs(60), "rate limiter memory", move || {
        let limiter = limiter.clone();
        async move {
            limiter.retain_recent();
            Ok(())
        }
    });
    email_job(svc.clone(), emails.0, emails.1);
    // Expiry and reminders (D21); the reminders wake the email job.
    let jobs = svc.clone();
    every(Duration::from_secs(15), "invitation sweep", move || {
        let svc = jobs.clone();
        async move {
            let (expired, reminded) = svc.sweep_invitations().await?;
            if expired + reminded > 0 {
                tracing::info!(expired, reminded, "invitation sweep");
            }
            Ok(())
        }
    });
    // The events feed's sequencer (D48, T106): numbers committed events; feed reads and
    // replays also run it first, so this only keeps the numbers close behind the commits.
    let jobs = svc.clone();
    every(Duration::from_secs(1), "event sequencer", move || {
        let svc = jobs.clone();
        async move { svc.sequence_events().await.map(drop) }
    });
    let jobs = svc.clone();
    let retention_days = cfg.retention_days;
    every(Duration::from_secs(3600), "retention", move || {
        let svc = jobs.clone();
        async move {
            // 1,000 rows per transaction until nothing is left.
            let r = svc.retention(retention_days, 1000).await?;
            if r.total() > 0 {
                tracing::info!(
                    idempotency = r.idempotency,
                    deliveries = r.deliveries,
                    events = r.events,
                    emails = r.emails,
                    codes = r.codes,
                    "retention purged"
                );
            }
            Ok(())
        }
    });
    // Kombo's order poll (D82): each enabled Kombo connection's open orders, the new ones placed.
    let jobs = svc.clone();
    let poller = Arc::new(talent_connectors::kombo::Poller::new());
    every(cfg.kombo_poll, "Kombo order poll", move || {
        let (svc, poller) = (jobs.clone(), poller.clone());
        async move {
            let r = poller.run(&svc).await?;
            if r.taken > 0 {
                tracing::info!(taken = r.taken, "Kombo orders taken by the poll");
            }
            Ok(())
        }
    });
    // The webhook delivery engine (D31, T60), woken by commits (and on PostgreSQL by NOTIFY).
    store.listen();
    let engine_svc = Services { store: Arc::new(store.with_own_pool(2)?), ..svc.clone() };
    talent_webhooks::engine::spawn(engine_svc, cfg.engine, store.delivery_wakeups());
    Ok(())
}

/// The email job (D22, T175): sends due emails at start-up, whenever a commit that queued one
/// wakes it, and every [`EMAIL_SWEEP`] otherwise. Passes follow each other while emails go out
/// (a pass sends at most 100). A failed send is recorded on its row and retried by a later pass
/// (1 min, doubling, at most 1 h).
fn email_job(svc: Services<DbStore>, wake: Arc<Notify>, passes: Arc<tokio::sync::Mutex<()>>) {
    tokio::spawn(async move {
        loop {
            loop {
                let _pass = passes.lock().await;
                match svc.deliver_emails().await {
                    Ok(0) => break,
                    Ok(sent) => tracing::debug!(sent, "emails sent"),
                    Err(e) => {
                        failed("email delivery", &e);
                        break;
                    }
                }
            }
            let _ = tokio::time::timeout(EMAIL_SWEEP, wake.notified()).await;
        }
    });
}

/// Runs `job` now and then every `period` on the current runtime, for as long as the runtime
/// lives. A failure is logged with `name` and the job runs again at the next tick.
fn every<F, Fut>(period: Duration, name: &'static str, mut job: F)
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<(), UseCaseError>> + Send + 'static,
{
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        loop {
            tick.tick().await;
            if let Err(e) = job().await {
                failed(name, &e);
            }
        }
    });
}

/// Logs a failed run of the job `name`: a database outage at `DEBUG` (the store logs the outage
/// itself, once), anything else at `WARN`.
fn failed(name: &'static str, e: &UseCaseError) {
    if e.is_unavailable() {
        tracing::debug!(job = name, error = %e, "background job failed");
    } else {
        tracing::warn!(job = name, error = %e, "background job failed");
    }
}
