//! Webhooks end to end (spec, Events; D1, D29-D35, D38, D39): the real binary delivers to a real
//! HTTP receiver on loopback started by each test, on SQLite and on PostgreSQL.
//!
//! [`App`] is the harness's [`TestApp`] in sandbox mode with this module's helpers.

use crate::support::{eventually, Backend, Opts, Resp, TestApp, ALL_SCOPES};
use serde_json::{json, Value};
use std::collections::{HashSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use talent_client::webhooks::{verify, verify_standard, VerifyError};

/// Bound for every wait: the worker runs every second (D31).
const WAIT: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

/// `talent serve` in sandbox mode (D39), with or without the D35 insecure switch.
struct App {
    app: TestApp,
    admin_token: String,
}

fn spawn(backend: Backend, insecure: bool) -> Option<App> {
    let app =
        crate::support::spawn(backend, Opts { sandbox: true, insecure_webhooks: insecure, ..Default::default() })?;
    Some(App { admin_token: app.admin_token.clone(), app })
}

impl App {
    fn request(&self, method: &str, path: &str, token: &str, body: Option<&Value>) -> Resp {
        self.request_with(method, path, token, body, &[])
    }
    fn request_with(
        &self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<&Value>,
        extra: &[(&str, &str)],
    ) -> Resp {
        let auth = format!("Bearer {token}");
        let mut headers = vec![("Authorization", auth.as_str())];
        headers.extend_from_slice(extra);
        let payload = body.map(|v| v.to_string());
        if payload.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        self.app.request(method, path, &headers, payload.as_deref().map(str::as_bytes))
    }
    fn get(&self, path: &str, key: &str) -> Resp {
        self.request("GET", path, key, None)
    }
    fn post(&self, path: &str, key: &str, body: &Value) -> Resp {
        self.request("POST", path, key, Some(body))
    }
    fn admin(&self, method: &str, path: &str, body: Option<&Value>) -> Resp {
        self.request(method, path, &self.admin_token, body)
    }
    /// Moves the sandbox clock (D39); the handler also runs the delivery worker.
    fn advance(&self, secs: i64) {
        let r = self.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": secs})));
        assert_eq!(r.status, 200, "{}", r.text);
    }
    /// A business organization with an admin user; returns (org id, user id, all-scopes key).
    fn org(&self) -> (String, String, String) {
        let o = self.admin(
            "POST",
            "/admin/v1/organizations",
            Some(&json!({"companyName": "Acme", "email": "hr@acme.example", "plan": "business", "subscriptionStatus": "active"})),
        );
        assert_eq!(o.status, 201, "{}", o.text);
        let org = o.json["id"].as_str().unwrap().to_string();
        let u = self.admin(
            "POST",
            &format!("/admin/v1/organizations/{org}/users"),
            Some(&json!({"email": "admin@acme.example", "role": "admin"})),
        );
        assert_eq!(u.status, 201, "{}", u.text);
        let user = u.json["id"].as_str().unwrap().to_string();
        let key = self.key(&user, &ALL_SCOPES);
        (org, user, key)
    }
    fn key(&self, user: &str, scopes: &[&str]) -> String {
        let k = self.admin("POST", &format!("/admin/v1/users/{user}/api-keys"), Some(&json!({"scopes": scopes})));
        assert_eq!(k.status, 201, "{}", k.text);
        k.json["key"].as_str().unwrap().to_string()
    }
    fn import(&self, key: &str, body: Value) -> Value {
        let r = self.post("/api/v1/persons", key, &body);
        assert_eq!(r.status, 201, "{}", r.text);
        r.json
    }
    /// Registers an endpoint for every event; returns (id, secret).
    fn register(&self, key: &str, url: &str) -> (String, String) {
        let r = self.post("/api/v1/webhooks", key, &json!({"url": url, "events": ["*"]}));
        assert_eq!(r.status, 201, "{}", r.text);
        (r.json["id"].as_str().unwrap().to_string(), r.json["secret"].as_str().unwrap().to_string())
    }
    fn deliveries(&self, key: &str, hook: &str, query: &str) -> Resp {
        let r = self.get(&format!("/api/v1/webhooks/{hook}/deliveries{query}"), key);
        assert_eq!(r.status, 200, "{}", r.text);
        r
    }
    fn delivery(&self, key: &str, hook: &str, id: &str) -> Value {
        let r = self.get(&format!("/api/v1/webhooks/{hook}/deliveries/{id}"), key);
        assert_eq!(r.status, 200, "{}", r.text);
        r.json
    }
}

impl App {
    /// Waits (bounded) until the delivery records `n` attempts: the receiver sees a request
    /// before the worker has stored its outcome.
    /// Waits (bounded) until no delivery of the endpoint is pending: every one succeeded or
    /// failed for good and is recorded, so no attempt is in flight and none will follow. What the
    /// receiver has by then is all it will ever get (a "nothing more arrives" check without a
    /// sleep).
    fn wait_all_final(&self, key: &str, hook: &str) {
        let ok = eventually(WAIT, || self.deliveries(key, hook, "?status=pending").json["data"] == json!([]));
        assert!(ok, "deliveries still pending: {}", self.deliveries(key, hook, "?status=pending").text);
    }
    fn wait_attempts(&self, key: &str, hook: &str, id: &str, n: u64) -> Value {
        let ok = eventually(WAIT, || self.delivery(key, hook, id)["attempts"] == json!(n));
        let d = self.delivery(key, hook, id);
        assert!(ok, "expected {n} recorded attempts: {d}");
        d
    }
}

macro_rules! webhook_e2e {
    ($name:ident, insecure = $insecure:expr, |$app:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            fn run($app: &App) $body
            #[test]
            fn sqlite() {
                if let Some(app) = spawn(Backend::Sqlite, $insecure) {
                    run(&app);
                }
            }
            #[test]
            fn postgres() {
                if let Some(app) = spawn(Backend::Postgres, $insecure) {
                    run(&app);
                }
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// The receiver
// ---------------------------------------------------------------------------------------------

/// One request the receiver got.
#[derive(Clone, Debug)]
pub(crate) struct Hit {
    pub(crate) method: String,
    pub(crate) path: String,
    headers: Vec<(String, String)>,
    pub(crate) body: String,
    /// Unix seconds (the receiver's real clock) when it arrived.
    at: i64,
}

impl Hit {
    pub(crate) fn header(&self, name: &str) -> &str {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).unwrap_or("")
    }
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("body is not JSON ({e}): {}", self.body))
    }
    fn delivery_id(&self) -> &str {
        self.header("talent-delivery-id")
    }
    fn event(&self) -> &str {
        self.header("talent-event")
    }
}

/// A scripted answer: status, extra headers, and a JSON body (else `answer {status}` as text).
type Answer = (u16, Vec<(String, String)>, Option<String>);

/// A standing answer for requests of one method whose path starts with a prefix.
type Route = (String, String, u16, String);

/// A minimal HTTP/1.1 server on 127.0.0.1: records each request and answers with its standing
/// route's answer ([`Receiver::route`]) or else the next scripted status (200 when the script is
/// empty), always with `Connection: close`.
pub(crate) struct Receiver {
    pub(crate) url: String,
    pub(crate) hits: Arc<Mutex<Vec<Hit>>>,
    script: Arc<Mutex<VecDeque<Answer>>>,
    routes: Arc<Mutex<Vec<Route>>>,
}

fn unix_now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() as i64
}

