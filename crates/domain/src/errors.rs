//! Errors. Every error a client can cause has a [`Code`]; the HTTP adapter maps codes to statuses
//! in one table (spec, Errors). Infrastructure failures are [`StoreError`] and become
//! `internal_error` without exposing their text.

use crate::values::FieldErrors;
use serde_json::{json, Value};

/// Declares the error codes once (meilisearch's habit): each row is the variant, its wire value,
/// its HTTP status and what it means to a client. Everything else is generated from the rows:
/// the enum (each variant documented by its meaning), [`Code::ALL`] in the order of the rows,
/// [`Code::as_str`], [`Code::status`] and [`Code::description`]; the OpenAPI document's
/// `ErrorCode` enumeration and its table of codes are derived from those (T170).
macro_rules! error_codes {
    ($($variant:ident = $code:literal, $status:literal, $description:literal;)+) => {
        /// The spec's stable machine-readable error codes (spec, Errors; D37 adds
        /// `payload_too_large` and `method_not_allowed`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Code {
            $(#[doc = $description] $variant,)+
        }

        impl Code {
            /// Every code, in the order of the spec's table (D37's additions last).
            pub const ALL: [Code; [$($code),+].len()] = [$(Code::$variant),+];

            /// The HTTP status of the code (spec, Errors: the one table of codes and statuses;
            /// issue 14, point 9). `internal_error` is 500 here; a temporary one (a database
            /// outage) is answered 503 by the HTTP layer (T87).
            pub fn status(self) -> u16 {
                match self {
                    $(Code::$variant => $status,)+
                }
            }

            /// The wire value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)+
                }
            }

            /// What the code means to a client (one sentence, public text).
            pub fn description(self) -> &'static str {
                match self {
                    $(Code::$variant => $description,)+
                }
            }
        }
    };
}

error_codes! {
    Unauthorized = "unauthorized", 401, "No API key was sent.";
    InvalidToken = "invalid_token", 401, "The API key is malformed or unknown.";
    KeyRevoked = "key_revoked", 401, "The API key was revoked.";
    KeyExpired = "key_expired", 401, "The API key has expired.";
    PlanUpgradeRequired = "plan_upgrade_required", 403, "The organization's plan has no API access.";
    SubscriptionInactive = "subscription_inactive", 403, "A write while the organization's subscription is not active.";
    InsufficientScope = "insufficient_scope", 403, "The API key lacks the scope the operation needs.";
    TestKeyRequired = "test_key_required", 403, "A sandbox action under `/api/v1/test/`, which only a test-mode key (`tk_test_`) may call.";
    NotFound = "not_found", 404, "No such resource in the organization.";
    ValidationError = "validation_error", 400,
        "The body, a query parameter or a header is invalid; `details.fields` names each.";
    Conflict = "conflict", 409,
        "The request conflicts with the resource's state, or the first request with its Idempotency-Key is \
         still running.";
    PersonLimitReached = "person_limit_reached", 409,
        "The plan's person limit is reached; `details` holds `used`, `limit` and `plan`.";
    PersonDeactivated = "person_deactivated", 409, "The person was deactivated by an administrator.";
    PersonSelfRevoked = "person_self_revoked", 409, "The person withdrew their own participation.";
    IdempotencyKeyReused = "idempotency_key_reused", 409, "The Idempotency-Key was used before with another body.";
    RateLimited = "rate_limited", 429, "A rate budget is spent; retry after `Retry-After`.";
    PayloadTooLarge = "payload_too_large", 413, "The body exceeds 1 MiB.";
    MethodNotAllowed = "method_not_allowed", 405, "The path does not accept this method.";
    InternalError = "internal_error", 500,
        "A server-side failure; retry. Answered 503 with `Retry-After` while the database cannot be reached.";
}

/// A failure of a port's infrastructure (database unreachable, constraint the use case did not
/// expect, ...). Its text is logged, never shown to a client.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// A unique constraint was violated; returned only by methods that document it.
    #[error("unique constraint violated")]
    UniqueViolation,
    /// The database cannot be reached right now (refused or lost connections, a server that is
    /// shutting down or starting up, SQLite busy beyond its timeout) or aborted the transaction
    /// to resolve contention (a deadlock, a serialization failure; T274): temporary, so the
    /// client is answered 503 with `Retry-After` (issue 13, T87). Nothing of the use case was
    /// committed.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// Any other failure.
    #[error("store failure: {0}")]
    Internal(String),
}

/// Seconds a client is told to wait (`Retry-After`) when the database is unavailable (T87).
pub const UNAVAILABLE_RETRY_AFTER_SECS: u32 = 2;

/// The most field errors a `validation_error` lists (T91).
pub const MAX_ECHOED_FIELDS: usize = 20;
/// The most characters of a client's text (a field name, a path) an error echoes (T91).
pub const MAX_ECHOED_CHARS: usize = 200;

