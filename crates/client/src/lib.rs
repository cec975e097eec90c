//! A typed Rust client for Talent's public API `/api/v1`, blocking, on ureq.
//!
//! - Every endpoint of the API is a method of [`Client`]; lists come as one [`Page`] or as a
//!   [`Pages`] iterator that follows `nextCursor` with the same filters.
//! - Every `POST` but `test_webhook` carries an `Idempotency-Key`: the caller's, or a random
//!   one generated for the call, so that the client's own retries are safe (as Stripe's libraries
//!   do). [`Created::replayed`] tells when the service answered from its idempotency store.
//! - 429 and 503 are retried after `Retry-After` seconds, at most [`RetryPolicy::max_retries`]
//!   times and never waiting longer than [`RetryPolicy::max_wait`] at once; connection failures are
//!   retried the same way when the request is safe to repeat (GET, DELETE, or carrying an
//!   idempotency key). Then the error is returned.
//! - Errors: [`Error::Api`] is the spec's envelope `{error, code, details?}` with its status.
//! - [`webhooks::verify`] checks `Talent-Signature` on deliveries you receive; [`events`] types
//!   every event's `data` and reads the events feed with its `sequence` checkpoint.
//!
//! ```no_run
//! use talent_client::{Client, models::{ImportPerson, PersonQuery}};
//! let api = Client::new("http://127.0.0.1:8080", "tk_...");
//! let p = api.import_person(&ImportPerson { email: "ada@example.com".into(), ..Default::default() }, None)?;
//! println!("{} ({})", p.resource.person.id, if p.created { "new" } else { "existing" });
//! for person in api.persons(PersonQuery { tag: Some("rust".into()), ..Default::default() }) {
//!     println!("{}", person?.email);
//! }
//! # Ok::<(), talent_client::Error>(())
//! ```

pub mod events;
pub mod models;
pub mod webhooks;

use models::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::VecDeque;
use std::time::Duration;
use uuid::Uuid;

/// What went wrong with a call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The service answered with an error envelope (spec, Errors).
    #[error("{status} {code}: {message}")]
    Api {
        /// HTTP status.
        status: u16,
        /// The stable machine-readable code, e.g. `person_limit_reached`.
        code: String,
        /// The human-readable message.
        message: String,
        /// Structured context, e.g. `{"fields": [...]}` or `{used, limit, plan}`.
        details: Option<serde_json::Value>,
        /// `Retry-After` seconds of a 429/503 that ran out of retries.
        retry_after: Option<u64>,
    },
    /// The request could not be sent or the answer not read (after the retries).
    #[error("transport: {0}")]
    Transport(String),
    /// A 2xx answer that is not the documented shape.
    #[error("unexpected answer ({status}): {message}")]
    Decode {
        /// HTTP status.
        status: u16,
        /// What did not parse.
        message: String,
    },
}

impl Error {
    /// The error code of an [`Error::Api`].
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Api { code, .. } => Some(code),
            _ => None,
        }
    }
    /// The status of an [`Error::Api`] or [`Error::Decode`].
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api { status, .. } | Error::Decode { status, .. } => Some(*status),
            Error::Transport(_) => None,
        }
    }
}

/// When to retry (429, 503, and connection failures of safe requests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt; 0 disables retrying.
    pub max_retries: u32,
    /// The longest single wait; a longer `Retry-After` is shortened to this.
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    /// 3 retries, waits of at most 60 s.
    fn default() -> Self {
        RetryPolicy { max_retries: 3, max_wait: Duration::from_secs(60) }
    }
}

/// The answer of a creating call: the resource, whether it is new (201) or already existed
/// (200, `X-Existing-Resource: true`), and whether it was replayed for a repeated
/// `Idempotency-Key` (`Idempotency-Replayed: true`).
#[derive(Debug, Clone, PartialEq)]
pub struct Created<T> {
    pub resource: T,
    /// 201: a new resource (or a reactivated person).
    pub created: bool,
    /// The stored answer of an earlier request with the same key and body.
    pub replayed: bool,
}