impl Receiver {
    pub(crate) fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let hits: Arc<Mutex<Vec<Hit>>> = Arc::default();
        let script: Arc<Mutex<VecDeque<Answer>>> = Arc::default();
        let routes: Arc<Mutex<Vec<Route>>> = Arc::default();
        let (h, s, r) = (hits.clone(), script.clone(), routes.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let Ok(clone) = stream.try_clone() else { continue };
                let mut reader = BufReader::new(clone);
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    continue;
                }
                let mut parts = line.split_whitespace();
                let method = parts.next().unwrap_or("").to_string();
                let path = parts.next().unwrap_or("").to_string();
                let mut headers = Vec::new();
                let mut len = 0usize;
                loop {
                    line.clear();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    let l = line.trim_end();
                    if l.is_empty() {
                        break;
                    }
                    if let Some((k, v)) = l.split_once(':') {
                        let (k, v) = (k.trim().to_string(), v.trim().to_string());
                        if k.eq_ignore_ascii_case("content-length") {
                            len = v.parse().unwrap_or(0);
                        }
                        headers.push((k, v));
                    }
                }
                let mut body = vec![0u8; len];
                let _ = reader.read_exact(&mut body);
                let body = String::from_utf8_lossy(&body).into_owned();
                let standing =
                    r.lock().unwrap().iter().find(|(m, p, _, _)| *m == method && path.starts_with(p.as_str())).cloned();
                h.lock().unwrap().push(Hit { method, path, headers, body, at: unix_now() });
                let (status, extra, json) = match standing {
                    Some((_, _, status, json)) => (status, vec![], Some(json)),
                    None => s.lock().unwrap().pop_front().unwrap_or((200, vec![], None)),
                };
                let kind = if json.is_some() { "application/json" } else { "text/plain" };
                let mut resp = format!("HTTP/1.1 {status} Scripted\r\nContent-Type: {kind}\r\n");
                for (k, v) in extra {
                    resp.push_str(&format!("{k}: {v}\r\n"));
                }
                let text = json.unwrap_or_else(|| format!("answer {status}"));
                resp.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n{text}", text.len()));
                let _ = stream.write_all(resp.as_bytes());
                let _ = stream.flush();
            }
        });
        Receiver { url, hits, script, routes }
    }
    /// From now on, `method` requests whose path starts with `prefix` get `status` with `body`
    /// (the last route set for a request wins over earlier ones).
    pub(crate) fn route(&self, method: &str, prefix: &str, status: u16, body: &Value) {
        self.routes.lock().unwrap().insert(0, (method.into(), prefix.into(), status, body.to_string()));
    }
    fn answer(&self, statuses: &[u16]) {
        self.script.lock().unwrap().extend(statuses.iter().map(|s| (*s, vec![], None)));
    }
    fn answer_with(&self, status: u16, headers: &[(&str, &str)], times: usize) {
        let h: Vec<(String, String)> = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        self.script.lock().unwrap().extend((0..times).map(|_| (status, h.clone(), None)));
    }
    /// The next answer: `status` with a JSON `body`.
    pub(crate) fn answer_json(&self, status: u16, body: &Value) {
        self.script.lock().unwrap().push_back((status, vec![], Some(body.to_string())));
    }
    pub(crate) fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }
    fn count(&self) -> usize {
        self.hits.lock().unwrap().len()
    }
    /// Waits (bounded) until at least `n` requests arrived; returns them all.
    pub(crate) fn wait_for(&self, n: usize) -> Vec<Hit> {
        let ok = eventually(WAIT, || self.count() >= n);
        let hits = self.hits();
        assert!(ok, "expected {n} requests within {WAIT:?}, got {}: {:?}", hits.len(), types(&hits));
        hits
    }
    /// Waits (bounded) for a request with this event type.
    fn wait_event(&self, t: &str) -> Hit {
        let ok = eventually(WAIT, || self.hits().iter().any(|h| h.event() == t));
        let hits = self.hits();
        assert!(ok, "no {t} within {WAIT:?}; got {:?}", types(&hits));
        hits.into_iter().find(|h| h.event() == t).unwrap()
    }
}

fn types(hits: &[Hit]) -> Vec<String> {
    hits.iter().map(|h| h.event().to_string()).collect()
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().cloned().collect();
    k.sort();
    k
}

/// The checks every delivered request must pass (spec, Events; D1, D30, D31, D34, D57, D58):
/// POST, JSON, the `Talent-*` headers, the envelope's members with `id` the delivery id and
/// `eventId` the `Talent-Event-Id` and `webhook-id`, a `Talent-Signature` that verifies with
/// `secret` at the receiver's own clock, and (for a secret in the Standard Webhooks form) a
/// `webhook-signature` that verifies too.
fn assert_delivery(h: &Hit, secret: &str) -> Value {
    assert_eq!(h.method, "POST");
    assert_eq!(h.path, "/hook");
    assert!(h.header("content-type").starts_with("application/json"), "{:?}", h.headers);
    let env = h.json();
    assert_eq!(
        keys(&env),
        ["apiVersion", "createdAt", "data", "eventId", "id", "sequence", "type"],
        "envelope of {}",
        h.body
    );
    assert_eq!(env["eventId"], h.header("talent-event-id"), "Talent-Event-Id = envelope eventId");
    assert_eq!(env["eventId"], h.header("webhook-id"), "webhook-id = envelope eventId");
    assert!(env["sequence"].is_u64() || env["type"] == "ping", "sequence of {}", h.body);
    assert_eq!(env["apiVersion"], "v1");
    assert_eq!(env["type"], h.event(), "Talent-Event = envelope type");
    assert_eq!(env["id"], h.delivery_id(), "Talent-Delivery-Id = envelope id");
    assert!(uuid::Uuid::parse_str(h.delivery_id()).is_ok(), "delivery id {:?}", h.delivery_id());
    assert!(
        time::OffsetDateTime::parse(env["createdAt"].as_str().unwrap(), &time::format_description::well_known::Rfc3339)
            .is_ok(),
        "createdAt {}",
        env["createdAt"]
    );
    assert!(env["data"].is_object());
    let sig = h.header("talent-signature");
    assert!(sig.starts_with("t="), "Talent-Signature {sig:?}");
    assert_eq!(
        verify(secret, sig, h.body.as_bytes(), h.at),
        Ok(()),
        "signature of {} {} at receiver time {}: {sig}",
        h.event(),
        h.delivery_id(),
        h.at
    );
    assert_eq!(sig.strip_prefix("t=").and_then(|r| r.split(',').next()), Some(h.header("webhook-timestamp")));
    if secret.ends_with('=') {
        let standard = verify_standard(
            secret,
            h.header("webhook-id"),
            h.header("webhook-timestamp"),
            h.header("webhook-signature"),
            h.body.as_bytes(),
            h.at,
        );
        assert_eq!(standard, Ok(()), "webhook-signature of {}: {:?}", h.event(), h.headers);
        log_standard(h, secret);
    }
    env
}

/// Appends a delivery signed the Standard Webhooks way to the file named by
/// `TALENT_E2E_STANDARD_WEBHOOKS_LOG` (when set), for `tests/standard-webhooks.sh` to verify
/// with the `standardwebhooks` library from PyPI after the tests (D58): one JSON line each.
fn log_standard(h: &Hit, secret: &str) {
    static LOG: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let Ok(path) = std::env::var("TALENT_E2E_STANDARD_WEBHOOKS_LOG") else { return };
    let headers: serde_json::Map<String, Value> = ["webhook-id", "webhook-timestamp", "webhook-signature"]
        .iter()
        .map(|n| (n.to_string(), json!(h.header(n))))
        .collect();
    let line = json!({"secret": secret, "headers": headers, "body": h.body, "at": h.at}).to_string() + "\n";
    let _one_writer = LOG.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path).expect("the delivery log opens");
    f.write_all(line.as_bytes()).expect("the delivery log is written");
}

fn is_base64(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=')
}

// ---------------------------------------------------------------------------------------------
// Registration and every event type (D29, D30, D33, D34)
// ---------------------------------------------------------------------------------------------

