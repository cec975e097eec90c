//! The person state machine (spec, States: Person status; D12, D13, D15, D16). Pure functions of
//! (state, command) that return the new state or the client error; the use cases in
//! [`crate::usecases::persons`] load, call these and persist in one transaction.

use super::{ArchiveReason, Period, Person, PersonStatus};
use crate::errors::{ClientError, Code};
use crate::ids::PersonId;
use crate::organization::Organization;
use crate::results::AssessmentSummary;
use crate::values::{sort_tags, Email, ExternalId, Labels, PersonName, Tag};
use time::OffsetDateTime;

/// What `POST /persons` does to the person found by email (spec state table, rows 1-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportTransition {
    /// No person with this email: create (201, `person.created`), if a seat is free.
    Create,
    /// Active member: merge (200, `X-Existing-Resource: true`, no event; D12).
    MergeExisting,
    /// Archived by the organization: reactivate (201, `person.created`; D12), if a seat is free.
    Reactivate,
}

/// Decides the import transition. Errors: 409 `person_self_revoked` or `person_deactivated` for an
/// archived person who withdrew or was deactivated.
pub fn import_transition(existing: Option<&Person>) -> Result<ImportTransition, ClientError> {
    match existing {
        None => Ok(ImportTransition::Create),
        Some(p) if p.status == PersonStatus::Active => Ok(ImportTransition::MergeExisting),
        Some(p) => match p.archive_reason.unwrap_or(ArchiveReason::Archived) {
            ArchiveReason::Archived => Ok(ImportTransition::Reactivate),
            ArchiveReason::SelfRevoked => Err(ClientError::new(
                Code::PersonSelfRevoked,
                "The person withdrew their own participation; rejoining requires a new invitation accepted by the person",
            )),
            ArchiveReason::Erased => Err(erased_error(p.id)),
            ArchiveReason::Deactivated => Err(ClientError::new(
                Code::PersonDeactivated,
                "The person was deactivated by an administrator",
            )),
        },
    }
}

impl ImportTransition {
    /// Whether the transition takes a seat of the plan (D6): every one but a merge.
    pub fn needs_seat(self) -> bool {
        self != ImportTransition::MergeExisting
    }
}

/// What accepting an invitation does to the person of its email in the organization (spec,
/// States: Person status; D16, D19, D43, D44).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcceptTransition {
    /// No person with this email: a new member (`person.joined`), if a seat is free.
    Create,
    /// Active member: the invitation's fields merge in (no `person.joined`).
    MergeExisting,
    /// Archived by the organization, or withdrawn by the person: the acceptance, which the
    /// person gives, rejoins (reopened, `person.joined`), if a seat is free.
    Rejoin,
}

impl AcceptTransition {
    /// Whether the transition takes a seat of the plan (D6): every one but a merge.
    pub fn needs_seat(self) -> bool {
        self != AcceptTransition::MergeExisting
    }
}

/// Decides the acceptance transition. Errors: 409 `conflict` for an erased membership (D44);
/// 409 `person_deactivated` for a person an administrator deactivated.
pub fn accept_transition(existing: Option<&Person>) -> Result<AcceptTransition, ClientError> {
    match existing {
        None => Ok(AcceptTransition::Create),
        Some(p) if p.archive_reason == Some(ArchiveReason::Erased) => Err(erased_error(p.id)),
        Some(p) if p.status == PersonStatus::Active => Ok(AcceptTransition::MergeExisting),
        Some(p) if p.archive_reason == Some(ArchiveReason::Deactivated) => {
            Err(ClientError::new(Code::PersonDeactivated, "The person was deactivated by an administrator"))
        }
        Some(_) => Ok(AcceptTransition::Rejoin),
    }
}

/// 409 `conflict` for an address that belongs to an erased membership (D44, T80): nothing can
/// import, invite or reactivate a tombstone.
pub fn erased_error(id: PersonId) -> ClientError {
    ClientError::new(Code::Conflict, "This address belongs to an erased person")
        .with_details(serde_json::json!({"personId": id.to_string(), "reason": "erased"}))
}

