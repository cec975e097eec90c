//! Use-case tests of the domain over the in-memory fakes (no database, no async runtime).
//! Each test cites the spec row or the decision (D-number, `/work/shared/spec/decisions.md`) it
//! checks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;
use std::sync::Arc;
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::fakes::{block_on, services, FakeClock, FakeStore};
use talent_domain::ids::*;
use talent_domain::model::*;
use talent_domain::ports::{Clock, LabelFilter, PersonQuery};
use talent_domain::usecases::access::{Principal, Requirement};
use talent_domain::usecases::idempotency::{IdempotencyBegin, IdempotentRequest, StoredResponse};
use talent_domain::usecases::orgs::{CreatedKey, NewOrganization, OrganizationPatch};
use talent_domain::usecases::persons::{ImportPerson, PatchPerson};
use talent_domain::values::*;
use talent_domain::wire::{organization_json, person_json};
use talent_domain::Services;
use time::{Duration, OffsetDateTime};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Svc = Services<FakeStore>;

struct World {
    svc: Svc,
    store: FakeStore,
    clock: Arc<FakeClock>,
    org: OrgId,
}

fn email(s: &str) -> Email {
    Email::parse(s).unwrap()
}

fn name(s: &str) -> PersonName {
    PersonName::parse(s).unwrap()
}

fn ext(s: &str) -> ExternalId {
    ExternalId::parse(s).unwrap()
}

fn labels(v: &[&str]) -> Labels {
    Labels::parse(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
}

fn tags(v: &[&str]) -> Vec<TagName> {
    v.iter().map(|s| TagName::parse(s).unwrap()).collect()
}

fn tag_names(p: &Person) -> Vec<&str> {
    p.tags.iter().map(|t| t.name.as_str()).collect()
}

fn plan(id: &str, api_access: bool, person_limit: u32) -> Plan {
    Plan { id: id.into(), api_access, person_limit, profile_limit: 25, org_rpm: 120, key_rpm: 60, org_only_rpm: 60 }
}

/// A catalogue where `professional` allows only 3 persons, so limits are quick to reach.
fn small_catalogue() -> PlanCatalogue {
    PlanCatalogue::new(vec![plan("starter", false, 50), plan("professional", true, 3), plan("business", true, 5_000)])
}

fn new_org(svc: &Svc, plan: &str, status: SubscriptionStatus, domains: &[&str]) -> OrgId {
    let (org, _) = block_on(svc.create_organization(NewOrganization {
        company_name: "Acme".into(),
        email: email("hr@acme.test"),
        plan: plan.into(),
        subscription_status: Some(status),
        trial_ends_at: None,
        current_period_end: None,
        employee_domains: domains.iter().map(|d| d.to_string()).collect(),
    }))
    .unwrap();
    org.id
}

fn world_with(plans: PlanCatalogue, plan: &str, status: SubscriptionStatus, domains: &[&str]) -> World {
    let (mut svc, store, clock) = services();
    svc.plans = plans;
    let org = new_org(&svc, plan, status, domains);
    World { svc, store, clock, org }
}

/// An active professional organization with the default catalogue (D5).
fn world() -> World {
    world_with(PlanCatalogue::default(), "professional", SubscriptionStatus::Active, &[])
}

fn import(e: &str) -> ImportPerson {
    ImportPerson {
        email: email(e),
        first_name: None,
        last_name: None,
        external_id: None,
        labels: None,
        tags: vec![],
        invitation: None,
    }
}

fn imported(w: &World, input: ImportPerson) -> Person {
    block_on(w.svc.import_person(w.org, input)).unwrap().person
}

/// The client error of a failed use case.
fn client_err<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> ClientError {
    match r {
        Err(UseCaseError::Client(c)) => c,
        other => panic!("expected a client error, got {other:?}"),
    }
}

fn code<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> Code {
    client_err(r).code
}

fn events(w: &World) -> Vec<OutboxEvent> {
    w.store.snapshot().events.into_iter().filter(|e| e.org_id == w.org).collect()
}

fn event_types(w: &World) -> Vec<EventType> {
    events(w).iter().map(|e| e.event_type).collect()
}

fn get(w: &World, id: PersonId) -> Person {
    block_on(w.svc.get_person(w.org, id)).unwrap()
}

fn patch(w: &World, id: PersonId, p: PatchPerson) -> Result<Person, UseCaseError> {
    block_on(w.svc.patch_person(w.org, id, p))
}

fn set_subscription(w: &World, status: SubscriptionStatus) {
    block_on(
        w.svc.patch_organization(w.org, OrganizationPatch { subscription_status: Some(status), ..Default::default() }),
    )
    .unwrap();
}

/// The persisted rows a failed use case must not touch.
#[derive(Debug, PartialEq)]
struct Rows {
    persons: Vec<Person>,
    tags: Vec<(OrgId, Tag)>,
    humans: Vec<(HumanId, Email)>,
    events: Vec<OutboxEvent>,
    team_members: Vec<(TeamId, PersonId)>,
}

fn rows(store: &FakeStore) -> Rows {
    let s = store.snapshot();
    Rows { persons: s.persons, tags: s.tags, humans: s.humans, events: s.events, team_members: s.team_members }
}

// ---------------------------------------------------------------------------------------------
// Import (POST /persons): spec person state table; D6, D9, D12
// ---------------------------------------------------------------------------------------------

#[test]
fn importing_a_new_email_creates_an_active_candidate_and_emits_person_created() {
    // Spec state table row "(none) -> active": 201, `person.created`, labels default ["candidate"];
    // D34: the event's data is the Person object.
    let w = world();
    let out = block_on(
        w.svc.import_person(w.org, ImportPerson { first_name: Some(name("Ada")), ..import("ada@example.com") }),
    )
    .unwrap();
    assert!(out.created);
    let p = &out.person;
    assert_eq!(p.org_id, w.org);
    assert_eq!(p.email.as_str(), "ada@example.com");
    assert_eq!(p.first_name, Some(name("Ada")));
    assert_eq!(p.last_name, None);
    assert_eq!(p.external_id, None);
    assert_eq!(p.status, PersonStatus::Active);
    assert_eq!(p.labels.to_vec(), vec!["candidate"]);
    assert_eq!(p.joined_via, JoinedVia::Api);
    assert!(!p.shared_existing_profile);
    assert_eq!(p.assessment, AssessmentSummary::NONE);
    assert_eq!(p.member_since, p.updated_at);
    assert_eq!(p.archived_at, None);
    assert_eq!(get(&w, p.id), *p, "the person is stored as returned");

    let ev = events(&w);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].event_type, EventType::PersonCreated);
    assert_eq!(ev[0].data, person_json(p));
    assert_eq!(ev[0].data["labels"], json!(["candidate"]));
    assert_eq!(ev[0].data["joinedVia"], json!("api"));
    assert_eq!(ev[0].data["status"], json!("active"));
}

