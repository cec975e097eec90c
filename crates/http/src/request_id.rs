//! Request ids (issue 17): every answer carries `X-Request-Id`, the client's or a proxy's when it
//! sent a valid one, else a new one; every log line written while the request is served carries
//! it as `request_id` (a `tracing` span around the whole request), so an integrator can quote it
//! to support and the operator finds the request's lines. It is also the request's id while its
//! handler runs ([`RequestCorrelation`]): the events the request causes and their webhook
//! deliveries record it (T121).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::HttpMessage;
use tracing::Instrument;

/// The longest request id taken from a request; a longer one is replaced.
pub const MAX_LEN: usize = 128;

tokio::task_local! {
    /// The id of the request whose future is running (set around the whole request).
    static CURRENT: String;
}

/// The [`Correlation`](talent_domain::ports::Correlation) port: the id of the request being served
/// on this task, for the events its use cases write (T121); `None` outside a request.
pub struct RequestCorrelation;

impl talent_domain::ports::Correlation for RequestCorrelation {
    fn request_id(&self) -> Option<String> {
        CURRENT.try_with(Clone::clone).ok()
    }
}

/// The request id of a request (in its extensions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId(pub String);

/// Whether `s` is taken as given: 1 to [`MAX_LEN`] visible ASCII characters (no spaces, no
/// control characters), so it cannot break a header or a log line.
pub fn valid(s: &str) -> bool {
    (1..=MAX_LEN).contains(&s.len()) && s.bytes().all(|b| (0x21..0x7f).contains(&b))
}

/// A new request id: a random UUID.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The middleware: outermost, so that the access log's line and every other line of the request
/// are inside its span, and its header is on every answer, errors included.
pub async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let given = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).filter(|s| valid(s));
    let id = given.map(str::to_string).unwrap_or_else(new_id);
    req.extensions_mut().insert(RequestId(id.clone()));
    let span = tracing::info_span!("request", request_id = %id);
    let mut res = CURRENT.scope(id.clone(), next.call(req).instrument(span)).await?;
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(HeaderName::from_static("x-request-id"), v);
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_visible_ascii_of_bounded_length() {
        assert!(valid("abc-123") && valid("req_01J9Z/x=") && valid(&"a".repeat(128)));
        for bad in ["", "a b", "a\u{7}b", "é", &"a".repeat(129)] {
            assert!(!valid(bad), "{bad:?}");
        }
        assert!(valid(&new_id()));
    }
}
