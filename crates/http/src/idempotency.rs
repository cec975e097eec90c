//! `Idempotency-Key` on POST (D38): replay, reuse and in-flight, stored in the database.

use crate::error::ApiError;
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use ring::digest;
use std::future::Future;
use talent_domain::ids::OrgId;
use talent_domain::ports::Store;
use talent_domain::usecases::idempotency::{valid_key, IdempotencyBegin, IdempotentRequest, StoredResponse};

/// A successful reply before it becomes an HTTP response.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status.
    pub status: StatusCode,
    /// JSON body.
    pub body: serde_json::Value,
    /// Send `X-Existing-Resource: true`.
    pub existing_resource: bool,
    /// Store it for replays under the request's `Idempotency-Key` (D38), as its status says.
    /// `false`: not stored, as a 5xx is not: a batch with an item that failed for a server-side
    /// reason (D49) runs again when retried with the same key.
    pub replayable: bool,
}

impl Reply {
    /// 200/201 etc. with `body`, one of the response types of [`crate::out`].
    pub fn new(status: StatusCode, body: &impl serde::Serialize) -> Self {
        Reply { status, body: talent_domain::wire::to_value(body), existing_resource: false, replayable: true }
    }
}

fn respond(status: StatusCode, body: String, existing: bool, replayed: bool) -> HttpResponse {
    let mut b = HttpResponse::build(status);
    b.content_type("application/json");
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

/// Runs `run` under the request's `Idempotency-Key`, if any. Errors: 400 for a malformed key,
/// 409 `idempotency_key_reused` / `conflict` (D38).
pub async fn idempotent<S, F, Fut>(
    state: &ApiState<S>,
    req: &HttpRequest,
    org: OrgId,
    body: &[u8],
    run: F,
) -> Result<HttpResponse, ApiError>
where
    S: Store,
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Reply, ApiError>>,
{
    let key = match req.headers().get("idempotency-key") {
        None => None,
        Some(v) => match v.to_str() {
            Ok(k) if valid_key(k) => Some(k.to_string()),
            _ => return Err(ApiError::field("Idempotency-Key", "must be 1 to 255 printable ASCII characters")),
        },
    };
    let Some(key) = key else {
        let r = run().await?;
        return Ok(respond(r.status, r.body.to_string(), r.existing_resource, false));
    };
    let ireq = IdempotentRequest { org_id: org, path: req.path().to_string(), key, request_hash: request_hash(body) };
    match state.svc.idempotency_begin(ireq.clone()).await? {
        IdempotencyBegin::Replay { status, body, existing_resource } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            Ok(respond(status, body, existing_resource, true))
        }
        IdempotencyBegin::Proceed => {
            let (status, body, existing, replayable, result_err) = match run().await {
                Ok(r) => (r.status, r.body.to_string(), r.existing_resource, r.replayable, None),
                Err(e) => (e.status_code(), e.body().to_string(), false, true, Some(e)),
            };
            // Not replayable: finished as a 503 would be, which D38 does not store.
            let stored_status = if replayable { status.as_u16() } else { 503 };
            let stored = StoredResponse { status: stored_status, body: body.clone(), existing_resource: existing };
            if let Err(e) = state.svc.idempotency_finish(ireq, stored).await {
                tracing::error!(error = %e, "could not record idempotency outcome");
            }
            match result_err {
                Some(e) => Err(e),
                None => Ok(respond(status, body, existing, false)),
            }
        }
    }
}