#[test]
fn importing_a_known_email_in_other_case_and_whitespace_merges_without_a_new_person_or_event() {
    // D9 (trimmed, lower-cased identity) and D12 (200: tags added, names/externalId only where
    // empty, labels unchanged, no event).
    let w = world();
    let first = imported(
        &w,
        ImportPerson { first_name: Some(name("Ada")), tags: tags(&["alpha"]), ..import("ada@example.com") },
    );
    let out = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            invitation: None,
            email: email("  ADA@Example.COM "),
            first_name: Some(name("Bob")),
            last_name: Some(name("Lovelace")),
            external_id: Some(ext("ext-1")),
            labels: Some(labels(&["employee"])),
            tags: tags(&["Beta"]),
        },
    ))
    .unwrap();
    assert!(!out.created);
    let p = out.person;
    assert_eq!(p.id, first.id);
    assert_eq!(p.first_name, Some(name("Ada")), "a set name is kept");
    assert_eq!(p.last_name, Some(name("Lovelace")), "an empty name is filled");
    assert_eq!(p.external_id, Some(ext("ext-1")), "an empty externalId is filled");
    assert_eq!(p.labels.to_vec(), vec!["candidate"], "labels unchanged");
    assert_eq!(tag_names(&p), vec!["alpha", "Beta"], "tags added");
    assert_eq!(p.member_since, first.member_since);
    assert!(p.updated_at > first.updated_at);
    assert_eq!(get(&w, p.id), p);

    // externalId, once set, is not overwritten by an import either.
    let again = imported(&w, ImportPerson { external_id: Some(ext("ext-2")), ..import("ada@example.com") });
    assert_eq!(again.external_id, Some(ext("ext-1")));

    assert_eq!(w.store.snapshot().persons.len(), 1);
    assert_eq!(event_types(&w), vec![EventType::PersonCreated], "no event for a merge");
}

#[test]
fn importing_a_known_email_with_nothing_new_does_not_move_updated_at() {
    // D12: a merge that changes nothing writes nothing.
    let w = world();
    let first =
        imported(&w, ImportPerson { first_name: Some(name("Ada")), tags: tags(&["x"]), ..import("ada@example.com") });
    let before = rows(&w.store);
    w.clock.advance(Duration::minutes(1));
    let out = block_on(w.svc.import_person(
        w.org,
        ImportPerson { first_name: Some(name("Ada")), tags: tags(&["X"]), ..import("ada@example.com") },
    ))
    .unwrap();
    assert!(!out.created);
    assert_eq!(out.person, first);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn importing_an_archived_person_reactivates_keeping_member_since_and_emits_person_created_again() {
    // Spec state table row "archived -> active" (reactivation); D12: 201, `person.created`,
    // archivedAt null, memberSince kept, tags added.
    let w = world();
    let first = imported(&w, ImportPerson { tags: tags(&["old"]), ..import("ada@example.com") });
    let archived = block_on(w.svc.archive_person(w.org, first.id)).unwrap();
    assert!(archived.archived_at.is_some());
    w.clock.advance(Duration::days(1));

    let out = block_on(w.svc.import_person(w.org, ImportPerson { tags: tags(&["new"]), ..import("Ada@example.com") }))
        .unwrap();
    assert!(out.created);
    let p = out.person;
    assert_eq!(p.id, first.id, "same membership");
    assert_eq!(p.status, PersonStatus::Active);
    assert_eq!(p.archived_at, None);
    assert_eq!(p.archive_reason, None);
    assert_eq!(p.member_since, first.member_since);
    assert!(p.updated_at >= first.updated_at + Duration::days(1));
    assert_eq!(tag_names(&p), vec!["new", "old"]);
    assert_eq!(get(&w, p.id), p);
    assert_eq!(w.store.snapshot().persons.len(), 1);

    let ev = events(&w);
    assert_eq!(
        ev.iter().map(|e| e.event_type).collect::<Vec<_>>(),
        vec![EventType::PersonCreated, EventType::PersonArchived, EventType::PersonCreated]
    );
    assert_eq!(ev[2].data, person_json(&p));
    assert_eq!(ev[2].data["archivedAt"], serde_json::Value::Null);
}

#[test]
fn importing_a_person_who_withdrew_gives_person_self_revoked_and_changes_nothing() {
    // Spec state table row "archived, person withdrew": 409 `person_self_revoked`.
    let w = world();
    let p = imported(&w, import("ada@example.com"));
    block_on(w.svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked)).unwrap();
    let before = rows(&w.store);
    let r = block_on(w.svc.import_person(w.org, ImportPerson { tags: tags(&["fresh"]), ..import("ada@example.com") }));
    assert_eq!(code(r), Code::PersonSelfRevoked);
    assert_eq!(rows(&w.store), before);
    assert_eq!(get(&w, p.id).status, PersonStatus::Archived);
}

#[test]
fn importing_a_person_deactivated_by_an_administrator_gives_person_deactivated() {
    // Spec state table row "archived, deactivated by an administrator": 409 `person_deactivated`.
    let w = world();
    let p = imported(&w, import("ada@example.com"));
    block_on(w.svc.admin_archive_person(p.id, ArchiveReason::Deactivated)).unwrap();
    let before = rows(&w.store);
    assert_eq!(code(block_on(w.svc.import_person(w.org, import("ada@example.com")))), Code::PersonDeactivated);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn importing_beyond_the_person_limit_gives_person_limit_reached_and_archiving_frees_a_seat() {
    // Spec Errors: `person_limit_reached` details {used, limit, plan}; D6: enforced at import, an
    // archived person frees a seat; a merge of an active member needs no seat.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    let a = imported(&w, import("a@example.com"));
    let b = imported(&w, import("b@example.com"));
    imported(&w, import("c@example.com"));

    let e = client_err(block_on(w.svc.import_person(w.org, import("d@example.com"))));
    assert_eq!(e.code, Code::PersonLimitReached);
    assert_eq!(e.details, Some(json!({"used": 3, "limit": 3, "plan": "professional"})));

    // An active member is merged even at the limit.
    let merged =
        block_on(w.svc.import_person(w.org, ImportPerson { last_name: Some(name("A")), ..import("a@example.com") }))
            .unwrap();
    assert!(!merged.created);
    assert_eq!(merged.person.id, a.id);

    block_on(w.svc.archive_person(w.org, b.id)).unwrap();
    let d = block_on(w.svc.import_person(w.org, import("d@example.com"))).unwrap();
    assert!(d.created);

    // Reactivating b needs a seat too.
    let e = client_err(block_on(w.svc.import_person(w.org, import("b@example.com"))));
    assert_eq!(e.code, Code::PersonLimitReached);
    assert_eq!(e.details, Some(json!({"used": 3, "limit": 3, "plan": "professional"})));
    assert_eq!(get(&w, b.id).status, PersonStatus::Archived);
}

#[test]
fn a_failed_import_writes_nothing_at_all() {
    // D31 atomicity: no person, no human, no catalogue tag and no event is left behind.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    for e in ["a@example.com", "b@example.com", "c@example.com"] {
        imported(&w, ImportPerson { tags: tags(&["known"]), ..import(e) });
    }
    let before = rows(&w.store);
    let r = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            first_name: Some(name("Dora")),
            external_id: Some(ext("x-4")),
            tags: tags(&["brand-new", "Known"]),
            ..import("d@example.com")
        },
    ));
    assert_eq!(code(r), Code::PersonLimitReached);
    assert_eq!(rows(&w.store), before);
    assert_eq!(before.events.len(), 3);
}

