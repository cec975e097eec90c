//! The header names the request path reads or writes on every request, made once (T319).
//!
//! A header looked up or inserted by a `&str` has its name parsed again on every call: matched
//! against the table of standard names, and for a custom name lower-cased and copied. On a `GET
//! /api/v1/me` that was about 1,900 instructions of about 49,000 (`valgrind --tool=callgrind`).
//! A `HeaderName` made at compile time is compared as it is. Standard names come from
//! [`actix_web::http::header`] (`AUTHORIZATION`, `CONTENT_LENGTH`, ...).

use actix_web::http::header::{HeaderName, HeaderValue};

/// `X-Request-Id`: the request's id, taken from the client or made (issue 17).
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// `X-RateLimit-Limit`: the budget of the window (spec, rate limits).
pub static X_RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
/// `X-RateLimit-Remaining`: what is left of it.
pub static X_RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
/// `X-RateLimit-Reset`: when it is whole again, in Unix seconds.
pub static X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");
/// `Idempotency-Key`: a `POST`'s key (spec, idempotency).
pub static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// `application/json`, the `Content-Type` of every JSON answer: a value made at compile time is
/// set as it is (actix-web's `json`, and `content_type("application/json")`, copy and check the
/// text into a new value for every answer; T323).
pub static APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");