/// A raw answer.
struct Answer {
    status: u16,
    existing: bool,
    replayed: bool,
    /// `Retry-After` in whole seconds.
    retry_after: Option<u64>,
    body: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Method {
    Get,
    Post,
    Patch,
    Delete,
}

/// A client of one API key. Cheap to clone (the connection pool is shared).
#[derive(Clone)]
pub struct Client {
    base: String,
    auth: String,
    agent: ureq::Agent,
    retry: RetryPolicy,
    sleep: fn(Duration),
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key is a secret: never printed.
        f.debug_struct("Client").field("base", &self.base).field("retry", &self.retry).finish_non_exhaustive()
    }
}

impl Client {
    /// A client for `base_url` (e.g. `https://talent.example.com`, without `/api/v1`) and an API
    /// key (`tk_…`), with the default [`RetryPolicy`] and a 30 s timeout per attempt.
    pub fn new(base_url: &str, api_key: &str) -> Self {
        Self::with_timeout(base_url, api_key, Duration::from_secs(30))
    }

    /// [`Client::new`] with another timeout per attempt.
    pub fn with_timeout(base_url: &str, api_key: &str, timeout: Duration) -> Self {
        let config = ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(timeout)).build();
        Client {
            base: base_url.trim_end_matches('/').to_string(),
            auth: format!("Bearer {api_key}"),
            agent: ureq::Agent::new_with_config(config),
            retry: RetryPolicy::default(),
            sleep: std::thread::sleep,
        }
    }

    /// The same client with another retry policy.
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    fn url(&self, path: &str, query: &[(&str, String)]) -> String {
        let mut url = format!("{}/api/v1{path}", self.base);
        for (i, (k, v)) in query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(&encode(k));
            url.push('=');
            url.push_str(&encode(v));
        }
        url
    }

    fn once(&self, m: Method, url: &str, body: Option<&[u8]>, key: Option<&str>) -> Result<Answer, ureq::Error> {
        let mut resp = match m {
            Method::Get | Method::Delete => {
                let b = if m == Method::Get { self.agent.get(url) } else { self.agent.delete(url) };
                b.header("Authorization", &self.auth).call()?
            }
            Method::Post | Method::Patch => {
                let mut b = if m == Method::Post { self.agent.post(url) } else { self.agent.patch(url) };
                b = b.header("Authorization", &self.auth);
                if let Some(k) = key {
                    b = b.header("Idempotency-Key", k);
                }
                match body {
                    Some(body) => b.header("Content-Type", "application/json").send(body)?,
                    None => b.send_empty()?,
                }
            }
        };
        let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let existing = header("x-existing-resource").as_deref() == Some("true");
        let replayed = header("idempotency-replayed").as_deref() == Some("true");
        let retry_after = header("retry-after").and_then(|v| v.trim().parse().ok());
        let status = resp.status().as_u16();
        let body = resp.body_mut().with_config().limit(64 << 20).read_to_vec()?;
        Ok(Answer { status, existing, replayed, retry_after, body })
    }

    /// Sends a request with the retry policy; returns the final answer (any status).
    fn send(
        &self,
        m: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<&[u8]>,
        key: Option<&str>,
    ) -> Result<Answer, Error> {
        let url = self.url(path, query);
        let safe = matches!(m, Method::Get | Method::Delete) || key.is_some();
        let mut attempt = 0u32;
        loop {
            let can_retry = attempt < self.retry.max_retries;
            match self.once(m, &url, body, key) {
                Ok(a) if (a.status == 429 || a.status == 503) && can_retry => {
                    let wait = a.retry_after.map(Duration::from_secs).unwrap_or_else(|| backoff(attempt));
                    (self.sleep)(wait.min(self.retry.max_wait));
                }
                Ok(a) => return Ok(a),
                Err(e) if safe && can_retry && is_connection(&e) => {
                    (self.sleep)(backoff(attempt).min(self.retry.max_wait))
                }
                Err(e) => return Err(Error::Transport(e.to_string())),
            }
            attempt += 1;
        }
    }

    fn call<T: DeserializeOwned>(
        &self,
        m: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<&[u8]>,
        key: Option<&str>,
    ) -> Result<Created<T>, Error> {
        let a = self.send(m, path, query, body, key)?;
        if !(200..300).contains(&a.status) {
            return Err(api_error(&a));
        }
        let resource =
            serde_json::from_slice(&a.body).map_err(|e| Error::Decode { status: a.status, message: e.to_string() })?;
        Ok(Created { resource, created: a.status == 201 && !a.existing, replayed: a.replayed })
    }

    fn get<T: DeserializeOwned>(&self, path: &str, query: &[(&str, String)]) -> Result<T, Error> {
        self.call(Method::Get, path, query, None, None).map(|c| c.resource)
    }

    fn post<T: DeserializeOwned, B: Serialize>(
        &self,
        path: &str,
        body: Option<&B>,
        key: Option<&str>,
        idempotent: bool,
    ) -> Result<Created<T>, Error> {
        let bytes = body
            .map(serde_json::to_vec)
            .transpose()
            .map_err(|e| Error::Decode { status: 0, message: e.to_string() })?;
        let generated;
        let key = match (idempotent, key) {
            (false, _) => None,
            (true, Some(k)) => Some(k),
            (true, None) => {
                generated = Uuid::new_v4().to_string();
                Some(generated.as_str())
            }
        };
        self.call(Method::Post, path, &[], bytes.as_deref(), key)
    }

    fn patch<T: DeserializeOwned, B: Serialize>(&self, path: &str, body: &B) -> Result<T, Error> {
        let bytes = serde_json::to_vec(body).map_err(|e| Error::Decode { status: 0, message: e.to_string() })?;
        self.call(Method::Patch, path, &[], Some(&bytes), None).map(|c| c.resource)
    }

    fn pages<T: DeserializeOwned>(&self, path: String, query: Vec<(&'static str, String)>) -> Pages<'_, T> {
        Pages { client: self, path, query, cursor: None, buffer: VecDeque::new(), done: false }
    }

    // ---- account

    /// `GET /me`: the key's identity, scopes and plan (no scope needed).
    pub fn me(&self) -> Result<KeyIdentity, Error> {
        self.get("/me", &[])
    }

    /// `GET /organization` (scope `organization:read`).
    pub fn organization(&self) -> Result<Organization, Error> {
        self.get("/organization", &[])
    }

    // ---- persons

    /// `GET /persons`: one page, newest first (scope `persons:read`).
    pub fn list_persons(&self, query: &PersonQuery, cursor: Option<&str>) -> Result<Page<Person>, Error> {
        self.get("/persons", &with_cursor(query.to_query(), cursor))
    }

    /// Every person matching `query`, page after page.
    pub fn persons(&self, query: PersonQuery) -> Pages<'_, Person> {
        self.pages("/persons".into(), query.to_query())
    }

    /// `POST /persons`: create or reactivate a person, idempotent on email (scope `persons:write`).
    /// `idempotency_key`: yours, or `None` for a generated one.
    pub fn import_person(
        &self,
        body: &ImportPerson,
        idempotency_key: Option<&str>,
    ) -> Result<Created<PersonImported>, Error> {
        self.post("/persons", Some(body), idempotency_key, true)
    }

    /// `POST /persons/batch` (scope `persons:write`): 1 to 100 imports in one request,
    /// each answered as `POST /persons` would in [`BatchResult::results`]. The idempotency key
    /// covers the whole batch (a generated one when `None`).
    pub fn import_batch(&self, persons: &[ImportPerson], idempotency_key: Option<&str>) -> Result<BatchResult, Error> {
        let body = serde_json::json!({ "persons": persons });
        self.post("/persons/batch", Some(&body), idempotency_key, true).map(|c| c.resource)
    }

    /// `GET /persons/{id}` (archived persons too).
    pub fn get_person(&self, id: Uuid) -> Result<Person, Error> {
        self.get(&format!("/persons/{id}"), &[])
    }

    /// `PATCH /persons/{id}`.
    pub fn patch_person(&self, id: Uuid, patch: &PatchPerson) -> Result<Person, Error> {
        self.patch(&format!("/persons/{id}"), patch)
    }

    /// `DELETE /persons/{id}`: archives; returns the archived person.
    pub fn archive_person(&self, id: Uuid) -> Result<Person, Error> {
        self.call(Method::Delete, &format!("/persons/{id}"), &[], None, None).map(|c| c.resource)
    }

    /// `POST /persons/{id}/erase`: erases the organization's personal data of the person;
    /// returns the erased tombstone (idempotent, safe to retry).
    pub fn erase_person(&self, id: Uuid) -> Result<Person, Error> {
        self.post::<Person, ()>(&format!("/persons/{id}/erase"), None, None, true).map(|c| c.resource)
    }

    /// `GET /persons/{id}/results` (scope `results:read`).
    pub fn person_results(&self, id: Uuid) -> Result<PersonResults, Error> {
        self.get(&format!("/persons/{id}/results"), &[])
    }

    /// `GET /persons/{id}/matches`: the person's match with every profile.
    pub fn person_matches(&self, id: Uuid) -> Result<Vec<Match>, Error> {
        self.get::<Page<Match>>(&format!("/persons/{id}/matches"), &[]).map(|p| p.data)
    }

    /// `GET /persons/{id}/report`: the PDF bytes.
    pub fn person_report(&self, id: Uuid) -> Result<Vec<u8>, Error> {
        let a = self.send(Method::Get, &format!("/persons/{id}/report"), &[], None, None)?;
        if a.status == 200 {
            Ok(a.body)
        } else {
            Err(api_error(&a))
        }
    }

    // ---- invitations

    /// `GET /invitations`: one page (scope `invitations:read`).
    pub fn list_invitations(&self, query: &InvitationQuery, cursor: Option<&str>) -> Result<Page<Invitation>, Error> {
        self.get("/invitations", &with_cursor(query.to_query(), cursor))
    }

    /// Every invitation matching `query`.
    pub fn invitations(&self, query: InvitationQuery) -> Pages<'_, Invitation> {
        self.pages("/invitations".into(), query.to_query())
    }

    /// `POST /invitations`: `created` false when the email's pending invitation came back.
    pub fn create_invitation(
        &self,
        body: &CreateInvitation,
        idempotency_key: Option<&str>,
    ) -> Result<Created<Invitation>, Error> {
        self.post("/invitations", Some(body), idempotency_key, true)
    }

    /// `GET /invitations/{id}`.
    pub fn get_invitation(&self, id: Uuid) -> Result<Invitation, Error> {
        self.get(&format!("/invitations/{id}"), &[])
    }

    /// `POST /invitations/{id}/resend`; `expires_in_days` sets a new expiry.
    pub fn resend_invitation(
        &self,
        id: Uuid,
        expires_in_days: Option<u32>,
        idempotency_key: Option<&str>,
    ) -> Result<Invitation, Error> {
        let body = expires_in_days.map(|d| serde_json::json!({ "expiresInDays": d }));
        self.post(&format!("/invitations/{id}/resend"), body.as_ref(), idempotency_key, true).map(|c| c.resource)
    }

    /// `POST /invitations/{id}/revoke`: pending only (409 `conflict` otherwise).
    pub fn revoke_invitation(&self, id: Uuid, idempotency_key: Option<&str>) -> Result<Invitation, Error> {
        self.post::<Invitation, ()>(&format!("/invitations/{id}/revoke"), None, idempotency_key, true)
            .map(|c| c.resource)
    }

    // ---- profiles and matches

    /// `GET /profiles`: one page (scope `profiles:read`).
    pub fn list_profiles(&self, limit: Option<u32>, cursor: Option<&str>) -> Result<Page<Profile>, Error> {
        self.get("/profiles", &with_cursor(limit.to_query(), cursor))
    }

    /// Every profile.
    pub fn profiles(&self, limit: Option<u32>) -> Pages<'_, Profile> {
        self.pages("/profiles".into(), limit.to_query())
    }

    /// `GET /profiles/{id}`.
    pub fn get_profile(&self, id: Uuid) -> Result<Profile, Error> {
        self.get(&format!("/profiles/{id}"), &[])
    }

    /// `GET /profiles/{id}/matches`: one page, highest percentage first (scope `results:read`).
    pub fn list_profile_matches(
        &self,
        id: Uuid,
        query: &MatchQuery,
        cursor: Option<&str>,
    ) -> Result<Page<Match>, Error> {
        self.get(&format!("/profiles/{id}/matches"), &with_cursor(query.to_query(), cursor))
    }

    /// Every match of a profile.
    pub fn profile_matches(&self, id: Uuid, query: MatchQuery) -> Pages<'_, Match> {
        self.pages(format!("/profiles/{id}/matches"), query.to_query())
    }

    // ---- webhooks (scope `webhooks:manage`)

    /// `GET /webhooks`: every endpoint (at most 10).
    pub fn list_webhooks(&self) -> Result<Vec<WebhookEndpoint>, Error> {
        self.get::<Page<WebhookEndpoint>>("/webhooks", &[]).map(|p| p.data)
    }

    /// `POST /webhooks`: registers an endpoint; the answer carries its secret, shown only now.
    pub fn create_webhook(
        &self,
        body: &CreateWebhook,
        idempotency_key: Option<&str>,
    ) -> Result<WebhookEndpointWithSecret, Error> {
        self.post("/webhooks", Some(body), idempotency_key, true).map(|c| c.resource)
    }

    /// `GET /webhooks/{id}`.
    pub fn get_webhook(&self, id: Uuid) -> Result<WebhookEndpoint, Error> {
        self.get(&format!("/webhooks/{id}"), &[])
    }

    /// `PATCH /webhooks/{id}`.
    pub fn patch_webhook(&self, id: Uuid, patch: &PatchWebhook) -> Result<WebhookEndpoint, Error> {
        self.patch(&format!("/webhooks/{id}"), patch)
    }

    /// `DELETE /webhooks/{id}` (204).
    pub fn delete_webhook(&self, id: Uuid) -> Result<(), Error> {
        let a = self.send(Method::Delete, &format!("/webhooks/{id}"), &[], None, None)?;
        if (200..300).contains(&a.status) {
            Ok(())
        } else {
            Err(api_error(&a))
        }
    }

    /// `POST /webhooks/{id}/rotate-secret`: the endpoint with its new secret.
    pub fn rotate_webhook_secret(
        &self,
        id: Uuid,
        idempotency_key: Option<&str>,
    ) -> Result<WebhookEndpointWithSecret, Error> {
        self.post::<_, ()>(&format!("/webhooks/{id}/rotate-secret"), None, idempotency_key, true).map(|c| c.resource)
    }

    /// `POST /webhooks/{id}/test`: sends a signed `ping` now (no idempotency key).
    pub fn test_webhook(&self, id: Uuid) -> Result<WebhookTestResult, Error> {
        self.post::<_, ()>(&format!("/webhooks/{id}/test"), None, None, false).map(|c| c.resource)
    }

    /// `GET /webhooks/{id}/deliveries`: one page, newest first.
    pub fn list_deliveries(
        &self,
        id: Uuid,
        query: &DeliveryQuery,
        cursor: Option<&str>,
    ) -> Result<Page<Delivery>, Error> {
        self.get(&format!("/webhooks/{id}/deliveries"), &with_cursor(query.to_query(), cursor))
    }

    /// Every delivery of an endpoint.
    pub fn deliveries(&self, id: Uuid, query: DeliveryQuery) -> Pages<'_, Delivery> {
        self.pages(format!("/webhooks/{id}/deliveries"), query.to_query())
    }

    /// `GET /webhooks/{id}/deliveries/{deliveryId}`: the delivery and its attempts.
    pub fn get_delivery(&self, id: Uuid, delivery_id: Uuid) -> Result<DeliveryDetail, Error> {
        self.get(&format!("/webhooks/{id}/deliveries/{delivery_id}"), &[])
    }

    /// `POST /webhooks/{id}/deliveries/{deliveryId}/redeliver` (202): pending again, same id.
    pub fn redeliver(&self, id: Uuid, delivery_id: Uuid, idempotency_key: Option<&str>) -> Result<Delivery, Error> {
        self.post::<_, ()>(&format!("/webhooks/{id}/deliveries/{delivery_id}/redeliver"), None, idempotency_key, true)
            .map(|c| c.resource)
    }
}

