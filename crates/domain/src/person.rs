//! The person state machine (spec, States: Person status; D12, D13, D15, D16). Pure functions of
//! (state, command) that return the new state or the client error; the use cases in
//! [`crate::usecases::persons`] load, call these and persist in one transaction.

use crate::errors::{ClientError, Code};
use crate::ids::PersonId;
use crate::model::*;
use crate::values::*;
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::ids::*;
    use uuid::Uuid;

    fn t0() -> OffsetDateTime {
        crate::timefmt::parse("2026-01-01T00:00:00Z").unwrap()
    }

    fn person(status: PersonStatus, reason: Option<ArchiveReason>) -> Person {
        Person {
            id: PersonId(Uuid::from_u128(1)),
            org_id: OrgId(Uuid::from_u128(2)),
            human_id: HumanId(Uuid::from_u128(3)),
            email: Email::parse("a@b.com").unwrap(),
            first_name: None,
            last_name: None,
            external_id: None,
            status,
            archive_reason: reason,
            labels: Labels::DEFAULT,
            tags: vec![],
            joined_via: JoinedVia::Api,
            shared_existing_profile: false,
            assessment: AssessmentSummary::NONE,
            member_since: t0(),
            updated_at: t0(),
            archived_at: if status == PersonStatus::Archived { Some(t0()) } else { None },
            inactive_periods: vec![],
        }
    }

    #[test]
    fn import_transitions_follow_the_state_table() {
        use ArchiveReason::*;
        assert_eq!(import_transition(None).unwrap(), ImportTransition::Create);
        let active = person(PersonStatus::Active, None);
        assert_eq!(import_transition(Some(&active)).unwrap(), ImportTransition::MergeExisting);
        let archived = person(PersonStatus::Archived, Some(Archived));
        assert_eq!(import_transition(Some(&archived)).unwrap(), ImportTransition::Reactivate);
        let selfrev = person(PersonStatus::Archived, Some(SelfRevoked));
        assert_eq!(import_transition(Some(&selfrev)).unwrap_err().code, Code::PersonSelfRevoked);
        let deact = person(PersonStatus::Archived, Some(Deactivated));
        assert_eq!(import_transition(Some(&deact)).unwrap_err().code, Code::PersonDeactivated);
    }

    #[test]
    fn accept_transitions_follow_the_state_table() {
        use ArchiveReason::*;
        let cases: [(Option<Person>, Result<AcceptTransition, Code>); 6] = [
            (None, Ok(AcceptTransition::Create)),
            (Some(person(PersonStatus::Active, None)), Ok(AcceptTransition::MergeExisting)),
            (Some(person(PersonStatus::Archived, Some(Archived))), Ok(AcceptTransition::Rejoin)),
            // D43: the person's own acceptance is what may undo their own withdrawal.
            (Some(person(PersonStatus::Archived, Some(SelfRevoked))), Ok(AcceptTransition::Rejoin)),
            (Some(person(PersonStatus::Archived, Some(Deactivated))), Err(Code::PersonDeactivated)),
            (Some(person(PersonStatus::Archived, Some(Erased))), Err(Code::Conflict)),
        ];
        for (existing, want) in cases {
            let got = accept_transition(existing.as_ref()).map_err(|e| e.code);
            assert_eq!(got, want, "{existing:?}");
            if let Ok(t) = got {
                assert_eq!(t.needs_seat(), t != AcceptTransition::MergeExisting);
            }
        }
        assert!(ImportTransition::Create.needs_seat() && ImportTransition::Reactivate.needs_seat());
        assert!(!ImportTransition::MergeExisting.needs_seat());
    }

    #[test]
    fn a_new_member_is_active_with_sorted_tags_and_no_history() {
        let t = |n: u128, name: &str| Tag { id: TagId(Uuid::from_u128(n)), name: name.into() };
        let fields = ImportFields {
            first_name: Some(PersonName::parse("Ada").unwrap()),
            last_name: None,
            external_id: Some(ExternalId::parse("ats-1").unwrap()),
            tags: vec![t(1, "zeta"), t(2, "Alpha")],
        };
        let who = NewMember {
            id: PersonId(Uuid::from_u128(1)),
            org_id: OrgId(Uuid::from_u128(2)),
            human_id: HumanId(Uuid::from_u128(3)),
            email: Email::parse("a@b.com").unwrap(),
        };
        let p = Person::new_member(who, fields, Labels::DEFAULT, JoinedVia::Api, t0());
        assert_eq!((p.status, p.archive_reason, p.archived_at), (PersonStatus::Active, None, None));
        assert_eq!(p.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Alpha", "zeta"]);
        assert_eq!((p.member_since, p.updated_at), (t0(), t0()));
        assert_eq!(p.assessment, AssessmentSummary::NONE);
        assert!(!p.shared_existing_profile && p.inactive_periods.is_empty());
        assert_eq!(p.first_name.unwrap().as_str(), "Ada");
    }

    #[test]
    fn merge_fills_only_empty_fields_and_adds_tags() {
        let mut p = person(PersonStatus::Active, None);
        p.first_name = Some(PersonName::parse("Ada").unwrap());
        let tag = Tag { id: TagId(Uuid::from_u128(9)), name: "x".into() };
        let f = ImportFields {
            first_name: Some(PersonName::parse("Bob").unwrap()),
            last_name: Some(PersonName::parse("Lovelace").unwrap()),
            external_id: None,
            tags: vec![tag.clone()],
        };
        assert!(merge_import(&mut p, &f));
        assert_eq!(p.first_name.as_ref().unwrap().as_str(), "Ada");
        assert_eq!(p.last_name.as_ref().unwrap().as_str(), "Lovelace");
        assert_eq!(p.tags, vec![tag]);
        assert!(!merge_import(&mut p, &f), "second merge changes nothing");
    }

    #[test]
    fn reactivation_keeps_member_since() {
        let mut p = person(PersonStatus::Archived, Some(ArchiveReason::Archived));
        let later = t0() + time::Duration::days(3);
        reactivate(&mut p, &ImportFields::default(), later);
        assert_eq!(p.status, PersonStatus::Active);
        assert_eq!(p.archived_at, None);
        assert_eq!(p.member_since, t0());
        assert_eq!(p.updated_at, later);
    }

    /// An assessment completed at `at`, started for another organization.
    fn taken(at: OffsetDateTime) -> Assessment {
        taken_for(at, Some(OrgId(Uuid::from_u128(99))))
    }

    /// An assessment completed at `at`, started for `origin` (D51).
    fn taken_for(at: OffsetDateTime, origin: Option<OrgId>) -> Assessment {
        Assessment {
            id: AssessmentId(Uuid::from_u128(7)),
            human_id: HumanId(Uuid::from_u128(3)),
            origin_org: origin,
            state: AssessmentState::Completed,
            started_at: at,
            completed_at: Some(at),
            responses: vec![],
        }
    }

    #[test]
    fn d42_visibility_of_a_membership_the_person_established_follows_active_periods_and_consent() {
        let day = |n: i64| t0() + time::Duration::days(n);
        let mut p = person(PersonStatus::Active, None);
        p.joined_via = JoinedVia::InvitationPersonal;
        assert!(!taken(day(-1)).visible_to(&p), "before memberSince, without consent");
        assert!(taken(t0()).visible_to(&p), "memberSince itself is in the first period");
        assert!(taken(day(1)).visible_to(&p));
        // Archived on day 2: results stay as they were then.
        assert!(archive(&mut p, ArchiveReason::Archived, day(2)).unwrap());
        assert!(taken(day(2)).visible_to(&p));
        assert!(!taken(day(3)).visible_to(&p), "taken while archived");
        // Reactivated on day 4: the archived period stays invisible, the new one is visible.
        reactivate(&mut p, &ImportFields::default(), day(4));
        assert_eq!(p.inactive_periods, vec![Period { from: day(2), until: day(4) }]);
        assert!(!taken(day(3)).visible_to(&p), "inside the past archived period");
        assert!(taken(day(4)).visible_to(&p) && taken(day(5)).visible_to(&p));
        // Consent shows what lies outside the active periods, but never what follows archivedAt.
        p.shared_existing_profile = true;
        assert!(taken(day(-1)).visible_to(&p) && taken(day(3)).visible_to(&p));
        assert!(archive(&mut p, ArchiveReason::Archived, day(6)).unwrap());
        assert!(!taken(day(7)).visible_to(&p), "frozen at archivedAt even with consent");
    }

    #[test]
    fn d51_an_imported_membership_sees_only_its_own_organizations_assessments_and_what_consent_shows() {
        let day = |n: i64| t0() + time::Duration::days(n);
        let mut p = person(PersonStatus::Active, None);
        assert_eq!(p.joined_via, JoinedVia::Api);
        let own = Some(p.org_id);
        assert!(!taken(day(1)).visible_to(&p), "another organization's assessment, during the active period");
        assert!(!taken_for(day(1), None).visible_to(&p), "an assessment of unknown origin");
        assert!(taken_for(day(1), own).visible_to(&p), "(a) started for this organization");
        assert!(taken_for(day(-1), own).visible_to(&p), "(a) holds outside the active periods too");
        // (c) consent shows the others, until archivedAt.
        p.shared_existing_profile = true;
        assert!(taken(day(1)).visible_to(&p) && taken(day(-1)).visible_to(&p));
        // The person's own withdrawal hides at once what only consent showed; (a) stays as it
        // was at archivedAt.
        assert!(archive(&mut p, ArchiveReason::SelfRevoked, day(2)).unwrap());
        assert!(!taken(day(1)).visible_to(&p), "visible only through consent: hidden by the withdrawal");
        assert!(taken_for(day(1), own).visible_to(&p), "(a) stays");
        assert!(!taken_for(day(3), own).visible_to(&p), "nothing after archivedAt");
    }

    #[test]
    fn d51_the_withdrawal_keeps_what_the_established_membership_saw_in_its_active_period() {
        let day = |n: i64| t0() + time::Duration::days(n);
        let mut p = person(PersonStatus::Active, None);
        p.joined_via = JoinedVia::InvitationLink;
        p.shared_existing_profile = true;
        assert!(taken(day(-1)).visible_to(&p) && taken(day(1)).visible_to(&p));
        assert!(archive(&mut p, ArchiveReason::SelfRevoked, day(2)).unwrap());
        assert!(!taken(day(-1)).visible_to(&p), "(c) only: hidden");
        assert!(taken(day(1)).visible_to(&p), "(b) stays as it was at archivedAt");
    }

    #[test]
    fn d42_the_persons_own_withdrawal_withdraws_consent() {
        let mut p = person(PersonStatus::Active, None);
        p.shared_existing_profile = true;
        assert!(archive(&mut p, ArchiveReason::Archived, t0()).unwrap());
        assert!(p.shared_existing_profile, "archiving by the organization keeps consent");
        assert!(!archive(&mut p, ArchiveReason::SelfRevoked, t0()).unwrap());
        assert!(!p.shared_existing_profile);
        let mut q = person(PersonStatus::Active, None);
        q.shared_existing_profile = true;
        assert!(archive(&mut q, ArchiveReason::SelfRevoked, t0()).unwrap());
        assert!(!q.shared_existing_profile && q.archive_reason == Some(ArchiveReason::SelfRevoked));
    }

    #[test]
    fn d44_erasure_leaves_a_tombstone_once() {
        let mut p = person(PersonStatus::Active, None);
        p.first_name = Some(PersonName::parse("Ada").unwrap());
        p.external_id = Some(ExternalId::parse("ats-1").unwrap());
        p.labels = Labels { candidate: true, employee: true };
        p.shared_existing_profile = true;
        let later = t0() + time::Duration::days(1);
        assert!(erase(&mut p, later));
        assert_eq!(p.email.as_str(), format!("erased-{}@invalid", p.id));
        assert_eq!((p.first_name.clone(), p.external_id.clone()), (None, None));
        assert_eq!(p.labels, Labels { candidate: false, employee: false });
        assert!(!p.shared_existing_profile);
        assert_eq!(
            (p.status, p.archive_reason, p.archived_at),
            (PersonStatus::Archived, Some(ArchiveReason::Erased), Some(later))
        );
        let once = p.clone();
        assert!(!erase(&mut p, later + time::Duration::days(1)), "idempotent");
        assert_eq!(p, once);
        assert!(!archive(&mut p, ArchiveReason::SelfRevoked, later).unwrap(), "no reason replaces erasure");
        assert_eq!(p.archive_reason, Some(ArchiveReason::Erased));
        assert_eq!(import_transition(Some(&p)).unwrap_err().code, Code::Conflict);
        // No patch writes onto the tombstone, not even an empty one (a sync job's routine PATCH).
        for patch in [
            PersonPatch { external_id: Some(Some(ExternalId::parse("ats-1").unwrap())), ..Default::default() },
            PersonPatch { first_name: Some(PersonName::parse("Ada").unwrap()), ..Default::default() },
            PersonPatch { labels: Some(Labels { candidate: true, employee: false }), ..Default::default() },
            PersonPatch::default(),
        ] {
            let e = apply_patch(&mut p, patch, later).unwrap_err();
            assert_eq!(
                (e.code, e.details.as_ref().map(|d| d["reason"].clone())),
                (Code::Conflict, Some("erased".into()))
            );
        }
        assert_eq!(p, once);
        let mut q = person(PersonStatus::Archived, Some(ArchiveReason::Archived));
        assert!(erase(&mut q, later));
        assert_eq!(q.archived_at, Some(t0()), "an archived person keeps archivedAt");
    }

    #[test]
    fn archive_of_archived_person_is_not_found() {
        let mut p = person(PersonStatus::Active, None);
        assert!(archive(&mut p, ArchiveReason::Archived, t0()).unwrap());
        assert_eq!(archive(&mut p, ArchiveReason::Archived, t0()).unwrap_err().code, Code::NotFound);
        assert!(!archive(&mut p, ArchiveReason::Deactivated, t0()).unwrap());
        assert_eq!(p.archive_reason, Some(ArchiveReason::Deactivated));
    }

    #[test]
    fn patch_name_conflicts_when_set_whatever_the_value() {
        let mut p = person(PersonStatus::Active, None);
        p.first_name = Some(PersonName::parse("Ada").unwrap());
        let patch = PersonPatch { first_name: Some(PersonName::parse("Ada").unwrap()), ..Default::default() };
        assert_eq!(apply_patch(&mut p, patch, t0()).unwrap_err().code, Code::Conflict);
        let patch = PersonPatch { last_name: Some(PersonName::parse("L").unwrap()), ..Default::default() };
        assert!(apply_patch(&mut p, patch, t0()).unwrap().changed);
    }

    #[test]
    fn removing_employee_label_is_reported() {
        let mut p = person(PersonStatus::Active, None);
        p.labels = Labels { candidate: true, employee: true };
        let patch = PersonPatch { labels: Some(Labels::DEFAULT), ..Default::default() };
        let eff = apply_patch(&mut p, patch, t0()).unwrap();
        assert!(eff.employee_removed && eff.changed);
    }

    #[test]
    fn empty_patch_changes_nothing() {
        let mut p = person(PersonStatus::Active, None);
        let before = p.clone();
        let eff = apply_patch(&mut p, PersonPatch::default(), t0() + time::Duration::hours(1)).unwrap();
        assert!(!eff.changed);
        assert_eq!(p, before);
    }

    #[test]
    fn employee_domain_rule_adds_employee() {
        let org = Organization {
            id: OrgId(Uuid::from_u128(2)),
            company_name: "X".into(),
            email: Email::parse("x@x.com").unwrap(),
            plan: "business".into(),
            subscription_status: crate::values::SubscriptionStatus::Active,
            trial_ends_at: None,
            current_period_end: None,
            employee_domains: vec!["acme.com".into()],
            created_at: t0(),
            updated_at: t0(),
        };
        let e = Email::parse("a@ACME.com").unwrap();
        assert_eq!(initial_labels(None, &org, &e), Labels { candidate: true, employee: true });
        assert_eq!(initial_labels(Some(Labels::default()), &org, &e), Labels { candidate: false, employee: true });
        let other = Email::parse("a@sub.acme.com").unwrap();
        assert_eq!(initial_labels(None, &org, &other), Labels::DEFAULT);
    }

    /// T90: a trial is `trial_expired` from `trialEndsAt` on; other statuses are as stored.
    #[test]
    fn a_trial_expires_at_its_end_t90() {
        use crate::values::SubscriptionStatus::*;
        let end = t0() + time::Duration::days(14);
        let org = |status, trial_ends_at| Organization {
            id: OrgId(Uuid::from_u128(2)),
            company_name: "X".into(),
            email: Email::parse("x@x.com").unwrap(),
            plan: "business".into(),
            subscription_status: status,
            trial_ends_at,
            current_period_end: None,
            employee_domains: vec![],
            created_at: t0(),
            updated_at: t0(),
        };
        let trial = org(Trialing, Some(end));
        assert_eq!(trial.status_at(end - time::Duration::SECOND), Trialing);
        assert_eq!(trial.status_at(end), TrialExpired);
        assert!(!trial.clone().as_of(end).subscription_status.allows_writes());
        assert_eq!(org(Trialing, None).status_at(end + time::Duration::days(999)), Trialing);
        assert_eq!(org(Active, Some(end)).status_at(end + time::Duration::DAY), Active);
        assert_eq!(org(PastDue, Some(end)).status_at(end + time::Duration::DAY), PastDue);
    }
}
