//! Idempotency keys (D38): scope organization + path, kept 24 h; replay, reuse and in-flight.

use super::Services;
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::OrgId;
use crate::ports::{IdempotencyRecord, IdempotencyState, Store};
use time::Duration;

/// Records older than this are forgotten (D38: kept 24 h).
pub const RETENTION: Duration = Duration::hours(24);

/// Whether the stored response of a request to `path` carries a webhook signing secret
/// (`POST /api/v1/webhooks`, `POST /api/v1/webhooks/{id}/rotate-secret`): the store seals such
/// bodies like the secrets themselves (T83, T84).
pub fn response_carries_secret(path: &str) -> bool {
    path.ends_with("/webhooks") || path.ends_with("/rotate-secret")
}
/// An in-flight record older than this is taken as abandoned (its request died) and may be
/// taken over by a retry.
pub const IN_FLIGHT_LEASE: Duration = Duration::minutes(5);

/// What to do with a request carrying an `Idempotency-Key`.
#[derive(Clone, Debug, PartialEq)]
pub enum IdempotencyBegin {
    /// First use: run the request, then [`Services::idempotency_finish`].
    Proceed,
    /// Replay the stored response with `Idempotency-Replayed: true`.
    Replay {
        /// Status.
        status: u16,
        /// Body.
        body: String,
        /// `X-Existing-Resource: true` was sent.
        existing_resource: bool,
    },
}

/// Identifies a request made under an idempotency key.
#[derive(Clone, Debug, PartialEq)]
pub struct IdempotentRequest {
    /// Organization of the key.
    pub org_id: OrgId,
    /// Request path.
    pub path: String,
    /// The `Idempotency-Key` value.
    pub key: String,
    /// Hex SHA-256 of the canonical JSON body.
    pub request_hash: String,
}

/// A response to store for replay.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredResponse {
    /// HTTP status.
    pub status: u16,
    /// JSON body.
    pub body: String,
    /// `X-Existing-Resource: true` was sent.
    pub existing_resource: bool,
}

/// Checks a key: 1 to 255 printable ASCII characters (D38).
pub fn valid_key(k: &str) -> bool {
    (1..=255).contains(&k.len()) && k.bytes().all(|b| (0x20..0x7f).contains(&b))
}

/// D38: statuses that are stored (requests that began executing): not 400, 401, 403, 429, 5xx.
pub fn is_stored_status(status: u16) -> bool {
    !matches!(status, 400 | 401 | 403 | 429) && status < 500
}

impl<S: Store> Services<S> {
    /// Starts a request under an idempotency key. Errors: 409 `idempotency_key_reused` (different
    /// body), 409 `conflict` (the first request is still running).
    pub async fn idempotency_begin(&self, req: IdempotentRequest) -> Result<IdempotencyBegin, UseCaseError> {
        let IdempotentRequest { org_id, path, key, request_hash } = req;
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let fresh = IdempotencyRecord {
                        org_id,
                        path: path.clone(),
                        key: key.clone(),
                        request_hash: request_hash.clone(),
                        state: IdempotencyState::InFlight,
                        created_at: now,
                    };
                    if let Some(r) = tx.find_idempotency(org_id, &path, &key).await? {
                        let expired = r.created_at + RETENTION <= now;
                        let abandoned = r.state == IdempotencyState::InFlight && r.created_at + IN_FLIGHT_LEASE <= now;
                        if expired || abandoned {
                            tx.idem_update(&fresh).await?;
                            return Ok(IdempotencyBegin::Proceed);
                        }
                        if r.request_hash != request_hash {
                            return Err(ClientError::new(
                                Code::IdempotencyKeyReused,
                                "This Idempotency-Key was used with a different request body",
                            )
                            .into());
                        }
                        return match r.state {
                            IdempotencyState::InFlight => Err(ClientError::new(
                                Code::Conflict,
                                "A request with this Idempotency-Key is still in progress; retry later",
                            )
                            .into()),
                            IdempotencyState::Done { status, body, existing_resource } => {
                                Ok(IdempotencyBegin::Replay { status, body, existing_resource })
                            }
                        };
                    }
                    if tx.idem_insert(&fresh).await? {
                        Ok::<_, UseCaseError>(IdempotencyBegin::Proceed)
                    } else {
                        Err(ClientError::new(
                            Code::Conflict,
                            "A request with this Idempotency-Key is still in progress; retry later",
                        )
                        .into())
                    }
                })
            })
            .await
    }

    /// Finishes a request begun with [`Self::idempotency_begin`]: stores the response when D38
    /// says so, else forgets the key so a retry runs again.
    pub async fn idempotency_finish(&self, req: IdempotentRequest, resp: StoredResponse) -> Result<(), UseCaseError> {
        let IdempotentRequest { org_id, path, key, request_hash } = req;
        let StoredResponse { status, body, existing_resource } = resp;
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if is_stored_status(status) {
                        let r = IdempotencyRecord {
                            org_id,
                            path,
                            key,
                            request_hash,
                            state: IdempotencyState::Done { status, body, existing_resource },
                            created_at: now,
                        };
                        tx.idem_update(&r).await?;
                    } else {
                        tx.idem_delete(org_id, &path, &key).await?;
                    }
                    Ok::<_, UseCaseError>(())
                })
            })
            .await
    }

    /// Deletes records older than 24 h (D38, D46), 1,000 per transaction until none is left.
    /// Returns how many.
    pub async fn idempotency_purge(&self) -> Result<u64, UseCaseError> {
        self.idempotency_purge_in(1000).await
    }

    /// [`Self::idempotency_purge`] in batches of `batch` records.
    pub async fn idempotency_purge_in(&self, batch: u32) -> Result<u64, UseCaseError> {
        let before = self.clock.now() - RETENTION;
        let mut total = 0;
        loop {
            let n = self
                .store
                .write(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.idem_purge(before, batch).await?) }))
                .await?;
            total += n;
            if n < u64::from(batch.max(1)) {
                return Ok(total);
            }
        }
    }
}
