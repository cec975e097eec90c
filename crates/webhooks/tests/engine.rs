//! The delivery engine on the fake store, with a receiver that holds every request until told
//! to answer: how many deliveries it holds claimed, how many it sends at once, and what it does
//! with a delivery held past its claim's lease (T60, T281, T303).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use talent_domain::fakes::{services, FakeStore};
use talent_domain::ids::OrgId;
use talent_domain::ports::{BoxFuture, Fetched, PushRequest, SendResult, WebhookMessage, WebhookSender};
use talent_domain::usecases::deliveries::{ClaimCaps, ATTEMPT_ALLOWANCE, CLAIM_LEASE};
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::usecases::persons::ImportPerson;
use talent_domain::usecases::webhooks::NewEndpoint;
use talent_domain::values::{Email, SubscriptionStatus};
use talent_domain::webhook::{AttemptOutcome, Subscription};
use talent_domain::Services;
use talent_webhooks::engine::{spawn, EngineConfig, HOLD_ROUNDS};
use time::OffsetDateTime;
use tokio::sync::{Notify, Semaphore};

/// A receiver that answers 200 to a request only once [`Held::release`] lets it, and counts the
/// requests in flight.
struct Held {
    in_flight: AtomicUsize,
    most: AtomicUsize,
    /// Requests received, answered or not.
    calls: AtomicUsize,
    answers: Semaphore,
}

impl Held {
    fn new() -> Self {
        Held {
            in_flight: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            calls: AtomicUsize::new(0),
            answers: Semaphore::new(0),
        }
    }

    fn release(&self, n: usize) {
        self.answers.add_permits(n);
    }
}

impl WebhookSender for Held {
    fn send<'a>(
        &'a self,
        _url: &'a str,
        _secrets: &'a [&'a str],
        _event_type: &'a str,
        _message: &'a WebhookMessage,
        _now: OffsetDateTime,
    ) -> BoxFuture<'a, SendResult> {
        Box::pin(async move {
            self.calls.fetch_add(1, Ordering::SeqCst);
            let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            if let Ok(p) = self.answers.acquire().await {
                p.forget();
            }
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            AttemptOutcome { status: Some(200), duration_ms: 1, error: None, response_body: None }
        })
    }
    fn push<'a>(&'a self, _req: &'a PushRequest) -> BoxFuture<'a, SendResult> {
        Box::pin(std::future::ready(AttemptOutcome {
            status: Some(200),
            duration_ms: 1,
            error: None,
            response_body: None,
        }))
    }
    fn fetch<'a>(&'a self, _req: &'a PushRequest, _limit: usize) -> BoxFuture<'a, Result<Fetched, String>> {
        Box::pin(std::future::ready(Err("not here".into())))
    }
    fn check_url(&self, _url: &str) -> Result<(), String> {
        Ok(())
    }
}

/// An organization with one endpoint and `n` imported persons (so `n` due deliveries).
async fn organization_with_due_deliveries(svc: &Services<FakeStore>, n: usize) -> OrgId {
    let email = |s: &str| Email::parse(s).unwrap();
    let new = NewOrganization {
        subscription_status: Some(SubscriptionStatus::Active),
        ..NewOrganization::new("Acme", email("hr@acme.test"), "business")
    };
    let (org, _) = svc.create_organization(new).await.unwrap();
    let hook = NewEndpoint { url: "https://hooks.example.com/in".into(), events: Subscription::All, description: None };
    svc.create_endpoint(org.id, hook).await.unwrap();
    for i in 0..n {
        svc.import_person(org.id, ImportPerson::new(email(&format!("p{i}@acme.test")))).await.unwrap();
    }
    org.id
}

/// An engine with one lane per endpoint, polling every 50 ms.
fn one_lane() -> EngineConfig {
    EngineConfig { concurrency: 64, per_endpoint: 1, per_org: 16, poll: Duration::from_millis(50), record_batch: 64 }
}

async fn until(what: &str, f: impl Fn() -> bool) {
    for _ in 0..500 {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("not within 5 s: {what}");
}

/// T281, T303: with its endpoint's lanes full, the engine holds `HOLD_ROUNDS` rounds of the
/// endpoint's deliveries claimed (one in flight, the others ready), sends only `per_endpoint` at
/// once, and leaves the rest claimable by another instance; once the receiver answers, every
/// delivery goes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_holds_its_rounds_of_an_endpoint_and_sends_one_round_at_once() {
    let (mut svc, store, _clock) = services();
    let held = Arc::new(Held::new());
    svc.webhooks = held.clone();
    let rounds = HOLD_ROUNDS as usize;
    let org = organization_with_due_deliveries(&svc, rounds + 12).await;
    spawn(svc.clone(), one_lane(), Arc::new(Notify::new()));
    until("one request in flight", || held.in_flight.load(Ordering::SeqCst) == 1).await;
    let claimed = || store.snapshot().deliveries.iter().filter(|(_, lease)| lease.is_some()).count();
    until("the engine's claim", || claimed() == rounds).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(claimed(), rounds, "its rounds of one held, no more");
    assert_eq!(held.most.load(Ordering::SeqCst), 1, "one round in flight");
    // Another instance finds the twelve the engine left.
    let caps = ClaimCaps { limit: 100, per_endpoint: 100, per_org: 100, busy_endpoints: vec![], busy_orgs: vec![] };
    let other = svc.claim_due(caps).await.unwrap();
    assert_eq!(other.len(), 12, "the rest stay claimable");
    assert!(other.iter().all(|j| j.delivery.org_id == org));
    // The receiver answers: the engine's deliveries go, one at a time.
    held.release(rounds);
    until("the held deliveries sent", || {
        held.answers.available_permits() == 0 && held.in_flight.load(Ordering::SeqCst) == 0
    })
    .await;
    assert_eq!(held.most.load(Ordering::SeqCst), 1, "never more than the endpoint's lanes");
    assert_eq!(held.calls.load(Ordering::SeqCst), rounds);
}

/// T303: a delivery held while its endpoint's lanes were busy is not sent once too little of
/// its claim's lease is left for an attempt (another instance could claim it meanwhile); it
/// stays claimed until the lease ends and goes with the next claim after that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_held_past_its_claims_lease_waits_for_the_next_claim() {
    let (mut svc, store, clock) = services();
    let held = Arc::new(Held::new());
    svc.webhooks = held.clone();
    organization_with_due_deliveries(&svc, 3).await;
    spawn(svc.clone(), one_lane(), Arc::new(Notify::new()));
    let claimed = || store.snapshot().deliveries.iter().filter(|(_, lease)| lease.is_some()).count();
    until("one request in flight, three claimed", || held.in_flight.load(Ordering::SeqCst) == 1 && claimed() == 3)
        .await;
    // The first attempt takes until 14 s of the other two's leases are left.
    clock.advance(CLAIM_LEASE - ATTEMPT_ALLOWANCE + time::Duration::seconds(1));
    held.release(1);
    until("the first delivery recorded", || claimed() == 2).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(held.calls.load(Ordering::SeqCst), 1, "neither held delivery is sent inside its lease");
    assert_eq!(claimed(), 2, "both stay claimed until their lease ends");
    // Their lease ends: the engine's next claim takes them, and they go.
    clock.advance(ATTEMPT_ALLOWANCE);
    held.release(2);
    until("both sent and recorded", || held.calls.load(Ordering::SeqCst) == 3 && claimed() == 0).await;
    assert_eq!(held.most.load(Ordering::SeqCst), 1);
}
