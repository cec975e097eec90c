//! The records and queries the transaction ports read and write that are not entities: queries, email and idempotency records, delivery claims.

use crate::events::EventType;
use crate::ids::*;
use crate::person::PersonStatus;
use crate::results::{Assessment, AssessmentStatus};
use crate::values::*;
use time::OffsetDateTime;

/// The `status` filter of `GET /persons`: one status (default `active`), or `any` (active and
/// archived together: a one-pass sync, issue 15).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PersonStatusFilter {
    /// Active persons (the default).
    #[default]
    Active,
    /// Archived persons.
    Archived,
    /// Every person of the organization, whatever their status.
    Any,
}

impl PersonStatusFilter {
    /// Parses the wire value: `active`, `archived` or `any`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "active" => Ok(Self::Active),
            "archived" => Ok(Self::Archived),
            "any" => Ok(Self::Any),
            _ => Err("must be one of: active, archived, any".into()),
        }
    }
    /// The one status it selects; `None` for `any`.
    pub fn only(self) -> Option<PersonStatus> {
        match self {
            Self::Active => Some(PersonStatus::Active),
            Self::Archived => Some(PersonStatus::Archived),
            Self::Any => None,
        }
    }
}

/// A page request of `GET /invitations` (D17).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InvitationQuery {
    /// Organization.
    pub org_id: Option<OrgId>,
    /// `status`, as read at `now` (D21: pending past expiry counts as expired).
    pub status: Option<crate::invitation::InvitationStatus>,
    /// The time `status` is evaluated at.
    pub now: Option<OffsetDateTime>,
    /// `variant`.
    pub variant: Option<crate::invitation::Variant>,
    /// `email`.
    pub email: Option<Email>,
    /// `externalId`.
    pub external_id: Option<String>,
    /// `personId`.
    pub person_id: Option<PersonId>,
    /// `updatedAfter` (exclusive).
    pub updated_after: Option<OffsetDateTime>,
    /// Keyset: ids lower than this.
    pub before_id: Option<InvitationId>,
    /// Rows.
    pub limit: u32,
}

/// When an email to an address was queued, and for which invitation ([`PrivacyRepo::list_emails_to_since`](crate::ports::PrivacyRepo::list_emails_to_since),
/// issue 13, T93).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmailStamp {
    /// The invitation the email belongs to, if any.
    pub invitation_id: Option<InvitationId>,
    /// When it was queued.
    pub created_at: OffsetDateTime,
}

/// An email in the outbox (D22): sent by the mailer with retries; listed by the admin API.
#[derive(Clone, Debug, PartialEq)]
pub struct EmailRecord {
    pub id: EmailId,
    /// Organization.
    pub org_id: OrgId,
    /// Invitation the email belongs to.
    pub invitation_id: Option<InvitationId>,
    /// Recipient.
    pub to: Email,
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// The link it carries.
    pub invitation_url: Option<String>,
    /// Set after a successful send.
    pub sent_at: Option<OffsetDateTime>,
    /// Attempts so far.
    pub attempts: u32,
    /// Last failure.
    pub last_error: Option<String>,
    /// Next attempt (unsent only).
    pub next_attempt_at: OffsetDateTime,
    /// Creation.
    pub created_at: OffsetDateTime,
}

/// Where a stored JSON text lives ([`PrivacyRepo::list_texts_mentioning`](crate::ports::PrivacyRepo::list_texts_mentioning)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextRef {
    /// An outbox event's `data`.
    Event(EventId),
    /// A delivery's payload (the signed body).
    Delivery(DeliveryId),
    /// A stored idempotent response body.
    Idempotency {
        /// Organization.
        org: OrgId,
        /// Request path.
        path: String,
        /// `Idempotency-Key`.
        key: String,
    },
}

/// A stored JSON text and where it lives (D44, D45 scrubbing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredText {
    /// Where.
    pub at: TextRef,
    /// The text.
    pub text: String,
}