/// The fields of an import that merge into an existing person.
#[derive(Clone, Debug, Default)]
pub struct ImportFields {
    /// `firstName`
    pub first_name: Option<PersonName>,
    /// `lastName`
    pub last_name: Option<PersonName>,
    /// `externalId`
    pub external_id: Option<ExternalId>,
    /// Resolved tags to add.
    pub tags: Vec<Tag>,
}

/// D12 merge: names and `externalId` are set only where the person has none; tags are added;
/// labels are unchanged. Returns true when anything changed.
pub fn merge_import(p: &mut Person, f: &ImportFields) -> bool {
    let mut changed = false;
    if p.first_name.is_none() && f.first_name.is_some() {
        p.first_name = f.first_name.clone();
        changed = true;
    }
    if p.last_name.is_none() && f.last_name.is_some() {
        p.last_name = f.last_name.clone();
        changed = true;
    }
    if p.external_id.is_none() && f.external_id.is_some() {
        p.external_id = f.external_id.clone();
        changed = true;
    }
    let before = p.tags.len();
    for t in &f.tags {
        if !p.tags.iter().any(|x| x.id == t.id) {
            p.tags.push(t.clone());
        }
    }
    if p.tags.len() != before {
        sort_tags(&mut p.tags);
        changed = true;
    }
    changed
}

/// D12 reactivation: active again, `archivedAt` null, `memberSince` kept, merge as for an active
/// member. The archived period it ends is recorded (D42).
pub fn reactivate(p: &mut Person, f: &ImportFields, now: OffsetDateTime) {
    merge_import(p, f);
    reopen(p, now);
}

/// Makes an archived membership active again at `now` (import reactivation, D12; acceptance of an
/// invitation, D20): the archived period `archivedAt..now` joins the past inactive periods, so the
/// organization never sees what the person took while archived (D42). No-op when active.
pub fn reopen(p: &mut Person, now: OffsetDateTime) {
    if p.status == PersonStatus::Active {
        return;
    }
    if let Some(from) = p.archived_at {
        p.inactive_periods.push(Period { from, until: now });
    }
    p.status = PersonStatus::Active;
    p.archive_reason = None;
    p.archived_at = None;
    p.updated_at = now;
}

/// Labels of a new person: as given, or `["candidate"]` when omitted; the employee email-domain
/// rule adds `employee` (D15).
pub fn initial_labels(given: Option<Labels>, org: &Organization, email: &Email) -> Labels {
    let mut l = given.unwrap_or(Labels::DEFAULT);
    if org.is_employee_email(email) {
        l.employee = true;
    }
    l
}

/// Archives an active person (`DELETE /persons/{id}`, deactivation, withdrawal). Errors: 404
/// `not_found` when the person is not active and the reason is `Archived` (spec: "no active person
/// with this id"). Deactivation or withdrawal of an archived person records the stronger reason
/// and returns `false` (no second `person.archived`). Returns true when the person was active.
/// The person's own withdrawal also withdraws consent: `sharedExistingProfile` becomes false
/// (D42); the caller recomputes the visible summary.
pub fn archive(p: &mut Person, reason: ArchiveReason, now: OffsetDateTime) -> Result<bool, ClientError> {
    if reason == ArchiveReason::SelfRevoked && p.shared_existing_profile {
        p.shared_existing_profile = false;
        p.updated_at = now;
    }
    match (p.status, reason) {
        (PersonStatus::Active, _) => {
            p.status = PersonStatus::Archived;
            p.archive_reason = Some(reason);
            p.archived_at = Some(now);
            p.updated_at = now;
            Ok(true)
        }
        (PersonStatus::Archived, ArchiveReason::Archived) => {
            Err(ClientError::new(Code::NotFound, "No active person with this id"))
        }
        (PersonStatus::Archived, r) => {
            // Deactivation is the strongest reason: a later withdrawal does not weaken it.
            let keep = matches!(p.archive_reason, Some(ArchiveReason::Deactivated | ArchiveReason::Erased));
            if !keep && p.archive_reason != Some(r) {
                p.archive_reason = Some(r);
                p.updated_at = now;
            }
            Ok(false)
        }
    }
}

