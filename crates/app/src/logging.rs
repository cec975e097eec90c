//! The log (issue 11, T64, T117): the text or JSON pipeline that never blocks a request, the
//! `TALENT_LOG` filter, and the format of the access log's lines (the HTTP layer's
//! [`talent_http::observe`] emits them, with credentials taken out of paths).

use std::time::Duration;
// The access log's target (`Lines` writes its events' fields itself) and the request span's name.
use talent_http::observe::{ACCESS, REQUEST_SPAN};

use crate::log_queue::PIPE_BUF;

/// The log pipeline (issue 11, T64): lines are formatted on the calling thread and written to
/// stderr by background threads, so a request never waits for the terminal or the log collector.
/// `INFO` and more verbose lines (the access log) go through a lossy buffer of 8 MiB
/// ([`crate::log_queue`], T308): when the output cannot keep up they are dropped and counted
/// ([`Logging::report_drops`]), never blocking a request, and under load they are written in
/// batches without a wake-up per line. `WARN` and `ERROR` lines go through a queue that never
/// drops (a writer waits when it is full) and is written at once. Keep the returned [`Logging`]
/// alive: dropping it flushes both queues. Errors: the thread of the lossy queue could not be
/// started.
pub(crate) fn init_tracing(filter: &str, json: bool) -> std::io::Result<Logging> {
    use tracing_subscriber::fmt::writer::MakeWriterExt;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    // Each thread writes whole lines in pieces of at most PIPE_BUF bytes: one write(2) per ~20
    // access-log lines under load instead of one per line (issue 11: the writer thread took 9%
    // of the CPU of a `/healthz` run), and still one per line when idle. A write of at most
    // PIPE_BUF bytes to a pipe is atomic, so the two threads never interleave within a line.
    let (lossy, lossy_drain) = crate::log_queue::start(std::io::stderr(), crate::log_queue::BYTES)?;
    let stderr = std::io::BufWriter::with_capacity(PIPE_BUF, std::io::stderr());
    let (lossless, lossless_guard) =
        tracing_appender::non_blocking::NonBlockingBuilder::default().lossy(false).finish(stderr);
    let dropped = lossy.dropped();
    let writer = lossy.with_min_level(tracing::Level::INFO).and(lossless.with_max_level(tracing::Level::WARN));
    let format = format_layer(writer, json, coloured(json));
    let _ = tracing_subscriber::registry().with(format).with(log_filter(filter)).try_init();
    Ok(Logging { _lossy: lossy_drain, _lossless: lossless_guard, dropped })
}

/// Whether the log is written in colours: text to a terminal. Then the request's id reaches its
/// lines through a `tracing` span around the request (T240), since the coloured format is
/// tracing-subscriber's own.
pub(crate) fn coloured(json: bool) -> bool {
    !json && std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// The log's format layer writing to `writer`: text (with colours when `ansi`), or with `json`
/// one object per line: timestamp, level, the event's fields (message included) at the top, and
/// `span` with the request's `request_id` inside a request (issue 17). Without colours every line
/// is written by [`Lines`].
fn format_layer<S, W>(writer: W, json: bool, ansi: bool) -> Box<dyn tracing_subscriber::Layer<S> + Send + Sync>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    format_layer_with(writer, json, ansi, true)
}

/// [`format_layer`]; without `own` tracing-subscriber's formatter writes every line (what
/// [`Lines`] must write the same, given a `request` span where [`Lines`] reads the task's
/// request id).
fn format_layer_with<S, W>(
    writer: W,
    json: bool,
    ansi: bool,
    own: bool,
) -> Box<dyn tracing_subscriber::Layer<S> + Send + Sync>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    use tracing_subscriber::Layer;
    let format = tracing_subscriber::fmt::layer().with_writer(writer).with_target(false);
    if json {
        format
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .map_event_format(|inner| Lines { inner, json: true, own })
            .boxed()
    } else {
        format.with_ansi(ansi).map_event_format(|inner| Lines { inner, json: false, own }).boxed()
    }
}