#[test]
fn importing_into_an_unknown_organization_is_not_found() {
    let w = world();
    let r = block_on(w.svc.import_person(OrgId(uuid::Uuid::from_u128(42)), import("a@example.com")));
    assert_eq!(code(r), Code::NotFound);
    assert!(w.store.snapshot().persons.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Employee email-domain rule: D15
// ---------------------------------------------------------------------------------------------

#[test]
fn the_employee_domain_rule_adds_employee_to_imported_persons_of_that_domain_only() {
    // D15; spec Person.labels: an empty array means neither ("other"), the rule may add employee.
    let w = world_with(PlanCatalogue::default(), "professional", SubscriptionStatus::Active, &["acme.com"]);
    let ann = imported(&w, import("Ann@ACME.com"));
    assert_eq!(ann.labels.to_vec(), vec!["candidate", "employee"]);
    let ben = imported(&w, ImportPerson { labels: Some(labels(&[])), ..import("ben@acme.com") });
    assert_eq!(ben.labels.to_vec(), vec!["employee"]);
    let cid = imported(&w, ImportPerson { labels: Some(labels(&[])), ..import("cid@other.com") });
    assert_eq!(cid.labels.to_vec(), Vec::<&str>::new());
    assert_eq!(person_json(&cid)["labels"], json!([]));
    let dan = imported(&w, import("dan@sub.acme.com"));
    assert_eq!(dan.labels.to_vec(), vec!["candidate"], "exact domain match only");
    let eve = imported(&w, ImportPerson { labels: Some(labels(&["employee"])), ..import("eve@other.com") });
    assert_eq!(eve.labels.to_vec(), vec!["employee"]);
}

#[test]
fn the_employee_domain_rule_does_not_change_labels_of_an_existing_member() {
    // D12 (labels unchanged on merge) over D15 (rule applies to persons created by import).
    let w = world();
    let p = imported(&w, import("fay@acme.com"));
    block_on(w.svc.patch_organization(
        w.org,
        OrganizationPatch { employee_domains: Some(vec!["acme.com".into()]), ..Default::default() },
    ))
    .unwrap();
    let out = block_on(w.svc.import_person(w.org, import("fay@acme.com"))).unwrap();
    assert!(!out.created);
    assert_eq!(out.person.labels.to_vec(), vec!["candidate"]);
    assert_eq!(get(&w, p.id).labels.to_vec(), vec!["candidate"]);
}

// ---------------------------------------------------------------------------------------------
// Tags: D14
// ---------------------------------------------------------------------------------------------

#[test]
fn tags_are_an_org_catalogue_where_the_first_spelling_wins_case_insensitively() {
    // D14: unique case-insensitively per organization, first spelling wins across persons.
    let w = world();
    let a = imported(&w, ImportPerson { tags: tags(&["Rust", "go"]), ..import("a@example.com") });
    assert_eq!(tag_names(&a), vec!["go", "Rust"]);
    let b = imported(&w, ImportPerson { tags: tags(&["rust", " GO ", "Zig", "zig"]), ..import("b@example.com") });
    assert_eq!(tag_names(&b), vec!["go", "Rust", "Zig"]);
    let rust_a = a.tags.iter().find(|t| t.name == "Rust").unwrap();
    let rust_b = b.tags.iter().find(|t| t.name == "Rust").unwrap();
    assert_eq!(rust_a.id, rust_b.id, "one catalogue entry");
    let catalogue: Vec<String> =
        w.store.snapshot().tags.iter().filter(|(o, _)| *o == w.org).map(|(_, t)| t.name.clone()).collect();
    assert_eq!(catalogue, vec!["Rust", "go", "Zig"]);

    // Another organization has its own catalogue.
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    let c = block_on(w.svc.import_person(other, ImportPerson { tags: tags(&["RUST"]), ..import("a@example.com") }))
        .unwrap()
        .person;
    assert_eq!(tag_names(&c), vec!["RUST"]);
    assert_ne!(c.id, a.id, "D10: a different membership id per organization");
}

#[test]
fn a_persons_tags_are_sorted_case_insensitively() {
    // D14 and spec Person.tags: sorted alphabetically, case-insensitively.
    let w = world();
    let p = imported(&w, ImportPerson { tags: tags(&["gamma", "Beta", "alpha", "Delta"]), ..import("a@example.com") });
    assert_eq!(tag_names(&p), vec!["alpha", "Beta", "Delta", "gamma"]);
    assert_eq!(person_json(&p)["tags"], json!(["alpha", "Beta", "Delta", "gamma"]));
    let p = imported(&w, ImportPerson { tags: tags(&["Charlie", "ALPHA"]), ..import("a@example.com") });
    assert_eq!(tag_names(&p), vec!["alpha", "Beta", "Charlie", "Delta", "gamma"]);
}

#[test]
fn import_adds_tags_while_patch_replaces_the_whole_set() {
    // Spec POST /persons tags: "existing tags of the person are kept"; PATCH tags: "replaces the
    // full tag set"; D14 spelling.
    let w = world();
    let p = imported(&w, ImportPerson { tags: tags(&["one", "two"]), ..import("a@example.com") });
    let p2 = imported(&w, ImportPerson { tags: tags(&["three"]), ..import("a@example.com") });
    assert_eq!(tag_names(&p2), vec!["one", "three", "two"]);

    let patched = patch(&w, p.id, PatchPerson { tags: Some(tags(&["TWO", "four"])), ..Default::default() }).unwrap();
    assert_eq!(tag_names(&patched), vec!["four", "two"]);
    assert_eq!(get(&w, p.id), patched);

    let cleared = patch(&w, p.id, PatchPerson { tags: Some(vec![]), ..Default::default() }).unwrap();
    assert!(cleared.tags.is_empty());
    assert!(get(&w, p.id).tags.is_empty());
}

// ---------------------------------------------------------------------------------------------
// PATCH /persons/{id}: D13, D16
// ---------------------------------------------------------------------------------------------

#[test]
fn patching_a_name_that_is_already_set_is_a_conflict_whatever_the_value() {
    // D13: 409 `conflict`, even for the same value; nothing is applied.
    let w = world();
    let p = imported(
        &w,
        ImportPerson { first_name: Some(name("Ada")), last_name: Some(name("L")), ..import("a@example.com") },
    );
    for v in ["Ada", "Other"] {
        let e = client_err(patch(
            &w,
            p.id,
            PatchPerson { first_name: Some(name(v)), external_id: Some(Some(ext("x"))), ..Default::default() },
        ));
        assert_eq!(e.code, Code::Conflict);
        assert_eq!(e.details, Some(json!({"field": "firstName"})));
    }
    let e = client_err(patch(&w, p.id, PatchPerson { last_name: Some(name("L")), ..Default::default() }));
    assert_eq!(e.code, Code::Conflict);
    assert_eq!(e.details, Some(json!({"field": "lastName"})));
    assert_eq!(get(&w, p.id), p, "nothing applied");
}

#[test]
fn patching_a_name_fills_it_while_empty() {
    // Spec PATCH firstName/lastName: "may only be filled in while empty".
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let q = patch(&w, p.id, PatchPerson { first_name: Some(name("Ada")), ..Default::default() }).unwrap();
    assert_eq!(q.first_name, Some(name("Ada")));
    assert!(q.updated_at > p.updated_at);
    let r = patch(&w, p.id, PatchPerson { last_name: Some(name("Lovelace")), ..Default::default() }).unwrap();
    assert_eq!((r.first_name.clone(), r.last_name.clone()), (Some(name("Ada")), Some(name("Lovelace"))));
    assert_eq!(get(&w, p.id), r);
    assert_eq!(
        code(patch(&w, p.id, PatchPerson { first_name: Some(name("Bob")), ..Default::default() })),
        Code::Conflict
    );
}

#[test]
fn patching_external_id_sets_replaces_and_clears_it() {
    // Spec PATCH externalId: string or null, always updatable.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let q = patch(&w, p.id, PatchPerson { external_id: Some(Some(ext("ats-1"))), ..Default::default() }).unwrap();
    assert_eq!(q.external_id, Some(ext("ats-1")));
    let q = patch(&w, p.id, PatchPerson { external_id: Some(Some(ext("ats-2"))), ..Default::default() }).unwrap();
    assert_eq!(q.external_id, Some(ext("ats-2")));
    let q = patch(&w, p.id, PatchPerson { external_id: Some(None), ..Default::default() }).unwrap();
    assert_eq!(q.external_id, None);
    assert_eq!(get(&w, p.id).external_id, None);
    assert_eq!(person_json(&q)["externalId"], serde_json::Value::Null);
}

#[test]
fn removing_the_employee_label_removes_the_person_from_every_team() {
    // D16; spec PATCH labels: "removing `employee` also removes the person from all teams".
    let w = world();
    let p = imported(&w, ImportPerson { labels: Some(labels(&["candidate", "employee"])), ..import("a@example.com") });
    let other = imported(&w, ImportPerson { labels: Some(labels(&["employee"])), ..import("b@example.com") });
    let t1 = block_on(w.svc.create_team(w.org, "Platform".into())).unwrap();
    let t2 = block_on(w.svc.create_team(w.org, "Data".into())).unwrap();
    block_on(w.svc.add_team_member(t1.id, p.id)).unwrap();
    block_on(w.svc.add_team_member(t1.id, other.id)).unwrap();
    assert_eq!(block_on(w.svc.add_team_member(t2.id, p.id)).unwrap(), vec![p.id]);

    let q = patch(&w, p.id, PatchPerson { labels: Some(labels(&["candidate"])), ..Default::default() }).unwrap();
    assert_eq!(q.labels.to_vec(), vec!["candidate"]);
    assert_eq!(block_on(w.svc.team_members(t1.id)).unwrap(), vec![other.id]);
    assert_eq!(block_on(w.svc.team_members(t2.id)).unwrap(), Vec::<PersonId>::new());
    assert_eq!(get(&w, p.id).labels.to_vec(), vec!["candidate"]);
}

#[test]
fn keeping_the_employee_label_keeps_team_membership() {
    // D16 applies only when `employee` is removed.
    let w = world();
    let p = imported(&w, ImportPerson { labels: Some(labels(&["candidate", "employee"])), ..import("a@example.com") });
    let t = block_on(w.svc.create_team(w.org, "Platform".into())).unwrap();
    block_on(w.svc.add_team_member(t.id, p.id)).unwrap();
    let q = patch(&w, p.id, PatchPerson { labels: Some(labels(&["employee"])), ..Default::default() }).unwrap();
    assert_eq!(q.labels.to_vec(), vec!["employee"]);
    let q = patch(&w, p.id, PatchPerson { tags: Some(tags(&["x"])), ..Default::default() }).unwrap();
    assert_eq!(q.labels.to_vec(), vec!["employee"]);
    assert_eq!(block_on(w.svc.team_members(t.id)).unwrap(), vec![p.id]);
}

#[test]
fn a_failed_patch_keeps_team_membership_and_the_tag_catalogue() {
    // D13 409 with a D16 label removal and new tags in the same body: the transaction rolls back.
    let w = world();
    let p = imported(
        &w,
        ImportPerson { first_name: Some(name("Ada")), labels: Some(labels(&["employee"])), ..import("a@example.com") },
    );
    let t = block_on(w.svc.create_team(w.org, "Platform".into())).unwrap();
    block_on(w.svc.add_team_member(t.id, p.id)).unwrap();
    let before = rows(&w.store);
    let r = patch(
        &w,
        p.id,
        PatchPerson {
            first_name: Some(name("Bob")),
            labels: Some(labels(&[])),
            tags: Some(tags(&["brand-new"])),
            ..Default::default()
        },
    );
    assert_eq!(code(r), Code::Conflict);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn a_patch_that_changes_nothing_does_not_move_updated_at() {
    // Spec Person.updatedAt and `updatedAfter` (incremental sync): only real changes count.
    let w = world();
    let p = imported(
        &w,
        ImportPerson {
            external_id: Some(ext("ats-1")),
            labels: Some(labels(&["candidate"])),
            tags: tags(&["Rust", "go"]),
            ..import("a@example.com")
        },
    );
    w.clock.advance(Duration::hours(1));
    let before = rows(&w.store);
    let same = patch(
        &w,
        p.id,
        PatchPerson {
            external_id: Some(Some(ext("ats-1"))),
            labels: Some(labels(&["candidate"])),
            tags: Some(tags(&["GO", "rust"])),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(same, p);
    assert_eq!(same.updated_at, p.updated_at);
    assert_eq!(patch(&w, p.id, PatchPerson::default()).unwrap(), p);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn patching_a_person_of_another_organization_is_not_found() {
    // Spec PATCH/GET/DELETE 404 "not a member of the organization"; D28.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    let r = block_on(w.svc.patch_person(
        other,
        p.id,
        PatchPerson { external_id: Some(Some(ext("x"))), ..Default::default() },
    ));
    assert_eq!(code(r), Code::NotFound);
    assert_eq!(code(block_on(w.svc.get_person(other, p.id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.archive_person(other, p.id))), Code::NotFound);
    assert_eq!(code(patch(&w, PersonId(uuid::Uuid::from_u128(7)), PatchPerson::default())), Code::NotFound);
    assert_eq!(get(&w, p.id), p);
}

// ---------------------------------------------------------------------------------------------
// DELETE /persons/{id} and admin archive: spec state table; D28, D39
// ---------------------------------------------------------------------------------------------

#[test]
fn archiving_an_active_person_sets_archived_at_and_emits_person_archived() {
    // Spec state table row "active -> archived": archivedAt set, `person.archived` event.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let a = block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    assert_eq!(a.status, PersonStatus::Archived);
    assert_eq!(a.archive_reason, Some(ArchiveReason::Archived));
    let at = a.archived_at.expect("archivedAt set");
    assert!(at > p.updated_at);
    assert_eq!(a.updated_at, at);
    assert_eq!(a.member_since, p.member_since);
    assert_eq!(get(&w, p.id), a);

    let ev = events(&w);
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[1].event_type, EventType::PersonArchived);
    assert_eq!(ev[1].data, person_json(&a));
    assert_eq!(ev[1].data["status"], json!("archived"));
}

#[test]
fn archiving_an_archived_person_is_not_found_and_emits_nothing() {
    // Spec state table row "archived -> archived": 404 (no active person with this id).
    let w = world();
    let p = imported(&w, import("a@example.com"));
    block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    let before = rows(&w.store);
    assert_eq!(code(block_on(w.svc.archive_person(w.org, p.id))), Code::NotFound);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn an_archived_person_can_still_be_read() {
    // D28: GET /persons/{id} works for archived persons.
    let w = world();
    let p = imported(&w, ImportPerson { first_name: Some(name("Ada")), ..import("a@example.com") });
    let a = block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    let read = get(&w, p.id);
    assert_eq!(read, a);
    assert_eq!(read.first_name, Some(name("Ada")));
    assert_eq!(person_json(&read)["status"], json!("archived"));
}

#[test]
fn admin_deactivation_of_an_archived_person_records_the_reason_without_a_second_event() {
    // D39 deactivate/withdraw: on an archived person the reason is recorded, no second
    // `person.archived`; a later import then gives `person_deactivated`.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let a = block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    let d = block_on(w.svc.admin_archive_person(p.id, ArchiveReason::Deactivated)).unwrap();
    assert_eq!(d.status, PersonStatus::Archived);
    assert_eq!(d.archive_reason, Some(ArchiveReason::Deactivated));
    assert_eq!(d.archived_at, a.archived_at, "archivedAt kept");
    assert_eq!(get(&w, p.id).archive_reason, Some(ArchiveReason::Deactivated));
    assert_eq!(event_types(&w), vec![EventType::PersonCreated, EventType::PersonArchived]);
    assert_eq!(code(block_on(w.svc.import_person(w.org, import("a@example.com")))), Code::PersonDeactivated);
}

#[test]
fn admin_withdrawal_of_an_active_person_archives_and_emits_person_archived() {
    // D39: withdraw archives the person and emits `person.archived`.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let s = block_on(w.svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked)).unwrap();
    assert_eq!(s.status, PersonStatus::Archived);
    assert_eq!(s.archive_reason, Some(ArchiveReason::SelfRevoked));
    assert!(s.archived_at.is_some());
    assert_eq!(event_types(&w), vec![EventType::PersonCreated, EventType::PersonArchived]);
    assert_eq!(
        code(block_on(w.svc.admin_archive_person(PersonId(uuid::Uuid::from_u128(9)), ArchiveReason::Deactivated))),
        Code::NotFound
    );
}

// ---------------------------------------------------------------------------------------------
// Authentication and authorization: spec Authentication 1-7, Errors; D4, D5, D41
// ---------------------------------------------------------------------------------------------

fn user(w: &World, org: OrgId, mail: &str, role: OrgRole) -> User {
    block_on(w.svc.create_user(org, email(mail), role)).unwrap()
}

fn key(w: &World, u: &User, scopes: &[Scope], expires_at: Option<OffsetDateTime>) -> CreatedKey {
    block_on(w.svc.create_api_key(u.id, None, Scopes::new(scopes.to_vec()), expires_at)).unwrap()
}

fn auth(w: &World, header: Option<&str>) -> Result<Principal, UseCaseError> {
    block_on(w.svc.authenticate(header))
}

fn principal(w: &World, value: &str) -> Principal {
    auth(w, Some(&format!("Bearer {value}"))).unwrap()
}

const READ_PERSONS: Requirement = Requirement { scope: Some(Scope::PersonsRead), write: false };
const WRITE_PERSONS: Requirement = Requirement { scope: Some(Scope::PersonsWrite), write: true };
const ME: Requirement = Requirement { scope: None, write: false };

#[test]
fn a_missing_authorization_header_is_unauthorized() {
    // Spec Errors: `unauthorized` = key missing.
    let w = world();
    assert_eq!(code(auth(&w, None)), Code::Unauthorized);
}

#[test]
fn a_malformed_or_non_bearer_header_is_an_invalid_token() {
    // Spec Authentication 1 (Bearer only) and D41 key format; Errors: `invalid_token`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsRead], None);
    for h in [
        "Basic x".to_string(),
        format!("Basic {}", k.value),
        "Bearer".to_string(),
        "Bearer tk_short".to_string(),
        "Bearer not-a-key".to_string(),
        k.value.clone(),
        format!("Bearer {}+", &k.value[..k.value.len() - 1]),
    ] {
        assert_eq!(code(auth(&w, Some(&h))), Code::InvalidToken, "{h}");
    }
}

#[test]
fn an_unknown_key_or_a_wrong_secret_is_an_invalid_token() {
    // Spec Errors: `invalid_token` = key unknown; D41: lookup by prefix, then hash comparison.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsRead], None);
    let unknown = format!("Bearer tk_{}", "z".repeat(59));
    assert_eq!(code(auth(&w, Some(&unknown))), Code::InvalidToken);
    let wrong_secret = format!("Bearer {}x", &k.value[..k.value.len() - 1]);
    assert_ne!(wrong_secret, format!("Bearer {}", k.value));
    assert_eq!(code(auth(&w, Some(&wrong_secret))), Code::InvalidToken);
}

#[test]
fn a_revoked_key_is_refused_with_key_revoked() {
    // Spec Authentication 2 (revocation takes effect immediately); Errors: `key_revoked`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsRead], None);
    principal(&w, &k.value);
    let r = block_on(w.svc.revoke_api_key(k.key.id)).unwrap();
    assert!(r.revoked_at.is_some());
    assert_eq!(code(auth(&w, Some(&format!("Bearer {}", k.value)))), Code::KeyRevoked);
    // Revoking again changes nothing.
    assert_eq!(block_on(w.svc.revoke_api_key(k.key.id)).unwrap().revoked_at, r.revoked_at);
}

#[test]
fn an_expired_key_is_refused_with_key_expired() {
    // Spec Authentication 4 (optional expiry); Errors: `key_expired`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let expires = w.clock.now() + Duration::hours(1);
    let k = key(&w, &u, &[Scope::PersonsRead], Some(expires));
    assert_eq!(k.key.expires_at, Some(expires));
    principal(&w, &k.value);
    w.clock.advance(Duration::hours(2));
    assert_eq!(code(auth(&w, Some(&format!("Bearer {}", k.value)))), Code::KeyExpired);
}

#[test]
fn a_valid_key_authenticates_to_its_user_organization_and_plan() {
    // Spec Authentication 1; GET /me key identity fields.
    let w = world();
    let u = user(&w, w.org, "member@acme.test", OrgRole::Member);
    let k = key(&w, &u, &[Scope::PersonsWrite, Scope::OrganizationRead], None);
    assert!(k.value.starts_with("tk_"));
    assert!(k.value.len() >= 43, "D41: tk_ and at least 40 characters");
    let p = principal(&w, &k.value);
    assert_eq!(p.ctx.key.id, k.key.id);
    assert_eq!(p.ctx.key.user_id, u.id);
    assert_eq!(p.ctx.org.id, w.org);
    assert_eq!(p.ctx.role, OrgRole::Member);
    assert_eq!(p.plan.as_ref().map(|pl| pl.id.as_str()), Some("professional"));
    let me = talent_domain::wire::key_identity_json(&p.ctx);
    assert_eq!(me["scopes"], json!(["organization:read", "persons:write"]));
    assert_eq!(me["organizationRole"], json!("member"));
    assert_eq!(me["plan"], json!("professional"));
    // The scheme is case-insensitive.
    assert_eq!(auth(&w, Some(&format!("bearer {}", k.value))).unwrap().ctx.key.id, k.key.id);
}

#[test]
fn a_starter_plan_key_gets_plan_upgrade_required_even_on_me() {
    // D5: every endpoint, `/me` included.
    let w = world_with(PlanCatalogue::default(), "starter", SubscriptionStatus::Active, &[]);
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &Scope::ALL, None);
    let p = principal(&w, &k.value);
    assert_eq!(p.authorize(ME).unwrap_err().code, Code::PlanUpgradeRequired);
    assert_eq!(p.authorize(READ_PERSONS).unwrap_err().code, Code::PlanUpgradeRequired);
    assert_eq!(p.authorize(WRITE_PERSONS).unwrap_err().code, Code::PlanUpgradeRequired);
}

#[test]
fn a_key_without_the_required_scope_gets_insufficient_scope() {
    // Spec Authentication 7; Errors: `insufficient_scope`. `/me` requires no scope.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::OrganizationRead, Scope::PersonsRead], None);
    let p = principal(&w, &k.value);
    assert_eq!(p.authorize(ME), Ok(()));
    assert_eq!(p.authorize(READ_PERSONS), Ok(()));
    let e = p.authorize(WRITE_PERSONS).unwrap_err();
    assert_eq!(e.code, Code::InsufficientScope);
    assert_eq!(e.details, Some(json!({"requiredScope": "persons:write"})));
    let e = p.authorize(Requirement { scope: Some(Scope::ResultsRead), write: false }).unwrap_err();
    assert_eq!(e.code, Code::InsufficientScope);
}

#[test]
fn persons_write_implies_persons_read() {
    // Spec Authentication 7: a `*:write` scope implies the matching `*:read`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let p = principal(&w, &key(&w, &u, &[Scope::PersonsWrite], None).value);
    assert_eq!(p.authorize(READ_PERSONS), Ok(()));
    assert_eq!(p.authorize(WRITE_PERSONS), Ok(()));
    assert_eq!(
        p.authorize(Requirement { scope: Some(Scope::OrganizationRead), write: false }).unwrap_err().code,
        Code::InsufficientScope
    );
}

#[test]
fn writes_with_an_inactive_subscription_get_subscription_inactive_while_reads_pass() {
    // D4: `trial_expired`, `needs_plan`, `canceled` refuse writes; reads always work.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsWrite], None);
    for status in [SubscriptionStatus::Canceled, SubscriptionStatus::TrialExpired, SubscriptionStatus::NeedsPlan] {
        set_subscription(&w, status);
        let p = principal(&w, &k.value);
        let e = p.authorize(WRITE_PERSONS).unwrap_err();
        assert_eq!(e.code, Code::SubscriptionInactive, "{status:?}");
        assert_eq!(e.details, Some(json!({"status": status.as_str()})));
        assert_eq!(p.authorize(READ_PERSONS), Ok(()), "{status:?}");
        assert_eq!(p.authorize(ME), Ok(()), "{status:?}");
    }
}

#[test]
fn writes_are_allowed_while_trialing_active_or_past_due() {
    // D4: `trialing`, `active`, `past_due` allow writes.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsWrite], None);
    for status in [SubscriptionStatus::PastDue, SubscriptionStatus::Trialing, SubscriptionStatus::Active] {
        set_subscription(&w, status);
        assert_eq!(principal(&w, &k.value).authorize(WRITE_PERSONS), Ok(()), "{status:?}");
    }
}

#[test]
fn a_missing_scope_is_reported_before_an_inactive_subscription() {
    // Principal::authorize order: plan, scope, subscription.
    let w = world_with(PlanCatalogue::default(), "professional", SubscriptionStatus::Canceled, &[]);
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let p = principal(&w, &key(&w, &u, &[Scope::PersonsRead], None).value);
    assert_eq!(p.authorize(WRITE_PERSONS).unwrap_err().code, Code::InsufficientScope);
}

// ---------------------------------------------------------------------------------------------
// API keys: spec Authentication 3-5; D39
// ---------------------------------------------------------------------------------------------

#[test]
fn the_eleventh_active_key_of_a_user_is_a_conflict_and_a_revoked_key_frees_a_slot() {
    // Spec Authentication 3 (at most 10 active keys per user); D39: the 11th gives 409 `conflict`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let keys: Vec<CreatedKey> = (0..10).map(|_| key(&w, &u, &[Scope::PersonsRead], None)).collect();
    let create = || block_on(w.svc.create_api_key(u.id, None, Scopes::new(vec![Scope::PersonsRead]), None));
    let e = client_err(create());
    assert_eq!(e.code, Code::Conflict);
    assert_eq!(e.details, Some(json!({"active": 10, "limit": 10})));
    assert_eq!(w.store.snapshot().keys.len(), 10);

    // Another user has their own 10.
    let v = user(&w, w.org, "member@acme.test", OrgRole::Member);
    key(&w, &v, &[Scope::PersonsRead], None);

    block_on(w.svc.revoke_api_key(keys[3].key.id)).unwrap();
    let eleventh = create().unwrap();
    principal(&w, &eleventh.value);
    assert_eq!(code(create()), Code::Conflict);
}

#[test]
fn an_expired_key_frees_a_slot() {
    // Spec Authentication 3: only active keys count; an expired key is not active.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    key(&w, &u, &[Scope::PersonsRead], Some(w.clock.now() + Duration::minutes(10)));
    for _ in 0..9 {
        key(&w, &u, &[Scope::PersonsRead], None);
    }
    let create = || block_on(w.svc.create_api_key(u.id, None, Scopes::new(vec![Scope::PersonsRead]), None));
    assert_eq!(code(create()), Code::Conflict);
    w.clock.advance(Duration::minutes(11));
    assert!(create().is_ok());
}

#[test]
fn a_webhooks_manage_key_requires_an_administrator() {
    // Spec Authentication 5; D39: `webhooks:manage` for a member gives 403 `insufficient_scope`.
    let w = world();
    let m = user(&w, w.org, "member@acme.test", OrgRole::Member);
    let a = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let r =
        block_on(w.svc.create_api_key(m.id, None, Scopes::new(vec![Scope::PersonsRead, Scope::WebhooksManage]), None));
    assert_eq!(code(r), Code::InsufficientScope);
    assert!(w.store.snapshot().keys.is_empty());
    let k = block_on(w.svc.create_api_key(a.id, Some("hooks".into()), Scopes::new(vec![Scope::WebhooksManage]), None))
        .unwrap();
    assert_eq!(k.key.scopes.to_strings(), vec!["webhooks:manage"]);
    assert_eq!(k.key.name.as_deref(), Some("hooks"));
    // A member may create keys with any other scope.
    let all_but: Vec<Scope> = Scope::ALL.into_iter().filter(|s| *s != Scope::WebhooksManage).collect();
    key(&w, &m, &all_but, None);
}

#[test]
fn a_key_expiry_in_the_past_is_a_validation_error() {
    // Spec Authentication 4; D37 details shape.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let past = w.clock.now() - Duration::seconds(1);
    let e = client_err(block_on(w.svc.create_api_key(u.id, None, Scopes::new(vec![Scope::PersonsRead]), Some(past))));
    assert_eq!(e.code, Code::ValidationError);
    assert_eq!(e.details, Some(json!({"fields": [{"field": "expiresAt", "message": "must be in the future"}]})));
    assert!(w.store.snapshot().keys.is_empty());
}

#[test]
fn a_key_for_an_unknown_user_is_not_found() {
    let w = world();
    let r = block_on(w.svc.create_api_key(
        UserId(uuid::Uuid::from_u128(5)),
        None,
        Scopes::new(vec![Scope::PersonsRead]),
        None,
    ));
    assert_eq!(code(r), Code::NotFound);
}

// ---------------------------------------------------------------------------------------------
// Idempotency: D38
// ---------------------------------------------------------------------------------------------

const PATH: &str = "/api/v1/persons";

fn req(org: OrgId, path: &str, key: &str, hash: &str) -> IdempotentRequest {
    IdempotentRequest { org_id: org, path: path.into(), key: key.into(), request_hash: hash.into() }
}

fn begin(w: &World, org: OrgId, path: &str, key: &str, hash: &str) -> Result<IdempotencyBegin, UseCaseError> {
    block_on(w.svc.idempotency_begin(req(org, path, key, hash)))
}

fn finish(w: &World, key: &str, hash: &str, status: u16, body: &str, existing: bool) {
    let resp = StoredResponse { status, body: body.into(), existing_resource: existing };
    block_on(w.svc.idempotency_finish(req(w.org, PATH, key, hash), resp)).unwrap();
}

#[test]
fn a_new_idempotency_key_proceeds() {
    // D38.
    let w = world();
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(w.store.snapshot().idem.len(), 1);
}

#[test]
fn the_same_key_while_the_first_request_runs_is_a_conflict() {
    // D38: same key while the first request is still running: 409 `conflict`.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h1")), Code::Conflict);
}

#[test]
fn the_same_key_with_a_different_body_is_idempotency_key_reused() {
    // D38: different body: 409 `idempotency_key_reused` (in flight or done).
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h2")), Code::IdempotencyKeyReused);
    finish(&w, "k1", "h1", 201, "{}", false);
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h2")), Code::IdempotencyKeyReused);
}

#[test]
fn a_stored_response_is_replayed_for_the_same_key_and_body() {
    // D38: the stored status, body and X-Existing-Resource are replayed.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    finish(&w, "k1", "h1", 201, r#"{"id":"p1"}"#, false);
    let expected = IdempotencyBegin::Replay { status: 201, body: r#"{"id":"p1"}"#.into(), existing_resource: false };
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), expected);
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), expected, "replays again");

    begin(&w, w.org, PATH, "k2", "h9").unwrap();
    finish(&w, "k2", "h9", 200, r#"{"id":"p2"}"#, true);
    assert_eq!(
        begin(&w, w.org, PATH, "k2", "h9").unwrap(),
        IdempotencyBegin::Replay { status: 200, body: r#"{"id":"p2"}"#.into(), existing_resource: true }
    );

    // A business 409 (e.g. person_limit_reached) began executing: it is stored.
    begin(&w, w.org, PATH, "k3", "h3").unwrap();
    finish(&w, "k3", "h3", 409, r#"{"code":"person_limit_reached"}"#, false);
    assert!(matches!(begin(&w, w.org, PATH, "k3", "h3").unwrap(), IdempotencyBegin::Replay { status: 409, .. }));
}

#[test]
fn responses_that_are_not_stored_let_a_retry_proceed() {
    // D38: 400, 401, 403, 429 and 5xx are not stored.
    let w = world();
    for (i, status) in [400u16, 401, 403, 429, 500, 503].into_iter().enumerate() {
        let k = format!("k{i}");
        assert_eq!(begin(&w, w.org, PATH, &k, "h1").unwrap(), IdempotencyBegin::Proceed);
        finish(&w, &k, "h1", status, "{}", false);
        assert_eq!(begin(&w, w.org, PATH, &k, "h1").unwrap(), IdempotencyBegin::Proceed, "{status}");
        // A retry may even carry a different body.
        finish(&w, &k, "h1", status, "{}", false);
        assert_eq!(begin(&w, w.org, PATH, &k, "h2").unwrap(), IdempotencyBegin::Proceed, "{status}");
    }
}

#[test]
fn an_idempotency_key_is_scoped_by_organization_and_path() {
    // D38: scope organization and path.
    let w = world();
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    finish(&w, "k1", "h1", 201, "{}", false);
    assert_eq!(begin(&w, other, PATH, "k1", "h2").unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(begin(&w, w.org, "/api/v1/invitations", "k1", "h2").unwrap(), IdempotencyBegin::Proceed);
}

#[test]
fn a_stored_response_is_forgotten_after_24_hours() {
    // D38: kept 24 h.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    finish(&w, "k1", "h1", 201, "{}", false);
    w.clock.advance(Duration::hours(23) + Duration::minutes(59));
    assert!(matches!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), IdempotencyBegin::Replay { .. }));
    w.clock.advance(Duration::minutes(2));
    assert_eq!(begin(&w, w.org, PATH, "k1", "h2").unwrap(), IdempotencyBegin::Proceed);
    // The new request is now in flight under that key.
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h2")), Code::Conflict);
}

#[test]
fn an_in_flight_record_older_than_the_lease_is_taken_over() {
    // D38 with the in-flight lease: a request that died does not block its key for 24 h.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    w.clock.advance(Duration::minutes(4));
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h1")), Code::Conflict);
    w.clock.advance(Duration::minutes(2));
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h1")), Code::Conflict);
}

#[test]
fn purging_removes_only_records_older_than_24_hours() {
    // D38: kept 24 h (background purge).
    let w = world();
    begin(&w, w.org, PATH, "old", "h").unwrap();
    w.clock.advance(Duration::hours(25));
    begin(&w, w.org, PATH, "new", "h").unwrap();
    assert_eq!(block_on(w.svc.idempotency_purge()).unwrap(), 1);
    let keys: Vec<String> = w.store.snapshot().idem.into_iter().map(|r| r.key).collect();
    assert_eq!(keys, vec!["new"]);
}

// ---------------------------------------------------------------------------------------------
// GET /persons: spec query parameters; D36
// ---------------------------------------------------------------------------------------------

struct Pool {
    w: World,
    ada: Person,
    grace: Person,
    linus: Person,
    ken: Person,
    dennis: Person,
}

/// Five persons, created in this order; dennis is archived.
fn pool() -> Pool {
    let w = world();
    let ada = imported(
        &w,
        ImportPerson {
            first_name: Some(name("Ada")),
            last_name: Some(name("Lovelace")),
            external_id: Some(ext("ext-1")),
            tags: tags(&["Rust"]),
            ..import("ada@example.org")
        },
    );
    let grace = imported(
        &w,
        ImportPerson {
            first_name: Some(name("Grace")),
            last_name: Some(name("Hopper")),
            labels: Some(labels(&["employee"])),
            tags: tags(&["rust", "cobol"]),
            ..import("grace@navy.mil")
        },
    );
    let linus = imported(&w, ImportPerson { labels: Some(labels(&[])), ..import("linus@kernel.org") });
    let ken = imported(
        &w,
        ImportPerson {
            first_name: Some(name("Ken")),
            labels: Some(labels(&["candidate", "employee"])),
            ..import("ken@bell-labs.com")
        },
    );
    let dennis = imported(
        &w,
        ImportPerson { first_name: Some(name("Dennis")), tags: tags(&["C"]), ..import("dennis@bell-labs.com") },
    );
    let dennis = block_on(w.svc.archive_person(w.org, dennis.id)).unwrap();
    // Noise in another organization.
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    block_on(w.svc.import_person(other, ImportPerson { tags: tags(&["rust"]), ..import("ada@example.org") })).unwrap();
    Pool { w, ada, grace, linus, ken, dennis }
}

impl Pool {
    fn q(&self) -> PersonQuery {
        PersonQuery { org_id: Some(self.w.org), limit: 25, ..Default::default() }
    }
    fn ids(&self, q: PersonQuery) -> Vec<PersonId> {
        block_on(self.w.svc.list_persons(q)).unwrap().items.iter().map(|p| p.id).collect()
    }
}

#[test]
fn listing_returns_active_persons_of_the_organization_newest_first() {
    // Spec GET /persons: newest first, status default active; D36.
    let p = pool();
    let page = block_on(p.w.svc.list_persons(p.q())).unwrap();
    assert_eq!(page.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.ken.id, p.linus.id, p.grace.id, p.ada.id]);
    assert!(!page.has_more);
    assert_eq!(page.items[3], p.ada, "full persons are returned");
    assert!(page.items.iter().all(|x| x.org_id == p.w.org));
}

#[test]
fn listing_paginates_with_before_id_and_reports_has_more() {
    // D36 keyset pagination; spec pagination.hasMore.
    let p = pool();
    let page1 = block_on(p.w.svc.list_persons(PersonQuery { limit: 2, ..p.q() })).unwrap();
    assert_eq!(page1.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.ken.id, p.linus.id]);
    assert!(page1.has_more);
    let page2 = block_on(p.w.svc.list_persons(PersonQuery { limit: 2, before_id: Some(p.linus.id), ..p.q() })).unwrap();
    assert_eq!(page2.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.grace.id, p.ada.id]);
    assert!(!page2.has_more, "exactly the last two");
    let page3 = block_on(p.w.svc.list_persons(PersonQuery { limit: 1, before_id: Some(p.grace.id), ..p.q() })).unwrap();
    assert_eq!(page3.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.ada.id]);
    assert!(!page3.has_more);
    let exact = block_on(p.w.svc.list_persons(PersonQuery { limit: 4, ..p.q() })).unwrap();
    assert_eq!(exact.items.len(), 4);
    assert!(!exact.has_more);
    let short = block_on(p.w.svc.list_persons(PersonQuery { limit: 3, ..p.q() })).unwrap();
    assert_eq!(short.items.len(), 3);
    assert!(short.has_more);
}

