//! Tests of the person transitions (`transitions.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::errors::Code;
use crate::ids::*;
use crate::organization::Organization;
use crate::results::{Assessment, AssessmentState};
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
        accommodations: None,
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
        assert_eq!((e.code, e.details.as_ref().map(|d| d["reason"].clone())), (Code::Conflict, Some("erased".into())));
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
        candidate: Default::default(),
        created_at: t0(),
        updated_at: t0(),
        test_of: None,
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
        candidate: Default::default(),
        created_at: t0(),
        updated_at: t0(),
        test_of: None,
    };
    let trial = org(Trialing, Some(end));
    assert_eq!(trial.status_at(end - time::Duration::SECOND), Trialing);
    assert_eq!(trial.status_at(end), TrialExpired);
    assert!(!trial.clone().as_of(end).subscription_status.allows_writes());
    assert_eq!(org(Trialing, None).status_at(end + time::Duration::days(999)), Trialing);
    assert_eq!(org(Active, Some(end)).status_at(end + time::Duration::DAY), Active);
    assert_eq!(org(PastDue, Some(end)).status_at(end + time::Duration::DAY), PastDue);
}
