//! Webhook use cases over the in-memory fakes (no database, no network): endpoints, fan-out,
//! the delivery worker's retry schedule, disabling, rotation, redelivery and the test ping.
//! Each test cites the decision (D-number, `/work/shared/spec/decisions.md`) it checks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use talent_domain::errors::{Code, UseCaseError};
use talent_domain::events::EventType;
use talent_domain::fakes::{block_on, services, FakeClock, FakeSecrets, FakeSender, FakeStore, SentHook};
use talent_domain::ids::*;
use talent_domain::person::Person;
use talent_domain::ports::{NewKeyMaterial, Secrets};
use talent_domain::usecases::deliveries::{ClaimCaps, DeliveryJob, FinishedAttempt, ATTEMPT_ALLOWANCE, CLAIM_LEASE};
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::usecases::persons::ImportPerson;
use talent_domain::usecases::webhooks::{EndpointPatch, NewEndpoint};
use talent_domain::values::*;
use talent_domain::webhook::*;
use talent_domain::Services;
use time::Duration;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// [`FakeSecrets`], except that `random_token(n)` gives a distinct token as long as `n` random
/// bytes in base64url (so rotation really changes the secret, and its length follows the bytes
/// the use case asks for).
#[derive(Default)]
struct DistinctSecrets {
    inner: FakeSecrets,
    n: AtomicU64,
}

impl Secrets for DistinctSecrets {
    fn new_api_key(&self) -> NewKeyMaterial {
        self.inner.new_api_key()
    }
    fn hash_api_key(&self, value: &str) -> Vec<u8> {
        self.inner.hash_api_key(value)
    }
    fn constant_time_eq(&self, a: &[u8], b: &[u8]) -> bool {
        self.inner.constant_time_eq(a, b)
    }
    fn random_token(&self, bytes: usize) -> String {
        let n = self.n.fetch_add(1, Ordering::SeqCst);
        let len = (bytes * 4).div_ceil(3);
        let mut s = format!("{n:x}_");
        while s.len() < len {
            s.push('x');
        }
        s.truncate(len);
        s
    }
    fn webhook_secret(&self) -> String {
        format!("whsec_{:0>42}0=", self.n.fetch_add(1, Ordering::SeqCst))
    }
    fn invitation_token(&self, id: InvitationId) -> String {
        self.inner.invitation_token(id)
    }
    fn report_token(&self, id: OrderId) -> String {
        self.inner.report_token(id)
    }
    fn hash_token(&self, token: &str) -> Vec<u8> {
        self.inner.hash_token(token)
    }
    fn one_time_code(&self) -> String {
        self.inner.one_time_code()
    }
    fn hash_code(&self, invitation: InvitationId, code: &str) -> Vec<u8> {
        self.inner.hash_code(invitation, code)
    }
}

struct World {
    svc: Services<FakeStore>,
    store: FakeStore,
    clock: Arc<FakeClock>,
    sender: Arc<FakeSender>,
    org: OrgId,
}

fn email(s: &str) -> Email {
    Email::parse(s).unwrap()
}

fn new_org(svc: &Services<FakeStore>) -> OrgId {
    let (org, _) = block_on(svc.create_organization(NewOrganization {
        subscription_status: Some(SubscriptionStatus::Active),
        ..NewOrganization::new("Acme", email("hr@acme.test"), "business")
    }))
    .unwrap();
    org.id
}

/// Services over the fakes with a handle on the webhook sender; one business organization with
/// an admin and a member.
fn world() -> World {
    let (mut svc, store, clock) = services();
    let sender = Arc::new(FakeSender::default());
    svc.webhooks = sender.clone();
    svc.secrets = Arc::new(DistinctSecrets::default());
    let org = new_org(&svc);
    block_on(svc.create_user(org, email("admin@acme.test"), OrgRole::Admin)).unwrap();
    block_on(svc.create_user(org, email("member@acme.test"), OrgRole::Member)).unwrap();
    World { svc, store, clock, sender, org }
}

