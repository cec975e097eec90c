//! Idempotency keys (D38): scope organization + path, kept 24 h; replay, reuse and in-flight.

use super::Services;
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::OrgId;
use crate::ports::{IdempotencyRecord, IdempotencyState, Store, Tx};
use std::sync::{Arc, Mutex};
use time::{Duration, OffsetDateTime};

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

/// What a use case run under an `Idempotency-Key` yields: its own result, or the response the key
/// answered before (T223).
#[derive(Clone, Debug, PartialEq)]
pub enum Keyed<T> {
    /// The work ran and committed with its answer.
    Ran(T),
    /// The key had been answered: the stored response, to replay.
    Replayed(StoredResponse),
}

impl<T> Keyed<T> {
    /// The result of a use case run without a key, where nothing can be replayed.
    pub fn ran(self) -> Option<T> {
        match self {
            Keyed::Ran(t) => Some(t),
            Keyed::Replayed(_) => None,
        }
    }
}

/// An `Idempotency-Key` claimed in the transaction of the work it answers (T223; D38): the use
/// case takes the key at the start of its transaction and stores the response before it commits,
/// so a crash leaves the work with its answer or neither. A concurrent request with the same key
/// waits for the first (PostgreSQL: the unique index holds its insert until the first commits or
/// rolls back) and then replays its answer; on SQLite, where a group of write transactions
/// shares one commit, it is answered 409 `conflict` while the first is in its group.
///
/// `answer` turns the use case's result into the response the client gets: the same function
/// answers the request and stores it, so a replay is byte for byte the original.
pub struct Claim<T> {
    request: IdempotentRequest,
    answer: Arc<dyn Fn(&T) -> StoredResponse + Send + Sync>,
    answered: Arc<Mutex<Option<StoredResponse>>>,
}

impl<T> Clone for Claim<T> {
    fn clone(&self) -> Self {
        Claim { request: self.request.clone(), answer: self.answer.clone(), answered: self.answered.clone() }
    }
}

impl<T> std::fmt::Debug for Claim<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Claim").field("request", &self.request).finish_non_exhaustive()
    }
}

const IN_PROGRESS: &str = "A request with this Idempotency-Key is still in progress; retry later";

fn in_progress() -> UseCaseError {
    ClientError::new(Code::Conflict, IN_PROGRESS).into()
}

fn reused() -> UseCaseError {
    ClientError::new(Code::IdempotencyKeyReused, "This Idempotency-Key was used with a different request body").into()
}

/// Whether `e` refuses the request's key rather than its content (409 `idempotency_key_reused`,
/// or 409 `conflict` while the key's first request runs): a batch answers it as a whole (T223).
pub fn refuses_the_key(e: &ClientError) -> bool {
    e.code == Code::IdempotencyKeyReused || (e.code == Code::Conflict && e.message == IN_PROGRESS)
}

impl<T> Claim<T> {
    /// A claim of `request`'s key whose response is `answer` of the use case's result.
    pub fn new(request: IdempotentRequest, answer: impl Fn(&T) -> StoredResponse + Send + Sync + 'static) -> Self {
        Claim { request, answer: Arc::new(answer), answered: Arc::new(Mutex::new(None)) }
    }

    /// The request.
    pub fn request(&self) -> &IdempotentRequest {
        &self.request
    }

    /// The same claim for one part of a request (`#{part}` after the path): a batch's items
    /// (T223), each answered in its own transaction.
    pub fn part<U>(&self, part: usize, answer: impl Fn(&U) -> StoredResponse + Send + Sync + 'static) -> Claim<U> {
        let request = IdempotentRequest { path: format!("{}#{part}", self.request.path), ..self.request.clone() };
        Claim::new(request, answer)
    }

    /// The response stored by the transaction that committed, once it has.
    pub fn answered(&self) -> Option<StoredResponse> {
        self.answered.lock().ok().and_then(|a| a.clone())
    }

    fn record(&self, state: IdempotencyState, now: OffsetDateTime) -> IdempotencyRecord {
        let r = &self.request;
        IdempotencyRecord {
            org_id: r.org_id,
            path: r.path.clone(),
            key: r.key.clone(),
            request_hash: r.request_hash.clone(),
            state,
            created_at: now,
        }
    }