/// One attempt to record ([`WebhookRepo::insert_attempts`](crate::ports::WebhookRepo::insert_attempts)).
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRecord {
    /// The delivery.
    pub delivery: DeliveryId,
    /// When the attempt started (service clock).
    pub at: OffsetDateTime,
    /// Its outcome.
    pub outcome: crate::webhook::AttemptOutcome,
}

/// What a delivery engine asks of [`WebhookRepo::claim_deliveries`](crate::ports::WebhookRepo::claim_deliveries) (T60).
#[derive(Clone, Debug)]
pub struct ClaimRequest {
    /// Now (service clock): deliveries due at or before it are claimable.
    pub now: OffsetDateTime,
    /// The claim's lease: another worker may claim the delivery again after it.
    pub lease_until: OffsetDateTime,
    /// Most deliveries to claim.
    pub limit: u32,
    /// Most attempts in flight per endpoint (this worker's, counting `busy_endpoints`).
    pub per_endpoint: u32,
    /// Most attempts in flight per organization (counting `busy_orgs`).
    pub per_org: u32,
    /// Attempts this worker has in flight per endpoint.
    pub busy_endpoints: Vec<(WebhookId, u32)>,
    /// Attempts this worker has in flight per organization.
    pub busy_orgs: Vec<(OrgId, u32)>,
}

/// Filter of `GET /persons` on labels (`other` = no label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelFilter {
    /// Has `candidate`.
    Candidate,
    /// Has `employee`.
    Employee,
    /// Has no label.
    Other,
}

/// A completed assessment without its responses and its stored need counts (`None`: completed
/// before counts were stored), as [`AssessmentRepo::list_completed_counts_of_result_holders`](crate::ports::AssessmentRepo::list_completed_counts_of_result_holders) returns them.
pub type CountedAssessment = (Assessment, Option<crate::assessment::NeedCounts>);

/// A page request of `GET /persons`: filters, keyset position and size (spec; D36).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PersonQuery {
    /// Organization.
    pub org_id: Option<OrgId>,
    /// `status` (default active; `any` for one-pass sync, issue 15).
    pub status: PersonStatusFilter,
    /// `q`, lower-cased: substring of first name, last name or email.
    pub q: Option<String>,
    /// `email` exact.
    pub email: Option<Email>,
    /// `externalId` exact.
    pub external_id: Option<String>,
    /// `assessmentStatus`.
    pub assessment_status: Option<AssessmentStatus>,
    /// `label`.
    pub label: Option<LabelFilter>,
    /// `tag`, lower-cased (case-insensitive exact).
    pub tag_key: Option<String>,
    /// `updatedAfter` (exclusive).
    pub updated_after: Option<OffsetDateTime>,
    /// Keyset: return persons with an id lower than this (newest first = id descending).
    pub before_id: Option<PersonId>,
    /// Rows to return (the use case asks for one more than the page size to learn `hasMore`).
    pub limit: u32,
}

/// State of an idempotency record (D38).
#[derive(Clone, Debug, PartialEq)]
pub enum IdempotencyState {
    /// The first request is still running (since `started_at`).
    InFlight,
    /// The stored response.
    Done {
        /// HTTP status.
        status: u16,
        /// Response body (JSON text).
        body: String,
        /// Whether `X-Existing-Resource: true` was sent.
        existing_resource: bool,
    },
}

/// An idempotency record, scoped by organization and path, kept 24 h (D38).
#[derive(Clone, Debug, PartialEq)]
pub struct IdempotencyRecord {
    /// Organization.
    pub org_id: OrgId,
    /// Request path.
    pub path: String,
    /// The client's key.
    pub key: String,
    /// Hex SHA-256 of the canonical JSON body.
    pub request_hash: String,
    /// In flight or done.
    pub state: IdempotencyState,
    /// When the first request began.
    pub created_at: OffsetDateTime,
}

/// A read of the events feed (D48): one organization's numbered events after a sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedQuery {
    /// The organization.
    pub org_id: OrgId,
    /// Only events with a sequence above this one (0: from the start of the window).
    pub after: u64,
    /// Only these types; empty: every type.
    pub types: Vec<EventType>,
    /// At most this many (the use case asks one more than the page to tell `hasMore`).
    pub limit: u32,
}