fn subscription(items: &[&str]) -> Subscription {
    Subscription::parse(&items.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
}

fn endpoint(w: &World, url: &str, events: &[&str]) -> Endpoint {
    block_on(
        w.svc.create_endpoint(w.org, NewEndpoint { url: url.into(), events: subscription(events), description: None }),
    )
    .unwrap()
}

fn import(w: &World, e: &str) -> Person {
    block_on(w.svc.import_person(w.org, ImportPerson::new(email(e)))).unwrap().person
}

fn deliveries(w: &World) -> Vec<Delivery> {
    w.store.snapshot().deliveries.into_iter().map(|(d, _)| d).collect()
}

fn deliveries_of(w: &World, ep: WebhookId) -> Vec<Delivery> {
    deliveries(w).into_iter().filter(|d| d.endpoint_id == ep).collect()
}

fn delivery(w: &World, id: DeliveryId) -> Delivery {
    deliveries(w).into_iter().find(|d| d.id == id).expect("delivery exists")
}

fn ep_row(w: &World, id: WebhookId) -> Endpoint {
    block_on(w.svc.get_endpoint(w.org, id)).unwrap()
}

fn run(w: &World) -> u32 {
    block_on(w.svc.run_deliveries(100)).unwrap()
}

fn sent(w: &World) -> Vec<SentHook> {
    w.sender.sent.lock().unwrap().clone()
}

fn answer(w: &World, statuses: &[u16]) {
    w.sender.answers.lock().unwrap().extend(statuses.iter().copied());
}

fn code<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> Code {
    match r {
        Err(UseCaseError::Client(c)) => c.code,
        other => panic!("expected a client error, got {other:?}"),
    }
}

fn advance(w: &World, secs: i64) {
    w.clock.advance(Duration::seconds(secs));
}

/// Moves the clock forward to `t` (never back).
fn advance_to(w: &World, t: time::OffsetDateTime) {
    let now = talent_domain::ports::Clock::now(&*w.clock);
    assert!(t >= now, "the clock only moves forward");
    w.clock.advance(t - now);
}

// ---------------------------------------------------------------------------------------------
// Endpoints (D29, D30)
// ---------------------------------------------------------------------------------------------

#[test]
fn creating_an_endpoint_returns_a_whsec_secret_of_32_random_bytes_d30_d58() {
    let w = world();
    let e = endpoint(&w, "https://hooks.example.com/talent", &["*"]);
    let rest = e.secret.strip_prefix("whsec_").expect("secret starts with whsec_");
    // 32 bytes in standard base64 with padding are 44 characters, the last `=` (D58).
    assert!(rest.len() == 44 && rest.ends_with('='), "secret body {rest:?} is not 32 bytes in base64");
    assert!(e.enabled);
    assert_eq!(e.events, Subscription::All);
    assert_eq!(e.consecutive_failures, 0);
    assert_eq!(ep_row(&w, e.id), e, "the stored endpoint is the one returned");
    let other = endpoint(&w, "https://hooks.example.com/other", &["person.created"]);
    assert_ne!(other.secret, e.secret, "every endpoint has its own secret");
}

#[test]
fn the_eleventh_endpoint_of_an_organization_is_a_conflict_d29() {
    let w = world();
    for i in 0..MAX_ENDPOINTS {
        endpoint(&w, &format!("https://hooks.example.com/{i}"), &["*"]);
    }
    let r = block_on(w.svc.create_endpoint(
        w.org,
        NewEndpoint { url: "https://hooks.example.com/11".into(), events: Subscription::All, description: None },
    ));
    assert_eq!(code(r), Code::Conflict);
    assert_eq!(block_on(w.svc.list_endpoints(w.org)).unwrap().len(), 10, "nothing written by the refused call");
    // The limit is per organization.
    let other = new_org(&w.svc);
    block_on(w.svc.create_endpoint(
        other,
        NewEndpoint { url: "https://hooks.example.com/o".into(), events: Subscription::All, description: None },
    ))
    .unwrap();
    // Deleting one frees a place.
    let first = block_on(w.svc.list_endpoints(w.org)).unwrap()[0].id;
    block_on(w.svc.delete_endpoint(w.org, first)).unwrap();
    endpoint(&w, "https://hooks.example.com/again", &["*"]);
}

// ---------------------------------------------------------------------------------------------
// Fan-out and the envelope (D31, D34)
// ---------------------------------------------------------------------------------------------

#[test]
fn an_event_fans_out_to_subscribed_endpoints_only_d31() {
    let w = world();
    let all = endpoint(&w, "https://a.example.com/", &["*"]);
    let archived = endpoint(&w, "https://b.example.com/", &["person.archived", "invitation.revoked"]);
    let completed = endpoint(&w, "https://c.example.com/", &["assessment.completed"]);
    let p = import(&w, "ann@example.com");
    assert_eq!(deliveries_of(&w, all.id).len(), 1, "[\"*\"] receives person.created");
    assert!(deliveries_of(&w, archived.id).is_empty(), "person.created is not listed");
    assert!(deliveries_of(&w, completed.id).is_empty());
    block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    let types = |id| deliveries_of(&w, id).iter().map(|d| d.event_type).collect::<Vec<_>>();
    assert_eq!(types(all.id), vec![EventType::PersonCreated, EventType::PersonArchived]);
    assert_eq!(types(archived.id), vec![EventType::PersonArchived]);
    assert!(types(completed.id).is_empty());
    // One delivery per endpoint and event: distinct ids.
    let ids: std::collections::HashSet<_> = deliveries(&w).iter().map(|d| d.id).collect();
    assert_eq!(ids.len(), 3);
    // Another organization's endpoints see nothing.
    let other = new_org(&w.svc);
    block_on(w.svc.create_endpoint(
        other,
        NewEndpoint { url: "https://o.example.com/".into(), events: Subscription::All, description: None },
    ))
    .unwrap();
    import(&w, "bob@example.com");
    assert!(deliveries(&w).iter().all(|d| d.org_id == w.org));
}

#[test]
fn the_worker_sends_the_envelope_signed_with_the_endpoints_secret_d30_d31_d34() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/hook", &["*"]);
    let p = import(&w, "ann@example.com");
    let d = deliveries_of(&w, e.id).remove(0);
    assert_eq!(d.status, DeliveryStatus::Pending);
    assert_eq!(run(&w), 1);
    let s = sent(&w);
    assert_eq!(s.len(), 1);
    let (url, event, id, body, secrets) = &s[0];
    assert_eq!(url, "https://a.example.com/hook");
    assert_eq!(event, "person.created");
    assert_eq!(id, &d.id.to_string());
    assert_eq!(secrets, &vec![e.secret.clone()], "signed with the endpoint's secret only");
    let env: Value = serde_json::from_str(body).unwrap();
    let scopes = talent_domain::values::Scopes::new(vec![talent_domain::values::Scope::WebhooksManage]);
    let req = talent_domain::usecases::feed::FeedRequest { after: 0, limit: 10, types: vec![] };
    let feed = block_on(w.svc.events_feed(w.org, &scopes, req)).unwrap();
    assert_eq!(body, &sent_body(&d, Some(feed.items[0].sequence)), "the stored envelope, with its sequence (D57)");
    let mut keys: Vec<_> = env.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["apiVersion", "createdAt", "data", "eventId", "id", "sequence", "type"]);
    assert_eq!(env["id"], json!(d.id.to_string()), "envelope id = delivery id");
    assert_eq!(env["eventId"], json!(feed.items[0].event.id.to_string()), "D57: eventId = the feed item's id");
    assert_eq!(env["sequence"], json!(feed.items[0].sequence));
    assert_eq!(env["type"], "person.created");
    assert_eq!(env["apiVersion"], "v1");
    assert_eq!(env["data"], talent_domain::wire::person_json(&p), "D34: person.* carry the Person object");
    let d = delivery(&w, d.id);
    assert_eq!(d.status, DeliveryStatus::Succeeded);
    assert_eq!(d.attempts, 1);
    assert_eq!(d.last_response_status, Some(200));
    assert_eq!(d.next_attempt_at, None);
    assert_eq!(run(&w), 0, "a succeeded delivery is not sent again");
}