webhook_e2e!(every_event_type_arrives_signed_with_the_envelope_and_headers, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let rx = Receiver::start();

    // D29/D30/D58: 201 with exactly these fields; the secret is whsec_ + 32 bytes in base64.
    let r = app.post("/api/v1/webhooks", &key, &json!({"url": rx.url, "events": ["*"]}));
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        keys(&r.json),
        ["createdAt", "description", "enabled", "events", "id", "secret", "updatedAt", "url"],
        "{}",
        r.text
    );
    assert_eq!(r.json["url"], json!(rx.url));
    assert_eq!(r.json["events"], json!(["*"]));
    assert_eq!(r.json["enabled"], json!(true));
    assert_eq!(r.json["description"], Value::Null);
    let hook = r.json["id"].as_str().unwrap().to_string();
    let secret = r.json["secret"].as_str().unwrap().to_string();
    let body = secret.strip_prefix("whsec_").expect("whsec_ prefix");
    assert_eq!(body.len(), 44, "32 bytes in standard base64 with padding: {secret}");
    assert!(is_base64(body) && body.ends_with('='), "{secret}");
    // The secret is shown once: reads do not carry it.
    let g = app.get(&format!("/api/v1/webhooks/{hook}"), &key);
    assert_eq!(g.status, 200, "{}", g.text);
    assert!(g.json.get("secret").is_none(), "{}", g.text);

    // person.created (import).
    let p = app.import(&key, json!({"email": "ann@example.com", "externalId": "ext-ann"}));
    let pid = p["id"].as_str().unwrap().to_string();
    let h = rx.wait_event("person.created");
    let env = assert_delivery(&h, &secret);
    assert_eq!(env["data"]["id"], json!(pid), "D34: the Person object");
    assert_eq!(env["data"]["email"], "ann@example.com");

    // person.updated (D47): the Person and the old values of what changed.
    let u = app.request("PATCH", &format!("/api/v1/persons/{pid}"), &key, Some(&json!({"firstName": "Ann"})));
    assert_eq!(u.status, 200, "{}", u.text);
    let env = assert_delivery(&rx.wait_event("person.updated"), &secret);
    assert_eq!(env["data"]["firstName"], "Ann");
    assert_eq!(env["data"]["previousAttributes"], json!({"firstName": null}));

    // assessment.started (D47): the shape of assessment.completed with startedAt.
    let a = app.admin("POST", &format!("/admin/v1/persons/{pid}/assessments"), Some(&json!({"complete": false})));
    assert_eq!(a.status, 200, "{}", a.text);
    let env = assert_delivery(&rx.wait_event("assessment.started"), &secret);
    assert_eq!(keys(&env["data"]), ["accommodations", "assessmentId", "email", "externalId", "personId", "startedAt"]);
    assert_eq!(env["data"]["assessmentId"], a.json["id"]);

    // assessment.completed (D34: exactly the specified fields).
    let a =
        app.admin("POST", &format!("/admin/v1/persons/{pid}/assessments"), Some(&json!({"complete": true, "seed": 1})));
    assert_eq!(a.status, 200, "{}", a.text);
    let h = rx.wait_event("assessment.completed");
    let env = assert_delivery(&h, &secret);
    assert_eq!(
        keys(&env["data"]),
        ["accommodations", "assessmentId", "completedAt", "email", "externalId", "personId"]
    );
    assert_eq!(env["data"]["personId"], json!(pid));
    assert_eq!(env["data"]["email"], "ann@example.com");
    assert_eq!(env["data"]["externalId"], "ext-ann");
    assert_eq!(env["data"]["assessmentId"], a.json["id"]);

    // person.archived (DELETE).
    let d = app.request("DELETE", &format!("/api/v1/persons/{pid}"), &key, None);
    assert_eq!(d.status, 200, "{}", d.text);
    let env = assert_delivery(&rx.wait_event("person.archived"), &secret);
    assert_eq!(env["data"]["id"], json!(pid));
    assert!(env["data"]["archivedAt"].is_string(), "{}", env["data"]);

    // invitation.revoked.
    let i = app.post("/api/v1/invitations", &key, &json!({"email": "rev@example.com", "sendEmail": false}));
    assert_eq!(i.status, 201, "{}", i.text);
    let iid = i.json["id"].as_str().unwrap().to_string();
    let env = assert_delivery(&rx.wait_event("invitation.created"), &secret);
    assert_eq!(env["data"]["id"], json!(iid), "D47: the Invitation object");
    // invitation.reminded (D47): a resend.
    let rs = app.post(&format!("/api/v1/invitations/{iid}/resend"), &key, &json!({}));
    assert_eq!(rs.status, 200, "{}", rs.text);
    let env = assert_delivery(&rx.wait_event("invitation.reminded"), &secret);
    assert_eq!(env["data"]["id"], json!(iid));
    let rv = app.post(&format!("/api/v1/invitations/{iid}/revoke"), &key, &json!({}));
    assert_eq!(rv.status, 200, "{}", rv.text);
    let env = assert_delivery(&rx.wait_event("invitation.revoked"), &secret);
    assert_eq!(env["data"]["id"], json!(iid), "D34: the Invitation object");
    assert_eq!(env["data"]["status"], "revoked");

    // invitation.accepted + person.joined.
    let i = app.post("/api/v1/invitations", &key, &json!({"email": "join@example.com", "sendEmail": false}));
    assert_eq!(i.status, 201, "{}", i.text);
    let iid = i.json["id"].as_str().unwrap().to_string();
    let acc = app.admin("POST", &format!("/admin/v1/invitations/{iid}/accept"), Some(&json!({})));
    assert_eq!(acc.status, 200, "{}", acc.text);
    let env = assert_delivery(&rx.wait_event("invitation.accepted"), &secret);
    assert_eq!(env["data"]["id"], json!(iid));
    assert_eq!(env["data"]["status"], "accepted");
    let env = assert_delivery(&rx.wait_event("person.joined"), &secret);
    assert_eq!(env["data"]["id"], acc.json["person"]["id"]);
    assert_eq!(env["data"]["email"], "join@example.com");

    // invitation.expired: the sandbox clock passes the default 14 days (D21, D39).
    let i = app.post("/api/v1/invitations", &key, &json!({"email": "late@example.com", "sendEmail": false}));
    assert_eq!(i.status, 201, "{}", i.text);
    let iid = i.json["id"].as_str().unwrap().to_string();
    app.advance(1_300_000);
    // The signature's `t` must still be current for the receiver (spec, Signature step 3), even
    // though the service's sandbox clock moved 15 days ahead.
    let env = assert_delivery(&rx.wait_event("invitation.expired"), &secret);
    assert_eq!(env["data"]["id"], json!(iid));
    assert_eq!(env["data"]["status"], "expired");

    // ping (D33): answered synchronously with the receiver's response.
    // Pings counted on their own: after the clock jump another delivery (a reminder, or a
    // redelivery of an expired claim, T104) may still arrive meanwhile.
    let pings = |hits: &[Hit]| hits.iter().filter(|h| h.event() == "ping").count();
    let before = pings(&rx.hits());
    let t = app.request("POST", &format!("/api/v1/webhooks/{hook}/test"), &key, None);
    assert_eq!(t.status, 200, "{}", t.text);
    assert_eq!(keys(&t.json), ["deliveryId", "durationMs", "error", "responseBody", "responseStatus", "success"]);
    assert_eq!(t.json["success"], json!(true));
    assert_eq!(t.json["responseStatus"], json!(200));
    assert_eq!(t.json["responseBody"], "answer 200");
    assert_eq!(t.json["error"], Value::Null);
    assert!(t.json["durationMs"].is_u64());
    let hits = rx.hits();
    assert_eq!(pings(&hits), before + 1, "the ping arrived before /test answered, and only it");
    let ping = hits.iter().rev().find(|h| h.event() == "ping").unwrap();
    assert_eq!(ping.event(), "ping");
    let env = assert_delivery(ping, &secret);
    assert_eq!(env["id"], t.json["deliveryId"]);
    assert_eq!(env["data"], json!({"webhookId": hook}));

    // Every event type arrived, once per event (one endpoint: one delivery per event). Delivery
    // is at least once (D31; the sandbox clock's 15-day jump can expire an in-flight claim, T104):
    // a receiver deduplicates on the delivery id, and so does this count.
    app.wait_all_final(&key, &hook);
    let mut hits = rx.hits();
    let mut seen = std::collections::HashSet::new();
    hits.retain(|h| seen.insert(h.delivery_id().to_string()));
    let mut got = types(&hits);
    got.sort();
    assert_eq!(
        got,
        [
            "assessment.completed",
            "assessment.started",
            "invitation.accepted",
            "invitation.created",
            "invitation.created",
            "invitation.created",
            "invitation.expired",
            "invitation.reminded",
            "invitation.revoked",
            "person.archived",
            "person.created",
            "person.joined",
            "person.updated",
            "person.updated",
            "person.updated",
            "ping"
        ]
    );
    let ids: HashSet<&str> = hits.iter().map(|h| h.delivery_id()).collect();
    assert_eq!(ids.len(), hits.len(), "one delivery id per delivery");
});

// ---------------------------------------------------------------------------------------------
// Retries (D31) on the sandbox clock (D39)
// ---------------------------------------------------------------------------------------------

