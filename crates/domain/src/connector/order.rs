//! [`Order`]: a test an ATS ordered for a candidate (D67), and its state machine.

use crate::ids::*;
use crate::results::Profile;
use crate::values::{Email, PersonName};
use time::OffsetDateTime;

/// The test id of the assessment without a profile (D65).
pub const TALENT_ASSESSMENT: &str = "talent-assessment";

/// What an order asks for (D65): the assessment matched against one of the organization's
/// competency profiles, or the assessment alone.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TestRef {
    /// A competency profile: the score is its match percentage (D66).
    Profile(ProfileId),
    /// `talent-assessment`: completion and the link, no score.
    TalentAssessment,
}

impl TestRef {
    /// The test id the ATS sees: the profile id, or `talent-assessment`.
    pub fn id(self) -> String {
        match self {
            TestRef::Profile(p) => p.to_string(),
            TestRef::TalentAssessment => TALENT_ASSESSMENT.to_string(),
        }
    }

    /// Parses a test id as the ATS sends it back; `None` for anything else (an unknown test, for
    /// the caller to report in its protocol's shape). A profile id still has to exist.
    pub fn parse(s: &str) -> Option<TestRef> {
        if s == TALENT_ASSESSMENT {
            return Some(TestRef::TalentAssessment);
        }
        s.parse::<ProfileId>().ok().map(TestRef::Profile)
    }
}

/// A test an ATS can order (D65): `id` = the profile id (or `talent-assessment`), `name` and
/// `description` the profile's.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    /// Which test.
    pub test: TestRef,
    /// Its name.
    pub name: String,
    /// Its description, if any.
    pub description: Option<String>,
}

impl Test {
    /// The organization's tests: `talent-assessment` first, then its profiles in the order given.
    pub fn catalogue(profiles: &[Profile]) -> Vec<Test> {
        let mut v = vec![Test {
            test: TestRef::TalentAssessment,
            name: "Talent assessment".into(),
            description: Some("The Talent assessment, without a competency profile: completion and the report.".into()),
        }];
        v.extend(profiles.iter().map(|p| Test {
            test: TestRef::Profile(p.id),
            name: p.name.clone(),
            description: p.description.clone(),
        }));
        v
    }
}

/// An order's status (D67): `sent` → `started` → `completed`, or `expired` / `cancelled`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OrderStatus {
    /// The invitation was sent; the person has not accepted it yet.
    Sent,
    /// The person accepted the invitation.
    Started,
    /// The person completed an assessment the organization owns (or, on an access request,
    /// shared the results the organization could not see).
    Completed,
    /// The invitation expired unanswered.
    Expired,
    /// The ATS cancelled the order, or the invitation was revoked.
    Cancelled,
}

impl OrderStatus {
    /// The wire value.
    pub const fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Sent => "sent",
            OrderStatus::Started => "started",
            OrderStatus::Completed => "completed",
            OrderStatus::Expired => "expired",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<OrderStatus, String> {
        [OrderStatus::Sent, OrderStatus::Started, OrderStatus::Completed, OrderStatus::Expired, OrderStatus::Cancelled]
            .into_iter()
            .find(|o| o.as_str() == s)
            .ok_or_else(|| "must be one of: sent, started, completed, expired, cancelled".to_string())
    }

    /// `sent` or `started`: the ATS's retry of the same order gets this one back (D67).
    pub const fn is_open(self) -> bool {
        matches!(self, OrderStatus::Sent | OrderStatus::Started)
    }
}

/// The ATS-side identities and links an order carries (D67), as the ATS sent them: kept to answer
/// it in its own terms and to show on the order. Each up to 2,000 characters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrderRefs {
    /// The ATS's candidate id (Ashby `candidate.ashby_id`).
    pub candidate: Option<String>,
    /// The ATS's application id (Ashby `application.ashby_id`).
    pub application: Option<String>,
    /// The ATS's job id or shortcode.
    pub job: Option<String>,
    /// The job's title, for people reading the order.
    pub job_name: Option<String>,
    /// The candidate's page in the ATS (Greenhouse `greenhouse_profile_url`, Ashby
    /// `ashby_profile_url`).
    pub profile_url: Option<String>,
    /// The ATS's own order id (Kombo).
    pub ats_order: Option<String>,
}

/// The candidate of an order, parsed.
#[derive(Clone, Debug)]
pub struct OrderCandidate {
    /// `email`.
    pub email: Email,
    /// `first_name`.
    pub first_name: Option<PersonName>,
    /// `last_name`.
    pub last_name: Option<PersonName>,
}