#[test]
fn listing_filters_by_status_email_and_external_id() {
    // Spec GET /persons: status, email (exact), externalId (exact).
    let p = pool();
    assert_eq!(p.ids(PersonQuery { status: Some(PersonStatus::Archived), ..p.q() }), vec![p.dennis.id]);
    assert_eq!(p.ids(PersonQuery { status: Some(PersonStatus::Active), ..p.q() }).len(), 4);
    assert_eq!(p.ids(PersonQuery { email: Some(email(" Grace@Navy.MIL")), ..p.q() }), vec![p.grace.id]);
    assert_eq!(p.ids(PersonQuery { email: Some(email("dennis@bell-labs.com")), ..p.q() }), Vec::<PersonId>::new());
    assert_eq!(
        p.ids(PersonQuery {
            email: Some(email("dennis@bell-labs.com")),
            status: Some(PersonStatus::Archived),
            ..p.q()
        }),
        vec![p.dennis.id]
    );
    assert_eq!(p.ids(PersonQuery { external_id: Some("ext-1".into()), ..p.q() }), vec![p.ada.id]);
    assert_eq!(p.ids(PersonQuery { external_id: Some("EXT-1".into()), ..p.q() }), Vec::<PersonId>::new());
}

#[test]
fn listing_filters_by_label_including_other() {
    // Spec GET /persons label: `other` matches persons without any label.
    let p = pool();
    assert_eq!(p.ids(PersonQuery { label: Some(LabelFilter::Candidate), ..p.q() }), vec![p.ken.id, p.ada.id]);
    assert_eq!(p.ids(PersonQuery { label: Some(LabelFilter::Employee), ..p.q() }), vec![p.ken.id, p.grace.id]);
    assert_eq!(p.ids(PersonQuery { label: Some(LabelFilter::Other), ..p.q() }), vec![p.linus.id]);
}