webhook_e2e!(answers_500_500_200_give_three_attempts_with_one_delivery_id, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let rx = Receiver::start();
    let (hook, secret) = app.register(&key, &rx.url);
    rx.answer(&[500, 500]);
    app.import(&key, json!({"email": "ann@example.com"}));
    let first = rx.wait_for(1);
    let id = first[0].delivery_id().to_string();
    // No retry before the first delay: once the attempt is recorded, a whole delivery pass (what
    // the worker runs every second) finds nothing due.
    let d = app.wait_attempts(&key, &hook, &id, 1);
    app.advance(0);
    assert_eq!(rx.count(), 1, "retried before 1 minute");
    assert_eq!(d["status"], "pending");
    assert_eq!(d["attempts"], 1);
    assert_eq!(d["lastResponseStatus"], 500);
    assert_eq!(d["lastError"], "non-2xx status 500");
    assert!(d["nextAttemptAt"].is_string());

    app.advance(61);
    rx.wait_for(2);
    app.advance(301);
    let hits = rx.wait_for(3);
    app.wait_attempts(&key, &hook, &id, 3);
    app.wait_all_final(&key, &hook);
    app.advance(86_400);
    assert_eq!(rx.count(), 3, "exactly 3 attempts");
    for h in &hits {
        assert_eq!(h.delivery_id(), id, "the id stays the same across retries");
        assert_eq!(h.body, hits[0].body, "the same envelope every time");
        assert_delivery(h, &secret);
    }
    let d = app.delivery(&key, &hook, &id);
    assert_eq!(d["status"], "succeeded");
    assert_eq!(d["attempts"], 3);
    assert_eq!(d["lastResponseStatus"], 200);
    assert_eq!(d["lastError"], Value::Null);
    assert_eq!(d["nextAttemptAt"], Value::Null);
    let log: Vec<Value> = d["attemptLog"].as_array().unwrap().iter().map(|a| a["responseStatus"].clone()).collect();
    assert_eq!(log, [json!(500), json!(500), json!(200)]);

    // D57: the event keeps its identity through retries, a redelivery and a replay, and it is
    // the feed item's id; the replay is a new delivery.
    let feed = app.get("/api/v1/events?type=person.created", &key);
    assert_eq!(feed.status, 200, "{}", feed.text);
    let item = &feed.json["data"][0];
    let env = hits[0].json();
    assert_eq!(env["eventId"], item["id"], "eventId = the feed item's id");
    assert_eq!(env["sequence"], item["sequence"], "sequence = the feed item's sequence");
    let r = app.post(&format!("/api/v1/webhooks/{hook}/deliveries/{id}/redeliver"), &key, &json!({}));
    assert!(r.status == 200 || r.status == 202, "{}", r.text);
    let again = rx.wait_for(4)[3].clone();
    assert_eq!((again.delivery_id(), again.header("talent-event-id")), (id.as_str(), item["id"].as_str().unwrap()));
    assert_eq!(again.body, hits[0].body, "a redelivery sends the same envelope");
    let after = item["sequence"].as_u64().unwrap() - 1;
    let r = app.post(&format!("/api/v1/webhooks/{hook}/replay"), &key, &json!({"after": after}));
    assert_eq!((r.status, &r.json["queued"]), (202, &json!(1)), "{}", r.text);
    let replayed = rx.wait_for(5)[4].clone();
    assert_delivery(&replayed, &secret);
    assert_ne!(replayed.delivery_id(), id, "a replay is a new delivery");
    assert_eq!(replayed.json()["eventId"], item["id"], "of the same event");
    assert_eq!(replayed.json()["sequence"], item["sequence"]);
    assert_eq!(replayed.header("webhook-id"), item["id"].as_str().unwrap());

    // D38: /test is never idempotent: the same Idempotency-Key sends a second ping.
    let idem = [("Idempotency-Key", "ping-1")];
    let path = format!("/api/v1/webhooks/{hook}/test");
    let t1 = app.request_with("POST", &path, &key, None, &idem);
    let t2 = app.request_with("POST", &path, &key, None, &idem);
    assert_eq!((t1.status, t2.status), (200, 200), "{} {}", t1.text, t2.text);
    assert_eq!(t2.header("idempotency-replayed"), None);
    assert_ne!(t1.json["deliveryId"], t2.json["deliveryId"]);
    assert_eq!(rx.count(), 7, "two pings sent");
    // ... while POST /webhooks honours it: one endpoint, the same answer replayed.
    let body = json!({"url": rx.url, "events": ["person.archived"]});
    let idem = [("Idempotency-Key", "hook-1")];
    let c1 = app.request_with("POST", "/api/v1/webhooks", &key, Some(&body), &idem);
    let c2 = app.request_with("POST", "/api/v1/webhooks", &key, Some(&body), &idem);
    assert_eq!((c1.status, c2.status), (201, 201), "{} {}", c1.text, c2.text);
    assert_eq!(c2.header("idempotency-replayed"), Some("true"));
    assert_eq!(c1.json, c2.json);
    assert_eq!(app.get("/api/v1/webhooks", &key).json["data"].as_array().unwrap().len(), 2);
});

webhook_e2e!(
    three_days_of_failed_deliveries_disable_the_endpoint_and_reenabling_releases_held_ones_d50,
    insecure = true,
    |app| {
        let (_org, _user, key) = app.org();
        let rx = Receiver::start();
        let (hook, secret) = app.register(&key, &rx.url);
        rx.answer(&[500; 30]);
        for i in 0..5 {
            app.import(&key, json!({"email": format!("p{i}@example.com")}));
        }
        rx.wait_for(5);
        for (n, secs) in [(10, 61), (15, 301), (20, 1_801), (25, 7_201)] {
            app.advance(secs);
            // The endpoint's breaker (T59) opens again at the round's first failure: a delivery
            // the engine had not claimed with it waits for the breaker's time (at most 5 minutes
            // on the service clock), which the sandbox clock is moved past here. Whether the
            // engine claims a round's deliveries together depends on timing (a loaded machine
            // saw 8 of 10 here).
            for _ in 0..5 {
                if eventually(Duration::from_secs(2), || rx.count() >= n) {
                    break;
                }
                app.advance(5 * 60);
            }
            rx.wait_for(n);
        }
        app.wait_all_final(&key, &hook);
        assert_eq!(app.deliveries(&key, &hook, "?status=failed").json["data"].as_array().unwrap().len(), 5);
        assert_eq!(
            app.get(&format!("/api/v1/webhooks/{hook}"), &key).json["enabled"],
            json!(true),
            "5 failed deliveries within hours do not disable the endpoint (D50: 3 days, not a count)"
        );
        // Three days on, one more delivery fails for good: the run of failures has lasted 3 days.
        app.advance(3 * 86_400);
        app.import(&key, json!({"email": "p5@example.com"}));
        rx.wait_for(26);
        // The breaker (T59) is open 5 minutes after so many failures: each retry waits it out.
        for (n, secs) in [(27, 301), (28, 301), (29, 1_801), (30, 7_201)] {
            app.advance(secs);
            rx.wait_for(n);
        }
        assert!(
            eventually(WAIT, || app.get(&format!("/api/v1/webhooks/{hook}"), &key).json["enabled"] == json!(false)),
            "deliveries failing for good for 3 days disable the endpoint"
        );
        assert_eq!(app.deliveries(&key, &hook, "?status=failed").json["data"].as_array().unwrap().len(), 6);
        let mails = app.admin("GET", "/admin/v1/emails?to=admin@acme.example", None);
        assert_eq!(mails.status, 200, "{}", mails.text);
        let disabled: Vec<&Value> = mails.json["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["subject"].as_str().unwrap_or("").contains("webhook endpoint disabled"))
            .collect();
        assert_eq!(disabled.len(), 1, "{}", mails.text);
        let body = disabled[0]["body"].as_str().unwrap();
        assert!(body.contains(&hook));
        // The time as people read it ("15 January 2026, 10:00 UTC"), not an ISO 8601 timestamp.
        let since = body.split("since ").nth(1).and_then(|r| r.split(" (").next()).unwrap_or_default();
        let month = since.split(' ').nth(1).unwrap_or_default();
        assert!(since.ends_with(" UTC") && month.chars().all(char::is_alphabetic) && !month.is_empty(), "{body}");

        // Held while disabled: the event is recorded but not sent, however far the clock moves.
        app.import(&key, json!({"email": "held@example.com"}));
        // The clock's move runs a whole delivery pass (the worker's claim) before it answers.
        app.advance(3_600);
        assert_eq!(rx.count(), 30, "nothing goes to a disabled endpoint");
        let pending = app.deliveries(&key, &hook, "?status=pending");
        let held = pending.json["data"].as_array().unwrap();
        assert_eq!(held.len(), 1, "{}", pending.text);
        assert_eq!(held[0]["attempts"], 0);
        let held_id = held[0]["id"].as_str().unwrap().to_string();

        // Re-enabling lets it go.
        let r = app.request("PATCH", &format!("/api/v1/webhooks/{hook}"), &key, Some(&json!({"enabled": true})));
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["enabled"], json!(true));
        let hits = rx.wait_for(31);
        assert_eq!(hits[30].delivery_id(), held_id);
        let env = assert_delivery(&hits[30], &secret);
        assert_eq!(env["data"]["email"], "held@example.com");
        assert!(eventually(WAIT, || app.delivery(&key, &hook, &held_id)["status"] == "succeeded"));
    }
);