// ---------------------------------------------------------------------------------------------
// Retries (D31)
// ---------------------------------------------------------------------------------------------

#[test]
fn answers_500_500_200_give_three_attempts_of_one_delivery_then_succeeded_d31() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    answer(&w, &[500, 500, 200]);
    import(&w, "ann@example.com");
    let id = deliveries_of(&w, e.id)[0].id;
    assert_eq!(run(&w), 1, "first attempt at once");
    assert_eq!(delivery(&w, id).status, DeliveryStatus::Pending);
    assert_eq!(delivery(&w, id).last_response_status, Some(500));
    assert_eq!(run(&w), 0, "not before the first retry delay");
    advance(&w, 59);
    assert_eq!(run(&w), 0, "not before 1 minute");
    advance(&w, 2);
    assert_eq!(run(&w), 1, "second attempt after 1 minute");
    advance(&w, 299);
    assert_eq!(run(&w), 0, "not before 5 minutes");
    advance(&w, 2);
    assert_eq!(run(&w), 1, "third attempt after 5 more minutes");
    let d = delivery(&w, id);
    assert_eq!(d.status, DeliveryStatus::Succeeded);
    assert_eq!(d.attempts, 3);
    assert_eq!(d.last_error, None);
    let s = sent(&w);
    assert_eq!(s.len(), 3);
    assert!(s.iter().all(|x| x.2 == id.to_string()), "one delivery id across retries");
    assert!(s.iter().all(|x| x.3 == s[0].3), "the same body every time");
    let log = block_on(w.svc.get_delivery(w.org, e.id, id)).unwrap().1;
    assert_eq!(log.iter().map(|(_, a)| a.status).collect::<Vec<_>>(), vec![Some(500), Some(500), Some(200)]);
    advance(&w, 86_400);
    assert_eq!(run(&w), 0);
}