#[test]
fn listing_filters_by_tag_case_insensitively() {
    // Spec GET /persons tag: case-insensitive exact match (the caller lower-cases); D14.
    let p = pool();
    assert_eq!(p.ids(PersonQuery { tag_key: Some("rust".into()), ..p.q() }), vec![p.grace.id, p.ada.id]);
    assert_eq!(p.ids(PersonQuery { tag_key: Some("cobol".into()), ..p.q() }), vec![p.grace.id]);
    assert_eq!(p.ids(PersonQuery { tag_key: Some("rus".into()), ..p.q() }), Vec::<PersonId>::new());
    assert_eq!(p.ids(PersonQuery { tag_key: Some("c".into()), ..p.q() }), Vec::<PersonId>::new(), "archived dennis");
}

#[test]
fn listing_searches_q_as_a_substring_of_names_and_email() {
    // Spec GET /persons q: case-insensitive substring across first name, last name and email.
    let p = pool();
    assert_eq!(p.ids(PersonQuery { q: Some("ada".into()), ..p.q() }), vec![p.ada.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("hopp".into()), ..p.q() }), vec![p.grace.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("bell-labs".into()), ..p.q() }), vec![p.ken.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("kernel".into()), ..p.q() }), vec![p.linus.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("e".into()), ..p.q() }), vec![p.ken.id, p.linus.id, p.grace.id, p.ada.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("zzz".into()), ..p.q() }), Vec::<PersonId>::new());
    assert_eq!(
        p.ids(PersonQuery { q: Some("e".into()), label: Some(LabelFilter::Employee), limit: 1, ..p.q() }),
        vec![p.ken.id],
        "filters combine"
    );
}

