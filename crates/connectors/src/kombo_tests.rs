//! Kombo's webhook and order poll over the domain's fakes (connectors.md D82): the signature,
//! orders taken once whichever way they come, Kombo's `{"message"}` errors, and the poll's
//! paging and error log.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::kombo::{self, Poller};
use crate::tests::{send_headers, world, World, KOMBO_INTEGRATION, KOMBO_SECRET};
use serde_json::{json, Value};
use std::sync::Arc;
use talent_domain::connector::{Ats, Connection, ConnectionSettings, NewConnection, OrderStatus};
use talent_domain::fakes::{block_on, services, FakeSender, FakeStore};
use talent_domain::ports::Fetched;
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::values::{Email, OrgRole, SubscriptionStatus};
use talent_domain::Services;

fn order_hook(order_id: &str, package: &str, email: &str) -> Value {
    json!({
        "id": "evt_1",
        "type": kombo::ORDER_RECEIVED,
        "data": {
            "id": order_id,
            "integration_id": KOMBO_INTEGRATION,
            "package_id": package,
            "status": "OPEN",
            "candidate": {"remote_id": "c-1", "email": email, "first_name": "Ada", "last_name": "Lovelace"},
            "application": {"remote_id": 54321},
            "job": {"remote_id": "j-1", "name": "Engineer", "job_code": "E-1"}
        }
    })
}

/// Posts `body` to the webhook signed with `secret` (none when `None`).
fn hook(w: &World, body: &[u8], secret: Option<&str>) -> (u16, Value) {
    let mut headers = vec![("Content-Type", "application/json".to_string())];
    if let Some(s) = secret {
        headers.push(("X-Kombo-Signature", kombo::sign(s, body)));
    }
    let (s, _, v) = send_headers(w, "POST", "/partners/kombo/webhook", &headers, Some(body));
    (s, v)
}

fn kombo_connection(w: &World) -> Connection {
    let s = w.store.snapshot();
    s.connections.iter().find(|c| c.ats == Ats::Kombo).unwrap().clone()
}

#[test]
fn kombo_signatures_are_hmac_sha256_of_the_body_in_base64url_d82() {
    let body = br#"{"id":"evt"}"#;
    let sig = kombo::sign("secret", body);
    assert!(!sig.contains('=') && !sig.contains('+') && !sig.contains('/'), "base64url without padding: {sig}");
    assert!(kombo::signature_matches("secret", body, &sig));
    assert!(!kombo::signature_matches("other", body, &sig));
    assert!(!kombo::signature_matches("secret", br#"{"id":"evu"}"#, &sig));
    // The other encodings of the same tag are taken; garbage and truncations are not.
    let tag = base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, &sig).unwrap();
    let std = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &tag);
    assert!(kombo::signature_matches("secret", body, &std));
    assert!(kombo::signature_matches("secret", body, &hex::encode(&tag)));
    assert!(kombo::signature_matches("secret", body, &format!("sha256={}", hex::encode(&tag))));
    for bad in ["", "x", &sig[..20], "!!!!"] {
        assert!(!kombo::signature_matches("secret", body, bad), "{bad}");
    }
}

#[test]
fn a_signed_order_is_taken_once_and_emails_the_candidate_once_d82() {
    let w = world();
    let body = order_hook("kombo-order-1", "talent-assessment", "ada@example.test").to_string();
    let (s, first) = hook(&w, body.as_bytes(), Some(KOMBO_SECRET));
    assert_eq!(s, 200, "{first}");
    let (s, again) = hook(&w, body.as_bytes(), Some(KOMBO_SECRET));
    assert_eq!((s, &again["id"]), (200, &first["id"]), "Kombo's retry is the same order");
    let snap = w.store.snapshot();
    assert_eq!(snap.emails.len(), 1);
    let o = &snap.orders[0];
    assert_eq!((o.ats_key.as_str(), o.status), ("kombo-order-1", OrderStatus::Sent));
    assert_eq!(o.refs.application.as_deref(), Some("54321"), "a numeric remote id is kept as text");
    assert_eq!((o.refs.job.as_deref(), o.refs.job_name.as_deref()), (Some("j-1"), Some("Engineer")));
    assert_eq!(o.connection_id, kombo_connection(&w).id);
}