/// The event format (issue 38, T231, T240): the lines of tracing-subscriber's own formats (`inner`:
/// its full text format or its JSON), written here without colours, for two reasons:
///
/// - a request is served without a `tracing` span (creating, entering and closing one was about
///   4 % of a `GET /api/v1/me`): its id is the task's ([`talent_http::request_id::current`]),
///   written where and as a span `request{request_id}` around the line would be written, before
///   any span of the event's own;
/// - an access-log line (one per request, target [`ACCESS`]) skips the general formatter's
///   work: the timestamp's date and time of day are formatted once a second per thread, the
///   fields are written as they are visited, and (JSON) no span is parsed back from its stored
///   JSON.
///
/// Other events' fields are written by tracing-subscriber's field formatter (text) or by
/// tracing-serde (JSON), as the general formats write them. With colours (a terminal) the
/// general formatter writes every line, and requests have their span.
struct Lines<F> {
    inner: F,
    json: bool,
    /// Whether it writes lines itself (else `inner` writes them all: the tests' reference).
    own: bool,
}

impl<S, N, F> tracing_subscriber::fmt::FormatEvent<S, N> for Lines<F>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
    F: tracing_subscriber::fmt::FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        use tracing_subscriber::fmt::FormattedFields;
        if !self.own || writer.has_ansi_escapes() {
            return self.inner.format_event(ctx, writer, event);
        }
        let meta = event.metadata();
        let access = meta.target() == ACCESS;
        #[cfg(test)]
        tests::OWN.with(|n| n.set(n.get() + 1));
        if self.json {
            // The span as the JSON format writes it: the current span's stored fields (a JSON
            // object) and its name, else the request's id; anything else is left to that format.
            let current = event.parent().and_then(|id| ctx.span(id)).or_else(|| ctx.lookup_current());
            let span = match &current {
                Some(span) => {
                    let ext = span.extensions();
                    match ext.get::<FormattedFields<N>>().and_then(|f| f.fields.trim().strip_suffix('}')) {
                        Some(open) if open.starts_with('{') => Some((open.to_string(), span.metadata().name())),
                        _ => {
                            #[cfg(test)]
                            tests::OWN.with(|n| n.set(n.get() - 1));
                            return self.inner.format_event(ctx, writer, event);
                        }
                    }
                }
                None => talent_http::request_id::current(|id| {
                    (format!("{{\"request_id\":{}", json_string(id)), REQUEST_SPAN)
                }),
            };
            writer.write_str("{\"timestamp\":\"")?;
            write_timestamp(&mut writer)?;
            write!(writer, "\",\"level\":\"{}\"", meta.level().as_str())?;
            if access {
                let mut fields = JsonFields { w: &mut writer, result: Ok(()) };
                event.record(&mut fields);
                fields.result?;
            } else {
                write_serde_fields(&mut writer, event)?;
            }
            if let Some((open, name)) = span {
                let sep = if open == "{" { "" } else { "," };
                write!(writer, ",\"span\":{open}{sep}\"name\":{}}}", json_string(name))?;
            }
            return writer.write_str("}\n");
        }
        write_timestamp(&mut writer)?;
        // The level right-aligned in five, as `{:>5}` writes it, without the formatter (T319).
        writer.write_str(match *meta.level() {
            tracing::Level::TRACE => " TRACE ",
            tracing::Level::DEBUG => " DEBUG ",
            tracing::Level::INFO => "  INFO ",
            tracing::Level::WARN => "  WARN ",
            tracing::Level::ERROR => " ERROR ",
        })?;
        // The request's id as its span would be written, first; whether it was written.
        let request = |w: &mut tracing_subscriber::fmt::format::Writer<'_>| {
            talent_http::request_id::current(|id| {
                w.write_str(REQUEST_SPAN)?;
                w.write_str("{request_id=")?;
                w.write_str(id)?;
                w.write_str("}:")
            })
            .transpose()
            .map(|written| written.is_some())
        };
        let mut seen = false;
        match ctx.event_scope() {
            Some(scope) => {
                for span in scope.from_root() {
                    if !seen && span.metadata().name() != REQUEST_SPAN {
                        request(&mut writer)?;
                    }
                    writer.write_str(span.metadata().name())?;
                    seen = true;
                    let ext = span.extensions();
                    if let Some(fields) = ext.get::<FormattedFields<N>>().filter(|f| !f.is_empty()) {
                        write!(writer, "{{{fields}}}")?;
                    }
                    writer.write_char(':')?;
                }
            }
            None => seen = request(&mut writer)?,
        }
        if seen {
            writer.write_char(' ')?;
        }
        if access {
            let mut fields = TextFields { w: &mut writer, first: true, result: Ok(()) };
            event.record(&mut fields);
            fields.result?;
        } else {
            tracing_subscriber::fmt::FormatFields::format_fields(ctx, writer.by_ref(), event)?;
        }
        writer.write_char('\n')
    }
}

