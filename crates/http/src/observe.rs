//! What every request leaves behind (issue 17): its id on the answer (`X-Request-Id`), a
//! `tracing` span named `request` with that id around everything logged while it is served, its
//! metrics (`talent_http_*`, [`crate::metrics`]) and one access-log line: method, path (never the
//! query string, which can carry personal data), status and duration. Keys, tokens and bodies
//! are never logged.
//!
//! One middleware, the outermost, does all four (T236): three (ids, metrics, access log) each
//! boxed a future of their own and read the clock twice per request.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::HttpMessage;
use std::time::Instant;
use tracing::Instrument;

use crate::request_id::{new_id, valid, RequestId};

/// The target of the access log's events (the app's log format writes them itself).
pub const ACCESS: &str = "talent::access";

/// The middleware; see the module's documentation. The span covers every other middleware, so
/// its header is on every answer, errors included, and every line of the request carries the id.
/// The probes (`/healthz`, `/readyz`) and `/metrics` are logged but not counted.
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let given = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).filter(|s| valid(s));
    let id = given.map(str::to_string).unwrap_or_else(new_id);
    req.extensions_mut().insert(RequestId(id.clone()));
    let counted = !matches!(req.path(), "/healthz" | "/readyz" | "/metrics");
    let method = req.method().clone();
    let path = log_path(req.path()).into_owned();
    let span = tracing::info_span!("request", request_id = %id);
    let served = async move {
        let start = Instant::now();
        let in_flight = counted.then(crate::metrics::InFlight::enter);
        let res = next.call(req).await;
        drop(in_flight);
        let res = res?;
        let elapsed = start.elapsed();
        if counted {
            crate::metrics::record(&method, &res, elapsed);
        }
        tracing::info!(
            target: ACCESS,
            %method,
            %path,
            status = res.status().as_u16(),
            ms = elapsed.as_millis() as u64,
            "request"
        );
        Ok::<_, actix_web::Error>(res)
    };
    let mut res = crate::request_id::scope(id.clone(), served.instrument(span)).await?;
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(HeaderName::from_static("x-request-id"), v);
    }
    Ok(res)
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
