//! Use cases: one per operation, each in one transaction of the [`Store`] port, events written to
//! the outbox in that same transaction (D31). They take parsed value objects and return domain
//! entities or a [`UseCaseError`](crate::errors::UseCaseError).

pub mod acceptance;
pub mod access;
pub mod assessments;
pub mod connectors;
pub mod dashboard;
pub mod deliveries;
pub mod emails;
pub use emails::accommodation_lines;
pub mod feed;
pub mod idempotency;
pub mod invitations;
pub mod orders;
pub mod orgs;
pub mod persons;
pub mod privacy;
pub mod report_links;
pub mod teams;
pub mod test_mode;
pub mod webhooks;

use crate::ports::*;
use crate::values::PlanCatalogue;
use std::sync::Arc;

/// The ports every use case may need, wired by the app crate.
pub struct Services<S: Store> {
    /// Transactions.
    pub store: Arc<S>,
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// New ids.
    pub ids: Arc<dyn Ids>,
    /// Key generation, hashing, constant-time comparison.
    pub secrets: Arc<dyn Secrets>,
    /// Plans (D5).
    pub plans: PlanCatalogue,
    /// The assessment model and the adapters that describe and render results.
    pub assessment: Arc<AssessmentKit>,
    /// The mailer and the public base URL of invitation links.
    pub invites: Arc<invitations::InvitationKit>,
    /// Sends signed webhook requests (D30-D35) and pushes to ATSs (D69).
    pub webhooks: Arc<dyn WebhookSender>,
    /// Renders pushes to ATSs in their protocols (D69): the connector adapter.
    pub pushes: Arc<dyn PushRenderer>,
    /// The request being served, for the events' `request_id` (T121).
    pub correlation: Arc<dyn Correlation>,
}

/// The assessment model (D23) with the personality writer (D24) and the report renderer (D27).
pub struct AssessmentKit {
    /// The validated model.
    pub model: crate::assessment::AssessmentModel,
    /// Writes `personality.markdown`.
    pub personality: Arc<dyn PersonalityWriter>,
    /// Renders the PDF report.
    pub reports: Arc<dyn ReportRenderer>,
}

impl<S: Store> Clone for Services<S> {
    fn clone(&self) -> Self {
        Self {
            store: self.store.clone(),
            clock: self.clock.clone(),
            ids: self.ids.clone(),
            secrets: self.secrets.clone(),
            plans: self.plans.clone(),
            assessment: self.assessment.clone(),
            invites: self.invites.clone(),
            webhooks: self.webhooks.clone(),
            pushes: self.pushes.clone(),
            correlation: self.correlation.clone(),
        }
    }
}

impl<S: Store> Services<S> {
    /// Ids and the current request's id for the events of one use case call (T121); call it
    /// before the transaction, in the caller's context.
    pub fn event_source(&self) -> Arc<crate::outbox::EventSource> {
        Arc::new(crate::outbox::EventSource { ids: self.ids.clone(), request_id: self.correlation.request_id() })
    }
}

/// One page of a keyset-paginated list (D36).
#[derive(Clone, Debug, PartialEq)]
pub struct Page<T> {
    /// Items, newest first.
    pub items: Vec<T>,
    /// More items follow.
    pub has_more: bool,
}
