//! Kombo's assessment API, the vendor's side (D81-D83). Orders reach Talent two ways, and each
//! is taken once whichever comes first (D82): Kombo's webhook `assessment:order-received` at
//! `POST /partners/kombo/webhook`, signed with the connection's webhook secret, and the order
//! poll ([`Poller`]), which asks each enabled Kombo connection for its open orders
//! (`GET {baseUrl}/assessment/orders?statuses=OPEN`). The package list (D81) and the results
//! (D83) are pushes ([`crate::push`]).
//!
//! Kombo signs a webhook with HMAC-SHA256 of the raw body under the webhook secret, digested in
//! base64url without padding, in `X-Kombo-Signature`. Errors answer `{"message"}`, which Kombo
//! shows in the ATS: 401 for a signature no connection's secret makes, 400 for a body that is not
//! an order, 422 for an unknown package or a refusal.

use crate::call::{authenticate_key, failed, rate_limited};
use crate::{client_error, status, Partners};
use actix_web::{web, HttpRequest, HttpResponse};
use base64::Engine;
use ring::hmac;
use serde::Deserialize;
use serde_json::json;
use std::collections::HashSet;
use std::sync::Mutex;
use talent_domain::connector::{Ats, Connection, NewOrder, OrderCandidate, OrderRefs, TestRef};
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::ids::ConnectionId;
use talent_domain::ports::Store;
use talent_domain::values::{Email, FieldErrors, Scope};
use talent_domain::Services;

/// The webhook type that carries an order (D82); other types are acknowledged and ignored.
pub const ORDER_RECEIVED: &str = "assessment:order-received";

/// The most of Kombo's answer to one page of the order poll Talent reads, in bytes.
pub const POLL_PAGE_LIMIT: usize = 4 * 1024 * 1024;

/// The most pages of open orders one poll of a connection reads.
pub const POLL_PAGES: usize = 20;

/// Registers the route; mount under `/partners/kombo`.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.route("/webhook", web::post().to(webhook::<S>));
}

/// Kombo's error body, `{"message"}`, with `status`.
fn message(status: actix_web::http::StatusCode, text: &str) -> HttpResponse {
    HttpResponse::build(status).json(json!({ "message": text }))
}

/// A client error as Kombo's `{"message"}`: 4xx refusals of an order are 422 (Kombo shows them),
/// 401, 429 and the outages keep their status (and `Retry-After`).
fn refusal(e: &ClientError) -> HttpResponse {
    use actix_web::http::StatusCode;
    let s = status(e);
    let s = match s.as_u16() {
        401 | 429 => s,
        400..=499 => StatusCode::UNPROCESSABLE_ENTITY,
        _ => s,
    };
    let mut r = HttpResponse::build(s);
    if let Some(secs) = e.retry_after {
        r.insert_header(("Retry-After", secs.max(1).to_string()));
    }
    r.json(json!({ "message": e.message }))
}

/// Whether `signature` (base64url of HMAC-SHA256 of `body` under `secret`, D82; padded,
/// standard base64 and hex are also taken) is right, compared in constant time.
pub fn signature_matches(secret: &str, body: &[u8], signature: &str) -> bool {
    let sig = signature.trim();
    let sig = sig.strip_prefix("sha256=").unwrap_or(sig);
    let engines = [
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        &base64::engine::general_purpose::URL_SAFE,
        &base64::engine::general_purpose::STANDARD,
        &base64::engine::general_purpose::STANDARD_NO_PAD,
    ];
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    let mut candidates: Vec<Vec<u8>> = engines.iter().filter_map(|e| e.decode(sig).ok()).collect();
    if sig.len() == 64 {
        candidates.extend(hex::decode(sig).ok());
    }
    candidates.iter().filter(|c| c.len() == 32).any(|tag| hmac::verify(&key, body, tag).is_ok())
}

/// The `X-Kombo-Signature` Kombo would send for `body` under `secret` (D82): for stand-ins of
/// Kombo in tests and guides.
pub fn sign(secret: &str, body: &[u8]) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(hmac::sign(&key, body).as_ref())
}

/// A webhook's envelope: `{id, type, data}`.
#[derive(Deserialize, Debug)]
struct Hook {
    #[serde(rename = "type")]
    kind: String,
    data: serde_json::Value,
}

