//! The delivery engine over the domain's fakes (T60, T265): what it sends, and how many write
//! transactions it spends on a burst of commits. Time is tokio's paused clock, so the fakes'
//! always-ready futures and the engine's spacing are exact.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use talent_domain::fakes::{services, FakeSender, FakeStore};
use talent_domain::ids::OrgId;
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::usecases::persons::ImportPerson;
use talent_domain::usecases::webhooks::NewEndpoint;
use talent_domain::values::{Email, SubscriptionStatus};
use talent_domain::webhook::Subscription;
use talent_domain::Services;
use talent_webhooks::engine::{spawn, EngineConfig, SPACING};
use tokio::sync::Notify;

/// Services over the fakes with one organization and one endpoint subscribed to everything;
/// the engine runs on a copy whose store counts its write transactions.
struct World {
    svc: Services<FakeStore>,
    org: OrgId,
    sender: Arc<FakeSender>,
    engine_writes: Arc<AtomicUsize>,
    wake: Arc<Notify>,
}

async fn world() -> World {
    let (mut svc, store, _clock) = services();
    let sender = Arc::new(FakeSender::default());
    svc.webhooks = sender.clone();
    let email = |s: &str| Email::parse(s).unwrap();
    let (org, _) = svc
        .create_organization(NewOrganization {
            subscription_status: Some(SubscriptionStatus::Active),
            ..NewOrganization::new("Acme", email("hr@acme.test"), "business")
        })
        .await
        .unwrap();
    let events = Subscription::parse(&["*".to_string()]).unwrap();
    svc.create_endpoint(org.id, NewEndpoint { url: "https://rx.example.com/".into(), events, description: None })
        .await
        .unwrap();
    let engine_writes = Arc::new(AtomicUsize::new(0));
    let mut counted = store.clone();
    let n = engine_writes.clone();
    counted.on_begin = Some(Arc::new(move || {
        n.fetch_add(1, Ordering::SeqCst);
    }));
    let engine = Services { store: Arc::new(counted), ..svc.clone() };
    let wake = Arc::new(Notify::new());
    spawn(engine, EngineConfig::default(), wake.clone());
    // The start-up claim finds nothing.
    tokio::time::sleep(Duration::from_millis(50)).await;
    World { svc, org: org.id, sender, engine_writes, wake }
}

impl World {
    /// Imports `email` (one `person.created` delivery) and wakes the engine, as a commit does.
    async fn import(&self, email: &str) {
        self.svc.import_person(self.org, ImportPerson::new(Email::parse(email).unwrap())).await.unwrap();
        self.wake.notify_one();
    }
    fn sent(&self) -> usize {
        self.sender.sent.lock().unwrap().len()
    }
}

/// T265: 200 commits 1 ms apart, each waking the engine, cost it a few transactions per spacing
/// (claim, numbering, outcomes), not some per delivery; every delivery goes out.
#[tokio::test(start_paused = true)]
async fn a_burst_of_commits_is_claimed_and_recorded_in_a_few_transactions_t265() {
    let w = world().await;
    let before = w.engine_writes.load(Ordering::SeqCst);
    for i in 0..200 {
        w.import(&format!("p{i}@example.com")).await;
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(w.sent(), 200, "every delivery is sent");
    let spent = w.engine_writes.load(Ordering::SeqCst) - before;
    // 200 ms of commits is 20 spacings; each spends at most a claim, a numbering and an outcome write.
    let most = 3 * (200 / SPACING.as_millis() as usize + 2);
    assert!(spent <= most, "the engine wrote {spent} transactions for 200 deliveries (at most {most})");
}

/// T265: a commit after a quiet spell is claimed and sent at once, not after the spacing.
#[tokio::test(start_paused = true)]
async fn a_commit_after_a_quiet_spell_is_sent_at_once_t265() {
    let w = world().await;
    w.import("first@example.com").await;
    tokio::time::sleep(Duration::from_millis(1)).await;
    assert_eq!(w.sent(), 1);
    tokio::time::sleep(Duration::from_secs(2)).await;
    w.import("second@example.com").await;
    tokio::time::sleep(Duration::from_millis(1)).await;
    assert_eq!(w.sent(), 2, "the second, 2 s later, went out within a millisecond");
}