/// `event`'s fields as tracing-subscriber's JSON format flattens them (through tracing-serde):
/// `,"name":value` each, in the order they are visited.
fn write_serde_fields(w: &mut impl std::fmt::Write, event: &tracing::Event<'_>) -> std::fmt::Result {
    use serde::ser::{SerializeMap, Serializer};
    let mut object = Vec::new();
    let mut serializer = serde_json::Serializer::new(&mut object);
    let mut map = serializer.serialize_map(None).map_err(|_| std::fmt::Error)?;
    let mut visitor = tracing_serde::SerdeMapVisitor::new(map);
    event.record(&mut visitor);
    map = visitor.take_serializer().map_err(|_| std::fmt::Error)?;
    map.end().map_err(|_| std::fmt::Error)?;
    let object = std::str::from_utf8(&object).map_err(|_| std::fmt::Error)?;
    match object.strip_prefix('{').and_then(|o| o.strip_suffix('}')) {
        Some("") | None => Ok(()),
        Some(fields) => write!(w, ",{fields}"),
    }
}

thread_local! {
    /// The second of the last timestamp this thread wrote, and its `YYYY-MM-DDTHH:MM:SS`.
    static SECOND: std::cell::RefCell<(u64, String)> = const { std::cell::RefCell::new((u64::MAX, String::new())) };
}

/// Now, as tracing-subscriber's default timer writes it (RFC 3339 in UTC with microseconds:
/// `2026-11-27T08:27:23.166068Z`).
fn write_timestamp(w: &mut impl std::fmt::Write) -> std::fmt::Result {
    use std::fmt::Write as _;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let (secs, micros) = (now.as_secs(), now.subsec_micros());
    SECOND.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.0 != secs {
            let t = i64::try_from(secs)
                .ok()
                .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
                .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
            cell.1.clear();
            let (y, mo, d) = (t.year(), u8::from(t.month()), t.day());
            let _ = write!(cell.1, "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}", t.hour(), t.minute(), t.second());
            cell.0 = secs;
        }
        w.write_str(&cell.1)?;
        write_micros(w, micros)
    })
}

/// `.`, `micros` (below 1,000,000) in six digits, then `Z`: as `{micros:06}` writes them, without
/// the formatter (T319).
fn write_micros(w: &mut impl std::fmt::Write, micros: u32) -> std::fmt::Result {
    let mut digits = itoa::Buffer::new();
    let micros = digits.format(micros);
    w.write_char('.')?;
    w.write_str(&"000000"[micros.len().min(6)..])?;
    w.write_str(micros)?;
    w.write_char('Z')
}