impl Client {
    // ---- events (D48)

    /// `GET /events`: the events after sequence `after` (0: from the start of the 30-day
    /// window), oldest first. Scope: the read scope of each type's resource, or
    /// `webhooks:manage` for every type. While `pagination.has_more`, call again with the last
    /// event's `sequence`.
    pub fn list_events(&self, after: u64, query: &events::EventQuery) -> Result<Page<events::FeedEvent>, Error> {
        let mut q: Vec<(&str, String)> = vec![("after", after.to_string())];
        q.extend(query.types.iter().map(|t| ("type", t.clone())));
        if let Some(l) = query.limit {
            q.push(("limit", l.to_string()));
        }
        self.get("/events", &q)
    }

    /// `POST /webhooks/{id}/replay` (scope `webhooks:manage`): queues for the endpoint every
    /// kept event after `after` that it subscribes to, at most 1,000 per call.
    pub fn replay_webhook(&self, id: Uuid, after: u64) -> Result<events::ReplayResult, Error> {
        self.post(&format!("/webhooks/{id}/replay"), Some(&serde_json::json!({ "after": after })), None, true)
            .map(|c| c.resource)
    }
}

/// An iterator over every item of a list: fetches the next page when the current one is used up
/// (the cursor with the same filters). A failed page ends the iteration after its error.
pub struct Pages<'a, T> {
    client: &'a Client,
    path: String,
    query: Vec<(&'static str, String)>,
    cursor: Option<String>,
    buffer: VecDeque<T>,
    done: bool,
}