webhook_e2e!(redirects_are_not_followed_then_failed_after_the_last_retry_then_redelivered, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let rx = Receiver::start();
    let other = Receiver::start();
    let (hook, secret) = app.register(&key, &rx.url);
    rx.answer_with(308, &[("Location", &other.url)], 5);
    app.import(&key, json!({"email": "ann@example.com"}));
    let id = rx.wait_for(1)[0].delivery_id().to_string();
    let d = app.wait_attempts(&key, &hook, &id, 1);
    assert_eq!(d["status"], "pending", "a 3xx is a failure (D31)");
    assert_eq!(d["lastResponseStatus"], 308);
    // 1 min, 5 min, 30 min, 2 h (D31), one attempt after each.
    for (n, secs) in [(2, 61), (3, 301), (4, 1_801)] {
        app.advance(secs);
        rx.wait_for(n);
        let d = app.wait_attempts(&key, &hook, &id, n as u64);
        assert_eq!(d["status"], "pending", "after attempt {n}");
    }
    app.advance(7_201);
    rx.wait_for(5);
    assert!(eventually(WAIT, || app.delivery(&key, &hook, &id)["status"] == "failed"));
    let failed = app.deliveries(&key, &hook, "?status=failed");
    let items = failed.json["data"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{}", failed.text);
    assert_eq!(items[0]["id"], json!(id));
    assert_eq!(items[0]["attempts"], 5);
    assert_eq!(items[0]["nextAttemptAt"], Value::Null);
    assert_eq!(app.deliveries(&key, &hook, "?status=pending").json["data"], json!([]));
    // No sixth attempt, however far the clock moves; the redirect target was never called.
    app.advance(86_400);
    assert_eq!(rx.count(), 5);
    assert_eq!(other.count(), 0, "redirects are never followed (D31)");
    assert!(rx.hits().iter().all(|h| h.delivery_id() == id));

    // Redeliver: 202, the same delivery (same id) goes out again.
    let r = app.post(&format!("/api/v1/webhooks/{hook}/deliveries/{id}/redeliver"), &key, &json!({}));
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.json["id"], json!(id));
    assert_eq!(r.json["status"], "pending");
    let hits = rx.wait_for(6);
    assert_eq!(hits[5].delivery_id(), id);
    assert_eq!(hits[5].body, hits[0].body);
    assert_delivery(&hits[5], &secret);
    assert!(eventually(WAIT, || app.delivery(&key, &hook, &id)["status"] == "succeeded"));
    let d = app.delivery(&key, &hook, &id);
    assert_eq!(d["attemptLog"].as_array().unwrap().len(), 6);
    assert_eq!(other.count(), 0);
    // Unknown delivery: 404.
    let nf =
        app.post(&format!("/api/v1/webhooks/{hook}/deliveries/{}/redeliver", uuid::Uuid::now_v7()), &key, &json!({}));
    nf.assert_error(404, "not_found");
});

// ---------------------------------------------------------------------------------------------
// Rotation, the deliveries list and detail (D29, D32, D36)
// ---------------------------------------------------------------------------------------------

webhook_e2e!(rotation_signs_with_both_secrets_and_deliveries_page_newest_first, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let rx = Receiver::start();
    let (hook, old) = app.register(&key, &rx.url);
    let r = app.post(&format!("/api/v1/webhooks/{hook}/rotate-secret"), &key, &json!({}));
    assert_eq!(r.status, 200, "{}", r.text);
    let new = r.json["secret"].as_str().unwrap().to_string();
    assert!(new.starts_with("whsec_") && new.len() == 50, "{new}");
    assert_ne!(new, old);
    app.import(&key, json!({"email": "p0@example.com"}));
    let h = &rx.wait_for(1)[0];
    assert_delivery(h, &new);
    assert_delivery(h, &old);
    assert_eq!(
        verify("whsec_someone_else", h.header("talent-signature"), h.body.as_bytes(), h.at),
        Err(VerifyError::Mismatch),
        "the check is not vacuous"
    );
    // The outcome is recorded before the clock jumps: otherwise the jump outlives the claim's
    // lease and the first delivery is sent again.
    app.wait_attempts(&key, &hook, h.delivery_id(), 1);
    // Only the new secret after the 24 h overlap.
    app.advance(24 * 3600 + 60);
    app.import(&key, json!({"email": "p1@example.com"}));
    let h = &rx.wait_for(2)[1];
    assert_delivery(h, &new);
    assert_eq!(verify(&old, h.header("talent-signature"), h.body.as_bytes(), h.at), Err(VerifyError::Mismatch));

    // Five deliveries in all: pages of two, newest first, D32 fields.
    for i in 2..5 {
        app.import(&key, json!({"email": format!("p{i}@example.com")}));
    }
    let hits = rx.wait_for(5);
    // In the order the persons were imported (p0 … p4): deliveries of one endpoint may arrive in
    // any order (several are in flight at once), the list is by creation.
    let mut by_import: Vec<(String, String)> = hits
        .iter()
        .map(|h| {
            let body: Value = serde_json::from_str(&h.body).unwrap_or(Value::Null);
            (body["data"]["email"].as_str().unwrap_or_default().to_string(), h.delivery_id().to_string())
        })
        .collect();
    by_import.sort();
    let sent: Vec<String> = by_import.into_iter().map(|(_, id)| id).collect();
    for id in &sent {
        app.wait_attempts(&key, &hook, id, 1);
    }
    let mut seen = Vec::new();
    let mut query = "?limit=2".to_string();
    let mut pages = 0;
    loop {
        let page = app.deliveries(&key, &hook, &query);
        pages += 1;
        for d in page.json["data"].as_array().unwrap() {
            assert_eq!(
                keys(d),
                [
                    "attempts",
                    "createdAt",
                    "id",
                    "lastAttemptAt",
                    "lastError",
                    "lastResponseStatus",
                    "nextAttemptAt",
                    "requestId",
                    "status",
                    "type"
                ]
            );
            assert_eq!(d["type"], "person.created");
            assert_eq!(d["status"], "succeeded");
            seen.push(d["id"].as_str().unwrap().to_string());
        }
        match page.json["pagination"]["nextCursor"].as_str() {
            Some(c) => {
                assert_eq!(page.json["pagination"]["hasMore"], json!(true));
                query = format!("?limit=2&cursor={c}");
            }
            None => {
                assert_eq!(page.json["pagination"]["hasMore"], json!(false));
                break;
            }
        }
        assert!(pages < 10, "pagination does not end");
    }
    assert_eq!(pages, 3);
    let mut newest_first = sent.clone();
    newest_first.reverse();
    assert_eq!(seen, newest_first, "newest first, each once");
    // A cursor is bound to its filters; bad limits and cursors are 400 (D36).
    let p1 = app.deliveries(&key, &hook, "?limit=2");
    let c = p1.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
    app.get(&format!("/api/v1/webhooks/{hook}/deliveries?status=failed&cursor={c}"), &key)
        .assert_error(400, "validation_error");
    app.get(&format!("/api/v1/webhooks/{hook}/deliveries?cursor=x{c}"), &key).assert_error(400, "validation_error");
    app.get(&format!("/api/v1/webhooks/{hook}/deliveries?limit=0"), &key).assert_error(400, "validation_error");
    app.get(&format!("/api/v1/webhooks/{hook}/deliveries?status=done"), &key).assert_error(400, "validation_error");

    // Detail: the record plus its attempt log.
    let d = app.delivery(&key, &hook, &sent[0]);
    assert_eq!(d["id"], json!(sent[0]));
    assert_eq!(d["attempts"], 1);
    let log = d["attemptLog"].as_array().unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(keys(&log[0]), ["attemptedAt", "durationMs", "error", "responseBody", "responseStatus"]);
    assert_eq!(log[0]["responseStatus"], 200);
    assert_eq!(log[0]["error"], Value::Null);
    assert_eq!(log[0]["responseBody"], "answer 200");
    app.get(&format!("/api/v1/webhooks/{hook}/deliveries/{}", uuid::Uuid::now_v7()), &key)
        .assert_error(404, "not_found");
});

// ---------------------------------------------------------------------------------------------
// SSRF (D35), scope (D29) and the endpoint limit (D29)
// ---------------------------------------------------------------------------------------------