#[test]
fn a_wrong_or_missing_signature_is_401_and_nothing_is_taken_d82() {
    let w = world();
    let body = order_hook("kombo-order-1", "talent-assessment", "ada@example.test").to_string();
    for secret in [None, Some("not-the-secret")] {
        let (s, e) = hook(&w, body.as_bytes(), secret);
        assert_eq!(s, 401, "{secret:?}");
        assert!(e["message"].as_str().unwrap().contains("X-Kombo-Signature"), "{e}");
    }
    // Signed right, but for another integration than the connection's.
    let mut other = order_hook("kombo-order-1", "talent-assessment", "ada@example.test");
    other["data"]["integration_id"] = json!("someone-else:1");
    let (s, _) = hook(&w, other.to_string().as_bytes(), Some(KOMBO_SECRET));
    assert_eq!(s, 401);
    // A body changed after signing.
    let sig = kombo::sign(KOMBO_SECRET, body.as_bytes());
    let tampered = body.replace("ada@", "eve@");
    let headers = vec![("X-Kombo-Signature", sig)];
    let (s, _, _) = send_headers(&w, "POST", "/partners/kombo/webhook", &headers, Some(tampered.as_bytes()));
    assert_eq!(s, 401);
    assert!(w.store.snapshot().orders.is_empty());
}

#[test]
fn a_disabled_connection_or_a_revoked_key_ends_kombos_access_d63() {
    let w = world();
    let c = kombo_connection(&w);
    let patch = talent_domain::connector::ConnectionPatch { enabled: Some(false), ..Default::default() };
    block_on(w.partners.svc.update_connection(c.id, patch)).unwrap();
    let body = order_hook("kombo-order-1", "talent-assessment", "ada@example.test").to_string();
    assert_eq!(hook(&w, body.as_bytes(), Some(KOMBO_SECRET)).0, 401);
    let patch = talent_domain::connector::ConnectionPatch { enabled: Some(true), ..Default::default() };
    block_on(w.partners.svc.update_connection(c.id, patch)).unwrap();
    block_on(w.partners.svc.revoke_api_key(c.api_key_id)).unwrap();
    let (s, e) = hook(&w, body.as_bytes(), Some(KOMBO_SECRET));
    assert_eq!(s, 401, "{e}");
    assert!(w.store.snapshot().orders.is_empty());
}

#[test]
fn unknown_packages_and_bad_candidates_are_422_with_a_message_kombo_shows_d82() {
    let w = world();
    for (package, email, says) in [
        ("no-such-package", "ada@example.test", "Unknown package"),
        ("00000000-0000-0000-0000-000000000009", "ada@example.test", "Unknown package"),
        ("talent-assessment", "not-an-address", "candidate.email"),
    ] {
        let body = order_hook("kombo-order-1", package, email).to_string();
        let (s, e) = hook(&w, body.as_bytes(), Some(KOMBO_SECRET));
        assert_eq!(s, 422, "{package} {email}: {e}");
        assert!(e["message"].as_str().unwrap().contains(says), "{e}");
    }
    assert!(w.store.snapshot().orders.is_empty());
}

#[test]
fn other_webhook_types_are_acknowledged_and_bodies_that_are_no_order_are_400() {
    let w = world();
    let other = json!({"id": "evt", "type": "sync-finished", "data": {"integration_id": KOMBO_INTEGRATION}});
    assert_eq!(hook(&w, other.to_string().as_bytes(), Some(KOMBO_SECRET)), (200, json!({})));
    let no_order = json!({"id": "evt", "type": kombo::ORDER_RECEIVED, "data": {"integration_id": KOMBO_INTEGRATION}});
    let (s, e) = hook(&w, no_order.to_string().as_bytes(), Some(KOMBO_SECRET));
    assert_eq!(s, 400, "{e}");
    assert!(e["message"].is_string());
    let (s, _) = hook(&w, b"{not json", Some(KOMBO_SECRET));
    assert_eq!(s, 400);
    assert!(w.store.snapshot().orders.is_empty());
}

// ---------------------------------------------------------------------------------------------
// The order poll
// ---------------------------------------------------------------------------------------------

struct PollWorld {
    svc: Services<FakeStore>,
    store: FakeStore,
    sender: Arc<FakeSender>,
    connection: Connection,
}

fn poll_world() -> PollWorld {
    let (mut svc, store, _clock) = services();
    let sender = Arc::new(FakeSender::default());
    svc.webhooks = sender.clone();
    let (org, _) = block_on(svc.create_organization(NewOrganization {
        subscription_status: Some(SubscriptionStatus::Active),
        ..NewOrganization::new("Acme", Email::parse("hr@acme.test").unwrap(), "business")
    }))
    .unwrap();
    block_on(svc.create_user(org.id, Email::parse("admin@acme.test").unwrap(), OrgRole::Admin)).unwrap();
    let settings = ConnectionSettings {
        base_url: Some("https://kombo.example/v1".into()),
        api_key: Some("kombo-key".into()),
        integration_id: Some(KOMBO_INTEGRATION.into()),
        webhook_secret: Some(KOMBO_SECRET.into()),
    };
    let input = NewConnection { ats: Ats::Kombo, name: "Kombo".into(), settings, locale: None };
    let connection = block_on(svc.create_connection(org.id, input, None)).unwrap().view.connection;
    PollWorld { svc, store, sender, connection }
}

