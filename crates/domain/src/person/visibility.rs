//! Which assessments a membership sees (D42, D51): how it began (`joinedVia`), its past archived
//! periods, consent to share an existing profile, and the light read that matching makes of it.

use crate::assessment::NeedCounts;
use crate::ids::{HumanId, OrgId, PersonId};
use crate::person::Person;
use time::OffsetDateTime;

/// How a person entered the pool (`joinedVia`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum JoinedVia {
    /// `api`: imported with `POST /persons`.
    Api,
    /// `invitation_link`
    InvitationLink,
    /// `invitation_personal` (D20)
    InvitationPersonal,
}

impl JoinedVia {
    /// Whether the person established the membership herself, by answering an invitation (D51
    /// rule (b)); an import (`api`) is the organization's act alone.
    pub fn established_by_person(self) -> bool {
        self != Self::Api
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Api => "api",
            Self::InvitationLink => "invitation_link",
            Self::InvitationPersonal => "invitation_personal",
        }
    }
    /// Parses the stored value.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "api" => Some(Self::Api),
            "invitation_link" => Some(Self::InvitationLink),
            "invitation_personal" => Some(Self::InvitationPersonal),
            _ => None,
        }
    }
}

/// A closed interval of time in which a membership was archived: from `archivedAt` until the
/// reactivation that ended it (D42). Both ends are instants at which the membership was active.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// When the membership was archived.
    pub from: OffsetDateTime,
    /// When it was reactivated.
    pub until: OffsetDateTime,
}

/// D51 (refining D42): what decides which of the human's assessments an organization sees. An
/// assessment taken at `at` (completed, or started while in progress) is visible when `at` is not
/// after `archivedAt` (an archived person's results stay as they were), and
/// - (a) it was started for this organization (its invitation, or the admin API for this
///   membership: [`crate::results::Assessment::origin_org`]), or
/// - (b) the person established the membership herself (`joinedVia` an invitation) and `at` falls
///   in an active period: at or after `memberSince` and not strictly inside a past archived
///   period, or
/// - (c) the person shares their existing profile (`sharedExistingProfile`).
///
/// A membership created by import alone (`joinedVia: api`) sees (a) and (c) only: importing an
/// address never yields results of assessments taken for another organization.
#[derive(Clone, Debug, PartialEq)]
pub struct Visibility {
    /// The membership's organization: what rule (a) compares an assessment's origin with.
    pub org_id: OrgId,
    /// Whether the person established the membership herself (`joinedVia` is an invitation):
    /// rule (b) applies.
    pub established_by_person: bool,
    /// `memberSince`: the first active period's start.
    pub member_since: OffsetDateTime,
    /// `archivedAt` while archived: nothing after it is visible.
    pub archived_at: Option<OffsetDateTime>,
    /// Past archived periods (oldest first).
    pub inactive_periods: Vec<Period>,
    /// `sharedExistingProfile`: assessments from outside the active periods are visible too.
    pub shared_existing_profile: bool,
}

impl Visibility {
    /// Whether an assessment taken at `at`, started for organization `origin` (`None`: unknown,
    /// an assessment recorded before origins were kept and not attributable), is visible (D51).
    pub fn sees(&self, at: OffsetDateTime, origin: Option<OrgId>) -> bool {
        if self.archived_at.is_some_and(|end| at > end) {
            return false;
        }
        self.shared_existing_profile
            || origin == Some(self.org_id)
            || (self.established_by_person && self.in_active_period(at))
    }

    /// Whether `at` falls in an active period: at or after `memberSince` and not strictly inside
    /// a past archived period (D42).
    fn in_active_period(&self, at: OffsetDateTime) -> bool {
        at >= self.member_since && !self.inactive_periods.iter().any(|g| at > g.from && at < g.until)
    }
}

/// What matching needs of a membership with results (D11, D26): a light read of a person, so a
/// page of matches over thousands of persons does not load and parse every person in full.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultHolder {
    /// The person (membership) id.
    pub person_id: PersonId,
    /// The human behind it.
    pub human_id: HumanId,
    /// Which of the human's assessments the organization sees (D42).
    pub visibility: Visibility,
    /// The person's stored [`AssessmentSummary::totals`](crate::results::AssessmentSummary::totals) (T85).
    pub totals: Option<NeedCounts>,
}

impl From<&Person> for ResultHolder {
    fn from(p: &Person) -> Self {
        ResultHolder {
            person_id: p.id,
            human_id: p.human_id,
            visibility: p.visibility(),
            totals: p.assessment.totals.clone(),
        }
    }
}