/// `{remote_id}` of an application.
#[derive(Deserialize, Debug, Default)]
pub struct Remote {
    remote_id: Option<serde_json::Value>,
}

/// An order's job: `{remote_id, name}` (Kombo sends more, which Talent ignores).
#[derive(Deserialize, Debug, Default)]
pub struct Job {
    remote_id: Option<serde_json::Value>,
    name: Option<String>,
}

/// An order's candidate.
#[derive(Deserialize, Debug)]
pub struct Candidate {
    email: String,
    first_name: Option<String>,
    last_name: Option<String>,
    remote_id: Option<serde_json::Value>,
}

/// A Kombo order, as the webhook's `data` and the poll's `results` give it (D82).
#[derive(Deserialize, Debug)]
pub struct KomboOrder {
    /// Kombo's order id (the order's ATS key).
    pub id: String,
    /// The package: a test id of the organization (D65).
    pub package_id: String,
    /// `OPEN` for an order to take.
    pub status: Option<String>,
    /// The Kombo integration the order comes from.
    pub integration_id: Option<String>,
    candidate: Candidate,
    #[serde(default)]
    application: Option<Remote>,
    #[serde(default)]
    job: Option<Job>,
}

/// An id Kombo sends as a string or a number, as text.
fn id_text(v: &Option<serde_json::Value>) -> Option<String> {
    match v.as_ref()? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The domain's order of `k` (D67): the package as the test, the candidate, Kombo's order id as
/// the ATS key, the candidate's, application's and job's remote ids. Errors: the fields, as a
/// validation error (an unknown package is `package_id`).
pub fn new_order(k: &KomboOrder) -> Result<NewOrder, ClientError> {
    let mut errs = FieldErrors::default();
    let test = TestRef::parse(&k.package_id);
    if test.is_none() {
        errs.push("package_id", "is not a test of this organization");
    }
    let ats_key = crate::reference(Some(&k.id), "id", &mut errs);
    if ats_key.is_none() && !errs.has("id") {
        errs.push("id", "is required");
    }
    let email = errs.take("candidate.email", Email::parse(&k.candidate.email));
    let first_name = crate::optional_name(k.candidate.first_name.as_deref(), "candidate.first_name", &mut errs);
    let last_name = crate::optional_name(k.candidate.last_name.as_deref(), "candidate.last_name", &mut errs);
    let job = k.job.as_ref();
    let refs = OrderRefs {
        candidate: crate::reference(id_text(&k.candidate.remote_id).as_deref(), "candidate.remote_id", &mut errs),
        application: crate::reference(
            k.application.as_ref().and_then(|a| id_text(&a.remote_id)).as_deref(),
            "application.remote_id",
            &mut errs,
        ),
        job: crate::reference(job.and_then(|j| id_text(&j.remote_id)).as_deref(), "job.remote_id", &mut errs),
        job_name: crate::reference(job.and_then(|j| j.name.as_deref()), "job.name", &mut errs),
        ats_order: ats_key.clone(),
        ..Default::default()
    };
    errs.into_result().map_err(|e| ClientError::validation(&e))?;
    let (Some(test), Some(email), Some(ats_key)) = (test, email, ats_key) else {
        return Err(ClientError::internal());
    };
    Ok(NewOrder { test, candidate: OrderCandidate { email, first_name, last_name }, ats_key, refs, callback_url: None })
}

/// The first field error's text of a validation error, for Kombo's one-line `{"message"}`.
fn first_problem(e: &ClientError) -> String {
    let field = e.details.as_ref().and_then(|d| d.get("fields")).and_then(|f| f.get(0));
    match field {
        Some(f) => {
            let name = f.get("field").and_then(|v| v.as_str()).unwrap_or("order");
            let msg = f.get("message").and_then(|v| v.as_str()).unwrap_or("is not valid");
            match name {
                "package_id" | "test" => "Unknown package: it is not a test of this organization".to_string(),
                _ => format!("{name} {msg}"),
            }
        }
        None => e.message.clone(),
    }
}

/// `POST /partners/kombo/webhook` (D82): finds the connection whose webhook secret makes the
/// signature (among the enabled Kombo connections with the body's `integration_id`, or all of
/// them when it names none), authenticates as that connection's key (so a revoked key or a
/// disabled connection ends Kombo's access, and the key's budgets apply), and takes an
/// `assessment:order-received` order: 200 `{"id"}` (the same id for a repeat), 400 for a body
/// that is not an order, 422 for an unknown package or a refusal, 401 for a wrong or missing
/// signature (spending the address's failure budget). Other types: 200 `{}`.
pub async fn webhook<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    use actix_web::http::StatusCode;
    let ip = (p.client_ip)(&req);
    if let Some(d) = p.limiter.blocked(ip).await {
        return refusal(&rate_limited(&d));
    }
    let unsigned = || ClientError::new(Code::Unauthorized, "The X-Kombo-Signature does not match a connection");
    let Some(sig) = req.headers().get("x-kombo-signature").and_then(|v| v.to_str().ok()).map(str::to_string) else {
        return refusal(&failed(&p, ip, unsigned()).await);
    };
    let loose: Option<serde_json::Value> = serde_json::from_slice(&body).ok();
    let integration = loose
        .as_ref()
        .and_then(|v| v.pointer("/data/integration_id").or_else(|| v.get("integration_id")))
        .and_then(|v| v.as_str())
        .map(str::to_string);
    let connections = match p.svc.enabled_connections(Ats::Kombo, integration.clone()).await {
        Ok(c) => c,
        Err(e) => return refusal(&client_error(e)),
    };
    // The store kept only the connections of the named integration, if the body names one.
    let found = connections
        .into_iter()
        .find(|c| c.settings.webhook_secret.as_deref().is_some_and(|s| signature_matches(s, &body, &sig)));
    let Some(connection) = found else { return refusal(&failed(&p, ip, unsigned()).await) };
    let bearer = Some(format!("Bearer {}", connection.key));
    let call = match authenticate_key(&p, ip, bearer, Ats::Kombo, Scope::PersonsWrite, true, false).await {
        Ok(c) => c,
        Err(r) => return refusal(&r.error),
    };
    let hook: Hook = match serde_json::from_slice(&body) {
        Ok(h) => h,
        Err(_) => return message(StatusCode::BAD_REQUEST, "The body is not a Kombo webhook"),
    };
    if hook.kind != ORDER_RECEIVED {
        return HttpResponse::Ok().json(json!({}));
    }
    let k: KomboOrder = match serde_json::from_value(hook.data) {
        Ok(k) => k,
        Err(_) => return message(StatusCode::BAD_REQUEST, "The webhook's data is not an assessment order"),
    };
    let order = match new_order(&k) {
        Ok(o) => o,
        Err(e) => return message(StatusCode::UNPROCESSABLE_ENTITY, &first_problem(&e)),
    };
    match p.svc.place_order(&call.connection, order).await {
        Ok((o, _)) => HttpResponse::Ok().json(json!({"id": o.id.to_string()})),
        Err(UseCaseError::Client(e)) if e.code == Code::ValidationError => {
            message(StatusCode::UNPROCESSABLE_ENTITY, &first_problem(&e))
        }
        Err(e) => refusal(&client_error(e)),
    }
}