#[test]
fn five_failed_attempts_on_the_1m_5m_30m_2h_schedule_mark_the_delivery_failed_d31() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    answer(&w, &[500; 10]);
    import(&w, "ann@example.com");
    let id = deliveries_of(&w, e.id)[0].id;
    assert_eq!(run(&w), 1);
    for delay in RETRY_DELAYS {
        let d = delivery(&w, id);
        assert_eq!(d.status, DeliveryStatus::Pending);
        let wait = d.next_attempt_at.unwrap() - d.last_attempt_at.unwrap();
        assert_eq!(wait, delay, "retry delay");
        advance(&w, delay.whole_seconds() - 1);
        assert_eq!(run(&w), 0, "not before {delay}");
        advance(&w, 2);
        assert_eq!(run(&w), 1, "retry after {delay}");
    }
    let d = delivery(&w, id);
    assert_eq!(d.status, DeliveryStatus::Failed);
    assert_eq!(d.attempts, 5);
    assert_eq!(d.next_attempt_at, None);
    assert_eq!(d.last_response_status, Some(500));
    assert_eq!(d.last_error.as_deref(), Some("non-2xx status 500"));
    advance(&w, 7 * 86_400);
    assert_eq!(run(&w), 0, "no attempt after failed");
    assert_eq!(sent(&w).len(), 5);
    assert!(ep_row(&w, e.id).enabled, "one failed delivery does not disable the endpoint");
    assert_eq!(ep_row(&w, e.id).consecutive_failures, 1);
}

/// Runs the worker through the whole retry schedule; each step also waits out a breaker that
/// failures in a row may have opened (T59: while it is open, due attempts wait).
fn run_through_schedule(w: &World) -> u32 {
    let mut n = run(w);
    for delay in RETRY_DELAYS {
        advance(w, delay.max(BREAKER_MAX).whole_seconds() + 1);
        n += run(w);
    }
    n
}

#[test]
fn an_endpoint_is_disabled_once_its_deliveries_have_failed_for_good_for_3_days_then_reenabling_releases_held_ones_d50()
{
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    // A second endpoint that receives none of these events must stay untouched.
    let healthy = endpoint(&w, "https://b.example.com/", &["assessment.completed"]);
    // A third one is told when an endpoint is disabled (D47).
    let watcher = endpoint(&w, "https://c.example.com/", &["webhook.disabled"]);
    for i in 0..5 {
        import(&w, &format!("p{i}@example.com"));
    }
    answer(&w, &[500; 25]);
    assert_eq!(run_through_schedule(&w), 25);
    let ep = ep_row(&w, e.id);
    assert_eq!(ep.consecutive_failures, 5);
    assert!(ep.enabled, "5 failed deliveries within hours no longer disable the endpoint (D50, not a count)");
    let since = ep.failing_since.expect("the run of failures has a start");
    assert!(w.store.snapshot().emails.is_empty());

    // Two days later: still failing, but not for 3 days yet.
    advance_to(&w, since + Duration::days(2));
    import(&w, "p5@example.com");
    answer(&w, &[500; 5]);
    assert_eq!(run_through_schedule(&w), 5);
    let ep = ep_row(&w, e.id);
    assert!(ep.enabled, "failing for 2 days and some hours keeps the endpoint enabled");
    assert_eq!(ep.failing_since, Some(since), "the run keeps its start");

    // Three days after the first delivery failed for good, the next one that does disables it.
    advance_to(&w, since + Duration::days(3));
    import(&w, "p6@example.com");
    answer(&w, &[500; 5]);
    assert_eq!(run_through_schedule(&w), 5);
    let ep = ep_row(&w, e.id);
    assert!(!ep.enabled, "a delivery failing for good 3 days into the run disables the endpoint");
    let mails = w.store.snapshot().emails;
    assert_eq!(mails.len(), 1, "one email per admin, none to members: {mails:?}");
    assert_eq!(mails[0].to.as_str(), "admin@acme.test");
    assert!(mails[0].subject.contains("disabled"), "{}", mails[0].subject);
    assert!(mails[0].body.contains(&e.id.to_string()));
    assert!(mails[0].body.contains(&talent_domain::timefmt::for_people(since)), "{}", mails[0].body);
    assert!(ep_row(&w, healthy.id).enabled, "other endpoints are unaffected");
    // webhook.disabled goes to the other enabled endpoints that subscribe to it, not to the
    // disabled one (which subscribes to "*") (D47).
    let told: Vec<Delivery> =
        deliveries(&w).into_iter().filter(|d| d.event_type == EventType::WebhookDisabled).collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].endpoint_id, watcher.id);
    let env: Value = serde_json::from_str(&told[0].payload).unwrap();
    assert_eq!(env["type"], "webhook.disabled");
    assert_eq!(env["data"]["webhookId"], json!(e.id.to_string()));
    assert_eq!(env["data"]["url"], "https://a.example.com/");
    assert_eq!(env["data"]["failingSince"], json!(talent_domain::timefmt::format(since)));
    assert_eq!(env["data"]["failedDeliveries"], 7);
    assert_eq!(run(&w), 1, "the watcher's webhook.disabled goes out");

    // Events keep being recorded for the disabled endpoint, but nothing is sent.
    let before = sent(&w).len();
    import(&w, "held@example.com");
    let held = deliveries_of(&w, e.id).into_iter().find(|d| d.attempts == 0).expect("held delivery");
    advance(&w, 3600);
    assert_eq!(run(&w), 0, "disabled: held");
    assert_eq!(sent(&w).len(), before);
    assert_eq!(delivery(&w, held.id).status, DeliveryStatus::Pending);

    // Re-enabling starts afresh and lets the held delivery go.
    let ep = block_on(w.svc.patch_endpoint(w.org, e.id, EndpointPatch { enabled: Some(true), ..Default::default() }))
        .unwrap();
    assert!(ep.enabled);
    assert_eq!((ep.consecutive_failures, ep.failing_since), (0, None));
    assert_eq!(run(&w), 1);
    let s = sent(&w);
    assert_eq!(s.last().unwrap().2, held.id.to_string());
    assert_eq!(delivery(&w, held.id).status, DeliveryStatus::Succeeded);
    assert_eq!(w.store.snapshot().emails.len(), 1, "no further email");
}