    /// Takes the key at the start of the work's transaction: `None` to go on with the work, or
    /// the response the key answered before. Errors: 409 `idempotency_key_reused` (another
    /// body), 409 `conflict` (the first request runs in the same SQLite group, or an in-flight
    /// record of the last five minutes written outside a work's transaction).
    pub(crate) async fn take(
        &self,
        tx: &mut dyn Tx,
        now: OffsetDateTime,
    ) -> Result<Option<StoredResponse>, UseCaseError> {
        // A body may run again when its transaction was rolled back with others (T297): what an
        // earlier run answered was not stored.
        if let Ok(mut slot) = self.answered.lock() {
            *slot = None;
        }
        let fresh = self.record(IdempotencyState::InFlight, now);
        if tx.idem_insert(&fresh).await? {
            return Ok(None);
        }
        let r = &self.request;
        let Some(found) = tx.find_idempotency(r.org_id, &r.path, &r.key).await? else {
            // Purged since the insert looked: take it now.
            return if tx.idem_insert(&fresh).await? { Ok(None) } else { Err(in_progress()) };
        };
        if found.created_at + RETENTION <= now {
            tx.idem_update(&fresh).await?;
            return Ok(None);
        }
        if found.request_hash != r.request_hash {
            return Err(reused());
        }
        match found.state {
            IdempotencyState::Done { status, body, existing_resource } => {
                Ok(Some(StoredResponse { status, body, existing_resource }))
            }
            IdempotencyState::InFlight if found.created_at + IN_FLIGHT_LEASE <= now => {
                tx.idem_update(&fresh).await?;
                Ok(None)
            }
            IdempotencyState::InFlight => Err(in_progress()),
        }
    }

    /// Stores the answer to `out` before the work's transaction commits (a status D38 does not
    /// store frees the key instead).
    pub(crate) async fn answer(&self, tx: &mut dyn Tx, out: &T, now: OffsetDateTime) -> Result<(), UseCaseError> {
        let resp = (self.answer)(out);
        if is_stored_status(resp.status) {
            let state = IdempotencyState::Done {
                status: resp.status,
                body: resp.body.clone(),
                existing_resource: resp.existing_resource,
            };
            tx.idem_update(&self.record(state, now)).await?;
        } else {
            self.release(tx).await?;
        }
        if let Ok(mut slot) = self.answered.lock() {
            *slot = Some(resp);
        }
        Ok(())
    }

    /// Frees the key in a transaction that commits without the work (an attempt that found it
    /// must run again, exclusively).
    pub(crate) async fn release(&self, tx: &mut dyn Tx) -> Result<(), UseCaseError> {
        let r = &self.request;
        Ok(tx.idem_delete(r.org_id, &r.path, &r.key).await?)
    }
}

/// The result of a use case run without a key (which nothing can replay).
pub(crate) fn unkeyed<T>(k: Keyed<T>) -> Result<T, UseCaseError> {
    k.ran().ok_or_else(|| UseCaseError::Internal("a replay without an idempotency key".into()))
}

/// [`Claim::take`] when there is a claim.
pub(crate) async fn take<T>(
    claim: Option<&Claim<T>>,
    tx: &mut dyn Tx,
    now: OffsetDateTime,
) -> Result<Option<StoredResponse>, UseCaseError> {
    match claim {
        Some(c) => c.take(tx, now).await,
        None => Ok(None),
    }
}

impl<S: Store> Services<S> {
    /// A stored response of `req`'s key, read before anything runs (T223): `Some` to replay it.
    /// Errors: 409 `idempotency_key_reused` (another body). The claim in the work's
    /// transaction decides; this only answers a replay at once.
    pub async fn idempotency_peek(&self, req: &IdempotentRequest) -> Result<Option<StoredResponse>, UseCaseError> {
        let (org, path, key) = (req.org_id, req.path.clone(), req.key.clone());
        let now = self.clock.now();
        let found = self
            .store
            .read_by_key(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.peek_idempotency(org, &path, &key).await?) })
            })
            .await?;
        match found {
            Some(r) if r.created_at + RETENTION > now => {
                if r.request_hash != req.request_hash {
                    return Err(reused());
                }
                Ok(match r.state {
                    IdempotencyState::Done { status, body, existing_resource } => {
                        Some(StoredResponse { status, body, existing_resource })
                    }
                    IdempotencyState::InFlight => None,
                })
            }
            _ => Ok(None),
        }
    }

    /// Stores `resp` as the answer of `req`'s key in a transaction of its own, when D38 stores
    /// its status and no other request answered the key meanwhile (T223): the refusal of a
    /// request whose work rolled back (a 404, a 409 of the use case), or a batch's whole answer
    /// once each item committed its own.
    pub async fn idempotency_record(&self, req: IdempotentRequest, resp: StoredResponse) -> Result<(), UseCaseError> {
        if !is_stored_status(resp.status) {
            return Ok(());
        }
        let now = self.clock.now();
        let claim: Claim<()> = Claim::new(req, move |_| resp.clone());
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let fresh = claim.record(IdempotencyState::InFlight, now);
                    if tx.idem_insert(&fresh).await? {
                        claim.answer(tx, &(), now).await?;
                    }
                    Ok::<_, UseCaseError>(())
                })
            })
            .await
    }

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
                            return Err(reused());
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
