//! Errors. Every error a client can cause has a [`Code`]; the HTTP adapter maps codes to statuses
//! in one table (spec, Errors). Infrastructure failures are [`StoreError`] and become
//! `internal_error` without exposing their text.

use crate::values::FieldErrors;
use serde_json::{json, Value};

/// The spec's stable machine-readable error codes (spec, Errors; D37 adds `payload_too_large` and
/// `method_not_allowed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// 401: key missing.
    Unauthorized,
    /// 401: key unknown or malformed.
    InvalidToken,
    /// 401: key revoked.
    KeyRevoked,
    /// 401: key expired.
    KeyExpired,
    /// 403: plan has no API access (D5).
    PlanUpgradeRequired,
    /// 403: write while the subscription is inactive (D4).
    SubscriptionInactive,
    /// 403: key lacks the required scope.
    InsufficientScope,
    /// 404.
    NotFound,
    /// 400.
    ValidationError,
    /// 409.
    Conflict,
    /// 409: person limit reached; details `{used, limit, plan}`.
    PersonLimitReached,
    /// 409: person deactivated by an administrator.
    PersonDeactivated,
    /// 409: person withdrew their own participation.
    PersonSelfRevoked,
    /// 409: same `Idempotency-Key`, different body (D38).
    IdempotencyKeyReused,
    /// 429.
    RateLimited,
    /// 413 (D37).
    PayloadTooLarge,
    /// 405 (D37).
    MethodNotAllowed,
    /// 500/503.
    InternalError,
}

impl Code {
    /// Every code, in the order of the spec's table (D37's additions last).
    pub const ALL: [Code; 18] = [
        Code::Unauthorized,
        Code::InvalidToken,
        Code::KeyRevoked,
        Code::KeyExpired,
        Code::PlanUpgradeRequired,
        Code::SubscriptionInactive,
        Code::InsufficientScope,
        Code::NotFound,
        Code::ValidationError,
        Code::Conflict,
        Code::PersonLimitReached,
        Code::PersonDeactivated,
        Code::PersonSelfRevoked,
        Code::IdempotencyKeyReused,
        Code::RateLimited,
        Code::PayloadTooLarge,
        Code::MethodNotAllowed,
        Code::InternalError,
    ];

    /// The HTTP status of the code (spec, Errors: the one table of codes and statuses; issue 14,
    /// point 9). `internal_error` is 500 here; a temporary one (a database outage) is answered
    /// 503 by the HTTP layer (T87).
    pub fn status(self) -> u16 {
        match self {
            Code::Unauthorized | Code::InvalidToken | Code::KeyRevoked | Code::KeyExpired => 401,
            Code::PlanUpgradeRequired | Code::SubscriptionInactive | Code::InsufficientScope => 403,
            Code::NotFound => 404,
            Code::ValidationError => 400,
            Code::Conflict
            | Code::PersonLimitReached
            | Code::PersonDeactivated
            | Code::PersonSelfRevoked
            | Code::IdempotencyKeyReused => 409,
            Code::RateLimited => 429,
            Code::PayloadTooLarge => 413,
            Code::MethodNotAllowed => 405,
            Code::InternalError => 500,
        }
    }

    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Unauthorized => "unauthorized",
            Code::InvalidToken => "invalid_token",
            Code::KeyRevoked => "key_revoked",
            Code::KeyExpired => "key_expired",
            Code::PlanUpgradeRequired => "plan_upgrade_required",
            Code::SubscriptionInactive => "subscription_inactive",
            Code::InsufficientScope => "insufficient_scope",
            Code::NotFound => "not_found",
            Code::ValidationError => "validation_error",
            Code::Conflict => "conflict",
            Code::PersonLimitReached => "person_limit_reached",
            Code::PersonDeactivated => "person_deactivated",
            Code::PersonSelfRevoked => "person_self_revoked",
            Code::IdempotencyKeyReused => "idempotency_key_reused",
            Code::RateLimited => "rate_limited",
            Code::PayloadTooLarge => "payload_too_large",
            Code::MethodNotAllowed => "method_not_allowed",
            Code::InternalError => "internal_error",
        }
    }
}

/// A failure of a port's infrastructure (database unreachable, constraint the use case did not
/// expect, ...). Its text is logged, never shown to a client.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// A unique constraint was violated; returned only by methods that document it.
    #[error("unique constraint violated")]
    UniqueViolation,
    /// The database cannot be reached right now (refused or lost connections, a server that is
    /// shutting down or starting up, SQLite busy beyond its timeout): temporary, so the client is
    /// answered 503 with `Retry-After` (issue 13, T87). Nothing of the use case was committed.
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

    /// Adding a variant breaks this exhaustive match until it is also listed in [`Code::ALL`].
    fn position(c: Code) -> usize {
        match c {
            Code::Unauthorized => 0,
            Code::InvalidToken => 1,
            Code::KeyRevoked => 2,
            Code::KeyExpired => 3,
            Code::PlanUpgradeRequired => 4,
            Code::SubscriptionInactive => 5,
            Code::InsufficientScope => 6,
            Code::NotFound => 7,
            Code::ValidationError => 8,
            Code::Conflict => 9,
            Code::PersonLimitReached => 10,
            Code::PersonDeactivated => 11,
            Code::PersonSelfRevoked => 12,
            Code::IdempotencyKeyReused => 13,
            Code::RateLimited => 14,
            Code::PayloadTooLarge => 15,
            Code::MethodNotAllowed => 16,
            Code::InternalError => 17,
        }
    }

    #[test]
    fn all_lists_every_code_once() {
        for (i, c) in Code::ALL.iter().enumerate() {
            assert_eq!(position(*c), i, "{}", c.as_str());
        }
    }
}
