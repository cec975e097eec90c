//! Entities: organization, user, API key, person (membership) and the outbox event.

use crate::assessment::{need_counts, AssessmentModel, NeedCounts};
use crate::ids::*;
use crate::values::*;
use time::OffsetDateTime;

/// An organization (tenant) with its subscription (spec, Organization).
#[derive(Clone, Debug, PartialEq)]
pub struct Organization {
    /// Id.
    pub id: OrgId,
    /// `companyName`.
    pub company_name: String,
    /// `email` (contact address).
    pub email: Email,
    /// Plan id of the catalogue (D5).
    pub plan: String,
    /// `subscription.status`.
    pub subscription_status: SubscriptionStatus,
    /// `subscription.trialEndsAt`.
    pub trial_ends_at: Option<OffsetDateTime>,
    /// `subscription.currentPeriodEnd`.
    pub current_period_end: Option<OffsetDateTime>,
    /// Employee email-domain rule (D15): lower-case domains.
    pub employee_domains: Vec<String>,
    /// `createdAt`.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
}

impl Organization {
    /// D15: true when the email's domain is one of the employee domains (exact, case-insensitive).
    pub fn is_employee_email(&self, email: &Email) -> bool {
        let d = email.domain();
        self.employee_domains.iter().any(|e| e == d)
    }

    /// The subscription status in force at `now` (issue 13, T90): a `trialing` organization whose
    /// `trialEndsAt` has passed is `trial_expired` (writes refused, D4), whatever was stored;
    /// every other status is as stored.
    pub fn status_at(&self, now: OffsetDateTime) -> SubscriptionStatus {
        match (self.subscription_status, self.trial_ends_at) {
            (SubscriptionStatus::Trialing, Some(end)) if end <= now => SubscriptionStatus::TrialExpired,
            (s, _) => s,
        }
    }

    /// This organization with [`Organization::status_at`] `now` as its status: what every answer
    /// and every D4 check sees (T90).
    pub fn as_of(mut self, now: OffsetDateTime) -> Organization {
        self.subscription_status = self.status_at(now);
        self
    }
}

/// Usage figures of an organization (spec, Organization.usage; D6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// Active persons.
    pub persons_used: u32,
    /// Plan's person limit.
    pub persons_limit: u32,
    /// D6: writes refused by D4, or `used >= limit`.
    pub import_blocked: bool,
    /// Competency profiles.
    pub profiles_used: u32,
    /// Plan's profile limit.
    pub profiles_limit: u32,
}

/// A dashboard user (D39).
#[derive(Clone, Debug, PartialEq)]
pub struct User {
    /// Id.
    pub id: UserId,
    /// Organization.
    pub org_id: OrgId,
    /// Login email.
    pub email: Email,
    /// Role.
    pub role: OrgRole,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

/// An API key record. The key value itself is never stored: only its public prefix (lookup) and
/// its SHA-256 hash (D41).
#[derive(Clone, Debug, PartialEq)]
pub struct ApiKey {
    /// Id.
    pub id: ApiKeyId,
    /// Owner.
    pub user_id: UserId,
    /// Organization of the owner.
    pub org_id: OrgId,
    /// Optional display name.
    pub name: Option<String>,
    /// Public lookup prefix: the 16 characters after `tk_`.
    pub prefix: String,
    /// SHA-256 of the whole key value.
    pub hash: Vec<u8>,
    /// Granted scopes.
    pub scopes: Scopes,
    /// Optional expiry.
    pub expires_at: Option<OffsetDateTime>,
    /// Set when revoked.
    pub revoked_at: Option<OffsetDateTime>,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

impl ApiKey {
    /// Active = not revoked and not expired at `now` (spec, Authentication 3: 10 active per user).
    pub fn is_active(&self, now: OffsetDateTime) -> bool {
        self.revoked_at.is_none() && self.expires_at.is_none_or(|e| e > now)
    }
}

/// Everything authentication needs, read in one indexed lookup by key prefix.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyContext {
    /// The key record.
    pub key: ApiKey,
    /// Role of the key's owner.
    pub role: OrgRole,
    /// The owner's organization.
    pub org: Organization,
}

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

/// Assessment status of a person (spec).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AssessmentStatus {
    /// `not_started`
    NotStarted,
    /// `in_progress`
    InProgress,
    /// `completed`
    Completed,
}

impl AssessmentStatus {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotStarted => "not_started",
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
        }
    }
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "not_started" => Ok(Self::NotStarted),
            "in_progress" => Ok(Self::InProgress),
            "completed" => Ok(Self::Completed),
            _ => Err("must be one of: not_started, in_progress, completed".into()),
        }
    }
}

/// The visible assessment summary of a person (D11: visible assessments only).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AssessmentSummary {
    /// `assessment.status`
    pub status: AssessmentStatus,
    /// `assessment.completedAt`: the latest visible completion.
    pub completed_at: Option<OffsetDateTime>,
    /// `assessment.count`: visible completed assessments.
    pub count: u32,
    /// The need counts of the visible completed assessments, summed (T85): what a match scores,
    /// so a page of matches reads one short row per person. `None` with no visible completed
    /// assessment, or for a row written before this was stored (matching then sums the
    /// assessments' own counts). Never part of an API response.
    pub totals: Option<NeedCounts>,
}

impl AssessmentSummary {
    /// A person who has not started.
    pub const NONE: AssessmentSummary =
        AssessmentSummary { status: AssessmentStatus::NotStarted, completed_at: None, count: 0, totals: None };
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
    /// The human behind it (made or found by the caller, `Tx::ensure_human`).
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