#[test]
fn listing_filters_by_updated_after_exclusively() {
    // Spec GET /persons updatedAfter: only persons changed after this moment (incremental sync).
    let p = pool();
    let mark = p.ken.updated_at;
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark), ..p.q() }), Vec::<PersonId>::new(), "exclusive");
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark - Duration::microseconds(1)), ..p.q() }), vec![p.ken.id]);
    p.w.clock.advance(Duration::seconds(1));
    patch(&p.w, p.ada.id, PatchPerson { external_id: Some(None), ..Default::default() }).unwrap();
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark), ..p.q() }), vec![p.ada.id]);
    // A no-op patch does not make a person show up.
    patch(&p.w, p.grace.id, PatchPerson { labels: Some(labels(&["employee"])), ..Default::default() }).unwrap();
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark), ..p.q() }), vec![p.ada.id]);
}

// ---------------------------------------------------------------------------------------------
// Organization usage: D6
// ---------------------------------------------------------------------------------------------

fn usage(w: &World) -> Usage {
    block_on(w.svc.organization(w.org)).unwrap().1
}

#[test]
fn usage_counts_active_persons_and_blocks_imports_at_the_limit() {
    // D6: importBlocked when used >= limit; an archived person frees a seat.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    assert_eq!(
        usage(&w),
        Usage { persons_used: 0, persons_limit: 3, import_blocked: false, profiles_used: 0, profiles_limit: 25 }
    );
    let a = imported(&w, import("a@example.com"));
    imported(&w, import("b@example.com"));
    assert_eq!((usage(&w).persons_used, usage(&w).import_blocked), (2, false));
    imported(&w, import("c@example.com"));
    assert_eq!((usage(&w).persons_used, usage(&w).import_blocked), (3, true));
    block_on(w.svc.archive_person(w.org, a.id)).unwrap();
    assert_eq!((usage(&w).persons_used, usage(&w).import_blocked), (2, false));

    let (org, u) = block_on(w.svc.organization(w.org)).unwrap();
    let j = organization_json(&org, &u);
    assert_eq!(j["usage"]["persons"], json!({"used": 2, "limit": 3, "importBlocked": false}));
    assert_eq!(j["subscription"]["plan"], json!("professional"));
}