fn page(results: Vec<Value>, next: Option<&str>) -> Result<Fetched, String> {
    let body = json!({"status": "success", "data": {"next": next, "results": results}});
    Ok(Fetched { status: 200, body: body.to_string().into_bytes() })
}

fn polled(order_id: &str, email: &str) -> Value {
    order_hook(order_id, "talent-assessment", email)["data"].clone()
}

impl PollWorld {
    fn answer(&self, a: Result<Fetched, String>) {
        self.sender.fetches.lock().unwrap().push_back(a);
    }
    fn run(&self) -> kombo::PollReport {
        block_on(Poller::run(&self.poller(), &self.svc)).unwrap()
    }
    fn poller(&self) -> Poller {
        Poller::new()
    }
    fn errors(&self) -> Vec<String> {
        let list = block_on(self.svc.list_connection_errors(self.connection.id, 50)).unwrap();
        list.into_iter().map(|e| e.errors).collect()
    }
}

#[test]
fn the_poll_reads_every_page_of_open_orders_and_takes_the_new_ones_d82() {
    let w = poll_world();
    w.answer(page(vec![polled("k-1", "ada@example.test"), polled("k-2", "bo@example.test")], Some("cur 2")));
    w.answer(page(vec![polled("k-3", "cy@example.test")], None));
    let r = w.run();
    assert_eq!((r.taken, r.known, r.pages), (3, 0, 2));
    let asked = w.sender.fetched.lock().unwrap().clone();
    assert_eq!(asked[0].method, "GET");
    assert_eq!(asked[0].url, "https://kombo.example/v1/assessment/orders?statuses=OPEN");
    assert_eq!(asked[1].url, "https://kombo.example/v1/assessment/orders?statuses=OPEN&cursor=cur%202");
    assert_eq!(asked[0].authorization.as_deref(), Some("Bearer kombo-key"));
    assert_eq!(asked[0].headers, vec![("X-Integration-Id", KOMBO_INTEGRATION.to_string())]);
    assert_eq!(w.store.snapshot().emails.len(), 3);
    // The next poll sees the same open orders (Kombo keeps them open until their result) and
    // takes none again.
    w.answer(page(vec![polled("k-1", "ada@example.test"), polled("k-3", "cy@example.test")], None));
    let r = w.run();
    assert_eq!((r.taken, r.known), (0, 2));
    assert_eq!(w.store.snapshot().orders.len(), 3);
}

#[test]
fn an_order_the_webhook_took_is_not_taken_again_by_the_poll_even_once_finished_d82() {
    let w = poll_world();
    w.answer(page(vec![polled("k-1", "ada@example.test")], None));
    w.run();
    let o = w.store.snapshot().orders[0].clone();
    block_on(w.svc.cancel_order(o.org_id, o.id)).unwrap();
    w.answer(page(vec![polled("k-1", "ada@example.test")], None));
    assert_eq!(w.run().taken, 0);
    assert_eq!(w.store.snapshot().orders.len(), 1);
}

#[test]
fn poll_problems_are_in_the_connections_error_log_once_each() {
    let w = poll_world();
    let poller = Poller::new();
    for _ in 0..3 {
        w.answer(Ok(Fetched { status: 401, body: br#"{"status":"error","error":{"message":"bad key"}}"#.to_vec() }));
        block_on(poller.run(&w.svc)).unwrap();
    }
    w.answer(Err("connection refused".into()));
    block_on(poller.run(&w.svc)).unwrap();
    w.answer(Ok(Fetched { status: 200, body: b"<html>".to_vec() }));
    block_on(poller.run(&w.svc)).unwrap();
    let mut unknown = polled("k-9", "ada@example.test");
    unknown["package_id"] = json!("no-such-package");
    for _ in 0..2 {
        w.answer(page(vec![unknown.clone(), json!({"id": 5})], None));
        block_on(poller.run(&w.svc)).unwrap();
    }
    let errors = w.errors();
    assert_eq!(errors.len(), 5, "{errors:?}");
    let all = errors.join("\n");
    for says in ["answered 401", "bad key", "could not be reached", "not a page of orders", "k-9 refused", "shape"] {
        assert!(all.contains(says), "{says}: {all}");
    }
    assert!(!all.contains("kombo-key"), "never the credential");
    assert!(w.store.snapshot().orders.is_empty());
}

#[test]
fn a_poll_of_a_disabled_connection_asks_nothing() {
    let w = poll_world();
    let patch = talent_domain::connector::ConnectionPatch { enabled: Some(false), ..Default::default() };
    block_on(w.svc.update_connection(w.connection.id, patch)).unwrap();
    assert_eq!(w.run(), kombo::PollReport::default());
    assert!(w.sender.fetched.lock().unwrap().is_empty());
}