#[test]
fn a_success_between_failed_deliveries_starts_the_3_days_afresh_d50() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    for i in 0..4 {
        import(&w, &format!("p{i}@example.com"));
    }
    answer(&w, &[500; 20]);
    run_through_schedule(&w);
    let ep = ep_row(&w, e.id);
    assert_eq!(ep.consecutive_failures, 4);
    let since = ep.failing_since.expect("failing");
    assert_eq!(ep.breaker.failed_attempts, 20);
    import(&w, "ok@example.com");
    assert_eq!(run(&w), 0, "the breaker is open after 20 failed attempts in a row (T59)");
    advance(&w, BREAKER_MAX.whole_seconds());
    assert_eq!(run(&w), 1);
    let ep = ep_row(&w, e.id);
    assert_eq!((ep.consecutive_failures, ep.failing_since), (0, None), "a 2xx ends the run of failures");
    assert_eq!(ep.breaker, Breaker::default(), "and closes the breaker (T59)");
    // More than 3 days after the first failure, a new failure starts a new run: still enabled.
    advance_to(&w, since + Duration::days(4));
    import(&w, "p5@example.com");
    answer(&w, &[500; 5]);
    run_through_schedule(&w);
    let ep = ep_row(&w, e.id);
    assert!(ep.enabled);
    assert_eq!(ep.consecutive_failures, 1);
    assert!(ep.failing_since.is_some_and(|s| s > since + Duration::days(4)), "{:?}", ep.failing_since);
}

// ---------------------------------------------------------------------------------------------
// Rotation, redelivery, ping (D29, D31, D33)
// ---------------------------------------------------------------------------------------------

#[test]
fn after_rotation_both_secrets_sign_for_24_hours_then_only_the_new_one() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    let old = e.secret.clone();
    let r = block_on(w.svc.rotate_secret(w.org, e.id)).unwrap();
    let new = r.secret.clone();
    assert_ne!(new, old, "rotation gives a new secret");
    assert!(new.starts_with("whsec_"));
    import(&w, "a@example.com");
    run(&w);
    assert_eq!(sent(&w)[0].4, vec![new.clone(), old.clone()], "both sign during the overlap");
    advance(&w, 24 * 3600 - 60);
    import(&w, "b@example.com");
    run(&w);
    assert_eq!(sent(&w)[1].4, vec![new.clone(), old.clone()], "still both just before 24 h");
    advance(&w, 120);
    import(&w, "c@example.com");
    run(&w);
    assert_eq!(sent(&w)[2].4, vec![new.clone()], "only the new one after 24 h");
    // A second rotation replaces the previous secret by the current one.
    let r2 = block_on(w.svc.rotate_secret(w.org, e.id)).unwrap();
    import(&w, "d@example.com");
    run(&w);
    assert_eq!(sent(&w)[3].4, vec![r2.secret.clone(), new.clone()]);
}