/// One poll of one connection: how many new orders were taken, and the problems met (each once).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PollReport {
    /// Orders placed by this poll.
    pub taken: usize,
    /// Open orders already taken before.
    pub known: usize,
    /// Pages read.
    pub pages: usize,
}

/// Kombo's answer to `GET /assessment/orders`: `{"status": "success", "data": {"next",
/// "results"}}`.
#[derive(Deserialize, Debug)]
struct OrdersPage {
    data: OrdersData,
}

#[derive(Deserialize, Debug)]
struct OrdersData {
    next: Option<String>,
    results: Vec<serde_json::Value>,
}

/// The order poll (D82): every interval the app asks [`Poller::run`] to read each enabled Kombo
/// connection's open orders and place those not taken yet. A problem (Kombo unreachable, a
/// refused key, an order Talent refuses) is recorded in the connection's error log once per
/// connection and problem, not every minute, and the poll goes on with the next connection.
#[derive(Default)]
pub struct Poller {
    reported: Mutex<HashSet<(ConnectionId, String)>>,
}

impl Poller {
    /// A poller that has reported nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Polls every enabled Kombo connection once. Errors: reading the connections (the store's).
    pub async fn run<S: Store>(&self, svc: &Services<S>) -> Result<PollReport, UseCaseError> {
        let mut total = PollReport::default();
        for c in svc.enabled_connections(Ats::Kombo, None).await? {
            let r = self.poll(svc, &c).await;
            total.taken += r.taken;
            total.known += r.known;
            total.pages += r.pages;
        }
        Ok(total)
    }

