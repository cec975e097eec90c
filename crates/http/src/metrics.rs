//! Prometheus metrics of the HTTP layer (issue 17; every metric is listed in
//! `docs/operations.md`): requests by route template, method and status, their latency, the
//! requests in flight; and `GET /metrics`, which renders what every adapter recorded.
//!
//! The adapters record through the `metrics` facade; the app installs the Prometheus recorder and
//! gives this module its renderer ([`MetricsEndpoint`]), so this crate depends on no exporter.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest, HttpResponse};
use std::sync::Arc;
use std::time::Instant;

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

/// Records each request: `talent_http_requests_total{method,route,status}`,
/// `talent_http_request_duration_seconds{method,route}` and `talent_http_requests_in_flight`.
/// `route` is the route's template (`/api/v1/persons/{id}`), never the raw path: ids and tokens
/// stay out of the labels, and their number stays bounded (`unmatched` for no route). The probes
/// and `/metrics` are not counted.
pub async fn http_metrics(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    // The probes and the scrape itself are polled all the time and tell nothing about traffic.
    if matches!(req.path(), "/healthz" | "/readyz" | "/metrics") {
        return next.call(req).await;
    }
    let start = Instant::now();
    let method = req.method().as_str().to_string();
    metrics::gauge!("talent_http_requests_in_flight").increment(1.0);
    let res = next.call(req).await;
    metrics::gauge!("talent_http_requests_in_flight").decrement(1.0);
    let res = res?;
    let route = res.request().match_pattern().unwrap_or_else(|| "unmatched".to_string());
    let status = res.status().as_u16().to_string();
    metrics::counter!("talent_http_requests_total", "method" => method.clone(), "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!("talent_http_request_duration_seconds", "method" => method, "route" => route)
        .record(start.elapsed().as_secs_f64());
    Ok(res)
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