#[test]
fn redeliver_resets_a_failed_delivery_which_goes_out_again_with_the_same_id() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    import(&w, "a@example.com");
    answer(&w, &[500; 5]);
    run_through_schedule(&w);
    let d = deliveries_of(&w, e.id).remove(0);
    assert_eq!(d.status, DeliveryStatus::Failed);
    let r = block_on(w.svc.redeliver(w.org, e.id, d.id)).unwrap();
    assert_eq!(r.id, d.id);
    assert_eq!(r.status, DeliveryStatus::Pending);
    assert_eq!(r.attempts, 0);
    assert!(r.next_attempt_at.is_some());
    assert_eq!(run(&w), 1);
    let s = sent(&w);
    assert_eq!(s.len(), 6);
    assert_eq!(s[5].2, d.id.to_string(), "same delivery id");
    assert_eq!(s[5].3, s[0].3, "same envelope, the same eventId and sequence (D57)");
    let after = delivery(&w, d.id);
    assert_eq!(after.status, DeliveryStatus::Succeeded);
    assert_eq!(after.attempts, 1);
    assert_eq!(block_on(w.svc.get_delivery(w.org, e.id, d.id)).unwrap().1.len(), 6, "attempt log keeps history");
    // Unknown ids are 404.
    assert_eq!(code(block_on(w.svc.redeliver(w.org, e.id, DeliveryId(uuid::Uuid::nil())))), Code::NotFound);
    let other = endpoint(&w, "https://b.example.com/", &["*"]);
    assert_eq!(code(block_on(w.svc.redeliver(w.org, other.id, d.id))), Code::NotFound, "delivery of another endpoint");
}

#[test]
fn test_ping_sends_now_records_one_ping_delivery_and_does_not_fan_out_d33() {
    let w = world();
    let a = endpoint(&w, "https://a.example.com/", &["*"]);
    let b = endpoint(&w, "https://b.example.com/", &["*"]);
    let r = block_on(w.svc.test_ping(w.org, a.id)).unwrap();
    assert!(r.success);
    assert_eq!(r.response_status, Some(200));
    assert_eq!(r.response_body.as_deref(), Some("ok"));
    assert_eq!(r.error, None);
    let s = sent(&w);
    assert_eq!(s.len(), 1, "only the tested endpoint is called");
    let (url, event, id, body, secrets) = &s[0];
    assert_eq!(url, "https://a.example.com/");
    assert_eq!(event, "ping");
    assert_eq!(id, &r.delivery_id.to_string());
    assert_eq!(secrets, &vec![a.secret.clone()]);
    let env: Value = serde_json::from_str(body).unwrap();
    assert_eq!(env["id"], json!(r.delivery_id.to_string()));
    assert_eq!(env["type"], "ping");
    assert_eq!(env["data"], json!({"webhookId": a.id.to_string()}));
    let d = delivery(&w, r.delivery_id);
    assert_eq!(
        (d.endpoint_id, d.event_type, d.status, d.attempts),
        (a.id, EventType::Ping, DeliveryStatus::Succeeded, 1)
    );
    assert!(deliveries_of(&w, b.id).is_empty(), "no fan-out to other endpoints");
    assert!(w.store.snapshot().events.iter().all(|e| e.event_type != EventType::Ping), "no outbox event");
    assert_eq!(run(&w), 0, "nothing left for the worker");
    // A failing ping is recorded failed at once: pings are not retried.
    answer(&w, &[503]);
    let r = block_on(w.svc.test_ping(w.org, a.id)).unwrap();
    assert!(!r.success);
    assert_eq!(r.response_status, Some(503));
    let d = delivery(&w, r.delivery_id);
    assert_eq!(d.status, DeliveryStatus::Failed);
    assert_eq!(d.next_attempt_at, None);
    advance(&w, 86_400);
    assert_eq!(run(&w), 0);
    assert_eq!(code(block_on(w.svc.test_ping(w.org, WebhookId(uuid::Uuid::nil())))), Code::NotFound);
}

#[test]
fn deliveries_list_newest_first_with_a_status_filter_and_keyset_pages_d32() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    for i in 0..5 {
        import(&w, &format!("p{i}@example.com"));
    }
    answer(&w, &[500, 500]);
    run(&w);
    let all: Vec<DeliveryId> = deliveries_of(&w, e.id).iter().map(|d| d.id).rev().collect();
    let p1 = block_on(w.svc.list_deliveries(w.org, e.id, None, None, None, 2)).unwrap();
    assert!(p1.has_more);
    assert_eq!(p1.items.iter().map(|d| d.id).collect::<Vec<_>>(), all[..2]);
    let p2 = block_on(w.svc.list_deliveries(w.org, e.id, None, None, Some(p1.items[1].id), 2)).unwrap();
    assert_eq!(p2.items.iter().map(|d| d.id).collect::<Vec<_>>(), all[2..4]);
    let p3 = block_on(w.svc.list_deliveries(w.org, e.id, None, None, Some(p2.items[1].id), 2)).unwrap();
    assert!(!p3.has_more);
    assert_eq!(p3.items.iter().map(|d| d.id).collect::<Vec<_>>(), all[4..]);
    let pending = block_on(w.svc.list_deliveries(w.org, e.id, Some(DeliveryStatus::Pending), None, None, 100)).unwrap();
    assert_eq!(pending.items.len(), 2);
    assert!(pending.items.iter().all(|d| d.status == DeliveryStatus::Pending));
    let ok = block_on(w.svc.list_deliveries(w.org, e.id, Some(DeliveryStatus::Succeeded), None, None, 100)).unwrap();
    assert_eq!(ok.items.len(), 3);
}