/// An access-log event's fields as the text format writes them: the message, then `name=value`
/// with values as `Debug` shows them, separated by spaces.
struct TextFields<'a, 'w> {
    w: &'a mut tracing_subscriber::fmt::format::Writer<'w>,
    first: bool,
    result: std::fmt::Result,
}

impl tracing::field::Visit for TextFields<'_, '_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        let r = self.name(field).and_then(|()| write!(self.w, "{value:?}"));
        self.result = self.result.and(r);
    }

    /// A number as `Debug` writes it (the status and the duration of every line), in decimal
    /// without the formatter (T319).
    fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
        let r = self.name(field).and_then(|()| self.w.write_str(itoa::Buffer::new().format(value)));
        self.result = self.result.and(r);
    }
}

impl TextFields<'_, '_> {
    /// What comes before a field's value: a space after the first field, and `name=` unless it
    /// is the message.
    fn name(&mut self, field: &tracing::field::Field) -> std::fmt::Result {
        if !std::mem::take(&mut self.first) {
            self.w.write_char(' ')?;
        }
        match field.name() {
            "message" => Ok(()),
            name => {
                self.w.write_str(name)?;
                self.w.write_char('=')
            }
        }
    }
}

/// An access-log event's fields as the JSON format flattens them: `,"name":value` each, numbers
/// and booleans as such, anything else a string of its `Debug` form.
struct JsonFields<'a, 'w> {
    w: &'a mut tracing_subscriber::fmt::format::Writer<'w>,
    result: std::fmt::Result,
}

impl JsonFields<'_, '_> {
    fn put(&mut self, field: &tracing::field::Field, value: impl std::fmt::Display) {
        let r = write!(self.w, ",{}:{value}", json_string(field.name()));
        self.result = self.result.and(r);
    }
}

impl tracing::field::Visit for JsonFields<'_, '_> {
    fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
        self.put(field, value);
    }
    fn record_i64(&mut self, field: &tracing::field::Field, value: i64) {
        self.put(field, value);
    }
    fn record_bool(&mut self, field: &tracing::field::Field, value: bool) {
        self.put(field, value);
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.put(field, json_string(value));
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.put(field, json_string(&format!("{value:?}")));
    }
}