webhook_e2e!(urls_scope_and_the_endpoint_limit_are_enforced, insecure = false, |app| {
    let (_org, user, key) = app.org();
    for url in [
        "http://hooks.example.com/x",
        "https://127.0.0.1/",
        "https://10.0.0.1/",
        "https://169.254.169.254/",
        "https://[::1]/",
        "https://localhost/hook",
        "https://192.168.1.20:8443/hook",
        "https://[::ffff:127.0.0.1]/",
        "ftp://hooks.example.com/",
    ] {
        let r = app.post("/api/v1/webhooks", &key, &json!({"url": url, "events": ["*"]}));
        r.assert_error(400, "validation_error");
        let fields = r.json["details"]["fields"].as_array().unwrap_or_else(|| panic!("{}", r.text));
        assert_eq!(fields.len(), 1, "{}", r.text);
        assert_eq!(fields[0]["field"], "url", "{url}: {}", r.text);
    }
    // PATCH to a refused URL is refused the same way.
    let ok = app.post(
        "/api/v1/webhooks",
        &key,
        &json!({"url": "https://hooks.example.com/0", "events": ["person.created"]}),
    );
    assert_eq!(ok.status, 201, "{}", ok.text);
    let hook = ok.json["id"].as_str().unwrap().to_string();
    let p = app.request("PATCH", &format!("/api/v1/webhooks/{hook}"), &key, Some(&json!({"url": "https://10.1.2.3/"})));
    p.assert_error(400, "validation_error");
    assert_eq!(p.json["details"]["fields"][0]["field"], "url");
    assert_eq!(app.get(&format!("/api/v1/webhooks/{hook}"), &key).json["url"], "https://hooks.example.com/0");

    // Addresses that only resolve to loopback pass registration but are refused at connect time
    // (D35: checked on the resolved address); nothing reaches the receiver.
    let rx = Receiver::start();
    let port = rx.url.trim_start_matches("http://127.0.0.1:").trim_end_matches("/hook").to_string();
    for url in [format!("https://127.1:{port}/hook"), format!("https://2130706433:{port}/hook")] {
        let r = app.post("/api/v1/webhooks", &key, &json!({"url": url, "events": ["*"]}));
        assert_eq!(r.status, 201, "{}", r.text);
        let id = r.json["id"].as_str().unwrap().to_string();
        let t = app.request("POST", &format!("/api/v1/webhooks/{id}/test"), &key, None);
        assert_eq!(t.status, 200, "{}", t.text);
        assert_eq!(t.json["success"], json!(false), "{}", t.text);
        assert_eq!(t.json["responseStatus"], Value::Null, "{}", t.text);
        assert!(t.json["error"].as_str().unwrap_or("").contains("not globally reachable"), "{}", t.text);
        let del = app.request("DELETE", &format!("/api/v1/webhooks/{id}"), &key, None);
        assert_eq!(del.status, 204, "{}", del.text);
    }
    assert_eq!(rx.count(), 0, "a refused address is never connected to");

    // Another organization's key sees none of it: 404 (D29).
    let (_o2, _u2, key2) = app.org();
    assert_eq!(app.get("/api/v1/webhooks", &key2).json["data"], json!([]));
    app.get(&format!("/api/v1/webhooks/{hook}"), &key2).assert_error(404, "not_found");
    app.get(&format!("/api/v1/webhooks/{hook}/deliveries"), &key2).assert_error(404, "not_found");
    app.request("PATCH", &format!("/api/v1/webhooks/{hook}"), &key2, Some(&json!({"enabled": false})))
        .assert_error(404, "not_found");
    app.post(&format!("/api/v1/webhooks/{hook}/rotate-secret"), &key2, &json!({})).assert_error(404, "not_found");
    app.request("POST", &format!("/api/v1/webhooks/{hook}/test"), &key2, None).assert_error(404, "not_found");
    app.request("DELETE", &format!("/api/v1/webhooks/{hook}"), &key2, None).assert_error(404, "not_found");
    assert_eq!(app.get(&format!("/api/v1/webhooks/{hook}"), &key).json["enabled"], json!(true));

    // A key without webhooks:manage: 403 insufficient_scope on every webhook route.
    let other: Vec<&str> = ALL_SCOPES.iter().copied().filter(|s| *s != "webhooks:manage").collect();
    let weak = app.key(&user, &other);
    app.post("/api/v1/webhooks", &weak, &json!({"url": "https://hooks.example.com/w", "events": ["*"]}))
        .assert_error(403, "insufficient_scope");
    app.get("/api/v1/webhooks", &weak).assert_error(403, "insufficient_scope");
    app.get(&format!("/api/v1/webhooks/{hook}/deliveries"), &weak).assert_error(403, "insufficient_scope");
    app.request("POST", &format!("/api/v1/webhooks/{hook}/test"), &weak, None).assert_error(403, "insufficient_scope");
    app.post(&format!("/api/v1/webhooks/{hook}/rotate-secret"), &weak, &json!({}))
        .assert_error(403, "insufficient_scope");

    // Ten endpoints per organization; the 11th is 409 conflict.
    for i in 1..10 {
        let r = app.post(
            "/api/v1/webhooks",
            &key,
            &json!({"url": format!("https://hooks.example.com/{i}"), "events": ["*"]}),
        );
        assert_eq!(r.status, 201, "endpoint {i}: {}", r.text);
    }
    let r = app.post("/api/v1/webhooks", &key, &json!({"url": "https://hooks.example.com/10", "events": ["*"]}));
    r.assert_error(409, "conflict");
    let list = app.get("/api/v1/webhooks", &key);
    assert_eq!(list.status, 200, "{}", list.text);
    assert_eq!(list.json["data"].as_array().unwrap().len(), 10);
    // Deleting one frees a place.
    let del = app.request("DELETE", &format!("/api/v1/webhooks/{hook}"), &key, None);
    assert_eq!(del.status, 204, "{}", del.text);
    let r = app.post("/api/v1/webhooks", &key, &json!({"url": "https://hooks.example.com/10", "events": ["*"]}));
    assert_eq!(r.status, 201, "{}", r.text);
});

// D54: the SSRF filter refuses every address of the IANA special-purpose registries that is not
// globally reachable, and the IPv6 forms (6to4, Teredo) are checked on the IPv4 address they carry:
// on POST and on PATCH, a literal address is a 400 `validation_error` on `url` naming the registry
// entry, and nothing is created or changed. A spelling the registration cannot read as an address
// (`198.18.1` is 198.18.0.1 to the resolver) is refused when the test ping resolves it: the ping
// fails without a connection.
webhook_e2e!(d54_special_purpose_addresses_are_refused_on_create_and_patch, insecure = false, |app| {
    let (_org, _user, key) = app.org();
    let refused = [
        ("https://198.18.0.1/", "198.18.0.0/15 Benchmarking"),
        ("https://240.0.0.1/hook", "240.0.0.0/4 Reserved"),
        ("https://192.88.99.1/", "192.88.99.0/24 Deprecated (6to4 Relay Anycast)"),
        ("https://[2002:7f00:1::1]/", "2002::/16 6to4 and carries 127.0.0.1, in 127.0.0.0/8 Loopback"),
        ("https://[2001:0:7f00:1::1]/", "2001::/32 TEREDO and carries 127.0.0.1, in 127.0.0.0/8 Loopback"),
        ("https://[64:ff9b:1::1]:8443/", "64:ff9b:1::/48 IPv4-IPv6 Translat."),
        ("https://[64:ff9b::a00:1]/", "carries 10.0.0.1, in 10.0.0.0/8 Private-Use"),
        ("https://192.0.0.8/", "192.0.0.8/32 IPv4 dummy address"),
        ("https://[fec0::1]/", "fec0::/10 Site-Local (deprecated)"),
    ];
    let assert_refused = |r: &crate::support::Resp, url: &str, entry: &str| {
        r.assert_error(400, "validation_error");
        let fields = r.json["details"]["fields"].as_array().unwrap_or_else(|| panic!("{url}: {}", r.text));
        assert_eq!(fields.len(), 1, "{url}: {}", r.text);
        assert_eq!(fields[0]["field"], "url", "{url}: {}", r.text);
        let m = fields[0]["message"].as_str().unwrap_or("");
        assert!(m.contains("not globally reachable") && m.contains(entry), "{url}: {}", r.text);
    };
    for (url, entry) in refused {
        let r = app.post("/api/v1/webhooks", &key, &json!({"url": url, "events": ["*"]}));
        assert_refused(&r, url, entry);
    }
    assert_eq!(app.get("/api/v1/webhooks", &key).json["data"], json!([]), "nothing is created");

    // PATCH: refused the same way; the endpoint keeps its URL.
    let ok = app.post("/api/v1/webhooks", &key, &json!({"url": "https://hooks.example.com/d54", "events": ["*"]}));
    assert_eq!(ok.status, 201, "{}", ok.text);
    let hook = ok.json["id"].as_str().unwrap().to_string();
    for (url, entry) in refused {
        let p = app.request("PATCH", &format!("/api/v1/webhooks/{hook}"), &key, Some(&json!({"url": url})));
        assert_refused(&p, url, entry);
    }
    let got = app.get(&format!("/api/v1/webhooks/{hook}"), &key);
    assert_eq!(got.json["url"], "https://hooks.example.com/d54", "{}", got.text);
    assert_eq!(app.get("/api/v1/webhooks", &key).json["data"].as_array().map(Vec::len), Some(1));

    // Globally reachable addresses, also in the forms that carry one, are accepted.
    for url in ["https://192.0.0.9/", "https://[2002:808:808::1]/", "https://[64:ff9b::808:808]/"] {
        let p = app.request("PATCH", &format!("/api/v1/webhooks/{hook}"), &key, Some(&json!({"url": url})));
        assert_eq!(p.status, 200, "{url}: {}", p.text);
        assert_eq!(p.json["url"], url);
    }

    // A spelling that only the resolver reads as 198.18.0.1: registered, then refused at connect
    // time by the same table; the ping reports it without any connection (no 2 s connect timeout).
    let r = app.post("/api/v1/webhooks", &key, &json!({"url": "https://198.18.1/hook", "events": ["*"]}));
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let t = app.request("POST", &format!("/api/v1/webhooks/{id}/test"), &key, None);
    assert_eq!(t.status, 200, "{}", t.text);
    assert_eq!(t.json["success"], json!(false), "{}", t.text);
    assert_eq!(t.json["responseStatus"], Value::Null, "{}", t.text);
    assert_eq!(t.json["responseBody"], Value::Null, "{}", t.text);
    assert!(t.json["error"].as_str().unwrap_or("").contains("not globally reachable"), "{}", t.text);
});

