//! The error envelope `{error, code, details?}` and its HTTP status (the one table of codes and
//! statuses is the domain's `Code::status`; spec, Errors; D37). A 500 logs its cause and shows
//! the client nothing internal.

use crate::out::ErrorOut;
use crate::out::JsonBody as _;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use std::fmt;
use talent_domain::errors::{ClientError, Code, StoreError, UseCaseError};

/// HTTP status of each error code: the domain's table ([`Code::status`]).
pub fn status_of(code: Code) -> StatusCode {
    StatusCode::from_u16(code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// An error response of the API.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError(pub ClientError);

impl ApiError {
    /// Builds an error from a code and a message.
    pub fn new(code: Code, msg: impl Into<String>) -> Self {
        ApiError(ClientError::new(code, msg))
    }
    /// `validation_error` for one field (D37 details).
    pub fn field(field: &str, msg: impl Into<String>) -> Self {
        let mut e = talent_domain::values::FieldErrors::default();
        e.push(field, msg);
        ApiError(ClientError::validation(&e))
    }
    /// The envelope body ([`ErrorOut`]).
    pub fn body(&self) -> serde_json::Value {
        talent_domain::wire::to_value(&ErrorOut::from(&self.0))
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.code.as_str(), self.0.message)
    }
}

impl ResponseError for ApiError {
    /// [`status_of`] the code, except that a temporary `internal_error` (one with `retry_after`,
    /// a database outage) is 503 (T87).
    fn status_code(&self) -> StatusCode {
        match (self.0.code, self.0.retry_after) {
            (Code::InternalError, Some(_)) => StatusCode::SERVICE_UNAVAILABLE,
            (code, _) => status_of(code),
        }
    }
    fn error_response(&self) -> HttpResponse {
        let mut r = HttpResponse::build(self.status_code());
        if let Some(secs) = self.0.retry_after {
            r.insert_header((actix_web::http::header::RETRY_AFTER, secs.max(1).to_string()));
        }
        // Through the JSON value, as an idempotent replay of it is (byte for byte the same, D38).
        r.json_body(self.body())
    }
}

impl From<ClientError> for ApiError {
    fn from(e: ClientError) -> Self {
        ApiError(e)
    }
}

impl From<talent_domain::values::FieldErrors> for ApiError {
    fn from(e: talent_domain::values::FieldErrors) -> Self {
        ApiError(ClientError::validation(&e))
    }
}

impl From<UseCaseError> for ApiError {
    fn from(e: UseCaseError) -> Self {
        match e {
            UseCaseError::Client(c) => ApiError(c),
            // The store logs an outage once (T87); each request's failure is only debug.
            UseCaseError::Store(s @ StoreError::Unavailable(_)) => {
                tracing::debug!(error = %s, "database unavailable");
                ApiError(ClientError::unavailable())
            }
            UseCaseError::Store(s) => {
                tracing::error!(error = %s, "store failure");
                ApiError(ClientError::internal())
            }
            UseCaseError::Internal(cause) => {
                tracing::error!(error = %cause, "internal failure");
                ApiError(ClientError::internal())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every status of the domain's table of codes is one actix knows (none falls back to 500).
    #[test]
    fn every_code_has_the_status_of_the_domain_s_table() {
        for c in Code::ALL {
            assert_eq!(status_of(c).as_u16(), c.status(), "{}", c.as_str());
        }
    }

    /// T87: a database outage is 503 with `Retry-After` and the usual envelope; other store
    /// failures stay 500 without it.
    #[test]
    fn an_unavailable_database_is_503_with_retry_after() {
        let e = ApiError::from(UseCaseError::Store(StoreError::Unavailable("refused".into())));
        let r = e.error_response();
        assert_eq!(r.status().as_u16(), 503);
        assert_eq!(r.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("2"));
        assert_eq!(e.body()["code"], "internal_error");
        assert!(!e.body().to_string().contains("refused"), "the cause is not shown");
        let e = ApiError::from(UseCaseError::Store(StoreError::Internal("boom".into())));
        assert_eq!(e.error_response().status().as_u16(), 500);
        assert!(e.error_response().headers().get("retry-after").is_none());
    }

    /// T176: a failure that is neither the client's nor the store's is a 500 with the opaque
    /// envelope of every internal error; its cause is not shown.
    #[test]
    fn an_internal_failure_is_500_with_the_opaque_envelope() {
        let e = ApiError::from(UseCaseError::Internal("report: the font is missing".into()));
        let r = e.error_response();
        assert_eq!(r.status().as_u16(), 500);
        assert!(r.headers().get("retry-after").is_none());
        let store = ApiError::from(UseCaseError::Store(StoreError::Internal("boom".into())));
        assert_eq!(e.body(), store.body(), "the same envelope as a store failure");
        assert_eq!(e.body()["code"], "internal_error");
        assert!(!e.body().to_string().contains("font"), "the cause is not shown");
    }

    #[test]
    fn envelope_has_only_error_code_and_optional_details() {
        let e = ApiError::new(Code::NotFound, "Person not found");
        assert_eq!(e.body(), serde_json::json!({"error": "Person not found", "code": "not_found"}));
        let v = ApiError::field("tags[3]", "bad").body();
        assert_eq!(v["details"]["fields"][0]["field"], "tags[3]");
        assert_eq!(v.as_object().map(|o| o.len()), Some(3));
    }
}
