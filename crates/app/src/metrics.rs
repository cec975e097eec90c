//! Prometheus metrics (issue 17; `docs/operations.md` lists every one): the recorder the adapters
//! record into through the `metrics` facade, installed once per process; build information and
//! process metrics; and the gauges only the database knows (the connection pool, the outbox and
//! email backlog), sampled at each scrape.

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use talent_domain::errors::UseCaseError;
use talent_store::DbStore;

/// Histogram buckets in seconds: from a cached `/me` (sub-millisecond) to a webhook attempt's
/// 10 s deadline.
const BUCKETS: [f64; 13] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// How often the recorder's histograms take in the samples recorded since (T309).
pub const UPKEEP: Duration = Duration::from_secs(1);

/// Upkeeps run so far by the process's upkeep thread ([`handle`]).
static UPKEEPS: AtomicU64 = AtomicU64::new(0);

/// The process's recorder and its renderer; installed by the first call (a process may build
/// several services, as the end-to-end tests do: they share it). The first call also starts the
/// thread (`metrics-upkeep`) that every [`UPKEEP`] folds the samples each histogram recorded
/// into its buckets (T309): the recorder keeps every sample until then, and did until a scrape
/// of `/metrics` before T309, so a service that nobody scraped grew by about 16 bytes a request.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .unwrap_or_else(|_| PrometheusBuilder::new())
            .build_recorder();
        let handle = recorder.handle();
        let upkeep = handle.clone();
        let started = std::thread::Builder::new().name("metrics-upkeep".into()).spawn(move || loop {
            std::thread::sleep(UPKEEP);
            upkeep.run_upkeep();
            UPKEEPS.fetch_add(1, Ordering::Relaxed);
        });
        if let Err(e) = started {
            tracing::error!(error = %e, "metrics: no upkeep thread; histograms keep their samples until a scrape");
        }
        // Fails only when another recorder is installed already; this one then renders nothing.
        let _ = metrics::set_global_recorder(recorder);
        describe();
        metrics::gauge!(
            "talent_build_info",
            "version" => env!("CARGO_PKG_VERSION"),
            "commit" => env!("TALENT_GIT_COMMIT")
        )
        .set(1.0);
        handle
    })
}

/// What `GET /metrics` renders: every recorded metric, the sampled ones (the database's gauges,
/// the process's) refreshed first, so a scrape is never behind.
pub fn renderer(store: DbStore) -> talent_http::metrics::Render {
    let handle = handle();
    let process = Arc::new(metrics_process::Collector::default());
    process.describe();
    Arc::new(move || {
        let (store, process) = (store.clone(), process.clone());
        Box::pin(async move {
            if let Err(e) = sample(&store).await {
                tracing::debug!(error = %e, "metrics: the database's gauges keep their last values");
            }
            process.collect();
            handle.render()
        })
    })
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_gauge!("talent_build_info", "Always 1; the labels name the version and git commit.");
    describe_counter!("talent_http_requests_total", "HTTP requests by method, route template and status.");
    describe_histogram!(
        "talent_http_request_duration_seconds",
        Unit::Seconds,
        "HTTP request latency by method and route template."
    );
    describe_gauge!("talent_http_requests_in_flight", "HTTP requests being served.");
    describe_counter!("talent_auth_failures_total", "Requests refused authentication, by error code.");
    describe_counter!(
        "talent_rate_limited_total",
        "Requests refused 429, by budget: key (organization or key), ip or admin (failed admin tokens)."
    );
    describe_gauge!("talent_db_pool_max", "Most database connections.");
    describe_gauge!("talent_db_pool_open", "Open database connections.");
    describe_gauge!("talent_db_pool_in_use", "Database connections in use.");
    describe_gauge!("talent_db_pool_waiting", "Tasks waiting for a database connection.");
    describe_histogram!(
        "talent_db_transaction_duration_seconds",
        Unit::Seconds,
        "Database transaction latency, read or write, the wait for a connection included."
    );
    describe_counter!("talent_db_errors_total", "Database errors: unavailable, unique_violation, internal.");
    describe_gauge!("talent_db_write_queue", "SQLite: write transactions waiting for the single writer.");
    describe_counter!("talent_db_write_transactions_total", "SQLite: write transactions run.");
    describe_counter!("talent_db_write_groups_total", "SQLite: commits, each of a group of write transactions.");
    describe_counter!(
        "talent_db_write_groups_rerun_total",
        "SQLite: groups rolled back because a transaction failed after writing, the others run again."
    );
    describe_counter!(
        "talent_db_checkpoints_total",
        "SQLite: checkpoints of the write-ahead log into the database file, run beside the writer."
    );
    describe_gauge!(
        "talent_db_write_busy_seconds",
        Unit::Seconds,
        "SQLite: time the single writer has been busy since start; its rate is the writer's busy fraction."
    );
    describe_gauge!("talent_webhook_deliveries_pending", "Webhook deliveries not yet succeeded or failed.");
    describe_gauge!("talent_webhook_deliveries_due", "Pending deliveries to enabled endpoints whose attempt is due.");
    describe_gauge!(
        "talent_webhook_oldest_due_delivery_age_seconds",
        Unit::Seconds,
        "How long the oldest due delivery has waited."
    );
    describe_counter!(
        "talent_webhook_attempts_total",
        "Webhook attempts by outcome: 2xx, 3xx, 4xx, 5xx, timeout, connect_error, blocked, other."
    );
    describe_histogram!("talent_webhook_attempt_duration_seconds", Unit::Seconds, "Webhook attempt latency.");
    describe_gauge!("talent_webhook_endpoints_disabled", "Webhook endpoints disabled.");
    describe_gauge!("talent_emails_pending", "Emails not sent yet.");
    describe_gauge!("talent_emails_failed", "Emails not sent yet whose last attempt failed.");
    describe_gauge!("talent_rate_limit_store_up", "1 while the shared rate limit store (Redis) answers, else 0.");
    describe_counter!(
        "talent_rate_limit_store_errors_total",
        "Calls to the rate limit store that failed or timed out."
    );
}