/// An order as an adapter hands it to [`crate::Services::place_order`], parsed.
#[derive(Clone, Debug)]
pub struct NewOrder {
    /// The ordered test.
    pub test: TestRef,
    /// The candidate.
    pub candidate: OrderCandidate,
    /// What identifies a retry of this order at the ATS (D67: Greenhouse the profile URL, Ashby
    /// the application, Workable the callback URL, Kombo its order id): with the connection and
    /// the test, an open order with the same key is the same order.
    pub ats_key: String,
    /// The ATS-side ids and links.
    pub refs: OrderRefs,
    /// The ATS's callback for this order (Greenhouse `url`, Workable `callback_url`), checked like
    /// a webhook URL (D54, D69).
    pub callback_url: Option<String>,
}

/// An order (D67).
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// Its id: the one the ATS is given.
    pub id: OrderId,
    /// The organization.
    pub org_id: OrgId,
    /// The connection it came through.
    pub connection_id: ConnectionId,
    /// The ordered test.
    pub test: TestRef,
    /// The person imported for it.
    pub person_id: PersonId,
    /// The invitation sent for it.
    pub invitation_id: InvitationId,
    /// See [`NewOrder::ats_key`].
    pub ats_key: String,
    /// The ATS-side ids and links.
    pub refs: OrderRefs,
    /// See [`NewOrder::callback_url`].
    pub callback_url: Option<String>,
    /// The status.
    pub status: OrderStatus,
    /// The assessment that completed it.
    pub assessment_id: Option<AssessmentId>,
    /// When it was placed.
    pub created_at: OffsetDateTime,
    /// Last change of status.
    pub updated_at: OffsetDateTime,
    /// When the person accepted the invitation.
    pub started_at: Option<OffsetDateTime>,
    /// When it completed.
    pub completed_at: Option<OffsetDateTime>,
    /// SHA-256 of its report link's token (D68).
    pub report_token_hash: Vec<u8>,
}

/// How long a report link works after the order completed (D68).
pub const REPORT_LINK_VALIDITY: time::Duration = time::Duration::days(180);

/// An opening of a report link (D68): when, from where, with what, and whether the page or the PDF.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportOpening {
    /// Its id.
    pub id: uuid::Uuid,
    /// The order whose link was opened.
    pub order_id: OrderId,
    /// When.
    pub opened_at: OffsetDateTime,
    /// The client address, as the API reads it.
    pub client_ip: String,
    /// The `User-Agent`, up to 300 characters.
    pub user_agent: Option<String>,
    /// True for the PDF download, false for the page.
    pub pdf: bool,
}

/// What moves an order (D67): the invitation and assessment events that already exist, and the
/// ATS's cancellation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OrderChange {
    /// The invitation was accepted.
    Accepted,
    /// The person completed an assessment the organization owns (D51 a), or shared on an access
    /// request what the organization could not see.
    Completed(Option<AssessmentId>),
    /// The invitation expired.
    Expired,
    /// The invitation was revoked, or the ATS cancelled.
    Cancelled,
}

impl Order {
    /// Until when its report link works: 180 days after completion (D68); `None` before.
    pub fn report_link_until(&self) -> Option<OffsetDateTime> {
        self.completed_at.filter(|_| self.status == OrderStatus::Completed).map(|t| t + REPORT_LINK_VALIDITY)
    }

    /// Applies `change` at `now`; true when the order changed. Transitions: `sent` + accepted →
    /// `started`; `sent`/`started` + completed → `completed` (a completion without an accepted
    /// invitation, e.g. an administrator's, still completes); `sent` + expired → `expired`;
    /// `sent`/`started` + cancelled → `cancelled`. Everything else (a finished order, an expiry
    /// after acceptance, a second acceptance) changes nothing.
    pub fn apply(&mut self, change: OrderChange, now: OffsetDateTime) -> bool {
        use OrderStatus::*;
        let next = match (self.status, change) {
            (Sent, OrderChange::Accepted) => Started,
            (Sent | Started, OrderChange::Completed(a)) => {
                self.assessment_id = a;
                self.completed_at = Some(now);
                Completed
            }
            (Sent, OrderChange::Expired) => Expired,
            (Sent | Started, OrderChange::Cancelled) => Cancelled,
            _ => return false,
        };
        if next == Started {
            self.started_at = Some(now);
        }
        self.status = next;
        self.updated_at = now;
        true
    }
}