/// `s` as a JSON string, escaped as serde_json escapes it.
fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
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
    _lossy: crate::log_queue::Drain,
    _lossless: tracing_appender::non_blocking::WorkerGuard,
    /// Lines of `INFO` or more verbose dropped because the output was too slow.
    dropped: std::sync::Arc<std::sync::atomic::AtomicU64>,
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
                let now = counter.load(std::sync::atomic::Ordering::Relaxed);
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{format_layer_with, ACCESS};
    use std::sync::{Arc, Mutex};
    use tracing_subscriber::layer::SubscriberExt;

    thread_local! {
        /// Lines [`super::Lines`] wrote itself on this thread.
        pub(super) static OWN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// What the log writes, text or JSON, of events in a request (access-log lines, a path with a
    /// quote, a backslash, a space and a non-ASCII character; other events with fields of every
    /// kind; both also inside a span of their own) and outside any request. With `own` the
    /// request is the task's id and [`super::Lines`] writes the lines, as the service runs; without,
    /// the request is a `request` span and tracing-subscriber's formatter writes them (the
    /// reference).
    fn lines(json: bool, own: bool, id: &str) -> Vec<String> {
        let buf: Arc<Mutex<Vec<u8>>> = Arc::default();
        let out = buf.clone();
        let writer = move || Sink(out.clone());
        let subscriber = tracing_subscriber::registry().with(format_layer_with(writer, json, false, own));
        let events = || {
            tracing::info!(target: ACCESS, method = %"GET", path = %"/i/…", status = 404u16, ms = 0u64, "request");
            tracing::info!(target: ACCESS, method = %"POST", path = %"/a\"b\\c d", status = 201u16, ms = 17u64, "request");
            tracing::info_span!("attempt", delivery_id = 7u64).in_scope(|| {
                tracing::info!(target: ACCESS, method = %"GET", path = %"/healthz", status = 200u16, ms = 1u64, "request");
                tracing::warn!(error = %"connection refused", "webhook attempt");
            });
            tracing::info!(target: ACCESS, "request");
            let e = std::io::Error::other("disk full");
            tracing::error!(
                error = &e as &(dyn std::error::Error + 'static),
                ratio = 0.5f64,
                n = -3i64,
                ok = true,
                name = "x\"y",
                list = ?[1, 2],
                "internal error: {}",
                42
            );
            tracing::info!("only a message");
        };
        tracing::subscriber::with_default(subscriber, || {
            if own {
                let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
                rt.block_on(talent_http::request_id::scope(id.to_string(), async { events() }));
            } else {
                tracing::info_span!("request", request_id = %id).in_scope(events);
            }
            tracing::info!(target: ACCESS, method = %"GET", path = %"/", status = 503u16, ms = 5000u64, "request");
            tracing::warn!(dropped = 3u64, total = 5u64, "log lines dropped");
        });
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_microseconds_are_six_digits_as_the_formatter_pads_them_t319() {
        for micros in [0, 7, 42, 999, 1_000, 65_536, 100_000, 123_456, 999_999] {
            let mut line = String::new();
            super::write_micros(&mut line, micros).unwrap();
            assert_eq!(line, format!(".{micros:06}Z"));
        }
    }

    #[test]
    fn every_line_is_written_as_the_general_format_writes_it_in_a_request_span_t231_t240() {
        let stamp = regex_lite::Regex::new(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z").unwrap();
        let id = "0816ee82-0529-42fe-b063-64ce580b85da";
        for json in [false, true] {
            for id in [id, "ats\"sync\\42"] {
                let before = OWN.with(std::cell::Cell::get);
                let own = lines(json, true, id);
                assert_eq!(OWN.with(std::cell::Cell::get) - before, 9, "every line its own, json: {json}");
                let general = lines(json, false, id);
                assert_eq!(OWN.with(std::cell::Cell::get) - before, 9, "the general format wrote them");
                assert_eq!(own.len(), 9, "{own:?}");
                for line in &own {
                    assert!(stamp.is_match(line), "{line}");
                }
                let masked = |v: &[String]| v.iter().map(|l| stamp.replace(l, "T").to_string()).collect::<Vec<_>>();
                assert_eq!(masked(&own), masked(&general), "json: {json}");
            }
        }
        let text = lines(false, true, id);
        assert!(
            text[0]
                .ends_with(&format!("  INFO request{{request_id={id}}}: request method=GET path=/i/… status=404 ms=0")),
            "{}",
            text[0]
        );
        assert!(
            text[3].ends_with(&format!(
                "request{{request_id={id}}}:attempt{{delivery_id=7}}: webhook attempt error=connection refused"
            )),
            "{}",
            text[3]
        );
        assert!(text[8].ends_with(" WARN log lines dropped dropped=3 total=5"), "outside a request: {}", text[8]);
        let json: Vec<serde_json::Value> =
            lines(true, true, id).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(json[1]["path"], "/a\"b\\c d");
        assert_eq!(json[1]["status"], 201);
        assert_eq!(json[1]["span"]["request_id"], id);
        assert_eq!(json[3]["span"]["delivery_id"], 7, "the innermost span: {}", json[3]);
        assert_eq!(
            (json[5]["ratio"].as_f64(), json[5]["n"].as_i64(), json[5]["ok"].as_bool()),
            (Some(0.5), Some(-3), Some(true))
        );
        assert_eq!(json[5]["message"], "internal error: 42");
        assert_eq!(json[5]["span"]["name"], "request");
        assert!(json[7].get("span").is_none() && json[8].get("span").is_none(), "outside a request: {}", json[7]);
    }
}