/// Sets the database's gauges once. Errors: the database's.
pub async fn sample(store: &DbStore) -> Result<(), UseCaseError> {
    let (max, open, idle, waiting) = store.pool_status();
    metrics::gauge!("talent_db_pool_max").set(max as f64);
    metrics::gauge!("talent_db_pool_open").set(open as f64);
    metrics::gauge!("talent_db_pool_in_use").set(open.saturating_sub(idle) as f64);
    metrics::gauge!("talent_db_pool_waiting").set(waiting as f64);
    if matches!(store.backend(), talent_store::Backend::Sqlite) {
        let w = store.write_stats();
        metrics::gauge!("talent_db_write_queue").set(w.queued as f64);
        metrics::counter!("talent_db_write_transactions_total").absolute(w.jobs);
        metrics::counter!("talent_db_write_groups_total").absolute(w.groups);
        metrics::counter!("talent_db_write_groups_rerun_total").absolute(w.rerun);
        metrics::counter!("talent_db_checkpoints_total").absolute(w.checkpoints);
        metrics::gauge!("talent_db_write_busy_seconds").set(w.held.as_secs_f64());
    }
    let b = store.backlog(time::OffsetDateTime::now_utc()).await?;
    metrics::gauge!("talent_webhook_deliveries_pending").set(b.deliveries_pending as f64);
    metrics::gauge!("talent_webhook_deliveries_due").set(b.deliveries_due as f64);
    metrics::gauge!("talent_webhook_oldest_due_delivery_age_seconds").set(b.oldest_due_seconds);
    metrics::gauge!("talent_webhook_endpoints_disabled").set(b.endpoints_disabled as f64);
    metrics::gauge!("talent_emails_pending").set(b.emails_pending as f64);
    metrics::gauge!("talent_emails_failed").set(b.emails_failed as f64);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{handle, UPKEEP, UPKEEPS};
    use std::sync::atomic::Ordering;

    #[test]
    fn the_histograms_samples_are_folded_into_their_buckets_every_second_without_a_scrape_t309() {
        handle();
        let before = UPKEEPS.load(Ordering::Relaxed);
        metrics::histogram!("talent_test_upkeep_seconds").record(0.001);
        let started = std::time::Instant::now();
        while UPKEEPS.load(Ordering::Relaxed) < before + 2 {
            assert!(started.elapsed() < UPKEEP * 10, "no upkeep ran in {:?}", started.elapsed());
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // What the upkeep folded in is what a scrape renders.
        assert!(handle().render().contains("talent_test_upkeep_seconds_count 1"));
    }
}