// ---------------------------------------------------------------------------------------------
// The delivery engine's rules: caps, breaker, batched outcomes, retention (T59-T61)
// ---------------------------------------------------------------------------------------------

fn caps(limit: u32, per_endpoint: u32, per_org: u32) -> ClaimCaps {
    ClaimCaps { limit, per_endpoint, per_org, ..Default::default() }
}

#[test]
fn a_claim_takes_at_most_the_per_endpoint_cap_less_what_is_in_flight_t60() {
    let w = world();
    let a = endpoint(&w, "https://a.example.com/", &["*"]);
    let b = endpoint(&w, "https://b.example.com/", &["*"]);
    for i in 0..5 {
        import(&w, &format!("p{i}@example.com"));
    }
    let jobs = block_on(w.svc.claim_due(caps(100, 2, 100))).unwrap();
    let of = |jobs: &[DeliveryJob], e: WebhookId| jobs.iter().filter(|j| j.delivery.endpoint_id == e).count();
    assert_eq!((of(&jobs, a.id), of(&jobs, b.id)), (2, 2), "two per endpoint");
    assert_eq!(jobs[0].url, "https://a.example.com/");
    assert_eq!(jobs[0].secrets, vec![a.secret.clone()], "the job carries the signing secrets");
    // Endpoint a has one more in flight elsewhere in this worker: it gets one fewer.
    let mut c = caps(100, 2, 100);
    c.busy_endpoints = vec![(a.id, 1)];
    let jobs = block_on(w.svc.claim_due(c)).unwrap();
    assert_eq!((of(&jobs, a.id), of(&jobs, b.id)), (1, 2));
    assert_eq!(block_on(w.svc.claim_due(caps(100, 2, 100))).unwrap().len(), 3, "the rest: 2 of a, 1 of b");
    assert!(block_on(w.svc.claim_due(caps(100, 2, 100))).unwrap().is_empty(), "claimed rows are not claimed twice");
}

#[test]
fn a_claimed_job_is_startable_while_an_attempt_fits_in_its_lease_t303() {
    let w = world();
    endpoint(&w, "https://a.example.com/", &["*"]);
    import(&w, "p@example.com");
    let before = talent_domain::ports::Clock::now(&*w.clock);
    let jobs = block_on(w.svc.claim_due(caps(100, 8, 100))).unwrap();
    assert_eq!(jobs.len(), 1);
    let job = &jobs[0];
    // The lease runs from the claim's time (the fake clock ticks with every reading).
    let now = job.lease_until - CLAIM_LEASE;
    assert!(now >= before && now - before < time::Duration::seconds(1), "{before} {now}");
    let last = job.lease_until - ATTEMPT_ALLOWANCE;
    assert!(job.startable(now));
    assert!(job.startable(last), "an attempt that ends as the lease does may start");
    assert!(!job.startable(last + time::Duration::nanoseconds(1)), "one that would outlast it may not");
}

#[test]
fn one_organization_cannot_take_more_than_its_cap_so_another_gets_a_lane_t60() {
    let w = world();
    for i in 0..10 {
        endpoint(&w, &format!("https://slow{i}.example.com/"), &["*"]);
    }
    for i in 0..5 {
        import(&w, &format!("p{i}@example.com"));
    }
    let other = new_org(&w.svc);
    let theirs = block_on(w.svc.create_endpoint(
        other,
        NewEndpoint { url: "https://other.example.com/".into(), events: Subscription::All, description: None },
    ))
    .unwrap();
    block_on(w.svc.import_person(other, ImportPerson::new(email("x@other.example.com")))).unwrap();
    // 50 deliveries of the first organization are due before the other's one.
    let mut c = caps(64, 8, 16);
    c.busy_orgs = vec![(w.org, 16)];
    let jobs = block_on(w.svc.claim_due(c)).unwrap();
    assert_eq!(jobs.len(), 1, "the full organization gets nothing more");
    assert_eq!(jobs[0].delivery.endpoint_id, theirs.id, "the other organization's delivery goes out");
    let jobs = block_on(w.svc.claim_due(caps(64, 8, 16))).unwrap();
    assert_eq!(jobs.len(), 16, "at most 16 per organization in one claim");
}

