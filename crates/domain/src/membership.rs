//! Persons: a human's membership in one organization (D9, D10), its status, archive reason, how it joined, which assessments it sees (D42), and teams (D16). The transitions are in [`crate::person`].

use crate::assessment::NeedCounts;
use crate::ids::*;
use crate::model::*;
use crate::values::*;
use time::OffsetDateTime;

/// Person status (spec, States: Person status).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PersonStatus {
    /// `active`
    Active,
    /// `archived`
    Archived,
}

impl PersonStatus {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Archived => "archived",
        }
    }
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "active" => Ok(Self::Active),
            "archived" => Ok(Self::Archived),
            _ => Err("must be one of: active, archived".into()),
        }
    }
}

/// Why an archived person is archived; decides what a later import does (spec, person state table).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArchiveReason {
    /// Archived by the organization (`DELETE /persons/{id}`): an import reactivates.
    Archived,
    /// The person withdrew their own participation: an import gives 409 `person_self_revoked`.
    SelfRevoked,
    /// An administrator deactivated the person: an import gives 409 `person_deactivated`.
    Deactivated,
    /// The organization erased the membership (D44): a tombstone without personal data that
    /// nothing reactivates (its address is in the reserved `.invalid` domain).
    Erased,
}

impl ArchiveReason {
    /// Stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Archived => "archived",
            Self::SelfRevoked => "self_revoked",
            Self::Deactivated => "deactivated",
            Self::Erased => "erased",
        }
    }
    /// Parses the stored value.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "archived" => Some(Self::Archived),
            "self_revoked" => Some(Self::SelfRevoked),
            "deactivated" => Some(Self::Deactivated),
            "erased" => Some(Self::Erased),
            _ => None,
        }
    }
}

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

/// A person: a human's membership in one organization (D10). `id` is the membership id.
#[derive(Clone, Debug, PartialEq)]
pub struct Person {
    /// Membership id (the API `id`).
    pub id: PersonId,
    /// Organization.
    pub org_id: OrgId,
    /// The human behind the membership.
    pub human_id: HumanId,
    /// Identity within the organization (D9).
    pub email: Email,
    /// `firstName`
    pub first_name: Option<PersonName>,
    /// `lastName`
    pub last_name: Option<PersonName>,
    /// `externalId`
    pub external_id: Option<ExternalId>,
    /// `status`
    pub status: PersonStatus,
    /// Set while archived.
    pub archive_reason: Option<ArchiveReason>,
    /// `labels`
    pub labels: Labels,
    /// `tags`, canonical spellings, sorted case-insensitively (D14).
    pub tags: Vec<Tag>,
    /// `joinedVia`
    pub joined_via: JoinedVia,
    /// `sharedExistingProfile`
    pub shared_existing_profile: bool,
    /// `assessment`
    pub assessment: AssessmentSummary,
    /// `memberSince`
    pub member_since: OffsetDateTime,
    /// `updatedAt`
    pub updated_at: OffsetDateTime,
    /// `archivedAt`
    pub archived_at: Option<OffsetDateTime>,
    /// Past archived periods that a reactivation ended (D42), oldest first; not on the wire.
    pub inactive_periods: Vec<Period>,
}

/// Who a new member is: the membership's ids and the address it is known by (D9, D10).
#[derive(Clone, Debug)]
pub struct NewMember {
    /// Membership id.
    pub id: PersonId,
    /// Organization.
    pub org_id: OrgId,
    /// The human behind it (made or found by the caller, `PersonRepo::ensure_human`).
    pub human_id: HumanId,
    /// The address.
    pub email: Email,
}

impl Person {
    /// A new active member (spec, Person; D12, D15): the given fields, tags sorted
    /// case-insensitively (D14), no assessment yet, no consent to share an earlier profile,
    /// `memberSince` and `updatedAt` at `now`. The one constructor of a membership, for the import
    /// and for an invitation's acceptance.
    pub fn new_member(
        who: NewMember,
        fields: crate::person::ImportFields,
        labels: Labels,
        joined_via: JoinedVia,
        now: OffsetDateTime,
    ) -> Person {
        let mut tags = fields.tags;
        sort_tags(&mut tags);
        Person {
            id: who.id,
            org_id: who.org_id,
            human_id: who.human_id,
            email: who.email,
            first_name: fields.first_name,
            last_name: fields.last_name,
            external_id: fields.external_id,
            status: PersonStatus::Active,
            archive_reason: None,
            labels,
            tags,
            joined_via,
            shared_existing_profile: false,
            assessment: AssessmentSummary::NONE,
            member_since: now,
            updated_at: now,
            archived_at: None,
            inactive_periods: vec![],
        }
    }

    /// What decides which assessments this membership sees (D42, D51).
    pub fn visibility(&self) -> Visibility {
        Visibility {
            org_id: self.org_id,
            established_by_person: self.joined_via.established_by_person(),
            member_since: self.member_since,
            archived_at: self.archived_at,
            inactive_periods: self.inactive_periods.clone(),
            shared_existing_profile: self.shared_existing_profile,
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

/// A team (dashboard object, D16).
#[derive(Clone, Debug, PartialEq)]
pub struct Team {
    pub id: TeamId,
    /// Organization.
    pub org_id: OrgId,
    pub name: String,
    /// Creation time.
    pub created_at: OffsetDateTime,
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
    /// The person's stored [`AssessmentSummary::totals`] (T85).
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
