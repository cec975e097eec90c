//! Use-case tests of the domain over the in-memory fakes (no database, no async runtime).
//! Each test cites the spec row or the decision (D-number, `/work/shared/spec/decisions.md`) it
//! checks.
//!
//! One test binary in topic modules: `persons` (import, the employee domain rule, tags, PATCH,
//! DELETE), `access` (authentication, authorization, API keys), `idempotency`, `listing`
//! (`GET /persons`, organization usage). The helpers below are shared.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod access;
mod idempotency;
mod listing;
mod persons;

use serde_json::json;
use std::sync::Arc;
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::events::{EventType, OutboxEvent};
use talent_domain::fakes::{block_on, services, FakeClock, FakeStore};
use talent_domain::ids::*;
use talent_domain::organization::{Usage, User};
use talent_domain::person::{ArchiveReason, JoinedVia, Person, PersonStatus};
use talent_domain::ports::{Clock, IdempotencyState, LabelFilter, PersonQuery};
use talent_domain::results::AssessmentSummary;
use talent_domain::usecases::access::{Principal, Requirement};
use talent_domain::usecases::idempotency::{Claim, IdempotencyBegin, IdempotentRequest, Keyed, StoredResponse};
use talent_domain::usecases::orgs::{CreatedKey, NewOrganization, OrganizationPatch};
use talent_domain::usecases::persons::{ImportOutcome, ImportPerson, PatchPerson};
use talent_domain::values::*;
use talent_domain::wire::{organization_json, person_json};
use talent_domain::Services;
use time::{Duration, OffsetDateTime};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

pub(crate) type Svc = Services<FakeStore>;

pub(crate) struct World {
    svc: Svc,
    store: FakeStore,
    clock: Arc<FakeClock>,
    org: OrgId,
}

pub(crate) fn email(s: &str) -> Email {
    Email::parse(s).unwrap()
}

pub(crate) fn name(s: &str) -> PersonName {
    PersonName::parse(s).unwrap()
}

pub(crate) fn ext(s: &str) -> ExternalId {
    ExternalId::parse(s).unwrap()
}

pub(crate) fn labels(v: &[&str]) -> Labels {
    Labels::parse(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
}

pub(crate) fn tags(v: &[&str]) -> Vec<TagName> {
    v.iter().map(|s| TagName::parse(s).unwrap()).collect()
}

pub(crate) fn tag_names(p: &Person) -> Vec<&str> {
    p.tags.iter().map(|t| t.name.as_str()).collect()
}

pub(crate) fn plan(id: &str, api_access: bool, person_limit: u32) -> Plan {
    Plan { id: id.into(), api_access, person_limit, profile_limit: 25, org_rpm: 120, key_rpm: 60, org_only_rpm: 60 }
}

/// A catalogue where `professional` allows only 3 persons, so limits are quick to reach.
pub(crate) fn small_catalogue() -> PlanCatalogue {
    PlanCatalogue::new(vec![plan("starter", false, 50), plan("professional", true, 3), plan("business", true, 5_000)])
}

pub(crate) fn new_org(svc: &Svc, plan: &str, status: SubscriptionStatus, domains: &[&str]) -> OrgId {
    let (org, _) = block_on(svc.create_organization(NewOrganization {
        subscription_status: Some(status),
        employee_domains: domains.iter().map(|d| d.to_string()).collect(),
        ..NewOrganization::new("Acme", email("hr@acme.test"), plan)
    }))
    .unwrap();
    org.id
}

pub(crate) fn world_with(plans: PlanCatalogue, plan: &str, status: SubscriptionStatus, domains: &[&str]) -> World {
    let (mut svc, store, clock) = services();
    svc.plans = plans;
    let org = new_org(&svc, plan, status, domains);
    World { svc, store, clock, org }
}

/// An active professional organization with the default catalogue (D5).
pub(crate) fn world() -> World {
    world_with(PlanCatalogue::default(), "professional", SubscriptionStatus::Active, &[])
}

pub(crate) fn import(e: &str) -> ImportPerson {
    ImportPerson::new(email(e))
}

pub(crate) fn imported(w: &World, input: ImportPerson) -> Person {
    block_on(w.svc.import_person(w.org, input)).unwrap().person
}

/// The client error of a failed use case.
pub(crate) fn client_err<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> ClientError {
    match r {
        Err(UseCaseError::Client(c)) => c,
        other => panic!("expected a client error, got {other:?}"),
    }
}

pub(crate) fn code<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> Code {
    client_err(r).code
}

pub(crate) fn events(w: &World) -> Vec<OutboxEvent> {
    w.store.snapshot().events.into_iter().filter(|e| e.org_id == w.org).collect()
}

pub(crate) fn event_types(w: &World) -> Vec<EventType> {
    events(w).iter().map(|e| e.event_type).collect()
}

pub(crate) fn get(w: &World, id: PersonId) -> Person {
    block_on(w.svc.get_person(w.org, id)).unwrap()
}

pub(crate) fn patch(w: &World, id: PersonId, p: PatchPerson) -> Result<Person, UseCaseError> {
    block_on(w.svc.patch_person(w.org, id, p))
}

pub(crate) fn set_subscription(w: &World, status: SubscriptionStatus) {
    block_on(
        w.svc.patch_organization(w.org, OrganizationPatch { subscription_status: Some(status), ..Default::default() }),
    )
    .unwrap();
}

/// The persisted rows a failed use case must not touch.
#[derive(Debug, PartialEq)]
pub(crate) struct Rows {
    persons: Vec<Person>,
    tags: Vec<(OrgId, Tag)>,
    humans: Vec<(HumanId, String)>,
    events: Vec<OutboxEvent>,
    team_members: Vec<(TeamId, PersonId)>,
}

pub(crate) fn rows(store: &FakeStore) -> Rows {
    let s = store.snapshot();
    Rows { persons: s.persons, tags: s.tags, humans: s.humans, events: s.events, team_members: s.team_members }
}