// D44: `POST /persons/{id}/erase` answers the erased Person (idempotent), delivers
// `person.archived` with it to a real receiver, keeps the tombstone in `updatedAfter` sync, and
// the organization's reads (person, list, invitations, webhook deliveries) no longer hold the
// name, email or externalId. The database check is the conformance test
// `erasure_removes_the_persons_data_from_the_organizations_tables`.
webhook_e2e!(erasure_delivers_the_erased_person_and_leaves_a_tombstone, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let rx = Receiver::start();
    let r = app.post("/api/v1/webhooks", &key, &json!({"url": rx.url, "events": ["*"]}));
    assert_eq!(r.status, 201, "{}", r.text);
    let (hook, secret) = (r.json["id"].as_str().unwrap().to_string(), r.json["secret"].as_str().unwrap().to_string());
    let p = app.import(
        &key,
        json!({"email": "erin.erase@example.com", "firstName": "Erinna", "lastName": "Vanishing",
               "externalId": "ats-erase-1", "tags": ["Remote"], "labels": ["employee"]}),
    );
    let pid = p["id"].as_str().unwrap().to_string();
    rx.wait_event("person.created");
    let i = app.post(
        "/api/v1/invitations",
        &key,
        &json!({"email": "erin.erase@example.com", "sendEmail": true,
        "message": "Dear Erinna"}),
    );
    assert_eq!(i.status, 201, "{}", i.text);
    let iid = i.json["id"].as_str().unwrap().to_string();
    let before = time::OffsetDateTime::now_utc() - time::Duration::seconds(1);
    let since = before.format(&time::format_description::well_known::Rfc3339).unwrap();

    let e = app.post(&format!("/api/v1/persons/{pid}/erase"), &key, &json!({}));
    assert_eq!(e.status, 200, "{}", e.text);
    let erased = e.json.clone();
    assert_eq!(erased["id"], json!(pid));
    assert_eq!(erased["email"], json!(format!("erased-{pid}@invalid")));
    for f in ["firstName", "lastName", "externalId", "archivedAt"] {
        assert_eq!(erased[f].is_null(), f != "archivedAt", "{f}: {erased}");
    }
    assert_eq!(erased["tags"], json!([]));
    assert_eq!(erased["labels"], json!([]));
    assert_eq!(erased["status"], "archived");
    let again = app.post(&format!("/api/v1/persons/{pid}/erase"), &key, &json!({}));
    assert_eq!((again.status, &again.json), (200, &erased), "idempotent: the same answer");

    let env = assert_delivery(&rx.wait_event("person.archived"), &secret);
    let mut data = env["data"].clone();
    assert_eq!(data.as_object_mut().unwrap().remove("archiveReason"), Some(json!("erased")), "D47");
    assert_eq!(data, erased, "person.archived carries the erased Person");
    let revoked = assert_delivery(&rx.wait_event("invitation.revoked"), &secret);
    assert_eq!(revoked["data"]["email"], json!(format!("erased-{pid}@invalid")));
    assert_eq!(revoked["data"]["message"], Value::Null);

    let sync = app.get(&format!("/api/v1/persons?status=archived&updatedAfter={}", since.replace(':', "%3A")), &key);
    assert_eq!(sync.status, 200, "{}", sync.text);
    assert!(sync.json["data"].as_array().unwrap().iter().any(|x| x == &erased), "tombstone in sync: {}", sync.text);
    let inv = app.get(&format!("/api/v1/invitations/{iid}"), &key);
    assert_eq!(inv.json["status"], "revoked");
    let deliveries = app.get(&format!("/api/v1/webhooks/{hook}/deliveries?limit=100"), &key);
    let mut texts = vec![deliveries.text.clone(), inv.text, sync.text];
    for d in deliveries.json["data"].as_array().unwrap() {
        let one = app.get(&format!("/api/v1/webhooks/{hook}/deliveries/{}", d["id"].as_str().unwrap()), &key);
        texts.push(one.text);
    }
    for t in &texts {
        for needle in ["erin.erase@example.com", "Erinna", "Vanishing", "ats-erase-1"] {
            assert!(!t.contains(needle), "{needle} still in {t}");
        }
    }
    // T80: nothing imports, invites or reactivates a tombstone by its address.
    let tomb = erased["email"].clone();
    for path in ["/api/v1/persons", "/api/v1/invitations"] {
        let r = app.post(path, &key, &json!({"email": tomb, "sendEmail": false}));
        let r = if r.status == 400 { app.post(path, &key, &json!({"email": tomb})) } else { r };
        assert_eq!((r.status, r.json["code"].as_str()), (409, Some("conflict")), "{path}: {}", r.text);
        assert_eq!(r.json["details"]["reason"], "erased");
    }
    let missing = app.post(&format!("/api/v1/persons/{}/erase", uuid::Uuid::new_v4()), &key, &json!({}));
    assert_eq!(missing.status, 404, "{}", missing.text);
});

// T83: a replay of `POST /webhooks` with the same Idempotency-Key within 24 h answers the first
// response again, secret included, so a client that lost the answer can finish its set-up; a
// new key creates another endpoint with another secret.
webhook_e2e!(a_replayed_endpoint_creation_returns_the_same_secret, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let body = json!({"url": "http://127.0.0.1:9/in", "events": ["*"]});
    let first = app.request_with("POST", "/api/v1/webhooks", &key, Some(&body), &[("Idempotency-Key", "hook-1")]);
    assert_eq!(first.status, 201, "{}", first.text);
    let again = app.request_with("POST", "/api/v1/webhooks", &key, Some(&body), &[("Idempotency-Key", "hook-1")]);
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(again.json, first.json, "the same endpoint and the same secret");
    let list = app.get("/api/v1/webhooks", &key);
    assert_eq!(list.json["data"].as_array().unwrap().len(), 1, "{}", list.text);
    let other = app.request_with("POST", "/api/v1/webhooks", &key, Some(&body), &[("Idempotency-Key", "hook-2")]);
    assert_eq!(other.status, 201, "{}", other.text);
    assert_ne!(other.json["secret"], first.json["secret"]);
    assert_ne!(other.json["id"], first.json["id"]);
});

// ---------------------------------------------------------------------------------------------
// Replay (D48)
// ---------------------------------------------------------------------------------------------

webhook_e2e!(a_webhook_registered_after_100_events_gets_them_through_replay_signed_d48, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let emails: Vec<String> = (0..100).map(|i| format!("early{i:03}@example.com")).collect();
    for e in &emails {
        app.import(&key, json!({"email": e}));
    }
    let rx = Receiver::start();
    let (hook, secret) = app.register(&key, &rx.url);
    app.advance(0);
    assert_eq!(rx.count(), 0, "an endpoint gets nothing of the past by itself");

    let r = app.post(&format!("/api/v1/webhooks/{hook}/replay"), &key, &json!({"after": 0}));
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(keys(&r.json), ["hasMore", "lastSequence", "queued"]);
    assert_eq!((r.json["queued"].clone(), r.json["hasMore"].clone()), (json!(100), json!(false)));
    let hits = rx.wait_for(100);
    app.wait_all_final(&key, &hook);
    assert_eq!(rx.count(), 100, "each event once");
    let mut got: Vec<String> = hits
        .iter()
        .map(|h| {
            let env = assert_delivery(h, &secret);
            assert_eq!(env["type"], "person.created");
            env["data"]["email"].as_str().unwrap().to_string()
        })
        .collect();
    got.sort();
    assert_eq!(got, emails);
    let ids: HashSet<&str> = hits.iter().map(|h| h.delivery_id()).collect();
    assert_eq!(ids.len(), 100, "a new delivery id each");

    // From the last sequence on, nothing is left; a later event is replayed alone.
    let last = r.json["lastSequence"].as_u64().unwrap();
    let again = app.post(&format!("/api/v1/webhooks/{hook}/replay"), &key, &json!({"after": last}));
    assert_eq!(again.json, json!({"queued": 0, "lastSequence": null, "hasMore": false}), "{}", again.text);
    let bad = app.post(&format!("/api/v1/webhooks/{hook}/replay"), &key, &json!({"after": -1}));
    assert_eq!(bad.status, 400, "{}", bad.text);
    let unknown = app.post(&format!("/api/v1/webhooks/{}/replay", uuid::Uuid::nil()), &key, &json!({}));
    assert_eq!(unknown.status, 404, "{}", unknown.text);
});

