//! ATS connectors, the inbound half (connectors.md D64-D80): each ATS calls Talent's vendor
//! routes under `/partners/{ats}/…` in its own protocol (its names, its status codes, its error
//! bodies), and each module here translates them to the domain's connector use cases:
//! [`greenhouse`] (Assessment Partner API), [`ashby`] (assessment partner endpoints),
//! [`workable`] (assessment provider), [`kombo`] (its order webhook and order poll). Every route authenticates the connection's key
//! ([`call`]), with the rate limits and the client address's failure budget of the API (D64).
//!
//! [`report`] serves the report links given to ATSs (`/r/{token}`, D68).
//!
//! An adapter like the dashboard: it depends on the domain only and is mounted by the app crate
//! at `/partners` (and the report links at `/r`) with `web::Data<Partners<S>>`.

pub mod ashby;
pub mod call;
pub mod greenhouse;
pub mod kombo;
pub mod push;
pub mod report;
pub mod workable;

use actix_web::{web, HttpRequest, HttpResponse};
use std::net::IpAddr;
use std::sync::Arc;
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::ports::{RateLimiter, Store};
use talent_domain::values::{FieldErrors, PersonName};
use talent_domain::Services;

/// The client address of a request, as the API reads it (behind trusted proxies, the client they
/// name).
pub type ClientIp = Arc<dyn Fn(&HttpRequest) -> IpAddr + Send + Sync>;

/// What the partner routes share (app data).
pub struct Partners<S: Store> {
    /// The use cases.
    pub svc: Services<S>,
    /// The API's budgets: per key and organization, and the failed authentications of an address
    /// (D8, D64).
    pub limiter: Arc<dyn RateLimiter>,
    /// The client address of a request.
    pub client_ip: ClientIp,
}

/// The most a partner route reads of a body, in bytes; more is 413.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Registers the partner routes; mount under `/partners` with `web::Data<Partners<S>>`.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::PayloadConfig::new(BODY_LIMIT))
        .service(web::scope("/greenhouse").configure(greenhouse::configure::<S>))
        .service(web::scope("/ashby").configure(ashby::configure::<S>))
        .service(web::scope("/workable").configure(workable::configure::<S>))
        .service(web::scope("/kombo").configure(kombo::configure::<S>))
        .default_service(web::to(not_found));
}

async fn not_found() -> HttpResponse {
    envelope(&ClientError::not_found("Route"))
}

/// The HTTP status of a client error (the spec's table; 503 for an outage, T87).
pub fn status(e: &ClientError) -> actix_web::http::StatusCode {
    use actix_web::http::StatusCode;
    match (e.code, e.retry_after) {
        (Code::InternalError, Some(_)) => StatusCode::SERVICE_UNAVAILABLE,
        (code, _) => StatusCode::from_u16(code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
    }
}

/// The API's error envelope `{error, code, details?}` with its status, for protocols without an
/// error shape of their own (D64).
pub fn envelope(e: &ClientError) -> HttpResponse {
    let mut body = serde_json::json!({"error": e.message, "code": e.code.as_str()});
    if let Some(d) = &e.details {
        body["details"] = d.clone();
    }
    let mut r = HttpResponse::build(status(e));
    if let Some(s) = e.retry_after {
        r.insert_header(("Retry-After", s.max(1).to_string()));
    }
    r.json(body)
}

/// A use case's error as a client error: the store's and internal failures become the opaque
/// 500/503 of the API (logged by the caller), never their text.
pub fn client_error(e: UseCaseError) -> ClientError {
    match e {
        UseCaseError::Client(c) => c,
        e if e.is_unavailable() => {
            tracing::debug!(error = %e, "database unavailable");
            ClientError::unavailable()
        }
        e => {
            tracing::error!(error = %e, "partner route failure");
            ClientError::internal()
        }
    }
}

/// A body as JSON of type `T`, or the field-free 400 of the API: `not JSON` and `wrong shape`
/// are told apart, and no body text is echoed.
pub fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ClientError> {
    serde_json::from_slice(body).map_err(|e| {
        let what = if e.is_data() { "does not have the expected members" } else { "is not valid JSON" };
        ClientError::new(Code::ValidationError, format!("The request body {what}"))
    })
}

/// A text of the ATS kept on an order (an id, a name, a URL): trimmed, up to 2,000 characters
/// without control characters; blank is absent. Errors go to `errs` under `field`.
pub(crate) fn reference(v: Option<&str>, field: &str, errs: &mut FieldErrors) -> Option<String> {
    let v = v.map(str::trim).filter(|s| !s.is_empty())?;
    if v.chars().count() > 2000 || v.chars().any(char::is_control) {
        errs.push(field, "must be at most 2000 characters without control characters");
        return None;
    }
    Some(v.to_string())
}

/// A person's name as an ATS sends it: kept when it parses, absent when blank.
pub(crate) fn optional_name(v: Option<&str>, field: &str, errs: &mut FieldErrors) -> Option<PersonName> {
    let v = v.map(str::trim).filter(|s| !s.is_empty())?;
    errs.take(field, PersonName::parse(v))
}

/// Renames field `from` of a validation error's `details.fields` to the protocol's `to` (the
/// domain says `test` and `callbackUrl`).
pub(crate) fn rename(e: &mut ClientError, from: &str, to: &str) {
    if let Some(serde_json::Value::Array(fields)) = e.details.as_mut().and_then(|d| d.get_mut("fields")) {
        for f in fields.iter_mut().filter(|f| f.get("field").and_then(|v| v.as_str()) == Some(from)) {
            f["field"] = serde_json::Value::String(to.into());
        }
    }
}

#[cfg(test)]
mod kombo_tests;
#[cfg(test)]
mod tests;