#[test]
fn usage_blocks_imports_while_the_subscription_is_inactive() {
    // D6 with D4: importBlocked when writes are refused.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    imported(&w, import("a@example.com"));
    for (status, blocked) in [
        (SubscriptionStatus::Canceled, true),
        (SubscriptionStatus::TrialExpired, true),
        (SubscriptionStatus::NeedsPlan, true),
        (SubscriptionStatus::PastDue, false),
        (SubscriptionStatus::Trialing, false),
        (SubscriptionStatus::Active, false),
    ] {
        set_subscription(&w, status);
        let u = usage(&w);
        assert_eq!(u.import_blocked, blocked, "{status:?}");
        assert_eq!(u.persons_used, 1);
    }
}

#[test]
fn the_usage_of_an_unknown_organization_is_not_found() {
    let w = world();
    assert_eq!(code(block_on(w.svc.organization(OrgId(uuid::Uuid::from_u128(3))))), Code::NotFound);
}

#[test]
fn an_imported_persons_timestamps_are_read_once_the_transaction_begins_not_before_it_waits_t66() {
    let mut w = world();
    let mut store = w.store.clone();
    let clock = w.clock.clone();
    // Every write waits 5 s for its connection before it begins.
    store.on_begin = Some(Arc::new(move || clock.advance(Duration::seconds(5))));
    w.svc.store = Arc::new(store);
    let asked = w.clock.now();
    let p = imported(&w, import("late@example.com"));
    assert!(p.member_since >= asked + Duration::seconds(5), "{} vs {asked}", p.member_since);
    assert_eq!(p.updated_at, p.member_since);
    let events = w.store.snapshot().events;
    let created = events.iter().find(|e| e.data["id"] == json!(p.id.0.to_string())).unwrap();
    assert_eq!(created.created_at, p.member_since, "the event's createdAt is the person's");
}
