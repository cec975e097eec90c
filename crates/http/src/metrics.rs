//! Prometheus metrics of the HTTP layer (issue 17; every metric is listed in
//! `docs/operations.md`): requests by route template, method and status, their latency, the
//! requests in flight; and `GET /metrics`, which renders what every adapter recorded.
//!
//! The adapters record through the `metrics` facade; the app installs the Prometheus recorder and
//! gives this module its renderer ([`MetricsEndpoint`]), so this crate depends on no exporter.

use actix_web::dev::ServiceResponse;
use actix_web::{web, HttpRequest, HttpResponse};
use std::borrow::Cow;
use std::sync::Arc;

use crate::error::ApiError;
use talent_domain::errors::Code;

/// Renders every metric in the Prometheus text format, refreshing the sampled ones first.
pub type Render = Arc<dyn Fn() -> futures_util::future::BoxFuture<'static, String> + Send + Sync>;

/// What `GET /metrics` serves, and who may read it.
#[derive(Clone)]
pub struct MetricsEndpoint {
    /// The renderer.
    pub render: Render,
    /// The bearer token a scrape must send (`TALENT_METRICS_TOKEN`, or the admin token); `None`
    /// on the admin listener, which is private (T89).
    pub token: Option<String>,
}

/// A resource's route template (`/api/v1/persons/{id}`), kept on the resource as its app data
/// where the HTTP layer registers it (every route of the API, the admin API and the probes), so
/// that [`record`] need not ask actix-web for it: `match_pattern` matches the path against the
/// resource map again, trying every route registered before the one that answered, and builds a
/// new `String` per request (T318). Routes without one are labelled with `match_pattern`.
#[derive(Clone, Copy, Debug)]
pub struct Route(pub &'static str);

/// Records a request's answer `res` after `elapsed` (the middleware is
/// [`crate::observe::observe`]): `talent_http_requests_total{method,route,status}` and
/// `talent_http_request_duration_seconds{method,route}`. `route` is the route's template
/// (`/api/v1/persons/{id}`), never the raw path: ids and tokens stay out of the labels, and their
/// number stays bounded (`unmatched` for no route); so does `method` (`other` for a method HTTP
/// does not define, T236).
pub(crate) fn record<B>(method: &actix_web::http::Method, res: &ServiceResponse<B>, elapsed: std::time::Duration) {
    let method = method_label(method);
    let route: Cow<'static, str> = match res.request().app_data::<Route>() {
        Some(Route(template)) => {
            debug_assert_eq!(res.request().match_pattern().as_deref(), Some(*template), "a route's label");
            Cow::Borrowed(*template)
        }
        // A route registered without its template (the dashboard's, the ATSs'), or none.
        None => Cow::Owned(res.request().match_pattern().unwrap_or_else(|| "unmatched".to_string())),
    };
    let status = res.status().as_u16();
    HANDLES.with(|cell| {
        let mut handles = cell.borrow_mut();
        let h = handles.entry((method, route, status)).or_insert_with_key(|(method, route, status)| Handles {
            total: metrics::counter!("talent_http_requests_total", "method" => *method, "route" => route.clone(),
                "status" => status.to_string()),
            duration: metrics::histogram!("talent_http_request_duration_seconds", "method" => *method,
                "route" => route.clone()),
        });
        h.total.increment(1);
        h.duration.record(elapsed.as_secs_f64());
    });
}

/// A request counted in `talent_http_requests_in_flight` until this is dropped: when its answer
/// is ready, or when the connection closes first and the request's future is dropped unfinished.
pub(crate) struct InFlight(());

impl InFlight {
    /// Counts one more request in flight.
    pub(crate) fn enter() -> Self {
        IN_FLIGHT.with(|g| g.increment(1.0));
        InFlight(())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.with(|g| g.decrement(1.0));
    }
}

/// A label set of the request metrics: method, route (a template carried by its route, or one
/// `match_pattern` made), status.
type Labels = (&'static str, Cow<'static, str>, u16);

/// The request metrics of one label set (method, route, status).
struct Handles {
    total: metrics::Counter,
    duration: metrics::Histogram,
}

thread_local! {
    /// This worker thread's handles of the request metrics by method, route and status: taken
    /// from the recorder once per label set, not per request (T236: the labels' strings, the
    /// recorder's hash and lock were 4 % of a `GET /api/v1/me`). Bounded: the routes, the
    /// [`method_label`]s and the statuses are. Hashed with foldhash, not SipHash (T319: SipHash
    /// took 1.5 % of a `/me`'s instructions): a client picks the label set only among these
    /// bounded values, so there is no flooding of one bucket to defend against.
    static HANDLES: std::cell::RefCell<hashbrown::HashMap<Labels, Handles>> =
        std::cell::RefCell::new(hashbrown::HashMap::new());
    /// `talent_http_requests_in_flight` (one gauge; each thread holds a handle to it).
    static IN_FLIGHT: metrics::Gauge = metrics::gauge!("talent_http_requests_in_flight");
}

/// The `method` label: the method's name when HTTP defines it, else `other` (a client may send
/// any token as a method; each would otherwise be a series of its own).
fn method_label(m: &actix_web::http::Method) -> &'static str {
    use actix_web::http::Method;
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

/// `GET /metrics`: the Prometheus text format (`text/plain; version=0.0.4`). With a token set, a
/// scrape without `Authorization: Bearer <token>` is 401 (compared in constant time); on a
/// listener whose app has no [`MetricsEndpoint`] (app data), 404.
pub async fn serve(req: HttpRequest) -> HttpResponse {
    use actix_web::ResponseError;
    let Some(endpoint) = req.app_data::<web::Data<MetricsEndpoint>>() else {
        return ApiError::new(Code::NotFound, "No endpoint at /metrics").error_response();
    };
    if let Some(token) = &endpoint.token {
        let presented = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        // Constant time: an HMAC of what was presented checked against the token's.
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, b"talent-metrics-token");
        let expected = ring::hmac::sign(&key, token.as_bytes());
        if ring::hmac::verify(&key, presented.as_bytes(), expected.as_ref()).is_err() {
            return ApiError::new(Code::Unauthorized, "Send the metrics token as 'Authorization: Bearer <token>'")
                .error_response();
        }
    }
    let text = (endpoint.render)().await;
    HttpResponse::Ok().content_type("text/plain; version=0.0.4; charset=utf-8").body(text)
}