/// `s` cut to at most `max` characters, with `…` in place of what was cut (T91).
pub fn clip(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => s.into(),
        Some((end, _)) => format!("{}…", &s[..end]).into(),
    }
}

/// An error as the client sees it: code, English message and optional details (spec, Errors).
#[derive(Debug, Clone, PartialEq)]
pub struct ClientError {
    /// Stable code.
    pub code: Code,
    /// Human-readable message.
    pub message: String,
    /// Optional structured context.
    pub details: Option<Value>,
    /// Whole seconds after which a retry can succeed; set only on a temporary `internal_error`
    /// ([`ClientError::unavailable`]), which is then answered 503 with `Retry-After` (T87).
    pub retry_after: Option<u32>,
}

impl ClientError {
    /// Builds an error without details.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), details: None, retry_after: None }
    }
    /// Adds details.
    pub fn with_details(mut self, d: Value) -> Self {
        self.details = Some(d);
        self
    }
    /// `validation_error` with D37 details `{"fields":[{"field","message"}]}`. What a client sent is
    /// echoed within bounds (T91): at most [`MAX_ECHOED_FIELDS`] fields are listed (the message
    /// counts all of them), each field name cut to [`MAX_ECHOED_CHARS`] characters and each
    /// message to four times that.
    pub fn validation(errs: &FieldErrors) -> Self {
        let fields: Vec<Value> = errs
            .0
            .iter()
            .take(MAX_ECHOED_FIELDS)
            .map(|e| json!({"field": clip(&e.field, MAX_ECHOED_CHARS), "message": clip(&e.message, 4 * MAX_ECHOED_CHARS)}))
            .collect();
        let msg = match errs.0.first() {
            Some(e) if errs.0.len() == 1 => {
                format!(
                    "Invalid value for '{}': {}",
                    clip(&e.field, MAX_ECHOED_CHARS),
                    clip(&e.message, 4 * MAX_ECHOED_CHARS)
                )
            }
            _ => format!("{} fields are invalid", errs.0.len()),
        };
        Self::new(Code::ValidationError, msg).with_details(json!({ "fields": fields }))
    }
    /// `not_found` with a message naming the resource.
    pub fn not_found(what: &str) -> Self {
        Self::new(Code::NotFound, format!("{what} not found"))
    }
    /// `internal_error`; the cause is logged by the caller, never shown.
    pub fn internal() -> Self {
        Self::new(Code::InternalError, "Internal error; please retry")
    }
    /// `internal_error` for a database that cannot be reached right now: 503 with `Retry-After`
    /// of [`UNAVAILABLE_RETRY_AFTER_SECS`] (spec, Errors: 500 or 503; T87).
    pub fn unavailable() -> Self {
        Self {
            retry_after: Some(UNAVAILABLE_RETRY_AFTER_SECS),
            ..Self::new(
                Code::InternalError,
                "The service is temporarily unavailable; retry after the number of seconds in Retry-After",
            )
        }
    }
}

/// The error of every use case: something the client caused (with its code), a failure of the
/// store, or an internal failure of anything else (500, logged, the cause never shown).
#[derive(Debug, thiserror::Error)]
pub enum UseCaseError {
    /// The client's request cannot be carried out.
    #[error("{}: {}", .0.code.as_str(), .0.message)]
    Client(ClientError),
    /// Infrastructure failure.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A failure that is neither the client's nor the store's: an adapter that failed (the report
    /// renderer, T176). 500 with the opaque envelope; the text is logged, never shown.
    #[error("internal: {0}")]
    Internal(String),
}

impl From<ClientError> for UseCaseError {
    fn from(e: ClientError) -> Self {
        UseCaseError::Client(e)
    }
}

impl From<FieldErrors> for UseCaseError {
    fn from(e: FieldErrors) -> Self {
        UseCaseError::Client(ClientError::validation(&e))
    }
}

impl UseCaseError {
    /// Whether this is a temporary database outage ([`StoreError::Unavailable`]), which callers
    /// log once per outage rather than once per failure (T87).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, UseCaseError::Store(StoreError::Unavailable(_)))
    }

    /// The client error code, if any.
    pub fn code(&self) -> Option<Code> {
        match self {
            UseCaseError::Client(c) => Some(c.code),
            UseCaseError::Store(_) | UseCaseError::Internal(_) => None,
        }
    }
}

#[cfg(test)]
mod code_list_tests {
    use super::Code;

    /// The declaration is the one list: every code once, each with a status of the spec's table
    /// and a sentence that says what it means.
    #[test]
    fn every_code_is_declared_once_with_a_status_and_a_meaning() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.as_str()), "{} twice", c.as_str());
            assert!([400, 401, 403, 404, 405, 409, 413, 429, 500].contains(&c.status()), "{}", c.as_str());
            assert!(c.description().ends_with('.'), "{}", c.as_str());
        }
        assert_eq!(Code::ALL.len(), 19, "the spec's sixteen, D37's two and D60's test_key_required");
    }
}