impl<T: DeserializeOwned> Iterator for Pages<'_, T> {
    type Item = Result<T, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.buffer.pop_front() {
                return Some(Ok(item));
            }
            if self.done {
                return None;
            }
            let query = with_cursor(self.query.clone(), self.cursor.as_deref());
            match self.client.get::<Page<T>>(&self.path, &query) {
                Ok(page) => {
                    self.buffer.extend(page.data);
                    self.cursor = page.pagination.next_cursor;
                    self.done = !page.pagination.has_more || self.cursor.is_none();
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

fn with_cursor(mut q: Vec<(&'static str, String)>, cursor: Option<&str>) -> Vec<(&'static str, String)> {
    if let Some(c) = cursor {
        q.push(("cursor", c.to_string()));
    }
    q
}

/// Percent-encodes a query component (RFC 3986 unreserved characters stay).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// 0.5 s, 1 s, 2 s, … (capped at 30 s) when no `Retry-After` says otherwise.
fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(500u64.saturating_mul(1 << attempt.min(6))).min(Duration::from_secs(30))
}

fn is_connection(e: &ureq::Error) -> bool {
    matches!(
        e,
        ureq::Error::Io(_) | ureq::Error::ConnectionFailed | ureq::Error::Timeout(_) | ureq::Error::HostNotFound
    )
}

fn api_error(a: &Answer) -> Error {
    #[derive(serde::Deserialize)]
    struct Envelope {
        error: String,
        code: String,
        details: Option<serde_json::Value>,
    }
    match serde_json::from_slice::<Envelope>(&a.body) {
        Ok(e) => Error::Api {
            status: a.status,
            code: e.code,
            message: e.error,
            details: e.details,
            retry_after: a.retry_after,
        },
        Err(_) => Error::Api {
            status: a.status,
            code: String::new(),
            message: String::from_utf8_lossy(&a.body).chars().take(200).collect(),
            details: None,
            retry_after: a.retry_after,
        },
    }
}