    /// What decides which assessments this membership sees (D42).
    pub fn visibility(&self) -> Visibility {
        Visibility {
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

/// D42: the active periods of a membership and its consent, which together decide which of the
/// human's assessments the organization sees. An assessment taken at `at` (completed, or started
/// while in progress) is visible when `at` is not after `archivedAt` (an archived person's results
/// stay as they were), and either the person shares their existing profile or `at` falls in an
/// active period: at or after `memberSince` and not strictly inside a past archived period.
#[derive(Clone, Debug, PartialEq)]
pub struct Visibility {
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
    /// Whether an assessment taken at `at` is visible (D42).
    pub fn sees(&self, at: OffsetDateTime) -> bool {
        if self.archived_at.is_some_and(|end| at > end) {
            return false;
        }
        self.shared_existing_profile
            || (at >= self.member_since && !self.inactive_periods.iter().any(|g| at > g.from && at < g.until))
    }
}

/// A team (dashboard object, D16).
#[derive(Clone, Debug, PartialEq)]
pub struct Team {
    /// Id.
    pub id: TeamId,
    /// Organization.
    pub org_id: OrgId,
    /// Name.
    pub name: String,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

/// Event types (spec, Events).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EventType {
    /// `assessment.completed`
    AssessmentCompleted,
    /// `person.created`
    PersonCreated,
    /// `person.joined`
    PersonJoined,
    /// `person.archived`
    PersonArchived,
    /// `invitation.accepted`
    InvitationAccepted,
    /// `invitation.revoked`
    InvitationRevoked,
    /// `invitation.expired`
    InvitationExpired,
    /// `ping`
    Ping,
}

impl EventType {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AssessmentCompleted => "assessment.completed",
            Self::PersonCreated => "person.created",
            Self::PersonJoined => "person.joined",
            Self::PersonArchived => "person.archived",
            Self::InvitationAccepted => "invitation.accepted",
            Self::InvitationRevoked => "invitation.revoked",
            Self::InvitationExpired => "invitation.expired",
            Self::Ping => "ping",
        }
    }
}

/// An event in the outbox, written in the same transaction as the change that emits it (D31).
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxEvent {
    /// Event id.
    pub id: EventId,
    /// Organization whose endpoints receive it.
    pub org_id: OrgId,
    /// Type.
    pub event_type: EventType,
    /// The envelope's `data` (D34: `person.*` carry the Person object).
    pub data: serde_json::Value,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

/// Lifecycle state of one assessment (`in_progress` -> `completed`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AssessmentState {
    /// Started, not completed.
    InProgress,
    /// Completed.
    Completed,
}

impl AssessmentState {
    /// Stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
        }
    }
    /// Parses the stored value.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "in_progress" => Some(Self::InProgress),
            "completed" => Some(Self::Completed),
            _ => None,
        }
    }
}

/// One assessment of a human (D10, D23).
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    /// Id (`assessmentId` of `assessment.completed`).
    pub id: AssessmentId,
    /// The human who takes it.
    pub human_id: HumanId,
    /// State.
    pub state: AssessmentState,
    /// When it was started.
    pub started_at: OffsetDateTime,
    /// When it was completed.
    pub completed_at: Option<OffsetDateTime>,
    /// Forced-choice responses (empty while in progress).
    pub responses: Vec<crate::assessment::Response>,
}

impl Assessment {
    /// When it counts as taken (D42): its completion, or its start while in progress.
    pub fn taken_at(&self) -> OffsetDateTime {
        self.completed_at.unwrap_or(self.started_at)
    }

    /// D42: whether the organization in which `p` is (or was) a member may see this assessment.
    pub fn visible_to(&self, p: &Person) -> bool {
        self.visible_in(&p.visibility())
    }

    /// [`Assessment::visible_to`] for a membership given by its [`Visibility`] (D42).
    pub fn visible_in(&self, v: &Visibility) -> bool {
        v.sees(self.taken_at())
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

/// D11, D42: a person's visible assessment summary: `completed` once a visible assessment is completed,
/// else `in_progress` while a visible one is running, else `not_started`; with the summed need
/// counts of the visible completed assessments under `model` (T85). `assessments` carry their
/// responses (as [`crate::ports::Tx::assessments_of_human`] reads them).
pub fn summarize(assessments: &[Assessment], p: &Person, model: &AssessmentModel) -> AssessmentSummary {
    let v = p.visibility();
    let visible: Vec<&Assessment> = assessments.iter().filter(|a| a.visible_in(&v)).collect();
    let completed: Vec<&&Assessment> = visible.iter().filter(|a| a.state == AssessmentState::Completed).collect();
    let count = completed.len() as u32;
    let completed_at = completed.iter().filter_map(|a| a.completed_at).max();
    let status = if count > 0 {
        AssessmentStatus::Completed
    } else if visible.iter().any(|a| a.state == AssessmentState::InProgress) {
        AssessmentStatus::InProgress
    } else {
        AssessmentStatus::NotStarted
    };
    let totals =
        (count > 0).then(|| NeedCounts::sum(model, completed.iter().map(|a| need_counts(model, &a.responses))));
    AssessmentSummary { status, completed_at, count, totals }
}

/// A competency of a profile with its weight (D25).
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileCompetency {
    /// Competency of the model.
    pub competency_id: uuid::Uuid,
    /// Weight in [0, 1].
    pub weight: f64,
}

/// A competency profile (D25): what a role asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Id.
    pub id: ProfileId,
    /// Organization.
    pub org_id: OrgId,
    /// Name (1..200).
    pub name: String,
    /// Description (up to 2,000 characters).
    pub description: Option<String>,
    /// Weighted competencies (at least one, unique, at least one weight > 0).
    pub competencies: Vec<ProfileCompetency>,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
}