    /// Records `problem` of connection `c` in its error log unless it was recorded before.
    async fn report<S: Store>(&self, svc: &Services<S>, c: &Connection, api_call: &str, problem: String) {
        let first = self
            .reported
            .lock()
            .map(|mut set| {
                // Bounded: a connection with endless new problems keeps the newest 10,000.
                if set.len() >= 10_000 {
                    set.clear();
                }
                set.insert((c.id, problem.clone()))
            })
            .unwrap_or(true);
        if first {
            let errors = json!([{ "message": problem }]).to_string();
            if let Err(e) = svc.record_connection_error(c.id, api_call, &errors, None).await {
                tracing::warn!(error = %e, connection = %c.id, "recording a Kombo poll problem");
            }
        }
    }

    /// Reads the connection's open orders, page by page (at most [`POLL_PAGES`]), and places each
    /// one not taken yet.
    pub async fn poll<S: Store>(&self, svc: &Services<S>, c: &Connection) -> PollReport {
        let mut report = PollReport::default();
        let mut cursor: Option<String> = None;
        while report.pages < POLL_PAGES {
            let path = match &cursor {
                Some(next) => format!("/assessment/orders?statuses=OPEN&cursor={}", crate::push::encode_segment(next)),
                None => "/assessment/orders?statuses=OPEN".to_string(),
            };
            let Some(req) = crate::push::kombo_request(c, "GET", &path, None) else { return report };
            let page = match svc.webhooks.fetch(&req, POLL_PAGE_LIMIT).await {
                Ok(f) if (200..300).contains(&f.status) => serde_json::from_slice::<OrdersPage>(&f.body)
                    .map_err(|_| "Kombo's answer to GET /assessment/orders is not a page of orders".to_string()),
                Ok(f) => Err(format!(
                    "Kombo answered {} to GET /assessment/orders: {}",
                    f.status,
                    String::from_utf8_lossy(&f.body[..f.body.len().min(300)])
                )),
                Err(e) => Err(format!("Kombo could not be reached: {e}")),
            };
            let page = match page {
                Ok(p) => p,
                Err(problem) => {
                    self.report(svc, c, "order poll", problem).await;
                    return report;
                }
            };
            report.pages += 1;
            for raw in page.data.results {
                self.take(svc, c, raw, &mut report).await;
            }
            match page.data.next.filter(|n| !n.is_empty()) {
                Some(n) => cursor = Some(n),
                None => break,
            }
        }
        report
    }

    /// Places one polled order unless it was taken before (by the webhook or an earlier poll).
    async fn take<S: Store>(&self, svc: &Services<S>, c: &Connection, raw: serde_json::Value, r: &mut PollReport) {
        let k: KomboOrder = match serde_json::from_value(raw) {
            Ok(k) => k,
            Err(_) => {
                self.report(svc, c, "order poll", "An open order is not in Kombo's order shape".into()).await;
                return;
            }
        };
        if k.status.as_deref().is_some_and(|s| s != "OPEN") {
            return;
        }
        match svc.order_by_key(c.id, k.id.clone()).await {
            Ok(Some(_)) => {
                r.known += 1;
                return;
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, connection = %c.id, "Kombo order poll");
                return;
            }
        }
        let placed = match new_order(&k) {
            Ok(order) => svc.place_order(c, order).await.map_err(client_error),
            Err(e) => Err(e),
        };
        match placed {
            Ok(_) => r.taken += 1,
            Err(e) if e.code == Code::InternalError => {
                tracing::warn!(connection = %c.id, order = %k.id, "Kombo order poll: placing failed; next poll retries");
            }
            Err(e) => {
                let problem = format!("Order {} refused: {}", k.id, first_problem(&e));
                self.report(svc, c, "order poll", problem).await;
            }
        }
    }
}
