//! The log (issue 11, T64, T117): the text or JSON pipeline that never blocks a request, the
//! `TALENT_LOG` filter, and the access log with credentials taken out of paths.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use std::time::{Duration, Instant};

/// Logs one line per request: method, path (never the query string, which can carry personal
/// data), status and duration. Keys, tokens and bodies are never logged.
pub(crate) async fn access_log(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let start = Instant::now();
    let method = req.method().clone();
    let path = log_path(req.path()).into_owned();
    let res = next.call(req).await?;
    tracing::info!(%method, %path, status = res.status().as_u16(), ms = start.elapsed().as_millis() as u64, "request");
    Ok(res)
}

/// The path as the access log writes it: an invitation page's token is a credential (whoever
/// holds the link acts as the person), so `/i/{token}` is written `/i/…` (issue 12); so is a
/// dashboard sign-in link's, `/dashboard/sign-in/…` (issue 18).
fn log_path(path: &str) -> std::borrow::Cow<'_, str> {
    if path.starts_with("/i/") {
        "/i/…".into()
    } else if path.starts_with("/dashboard/sign-in/") {
        "/dashboard/sign-in/…".into()
    } else {
        path.into()
    }
}

/// The size of a write to a pipe that POSIX guarantees atomic (Linux's `PIPE_BUF`).
const PIPE_BUF: usize = 4096;

/// The log pipeline (issue 11, T64): lines are formatted on the calling thread and written to
/// stderr by background threads, so a request never waits for the terminal or the log collector.
/// `INFO` and more verbose lines (the access log) go through a lossy queue of 128k lines: when the
/// output cannot keep up they are dropped and counted ([`Logging::dropped`]), never blocking a
/// request. `WARN` and `ERROR` lines go through a queue that never drops (a writer waits when it
/// is full). Keep the returned [`Logging`] alive: dropping it flushes both queues.
pub(crate) fn init_tracing(filter: &str, json: bool) -> Logging {
    use tracing_subscriber::fmt::writer::MakeWriterExt;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    // Each queue's thread writes every line it can take at once into a buffer of PIPE_BUF bytes
    // and writes that out when the buffer is full or the queue is empty: one write(2) per ~20
    // access-log lines under load instead of one per line (issue 11: the writer thread took 9%
    // of the CPU of a `/healthz` run), and still one per line when idle. A write of at most
    // PIPE_BUF bytes to a pipe is atomic, so the two threads never interleave within a line.
    let stderr = || std::io::BufWriter::with_capacity(PIPE_BUF, std::io::stderr());
    let (lossy, lossy_guard) = tracing_appender::non_blocking(stderr());
    let (lossless, lossless_guard) =
        tracing_appender::non_blocking::NonBlockingBuilder::default().lossy(false).finish(stderr());
    let dropped = lossy.error_counter();
    let writer = lossy.with_min_level(tracing::Level::INFO).and(lossless.with_max_level(tracing::Level::WARN));
    let format = tracing_subscriber::fmt::layer().with_writer(writer).with_target(false);
    let format: Box<dyn Layer<tracing_subscriber::Registry> + Send + Sync> = if json {
        // One object per line: timestamp, level, the event's fields (message included) at the top,
        // and `span` with the request's `request_id` inside a request (issue 17).
        format.json().flatten_event(true).with_current_span(true).with_span_list(false).boxed()
    } else {
        format.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())).boxed()
    };
    let _ = tracing_subscriber::registry().with(format).with(log_filter(filter)).try_init();
    Logging { _guards: [lossy_guard, lossless_guard], dropped }
}

/// The filter of `TALENT_LOG`. A bare level (`info`, the default; `warn`; `off`) is a
/// [`LevelFilter`](tracing_subscriber::filter::LevelFilter): a comparison per callsite, where an
/// `EnvFilter` also takes a lock on every span entered and left to track span-scoped directives
/// (issue 11: 1 % of a `/healthz` request). Anything else (`info,talent_store=debug`) is an
/// `EnvFilter`; an invalid one falls back to `info`.
fn log_filter<S>(filter: &str) -> Box<dyn tracing_subscriber::Layer<S> + Send + Sync>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    use tracing_subscriber::filter::{EnvFilter, LevelFilter};
    use tracing_subscriber::Layer;
    match filter.trim().parse::<LevelFilter>() {
        Ok(level) => level.boxed(),
        Err(_) => EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new("info")).boxed(),
    }
}

/// The running log pipeline of [`init_tracing`].
pub(crate) struct Logging {
    _guards: [tracing_appender::non_blocking::WorkerGuard; 2],
    /// Lines of `INFO` or more verbose dropped because the output was too slow.
    dropped: tracing_appender::non_blocking::ErrorCounter,
}

impl Logging {
    /// Every 10 s, reports how many lines were dropped since the last report (a `WARN` line,
    /// which is never dropped).
    pub(crate) fn report_drops(&self) {
        let counter = self.dropped.clone();
        tokio::spawn(async move {
            let mut seen = 0;
            let mut tick = tokio::time::interval(Duration::from_secs(10));
            loop {
                tick.tick().await;
                let now = counter.dropped_lines();
                if now > seen {
                    tracing::warn!(
                        dropped = now - seen,
                        total = now,
                        "log lines dropped: the log output is slower than the traffic"
                    );
                    seen = now;
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::log_path;

    #[test]
    fn the_access_log_writes_invitation_pages_without_their_token() {
        assert_eq!(log_path("/i/AbC-123_xyz"), "/i/…");
        assert_eq!(log_path("/i/"), "/i/…");
        assert_eq!(log_path("/dashboard/sign-in/AbC-123_xyz"), "/dashboard/sign-in/…");
        assert_eq!(log_path("/dashboard/sign-in"), "/dashboard/sign-in");
        assert_eq!(log_path("/api/v1/persons/5"), "/api/v1/persons/5");
        assert_eq!(log_path("/invitations"), "/invitations");
    }
}