// D59: the `data` of each `person.*` event is the Person as `GET /api/v1/persons/{id}` answers
// right after the change, member for member (plus the event's own extra member): created with a
// nested invitation, updated, archived, and joined back.
webhook_e2e!(person_events_carry_the_person_as_the_api_reads_it_d59, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let rx = Receiver::start();
    let (_hook, secret) = app.register(&key, &rx.url);
    let read = |id: &str| {
        let r = app.get(&format!("/api/v1/persons/{id}"), &key);
        assert_eq!(r.status, 200, "{}", r.text);
        r.json
    };
    // The `nth` event of type `t` (from 1): its data without `extra` must be what a read answers
    // now.
    let check = |t: &str, nth: usize, id: &str, extra: Option<&str>| {
        let of_type = || rx.hits().into_iter().filter(|h| h.event() == t).collect::<Vec<_>>();
        assert!(eventually(WAIT, || of_type().len() >= nth), "no {t} number {nth}: {:?}", types(&rx.hits()));
        let mut data = assert_delivery(&of_type()[nth - 1], &secret)["data"].clone();
        if let Some(member) = extra {
            assert!(data.as_object_mut().unwrap().remove(member).is_some(), "{t} carries {member}: {data}");
        }
        assert_eq!(keys(&data), keys(&read(id)), "{t}: the members of the Person");
        assert_eq!(data, read(id), "{t}: the Person as read after the change");
    };
    let p = app.import(
        &key,
        json!({"email": "dana@example.com", "firstName": "Dana", "tags": ["remote"],
               "invitation": {"create": true, "sendEmail": false}}),
    );
    let id = p["id"].as_str().unwrap().to_string();
    check("person.created", 1, &id, None);
    let r = app.request("PATCH", &format!("/api/v1/persons/{id}"), &key, Some(&json!({"lastName": "Ruiz"})));
    assert_eq!(r.status, 200, "{}", r.text);
    check("person.updated", 1, &id, Some("previousAttributes"));
    let r = app.request("DELETE", &format!("/api/v1/persons/{id}"), &key, None);
    assert!(r.status == 200 || r.status == 204, "{}", r.text);
    check("person.archived", 1, &id, Some("archiveReason"));
    let again = app.post("/api/v1/persons", &key, &json!({"email": "dana@example.com"}));
    assert_eq!(again.status, 201, "reactivated: {}", again.text);
    check("person.created", 2, &id, None);
});

// D61: the deprecated alias `POST /webhooks/{id}/ping` answers like `/test`, and every answer it
// gives (a success, a 404, a 401) carries `Deprecation`, `Sunset` and the successor in `Link`;
// the successor itself carries none of them.
webhook_e2e!(a_deprecated_operation_announces_its_sunset_and_successor_d61, insecure = true, |app| {
    let (_org, _user, key) = app.org();
    let rx = Receiver::start();
    let (hook, secret) = app.register(&key, &rx.url);
    let announced = |r: &Resp, path: &str| {
        assert_eq!(r.header("deprecation"), Some("@1795651200"), "{}", r.text);
        assert_eq!(r.header("sunset"), Some("Tue, 01 Jun 2027 00:00:00 GMT"));
        let successor = path.replace("/ping", "/test");
        assert_eq!(r.header("link"), Some(format!("<{successor}>; rel=\"successor-version\"").as_str()));
    };
    let path = format!("/api/v1/webhooks/{hook}/ping");
    let r = app.post(&path, &key, &json!({}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["success"], json!(true), "{}", r.text);
    announced(&r, &path);
    let ping = &rx.wait_for(1)[0];
    assert_eq!(ping.event(), "ping");
    assert_delivery(ping, &secret);
    let missing = "/api/v1/webhooks/00000000-0000-0000-0000-000000000000/ping";
    let r = app.post(missing, &key, &json!({}));
    assert_eq!(r.status, 404, "{}", r.text);
    announced(&r, missing);
    let r = app.post(&path, "tk_live_not_a_key", &json!({}));
    assert_eq!(r.status, 401, "{}", r.text);
    announced(&r, &path);
    let r = app.post(&format!("/api/v1/webhooks/{hook}/test"), &key, &json!({}));
    assert_eq!(r.status, 200, "{}", r.text);
    for h in ["deprecation", "sunset", "link"] {
        assert_eq!(r.header(h), None, "the successor is not deprecated");
    }
});

// D60: the test twin's own clock. Advancing it ages the test data only: the test invitation is
// reminded (its reminder email recorded) and later expires, the failed delivery's retry goes out
// at once, while the live invitation made at the same moment stays pending and unreminded.
webhook_e2e!(the_test_clock_ages_only_test_data_reminders_expiry_and_retries_follow_d60, insecure = true, |app| {
    let (_org, user, live) = app.org();
    let k = app.admin(
        "POST",
        &format!("/admin/v1/users/{user}/api-keys"),
        Some(&json!({"scopes": ALL_SCOPES, "mode": "test"})),
    );
    assert_eq!(k.status, 201, "{}", k.text);
    let test = k.json["key"].as_str().unwrap().to_string();
    let rx = Receiver::start();
    let (hook, secret) = app.register(&test, &rx.url);
    rx.answer(&[500]);
    let invite = |key: &str| {
        let r = app.post("/api/v1/invitations", key, &json!({"email": "ida@example.com", "sendEmail": true}));
        assert_eq!(r.status, 201, "{}", r.text);
        r.json["id"].as_str().unwrap().to_string()
    };
    let (live_inv, test_inv) = (invite(&live), invite(&test));
    let first = rx.wait_for(1);
    let created = first[0].delivery_id().to_string();
    let d = app.wait_attempts(&test, &hook, &created, 1);
    assert_eq!(d["status"], "pending", "{d}");
    let emails = |n: usize| {
        let mut last = Value::Null;
        let ok = eventually(WAIT, || {
            last = app.get("/api/v1/test/emails", &test).json;
            let list = last["data"].as_array().cloned().unwrap_or_default();
            list.len() == n && list.iter().all(|m| m["sentAt"].is_string())
        });
        assert!(ok, "expected {n} recorded emails: {last}");
        last["data"].as_array().unwrap().clone()
    };
    emails(1);

    let advance = |key: &str, body: Value| app.post("/api/v1/test/clock/advance", key, &body);
    advance(&live, json!({"seconds": 60})).assert_error(403, "test_key_required");
    advance(&test, json!({"seconds": 0})).assert_error(400, "validation_error");
    advance(&test, json!({"seconds": 60, "at": "now"})).assert_error(400, "validation_error");

    let r = advance(&test, json!({"seconds": 3 * 86_400 + 60}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json, json!({"advancedSeconds": 3 * 86_400 + 60, "expired": 0, "reminded": 1}));
    let d = app.wait_attempts(&test, &hook, &created, 2);
    assert_eq!(d["status"], "succeeded", "the retry fell due and went out: {d}");
    let list = emails(2);
    assert!(list.iter().all(|m| m["invitationId"] == json!(test_inv)), "{list:?}");
    let feed = |key: &str| {
        let r = app.get("/api/v1/events?limit=100", key);
        assert_eq!(r.status, 200, "{}", r.text);
        r.json["data"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    assert!(feed(&test).contains(&"invitation.reminded".to_string()));
    assert!(!feed(&live).contains(&"invitation.reminded".to_string()), "the live invitation is not reminded");

    let key = [("Idempotency-Key", "advance-11-days")];
    let body = json!({"seconds": 11 * 86_400});
    let r = app.request_with("POST", "/api/v1/test/clock/advance", &test, Some(&body), &key);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!((r.json["expired"].as_u64(), r.json["reminded"].as_u64()), (Some(1), Some(0)), "{}", r.text);
    // A retry with the same key answers the first answer; the clock does not move twice (the
    // advance kept its own key's record in flight, so 11 days of ageing did not expire it).
    let again = app.request_with("POST", "/api/v1/test/clock/advance", &test, Some(&body), &key);
    assert_eq!((again.status, &again.json), (200, &r.json), "{}", again.text);
    assert_eq!(app.get(&format!("/api/v1/invitations/{test_inv}"), &test).json["status"], "expired");
    assert_eq!(app.get(&format!("/api/v1/invitations/{live_inv}"), &live).json["status"], "pending");
    assert!(!feed(&live).contains(&"invitation.expired".to_string()));
    for h in rx.wait_for(4) {
        assert_delivery(&h, &secret);
    }
});
