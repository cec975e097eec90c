//! Persons: a human's membership in one organization (D9, D10): the entity and its status and
//! archive reason here, the transitions of the person state machine in `transitions.rs`, which
//! assessments a membership sees and how it began in `visibility.rs`, teams in `team.rs` (D16).
//! Everything is re-exported here: `crate::person::X` names any of them.

mod team;
mod transitions;
mod visibility;

pub use team::*;
pub use transitions::*;
pub use visibility::*;

use crate::ids::{HumanId, OrgId, PersonId};
use crate::results::AssessmentSummary;
use crate::values::{sort_tags, Email, ExternalId, Labels, PersonName, Tag};
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
        fields: ImportFields,
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

#[cfg(test)]
mod tests;
