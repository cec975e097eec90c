//! `Idempotency-Key` on POST (D38): replay, reuse and in-flight, stored in the database; for the
//! use cases that take a [`Claim`], in the transaction of the work it answers (T223).

use crate::error::ApiError;
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use ring::digest;
use std::future::Future;
use std::sync::Arc;
use talent_domain::ids::OrgId;
use talent_domain::ports::Store;
use talent_domain::usecases::idempotency::{
    refuses_the_key, valid_key, Claim, IdempotentRequest, Keyed, StoredResponse,
};

/// A successful reply before it becomes an HTTP response.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status.
    pub status: StatusCode,
    /// JSON body, rendered once (T291): the response and the stored replay are this text.
    pub body: Box<serde_json::value::RawValue>,
    /// Send `X-Existing-Resource: true`.
    pub existing_resource: bool,
}

impl Reply {
    /// 200/201 etc. with `body`, one of the response types of [`crate::out`].
    pub fn new(status: StatusCode, body: &impl serde::Serialize) -> Self {
        Reply { status, body: raw(body), existing_resource: false }
    }
}

fn respond(status: StatusCode, body: String, existing: bool, replayed: bool) -> HttpResponse {
    let mut b = HttpResponse::build(status);
    b.content_type(crate::names::APPLICATION_JSON.clone());
    if existing {
        b.insert_header(("X-Existing-Resource", "true"));
    }
    if replayed {
        b.insert_header(("Idempotency-Replayed", "true"));
    }
    b.body(body)
}

/// Hex SHA-256 of the canonical body: parsed JSON re-serialized with sorted keys, so the same
/// JSON with other whitespace or key order is the same request; a non-JSON body hashes as bytes.
pub fn request_hash(body: &[u8]) -> String {
    let canonical = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(v) => v.to_string().into_bytes(),
        Err(_) => body.to_vec(),
    };
    hex::encode(digest::digest(&digest::SHA256, &canonical))
}

impl Reply {
    /// The response as stored for replays.
    pub fn stored(&self) -> StoredResponse {
        StoredResponse {
            status: self.status.as_u16(),
            body: self.body.get().to_string(),
            existing_resource: self.existing_resource,
        }
    }
}

/// `v` rendered as JSON text, its members in the order `v` serializes them; `null` for a value
/// that does not serialize (none of the response types: their maps have string keys).
pub fn raw(v: &impl serde::Serialize) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(v).unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned())
}

/// The response of `s` (`Idempotency-Replayed: true` when `replayed`).
pub fn send(s: StoredResponse, replayed: bool) -> HttpResponse {
    let status = StatusCode::from_u16(s.status).unwrap_or(StatusCode::OK);
    respond(status, s.body, s.existing_resource, replayed)
}

/// The request's `Idempotency-Key` (D38): `None` without one. Errors: 400 for a malformed key.
pub fn key_of(req: &HttpRequest, org: OrgId, body: &[u8]) -> Result<Option<IdempotentRequest>, ApiError> {
    let Some(v) = req.headers().get(&crate::names::IDEMPOTENCY_KEY) else { return Ok(None) };
    match v.to_str() {
        Ok(k) if valid_key(k) => Ok(Some(IdempotentRequest {
            org_id: org,
            path: req.path().to_string(),
            key: k.to_string(),
            request_hash: request_hash(body),
        })),
        _ => Err(ApiError::field("Idempotency-Key", "must be 1 to 255 printable ASCII characters")),
    }
}

/// The test-only fault point (T223, `TALENT_TEST_CRASH_AFTER_COMMIT`): once the work of a
/// request (or batch item, `{path}#{index}`) under an `Idempotency-Key` and its answer are
/// committed, the process ends before it answers, as if it were killed then.
pub fn crash_point<S: Store>(state: &ApiState<S>, path: &str) {
    if state.crash_after_commit.as_deref() == Some(path) {
        tracing::warn!(path, "crashing after the commit, as configured for tests");
        std::process::abort();
    }
}

/// The error response `e` as stored for replays.
pub fn refusal(e: &ApiError) -> StoredResponse {
    StoredResponse { status: e.status_code().as_u16(), body: e.body().to_string(), existing_resource: false }
}

/// Runs the use case `run` under the request's `Idempotency-Key`, claimed in the use case's own
/// transaction (T223): `render` is the response to its result, stored with the work before the
/// commit, so a crash between the commit and the answer leaves a key whose retry replays the
/// committed answer at once, and a crash before the commit a key whose retry runs anew. A stored
/// response replays before anything runs. Errors: 400 for a malformed key, 409
/// `idempotency_key_reused` / `conflict` (D38), and the use case's (stored when D38 says so).
pub async fn keyed<S, T, R, F, Fut>(
    state: &ApiState<S>,
    req: &HttpRequest,
    org: OrgId,
    body: &[u8],
    render: R,
    run: F,
) -> Result<HttpResponse, ApiError>
where
    S: Store,
    T: 'static,
    R: Fn(&T) -> Reply + Send + Sync + 'static,
    F: FnOnce(Option<Claim<T>>) -> Fut,
    Fut: Future<Output = Result<Keyed<T>, ApiError>>,
{
    let Some(ireq) = key_of(req, org, body)? else {
        return Ok(match run(None).await? {
            Keyed::Ran(t) => send(render(&t).stored(), false),
            Keyed::Replayed(s) => send(s, true),
        });
    };
    if let Some(s) = state.svc.idempotency_peek(&ireq).await? {
        return Ok(send(s, true));
    }
    let render = Arc::new(render);
    let answer = render.clone();
    let claim = Claim::new(ireq.clone(), move |t: &T| answer(t).stored());
    match run(Some(claim.clone())).await {
        Ok(Keyed::Ran(t)) => {
            crash_point(state, req.path());
            Ok(send(claim.answered().unwrap_or_else(|| render(&t).stored()), false))
        }
        Ok(Keyed::Replayed(s)) => Ok(send(s, true)),
        // A refusal of the key itself (another body, or its first request still running) is
        // no answer of the request: nothing to record.
        Err(e) if refuses_the_key(&e.0) => Err(e),
        Err(e) => {
            if let Err(x) = state.svc.idempotency_record(ireq, refusal(&e)).await {
                tracing::error!(error = %x, "could not record idempotency outcome");
            }
            Err(e)
        }
    }
}