#[test]
fn an_open_breaker_holds_the_endpoints_deliveries_without_spending_attempts_t59() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    for i in 0..7 {
        import(&w, &format!("p{i}@example.com"));
    }
    answer(&w, &[500; 5]);
    // One batch: 7 attempts; the first 5 fail and open the breaker, the last 2 succeed but the
    // outcomes are applied in order, so the breaker ends closed.
    assert_eq!(run(&w), 7);
    assert_eq!(ep_row(&w, e.id).breaker, Breaker::default());
    // Five failures in a row open it; the next import waits.
    for i in 0..5 {
        import(&w, &format!("q{i}@example.com"));
    }
    answer(&w, &[503; 5]);
    assert_eq!(run(&w), 5);
    let b = ep_row(&w, e.id).breaker;
    assert_eq!(b.failed_attempts, 5);
    assert!(b.is_open(w.svc.clock.now()));
    import(&w, "held@example.com");
    let held = deliveries_of(&w, e.id).into_iter().find(|d| d.attempts == 0).expect("held");
    assert_eq!(run(&w), 0, "open: nothing claimed");
    assert_eq!(delivery(&w, held.id).attempts, 0, "no attempt spent");
    advance(&w, BREAKER_BASE.whole_seconds());
    assert_eq!(run(&w), 1, "closed again after 15 s: the held delivery goes (the 5 failed ones wait for 1 min)");
    assert_eq!(delivery(&w, held.id).status, DeliveryStatus::Succeeded);
    assert_eq!(ep_row(&w, e.id).breaker, Breaker::default());
}

#[test]
fn outcomes_recorded_in_one_batch_skip_deliveries_deleted_meanwhile_and_number_attempts_in_order() {
    let w = world();
    let a = endpoint(&w, "https://a.example.com/", &["*"]);
    let b = endpoint(&w, "https://b.example.com/", &["*"]);
    import(&w, "p@example.com");
    let jobs = block_on(w.svc.claim_due(ClaimCaps::total(10))).unwrap();
    assert_eq!(jobs.len(), 2);
    block_on(w.svc.delete_endpoint(w.org, b.id)).unwrap();
    let at = w.svc.clock.now();
    let done: Vec<FinishedAttempt> = jobs
        .iter()
        .map(|j| FinishedAttempt {
            delivery: j.delivery.id,
            endpoint: j.delivery.endpoint_id,
            at,
            outcome: AttemptOutcome { status: Some(200), duration_ms: 3, error: None, response_body: None },
        })
        .collect();
    block_on(w.svc.record_attempts(done)).expect("a deleted endpoint's outcome is skipped, not an error");
    let d = deliveries_of(&w, a.id).remove(0);
    assert_eq!(d.status, DeliveryStatus::Succeeded);
    assert_eq!(block_on(w.svc.get_delivery(w.org, a.id, d.id)).unwrap().1.len(), 1);
}

#[test]
fn retention_purges_deliveries_attempts_and_events_older_than_the_window_only_t61() {
    let w = world();
    let e = endpoint(&w, "https://a.example.com/", &["*"]);
    for i in 0..3 {
        import(&w, &format!("old{i}@example.com"));
    }
    run(&w);
    advance(&w, 20 * 86_400);
    import(&w, "new@example.com");
    run(&w);
    advance(&w, 11 * 86_400);
    // 31 days after the first three, 11 days after the last.
    let (d, ev) = block_on(w.svc.purge_webhook_history(30, 2)).unwrap();
    assert_eq!((d, ev), (3, 3), "in batches of 2 until none is left");
    let left = deliveries_of(&w, e.id);
    assert_eq!(left.len(), 1);
    let snap = w.store.snapshot();
    assert_eq!(snap.events.len(), 1);
    assert!(snap.attempts.iter().all(|(id, _, _)| *id == left[0].id), "attempts go with their delivery");
    assert_eq!(block_on(w.svc.purge_webhook_history(30, 2)).unwrap(), (0, 0));
}

/// T277 (D57): a claim made before the sequencer has run numbers the claimed deliveries' events
/// in its own transaction, one write in all, and every job carries its event's feed sequence.
#[test]
fn a_claim_numbers_its_deliveries_events_in_its_own_transaction_t277_d57() {
    let w = world();
    endpoint(&w, "https://a.example.com/", &["*"]);
    for i in 0..3 {
        import(&w, &format!("p{i}@example.com"));
    }
    let writes = Arc::new(AtomicU64::new(0));
    let mut store = w.store.clone();
    let counted = writes.clone();
    store.on_begin = Some(Arc::new(move || {
        counted.fetch_add(1, Ordering::SeqCst);
    }));
    let svc = Services { store: Arc::new(store), ..w.svc.clone() };
    let jobs = block_on(svc.claim_due(caps(100, 8, 16))).unwrap();
    assert_eq!(jobs.len(), 3);
    assert_eq!(writes.load(Ordering::SeqCst), 1, "the claim numbered its events itself");
    let mut sequences: Vec<u64> = jobs.iter().map(|j| j.sequence.expect("numbered")).collect();
    sequences.sort_unstable();
    assert_eq!(sequences, [1, 2, 3], "the organization's first three events (D56)");
    // Nothing left for the sequencer.
    assert_eq!(block_on(w.svc.sequence_events()).unwrap(), 0);
}
