//! In-memory fakes of the ports, for domain tests (no database). The fake store keeps all rows in
//! one struct; a transaction works on a copy and replaces the state on commit, so a failed use
//! case leaves nothing behind, like a real transaction. Futures are always ready: [`block_on`]
//! drives them without a runtime.
//!
//! `store`: the fake store and its transactions; `adapters`: the clock, ids, secrets, mailer,
//! webhook sender, personality writer and report renderer.

mod adapters;
mod store;

pub use adapters::*;
pub use store::*;

use crate::values::PlanCatalogue;
use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

/// Drives an always-ready future to completion. Panics if it is ever pending (fakes never are).
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    match f.as_mut().poll(&mut cx) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("fake futures never wait"),
    }
}

/// Services over the fakes, with handles to the fake clock and store.
pub fn services() -> (crate::Services<FakeStore>, FakeStore, Arc<FakeClock>) {
    let store = FakeStore::default();
    let clock = Arc::new(FakeClock::new());
    let svc = crate::Services {
        store: Arc::new(store.clone()),
        clock: clock.clone(),
        ids: Arc::new(FakeIds::default()),
        secrets: Arc::new(FakeSecrets::default()),
        plans: PlanCatalogue::default(),
        assessment: Arc::new(fake_assessment_kit()),
        invites: Arc::new(crate::usecases::invitations::InvitationKit {
            mailer: Arc::new(FakeMailer::default()),
            public_url: "http://talent.test".into(),
            sandbox: true,
            wake_emails: crate::usecases::invitations::no_wakeup(),
            texts: Arc::new(FakeTexts),
        }),
        webhooks: Arc::new(FakeSender::default()),
        pushes: Arc::new(FakePushRenderer),
        correlation: Arc::new(crate::ports::NoCorrelation),
    };
    (svc, store, clock)
}

/// A key context for tests that need one without a store: an administrator's key (scope
/// `persons:read`, prefix sixteen `p`) of the active organization "Acme" on `plan`, every id
/// `Uuid::nil()`, every time the Unix epoch.
pub fn key_context(plan: &str) -> crate::api_key::KeyContext {
    use crate::ids::{ApiKeyId, OrgId, UserId};
    use crate::values::{Email, OrgRole, Scope, Scopes, SubscriptionStatus};
    let now = time::OffsetDateTime::UNIX_EPOCH;
    let nil = uuid::Uuid::nil();
    crate::api_key::KeyContext {
        key: crate::api_key::ApiKey {
            id: ApiKeyId(nil),
            user_id: UserId(nil),
            org_id: OrgId(nil),
            name: None,
            prefix: "p".repeat(16),
            hash: vec![0; 32],
            scopes: Scopes::new(vec![Scope::PersonsRead]),
            expires_at: None,
            revoked_at: None,
            created_at: now,
        },
        role: OrgRole::Admin,
        org: crate::organization::Organization {
            id: OrgId(nil),
            company_name: "Acme".into(),
            email: Email::parse("hr@acme.example").unwrap_or_else(|e| panic!("{e}")),
            plan: plan.into(),
            subscription_status: SubscriptionStatus::Active,
            trial_ends_at: None,
            current_period_end: None,
            employee_domains: vec![],
            candidate: Default::default(),
            created_at: now,
            updated_at: now,
            test_of: None,
        },
    }
}

/// The built-in model with the fake adapters.
pub fn fake_assessment_kit() -> crate::usecases::AssessmentKit {
    crate::usecases::AssessmentKit {
        model: crate::assessment::AssessmentModel::builtin().unwrap_or_else(|e| panic!("built-in model: {e}")),
        personality: Arc::new(FakePersonality),
        reports: Arc::new(FakeReports),
    }
}

/// A request context a test sets (T121): [`crate::ports::Correlation`] answering what it holds.
#[derive(Default)]
pub struct FakeCorrelation(pub std::sync::Mutex<Option<String>>);

impl crate::ports::Correlation for FakeCorrelation {
    fn request_id(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}