/// D44: erases the organization's personal data of a membership: names, `externalId`, tags and
/// labels removed, the email replaced by `erased-{id}@invalid`, consent and the summary cleared,
/// archived (an archived person keeps `archivedAt`). The caller also moves the membership to a
/// human of its own, so no assessment of the real human is ever visible again. Returns false
/// when the membership was already erased (nothing changes: erasure is idempotent).
pub fn erase(p: &mut Person, now: OffsetDateTime) -> bool {
    if p.archive_reason == Some(ArchiveReason::Erased) {
        return false;
    }
    p.email = Email::erased(p.id);
    p.first_name = None;
    p.last_name = None;
    p.external_id = None;
    p.tags.clear();
    p.labels = Labels { candidate: false, employee: false };
    p.shared_existing_profile = false;
    p.assessment = AssessmentSummary::NONE;
    p.inactive_periods.clear();
    p.status = PersonStatus::Archived;
    p.archive_reason = Some(ArchiveReason::Erased);
    p.archived_at = p.archived_at.or(Some(now));
    p.updated_at = now;
    true
}

/// A parsed `PATCH /persons/{id}` body (spec; D13, D16). `None` = field absent.
#[derive(Clone, Debug, Default)]
pub struct PersonPatch {
    /// `externalId`: `Some(None)` clears it.
    pub external_id: Option<Option<ExternalId>>,
    /// `firstName`: only while empty (D13).
    pub first_name: Option<PersonName>,
    /// `lastName`: only while empty (D13).
    pub last_name: Option<PersonName>,
    /// `labels`: replaces the set.
    pub labels: Option<Labels>,
    /// `tags`: resolved, replaces the set.
    pub tags: Option<Vec<Tag>>,
}

/// What applying a patch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchEffect {
    /// Anything changed (then `updatedAt` moves).
    pub changed: bool,
    /// `employee` was removed: the person leaves every team (D16).
    pub employee_removed: bool,
}

/// Applies a patch. Errors: 409 `conflict` when a name is sent while the person already has one
/// (D13), whatever the value, and for an erased person, whatever the patch (D44, T80: nothing
/// writes personal data onto a tombstone; details `{personId, reason: "erased"}`); nothing is
/// applied then.
pub fn apply_patch(p: &mut Person, patch: PersonPatch, now: OffsetDateTime) -> Result<PatchEffect, ClientError> {
    if p.archive_reason == Some(ArchiveReason::Erased) {
        return Err(ClientError::new(Code::Conflict, "This person was erased; nothing can be written onto it")
            .with_details(serde_json::json!({"personId": p.id.to_string(), "reason": "erased"})));
    }
    if patch.first_name.is_some() && p.first_name.is_some() {
        return Err(ClientError::new(Code::Conflict, "firstName is already set and cannot be overwritten")
            .with_details(serde_json::json!({"field": "firstName"})));
    }
    if patch.last_name.is_some() && p.last_name.is_some() {
        return Err(ClientError::new(Code::Conflict, "lastName is already set and cannot be overwritten")
            .with_details(serde_json::json!({"field": "lastName"})));
    }
    let mut eff = PatchEffect::default();
    if let Some(x) = patch.external_id {
        if p.external_id != x {
            p.external_id = x;
            eff.changed = true;
        }
    }
    if let Some(n) = patch.first_name {
        p.first_name = Some(n);
        eff.changed = true;
    }
    if let Some(n) = patch.last_name {
        p.last_name = Some(n);
        eff.changed = true;
    }
    if let Some(l) = patch.labels {
        if p.labels.employee && !l.employee {
            eff.employee_removed = true;
        }
        if p.labels != l {
            p.labels = l;
            eff.changed = true;
        }
    }
    if let Some(mut t) = patch.tags {
        sort_tags(&mut t);
        if p.tags != t {
            p.tags = t;
            eff.changed = true;
        }
    }
    if eff.changed {
        p.updated_at = now;
    }
    Ok(eff)
}
