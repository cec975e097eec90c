//! What every request leaves behind (issue 17): its id on the answer (`X-Request-Id`), that id
//! on everything logged while it is served (the task's request id, [`crate::request_id::current`],
//! which the app's log format writes as a span named `request` would be written; a real
//! `tracing` span of that name only when asked for, T240), its metrics (`talent_http_*`,
//! [`crate::metrics`]) and one access-log line: method, path (never the query string, which can
//! carry personal data), status and duration, at `info` (a health probe that succeeds at `debug`:
//! [`is_probe`]). Keys, tokens and bodies are never logged.
//!
//! One middleware, the outermost, does all four (T236): three (ids, metrics, access log) each
//! boxed a future of their own and read the clock twice per request. It also arms the body-read
//! deadline ([`crate::deadline::arm`], T239) before anything reads the body, and spends the
//! client address's budget of failed requests on a 4xx answered outside the APIs
//! ([`crate::auth::spend_client_error`], T321).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::HeaderValue;
use actix_web::middleware::Next;
use std::time::Instant;
use tracing::Instrument;

use crate::request_id::{new_id, valid};

/// The target of the access log's events (the app's log format writes them itself).
pub const ACCESS: &str = "talent::access";

/// The name of the span a request's lines are written in (made here only when asked for; the
/// app's log format writes the same name with the task's request id otherwise).
pub const REQUEST_SPAN: &str = "request";

/// The middleware; see the module's documentation. It covers every other middleware, so its
/// header is on every answer, errors included, and every line of the request carries the id.
/// The probes (`/healthz`, `/readyz`) and `/metrics` are not counted; a probe that succeeds is
/// logged at `debug` ([`is_probe`]), every other request at `info`.
///
/// With `span` the request is also served inside a `tracing` span `request{request_id}`: for a
/// log format that does not read the task's request id itself (the app's coloured terminal
/// format). Without it no span is made: creating, entering and closing one per request was
/// about 4 % of a `GET /api/v1/me` (T240).
pub async fn observe(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    span: bool,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    crate::deadline::arm(&mut req);
    // The id once as a string (the task's request id, and the span's field when there is one)
    // and once as the header it is answered with: a valid id sent by the client is its own header value, shared.
    let given = req.headers().get(&crate::names::X_REQUEST_ID);
    let (id, header) = match given.and_then(|h| h.to_str().ok().filter(|s| valid(s)).map(|s| (s.to_string(), h))) {
        Some((id, h)) => (id, Some(h.clone())),
        None => {
            let id = new_id();
            let h = HeaderValue::from_str(&id).ok();
            (id, h)
        }
    };
    let probe = is_probe(req.path());
    let counted = !probe && req.path() != "/metrics";
    let span = if span { tracing::info_span!(REQUEST_SPAN, request_id = %id) } else { tracing::Span::none() };
    let served = async move {
        let start = Instant::now();
        let in_flight = counted.then(crate::metrics::InFlight::enter);
        let res = next.call(req).await;
        drop(in_flight);
        // A 4xx outside the APIs spends from the address's budget of failed requests (D8); its
        // future is made for those answers only (T323: awaited in place, it moved every answer
        // in and out of its state).
        let res = res?;
        let res = if crate::auth::spends_client_error(&res) {
            Box::pin(crate::auth::spend_client_error(res)).await
        } else {
            res.map_into_left_body()
        };
        let elapsed = start.elapsed();
        // The method and path as the answer's request holds them: nothing copied beforehand.
        let (method, path) = (res.request().method(), log_path(res.request().path()));
        if counted {
            crate::metrics::record(method, &res, elapsed);
        }
        let (status, ms) = (res.status().as_u16(), elapsed.as_millis() as u64);
        if probe && res.status().is_success() {
            tracing::debug!(target: ACCESS, %method, %path, status, ms, "request");
        } else {
            tracing::info!(target: ACCESS, %method, %path, status, ms, "request");
        }
        Ok::<_, actix_web::Error>(res)
    };
    let mut res = crate::request_id::scope(id, served.instrument(span)).await?;
    if let Some(v) = header {
        res.headers_mut().insert(crate::names::X_REQUEST_ID.clone(), v);
    }
    Ok(res)
}

/// Whether `path` is a health probe (`/healthz`, `/readyz`): a load balancer or an orchestrator
/// asks one every few seconds, so a probe that succeeds is written at `debug`, not `info`, and
/// the default log holds only the probes that failed (T278). Probes are never counted in the
/// request metrics either.
pub fn is_probe(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz")
}

/// The path as the access log writes it: an invitation page's token is a credential (whoever
/// holds the link acts as the person), so `/i/{token}` is written `/i/…` (issue 12); so is a
/// dashboard sign-in link's, `/dashboard/sign-in/…` (issue 18).
pub fn log_path(path: &str) -> std::borrow::Cow<'_, str> {
    if path.starts_with("/i/") {
        "/i/…".into()
    } else if path.starts_with("/dashboard/sign-in/") {
        "/dashboard/sign-in/…".into()
    } else {
        path.into()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::log_path;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    /// A recorder that keeps `talent_http_requests_in_flight` (as the exporter does: a gauge's
    /// value as `f64` bits) and counts the series registered.
    #[derive(Default)]
    struct Probe {
        in_flight: Arc<AtomicU64>,
        series: std::sync::Mutex<Vec<String>>,
    }

    impl metrics::Recorder for Probe {
        fn describe_counter(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}
        fn describe_gauge(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}
        fn describe_histogram(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}
        fn register_counter(&self, key: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Counter {
            self.series.lock().unwrap().push(format!("{key:?}"));
            metrics::Counter::noop()
        }
        fn register_gauge(&self, _: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Gauge {
            metrics::Gauge::from_arc(self.in_flight.clone())
        }
        fn register_histogram(&self, _: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Histogram {
            metrics::Histogram::noop()
        }
    }

    /// A request whose future is dropped before it is answered (its connection closed) is no
    /// longer in flight; a method of the client's own is one series, `other` (T236).
    #[test]
    fn a_dropped_request_leaves_the_in_flight_gauge_and_odd_methods_share_one_series() {
        use actix_web::{middleware::from_fn, test, web, App, HttpResponse};
        let probe = Probe::default();
        metrics::with_local_recorder(&probe, || {
            actix_web::rt::System::new().block_on(async {
                let app = test::init_service(
                    App::new()
                        .wrap(from_fn(|req, next| super::observe(req, next, false)))
                        .route("/never", web::get().to(std::future::pending::<HttpResponse>))
                        .default_service(web::to(HttpResponse::MethodNotAllowed)),
                )
                .await;
                let pending = test::call_service(&app, test::TestRequest::get().uri("/never").to_request());
                let dropped = tokio::time::timeout(std::time::Duration::from_millis(50), pending).await;
                assert!(dropped.is_err(), "the handler never answers");
                for m in ["FROBNICATE", "FROB2", "GET"] {
                    let req = test::TestRequest::default()
                        .method(actix_web::http::Method::from_bytes(m.as_bytes()).unwrap())
                        .uri("/x")
                        .to_request();
                    assert_eq!(test::call_service(&app, req).await.status(), 405);
                }
            });
        });
        assert_eq!(f64::from_bits(probe.in_flight.load(Ordering::SeqCst)), 0.0);
        let series = probe.series.lock().unwrap().join("\n");
        assert!(!series.contains("FROB"), "{series}");
        assert_eq!(series.matches("\"other\"").count(), 1, "{series}");
        assert_eq!(series.matches("\"GET\"").count(), 1, "{series}");
    }

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
