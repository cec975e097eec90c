//! Use-case tests of assessments, results, profiles and matches over the in-memory fakes (no
//! database, no async runtime). Each test cites the decision (D-number,
//! `/work/shared/spec/decisions.md`) or the spec section it checks; `docs/scoring.md` gives the
//! formulas recomputed by hand here.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use talent_domain::assessment::{
    band, category, match_percentage, need_counts, score, seed_responses, AssessmentModel, MatchCategory, Response,
    Scores,
};
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::events::{EventType, OutboxEvent};
use talent_domain::fakes::{block_on, services, FakeClock, FakeStore};
use talent_domain::ids::*;
use talent_domain::person::{ArchiveReason, Person};
use talent_domain::ports::Store;
use talent_domain::results::{
    Assessment, AssessmentState, AssessmentStatus, AssessmentSummary, Profile, ProfileCompetency,
};
use talent_domain::timefmt::format;
use talent_domain::usecases::assessments::{AssessmentCommand, Match, NewProfile};
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::usecases::persons::ImportPerson;
use talent_domain::values::*;
use talent_domain::Services;
use time::Duration;
use uuid::Uuid;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Svc = Services<FakeStore>;

struct World {
    svc: Svc,
    store: FakeStore,
    clock: Arc<FakeClock>,
}

fn world() -> World {
    let (svc, store, clock) = services();
    World { svc, store, clock }
}

fn world_with(plans: PlanCatalogue) -> World {
    let (mut svc, store, clock) = services();
    svc.plans = plans;
    World { svc, store, clock }
}

impl World {
    fn org(&self, plan: &str) -> OrgId {
        let (org, _) = block_on(self.svc.create_organization(NewOrganization {
            subscription_status: Some(SubscriptionStatus::Active),
            ..NewOrganization::new("Acme", Email::parse("hr@acme.test").unwrap(), plan)
        }))
        .unwrap();
        org.id
    }

    fn import(&self, org: OrgId, email: &str, external_id: Option<&str>) -> Person {
        block_on(self.svc.import_person(
            org,
            ImportPerson {
                external_id: external_id.map(|x| ExternalId::parse(x).unwrap()),
                ..ImportPerson::new(Email::parse(email).unwrap())
            },
        ))
        .unwrap()
        .person
    }

    /// A membership the person establishes herself (D51 rule (b)): she accepts the
    /// organization's invitation (`joinedVia: invitation_personal`).
    fn join(&self, org: OrgId, email: &str) -> Person {
        self.join_as(org, email, None)
    }

    /// [`World::join`] with an `externalId` the invitation applies.
    fn join_as(&self, org: OrgId, email: &str, external_id: Option<&str>) -> Person {
        let inv = block_on(self.svc.create_invitation(
            org,
            talent_domain::usecases::invitations::NewInvitation {
                external_id: external_id.map(|x| ExternalId::parse(x).unwrap()),
                ..talent_domain::usecases::invitations::NewInvitation::new(Email::parse(email).unwrap(), false)
            },
        ))
        .unwrap()
        .0;
        block_on(self.svc.accept_invitation(inv.invitation.id, false)).unwrap().1
    }

    fn get(&self, org: OrgId, id: PersonId) -> Person {
        block_on(self.svc.get_person(org, id)).unwrap()
    }

    fn run(&self, person: PersonId, cmd: AssessmentCommand) -> Result<Assessment, UseCaseError> {
        block_on(self.svc.admin_assessment(person, cmd))
    }

    fn start(&self, person: PersonId) -> Assessment {
        self.run(person, AssessmentCommand { complete: false, responses: None, seed: None }).unwrap()
    }

    fn complete_seed(&self, person: PersonId, seed: u64) -> Assessment {
        self.run(person, AssessmentCommand { complete: true, responses: None, seed: Some(seed) }).unwrap()
    }

    fn complete_with(&self, person: PersonId, responses: Vec<Response>) -> Assessment {
        self.run(person, AssessmentCommand { complete: true, responses: Some(responses), seed: None }).unwrap()
    }

    /// Moves the clock on, so "before" and "after" a membership are distinct instants.
    fn later(&self) {
        self.clock.advance(Duration::minutes(5));
    }

    fn completed_events(&self, org: OrgId) -> Vec<OutboxEvent> {
        self.store
            .snapshot()
            .events
            .into_iter()
            .filter(|e| e.org_id == org && e.event_type == EventType::AssessmentCompleted)
            .collect()
    }

    fn profile(&self, org: OrgId, name: &str, comps: &[(Uuid, f64)]) -> Result<Profile, UseCaseError> {
        block_on(self.svc.create_profile(org, new_profile(name, comps)))
    }
}

fn new_profile(name: &str, comps: &[(Uuid, f64)]) -> NewProfile {
    NewProfile {
        name: name.into(),
        description: Some(format!("{name} role")),
        competencies: comps.iter().map(|(id, w)| ProfileCompetency { competency_id: *id, weight: *w }).collect(),
    }
}

fn model() -> AssessmentModel {
    AssessmentModel::builtin().unwrap()
}

fn competency_id(name: &str) -> Uuid {
    model().competencies.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("competency {name}")).id
}

fn resp(a: &str, b: &str, chosen: &str) -> Response {
    Response { shown: [a.into(), b.into()], chosen: chosen.into() }
}

fn client_err<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> ClientError {
    match r {
        Err(UseCaseError::Client(c)) => c,
        other => panic!("expected a client error, got {other:?}"),
    }
}

/// The field paths of a `validation_error` (D37 details `{"fields":[{"field","message"}]}`).
fn fields<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> Vec<String> {
    let e = client_err(r);
    assert_eq!(e.code, Code::ValidationError, "{e:?}");
    e.details.as_ref().unwrap()["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            assert!(f["message"].as_str().is_some_and(|m| !m.is_empty()), "message of {f}");
            f["field"].as_str().unwrap().to_string()
        })
        .collect()
}

fn assert_no_results<T: std::fmt::Debug>(r: Result<T, UseCaseError>) {
    let e = client_err(r);
    assert_eq!(e.code, Code::NotFound);
    assert_eq!(e.details, Some(json!({"reason": "no_results"})));
}

/// Hand computation of docs/scoring.md formulas 1, 2 and 4, independent of `score`: need scores
/// by Laplace smoothing, competency scores through the mapping, then the weighted percentage.
fn by_hand(responses: &[&[Response]], profile: &[(Uuid, f64)]) -> (HashMap<Uuid, f64>, u8) {
    let m = model();
    let mut exposure: HashMap<&str, f64> = HashMap::new();
    let mut chosen: HashMap<&str, f64> = HashMap::new();
    for a in responses {
        for r in *a {
            *exposure.entry(r.shown[0].as_str()).or_default() += 1.0;
            *exposure.entry(r.shown[1].as_str()).or_default() += 1.0;
            *chosen.entry(r.chosen.as_str()).or_default() += 1.0;
        }
    }
    let need =
        |id: &str| (chosen.get(id).copied().unwrap_or(0.0) + 1.0) / (exposure.get(id).copied().unwrap_or(0.0) + 2.0);
    let mut comp = HashMap::new();
    for c in &m.competencies {
        let ws: Vec<_> = m.mapping.weights.iter().filter(|w| w.competency_id == c.id).collect();
        let num: f64 = ws.iter().map(|w| w.weight * (need(&w.need) - 0.5)).sum();
        let den: f64 = ws.iter().map(|w| w.weight.abs()).sum();
        comp.insert(c.id, 0.5 + num / den);
    }
    let num: f64 = profile.iter().map(|(id, v)| v * comp[id]).sum();
    let den: f64 = profile.iter().map(|(_, v)| v).sum();
    (comp, (100.0 * num / den).round() as u8)
}

fn human_of(w: &World, p: PersonId) -> HumanId {
    w.store.snapshot().persons.iter().find(|x| x.id == p).unwrap().human_id
}

// ---------------------------------------------------------------------------------------------
// Consent (D10, D11) and the assessment.completed event (spec, Events; D34)
// ---------------------------------------------------------------------------------------------

#[test]
fn an_assessment_completed_before_joining_another_organization_stays_hidden_from_it() {
    // D11: an organization sees assessments completed at or after memberSince; earlier ones only
    // while sharedExistingProfile is true. D10: the assessment belongs to the human.
    let w = world();
    let (a, b) = (w.org("professional"), w.org("professional"));
    let pa = w.import(a, "ada@example.com", Some("ats-a"));
    w.later();
    let done = w.complete_seed(pa.id, 1);
    w.later();
    let pb = w.import(b, "ADA@example.com", Some("ats-b"));
    assert_eq!(pb.human_id, pa.human_id, "one human behind both memberships");
    assert_ne!(pb.id, pa.id, "D10: a different id in each organization");

    // B: nothing visible.
    let seen_b = w.get(b, pb.id);
    assert_eq!(seen_b.assessment, AssessmentSummary::NONE);
    assert_eq!(seen_b.assessment.status, AssessmentStatus::NotStarted);
    assert_eq!(seen_b.assessment.count, 0);
    let rb = block_on(w.svc.results(b, pb.id)).unwrap();
    assert!(rb.scores.is_none(), "no scores for B");
    assert!(rb.personality.is_none(), "no personality for B");
    assert_no_results(block_on(w.svc.person_matches(b, b, pb.id)));
    assert_no_results(block_on(w.svc.report(b, pb.id, None)));
    assert!(w.completed_events(b).is_empty(), "B was not a member when it was completed");

    // A: completed, once.
    let seen_a = w.get(a, pa.id);
    assert_eq!(seen_a.assessment.status, AssessmentStatus::Completed);
    assert_eq!(seen_a.assessment.count, 1);
    assert_eq!(seen_a.assessment.completed_at, done.completed_at);
    let ra = block_on(w.svc.results(a, pa.id)).unwrap();
    let sa = ra.scores.expect("A sees scores");
    assert_eq!((sa.assessments, sa.responses), (1, 48));
    assert_eq!(ra.personality.as_ref().map(|(_, at)| Some(*at)), Some(done.completed_at));
    assert_eq!(w.completed_events(a).len(), 1);
}

#[test]
fn sharing_the_existing_profile_reveals_earlier_assessments_to_the_new_organization() {
    // D11: earlier assessments are visible "only while sharedExistingProfile is true". The flag
    // is set directly on B's membership (the invitation flow that sets it is out of this slice).
    let w = world();
    let (a, b) = (w.org("professional"), w.org("professional"));
    let pa = w.import(a, "ada@example.com", None);
    w.later();
    w.complete_seed(pa.id, 4);
    w.later();
    let pb = w.import(b, "ada@example.com", None);
    assert!(block_on(w.svc.results(b, pb.id)).unwrap().scores.is_none());

    let mut shared = w.get(b, pb.id);
    shared.shared_existing_profile = true;
    block_on(w.svc.store.write(move |tx| Box::pin(async move { tx.update_person(&shared).await }))).unwrap();

    let rb = block_on(w.svc.results(b, pb.id)).unwrap();
    let ra = block_on(w.svc.results(a, pa.id)).unwrap();
    let sb = rb.scores.expect("B sees the shared assessment");
    assert_eq!(Some(&sb), ra.scores.as_ref(), "the same human, the same visible assessments, the same scores");
    assert_eq!(sb.assessments, 1);
    assert!(rb.personality.is_some());
    assert_eq!(block_on(w.svc.person_matches(b, b, pb.id)).unwrap(), vec![], "no profiles yet, but results exist");

    // The next completion refreshes B's summary: both assessments count for B now.
    w.later();
    w.complete_seed(pa.id, 5);
    assert_eq!(w.get(b, pb.id).assessment.count, 2);
    assert_eq!(w.get(a, pa.id).assessment.count, 2);
    assert_eq!(w.completed_events(b).len(), 1, "B is told of the completion made while a member");
}

#[test]
fn after_the_persons_own_withdrawal_later_results_reach_no_read_path_of_that_organization() {
    // Issue 12, hole 2; D42: the person withdraws from B (consent goes with it), later completes
    // an assessment through A. B's results, summary, matches and report stay as they were at the
    // withdrawal, and B gets no assessment.completed.
    let w = world();
    let (a, b) = (w.org("professional"), w.org("professional"));
    let pa = w.import(a, "ada@example.com", None);
    w.later();
    let pb = w.join(b, "ada@example.com");
    let mut shared = w.get(b, pb.id);
    shared.shared_existing_profile = true;
    block_on(w.svc.store.write(move |tx| Box::pin(async move { tx.update_person(&shared).await }))).unwrap();
    w.later();
    w.complete_seed(pa.id, 1);
    let profile = w.profile(b, "Sales", &[(competency_id("Drive for results"), 1.0)]).unwrap();
    let before = block_on(w.svc.results(b, pb.id)).unwrap();
    let matches_before = block_on(w.svc.person_matches(b, b, pb.id)).unwrap();
    assert_eq!(before.scores.as_ref().map(|s| s.assessments), Some(1));
    w.later();
    let withdrawn = block_on(w.svc.admin_archive_person(pb.id, ArchiveReason::SelfRevoked)).unwrap();
    assert!(!withdrawn.shared_existing_profile, "the withdrawal withdraws consent");
    assert_eq!(withdrawn.assessment.count, 1, "taken while a member: still visible");
    w.later();
    w.complete_seed(pa.id, 2);

    let after = block_on(w.svc.results(b, pb.id)).unwrap();
    assert_eq!(after.scores, before.scores, "B's results do not move");
    assert_eq!(after.person.assessment, withdrawn.assessment, "nor B's summary");
    assert_eq!(block_on(w.svc.person_matches(b, b, pb.id)).unwrap(), matches_before);
    let page = block_on(w.svc.profile_matches(b, b, profile.id, None, None, 10)).unwrap();
    assert!(page.items.is_empty(), "an archived person is not in profile matches");
    assert_eq!(w.completed_events(b).len(), 1, "only the completion made while B could see it");
    assert_eq!(w.get(a, pa.id).assessment.count, 2, "A sees both");
}

#[test]
fn what_a_person_takes_while_archived_stays_hidden_after_the_reactivation() {
    // D42: active periods are memberSince..archivedAt and again from the reactivation on (for a
    // membership the person established herself, D51 (b)).
    let w = world();
    let (a, b) = (w.org("professional"), w.org("professional"));
    let pa = w.import(a, "ada@example.com", None);
    let pb = w.join(b, "ada@example.com");
    w.later();
    w.complete_seed(pa.id, 1);
    w.later();
    block_on(w.svc.archive_person(b, pb.id)).unwrap();
    w.later();
    w.complete_seed(pa.id, 2);
    assert_eq!(w.get(b, pb.id).assessment.count, 1, "frozen at archivedAt");
    w.later();
    let back = w.import(b, "ada@example.com", None);
    assert_eq!(back.id, pb.id);
    assert_eq!(back.assessment.count, 1, "the archived period stays hidden");
    w.later();
    w.complete_seed(pa.id, 3);
    let rb = block_on(w.svc.results(b, pb.id)).unwrap();
    let m = model();
    let (r1, r3) = (seed_responses(&m, 1), seed_responses(&m, 3));
    assert_eq!(rb.scores.unwrap(), score(&m, &[&r1, &r3]), "the first and the new period, not the gap");
    assert_eq!(w.get(b, pb.id).assessment.count, 2);
    assert_eq!(w.get(a, pa.id).assessment.count, 3);
    // T85: profile matches score the stored totals, which follow the same periods: they agree
    // with the person's own matches, scored from the assessments.
    let profile = w.profile(b, "Sales", &[(competency_id("Drive for results"), 1.0)]).unwrap();
    let page = block_on(w.svc.profile_matches(b, b, profile.id, None, None, 10)).unwrap().items;
    let own = block_on(w.svc.person_matches(b, b, pb.id)).unwrap();
    assert_eq!(page, own.into_iter().filter(|x| x.profile_id == profile.id).collect::<Vec<_>>());
    let stored = w.get(b, pb.id).assessment.totals.expect("totals");
    assert_eq!(stored.responses as usize, r1.len() + r3.len(), "two assessments summed, the gap left out");
}

#[test]
fn an_assessment_completed_after_joining_is_visible_to_every_organization_of_the_human() {
    // D11, D51 (b): completed at or after memberSince of a membership the person established
    // herself, in both organizations; the earlier one stays A's.
    let w = world();
    let (a, b) = (w.org("professional"), w.org("business"));
    let pa = w.join(a, "ada@example.com");
    w.later();
    let first = w.complete_seed(pa.id, 1);
    w.later();
    let pb = w.join(b, "ada@example.com");
    w.later();
    // Completed through B's membership this time: it is the human's assessment either way.
    let second = w.complete_seed(pb.id, 2);
    assert_ne!(first.id, second.id);

    let (sa, sb) = (w.get(a, pa.id).assessment, w.get(b, pb.id).assessment);
    assert_eq!((sa.status, sa.count, sa.completed_at), (AssessmentStatus::Completed, 2, second.completed_at));
    assert_eq!((sb.status, sb.count, sb.completed_at), (AssessmentStatus::Completed, 1, second.completed_at));

    let m = model();
    let r1 = seed_responses(&m, 1);
    let r2 = seed_responses(&m, 2);
    let ra = block_on(w.svc.results(a, pa.id)).unwrap().scores.unwrap();
    let rb = block_on(w.svc.results(b, pb.id)).unwrap().scores.unwrap();
    assert_eq!(ra, score(&m, &[&r1, &r2]), "A: both assessments, cumulative");
    assert_eq!(rb, score(&m, &[&r2]), "B: only the one completed while a member");
    assert_eq!(w.completed_events(a).len(), 2);
    assert_eq!(w.completed_events(b).len(), 1);
}

#[test]
fn completion_emits_one_event_per_active_membership_that_may_see_it_with_the_specified_data() {
    // Spec Events: data of assessment.completed is {personId, email, externalId, assessmentId,
    // completedAt}; D10: personId is that organization's membership id; D11: only organizations
    // that may see it; archived memberships (not in the pool) get nothing.
    let w = world();
    let (a, b, c, d) = (w.org("professional"), w.org("professional"), w.org("business"), w.org("business"));
    // A and C learn of the person by her own answer to their invitations (D51 (b)); B's
    // membership is the one the assessment is taken for (D51 (a)).
    let pa = w.join_as(a, "ada@example.com", Some("ext-a"));
    let pb = w.import(b, "ada@example.com", Some("ext-b"));
    let pc = w.join_as(c, "ada@example.com", Some("ext-c"));
    block_on(w.svc.archive_person(c, pc.id)).unwrap();
    let other = w.import(a, "bob@example.com", None);
    w.later();
    let done = w.complete_seed(pb.id, 9);
    w.later();
    let pd = w.import(d, "ada@example.com", None);

    for (org, p, ext) in [(a, &pa, "ext-a"), (b, &pb, "ext-b")] {
        let ev = w.completed_events(org);
        assert_eq!(ev.len(), 1, "exactly one event for {org:?}");
        let value = ev[0].data.value();
        let data = value.as_object().unwrap();
        let keys: BTreeSet<&str> = data.keys().map(|k| k.as_str()).collect();
        assert_eq!(
            keys,
            BTreeSet::from(["personId", "email", "externalId", "assessmentId", "completedAt", "accommodations"])
        );
        assert_eq!(ev[0].data.value()["accommodations"], json!(null), "T218: none granted");
        assert_eq!(ev[0].data.value()["personId"], json!(p.id.to_string()));
        assert_eq!(ev[0].data.value()["email"], json!("ada@example.com"));
        assert_eq!(ev[0].data.value()["externalId"], json!(ext));
        assert_eq!(ev[0].data.value()["assessmentId"], json!(done.id.to_string()));
        assert_eq!(ev[0].data.value()["completedAt"], json!(format(done.completed_at.unwrap())));
        assert_eq!(Some(ev[0].created_at), done.completed_at);
    }
    assert!(w.completed_events(c).is_empty(), "archived membership: no event");
    assert!(w.completed_events(d).is_empty(), "joined afterwards: no event");
    let all = w.store.snapshot().events;
    assert_eq!(all.iter().filter(|e| e.event_type == EventType::AssessmentCompleted).count(), 2);
    assert!(all.iter().all(|e| e.data.value()["personId"] != json!(other.id.to_string())), "nobody else is named");
    // D28: the archived membership stays readable; D42: its results stay as they were at
    // archivedAt, so an assessment completed afterwards is not among them.
    let frozen = block_on(w.svc.results(c, pc.id)).unwrap();
    assert!(frozen.scores.is_none());
    assert_eq!(frozen.person.assessment, AssessmentSummary::NONE);
    assert_eq!(w.get(d, pd.id).assessment, AssessmentSummary::NONE);
}

/// Issue 14 point 4 (T99): event ids come from `Ids` as they are needed. Before, 64 were
/// prepared, and a human in more than 64 organizations silently got no event in the others.
#[test]
fn a_completion_reaches_every_one_of_many_organizations() {
    let w = world();
    let orgs: Vec<OrgId> = (0..70).map(|_| w.org("business")).collect();
    let people: Vec<PersonId> = orgs.iter().map(|o| w.join(*o, "many@example.com").id).collect();
    w.later();
    w.complete_seed(people[0], 3);
    for org in &orgs {
        assert_eq!(w.completed_events(*org).len(), 1, "{org:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Lifecycle (spec "Assessment status of a person"; D39)
// ---------------------------------------------------------------------------------------------

#[test]
fn starting_marks_the_person_in_progress_and_starting_again_returns_the_same_assessment() {
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let started = w.start(p.id);
    assert_eq!(started.state, AssessmentState::InProgress);
    assert_eq!(started.completed_at, None);
    assert!(started.responses.is_empty());
    assert_eq!(started.human_id, p.human_id);
    let seen = w.get(org, p.id);
    assert_eq!(
        seen.assessment,
        AssessmentSummary { status: AssessmentStatus::InProgress, completed_at: None, count: 0, totals: None }
    );
    assert!(seen.updated_at > p.updated_at, "the summary change is an update");
    assert!(block_on(w.svc.results(org, p.id)).unwrap().scores.is_none(), "in progress has no results");

    w.later();
    let again = w.start(p.id);
    assert_eq!(again, started, "same id, same start time");
    assert_eq!(w.store.snapshot().assessments.len(), 1);
    assert!(w.completed_events(org).is_empty());
}

#[test]
fn completing_the_running_assessment_completes_it_in_place() {
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let started = w.start(p.id);
    w.later();
    let done = w.complete_seed(p.id, 3);
    assert_eq!(done.id, started.id, "the running assessment is the one completed");
    assert_eq!(done.started_at, started.started_at);
    assert_eq!(done.state, AssessmentState::Completed);
    let at = done.completed_at.expect("completedAt");
    assert!(at > started.started_at);
    assert_eq!(done.responses, seed_responses(&model(), 3));
    assert_eq!(w.store.snapshot().assessments, vec![done.clone()]);
    let s = w.get(org, p.id).assessment;
    // T85: the summary carries the completed assessment's need counts, as matching sums them.
    let totals = Some(need_counts(&model(), &done.responses));
    assert_eq!(s, AssessmentSummary { status: AssessmentStatus::Completed, completed_at: Some(at), count: 1, totals });
    assert_eq!(w.completed_events(org).len(), 1);
}

#[test]
fn a_second_completion_counts_twice_and_adds_the_responses_up() {
    // Spec "Person results": cumulative over all completed assessments.
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let r1 = vec![
        resp("mastery", "results", "mastery"),
        resp("mastery", "stability", "mastery"),
        resp("helping", "influence", "helping"),
    ];
    let r2 = vec![resp("mastery", "results", "results"), resp("creativity", "structure", "creativity")];
    let first = w.complete_with(p.id, r1.clone());
    w.later();
    let second = w.complete_with(p.id, r2.clone());
    assert_ne!(first.id, second.id, "a new assessment, not the completed one again");
    assert!(second.started_at > first.completed_at.unwrap());

    let s = w.get(org, p.id).assessment;
    assert_eq!((s.status, s.count, s.completed_at), (AssessmentStatus::Completed, 2, second.completed_at));
    let r = block_on(w.svc.results(org, p.id)).unwrap();
    let scores = r.scores.unwrap();
    assert_eq!((scores.assessments, scores.responses), (2, 5));
    let m = model();
    let mastery = scores.needs.iter().find(|n| n.need_index == m.need_index("mastery").unwrap()).unwrap();
    assert_eq!(mastery.exposure, 3);
    assert!((mastery.score - (2.0 + 1.0) / (3.0 + 2.0)).abs() < 1e-12, "{}", mastery.score);
    let (by_hand, _) = by_hand(&[&r1, &r2], &[]);
    for c in &scores.competencies {
        assert!((c.score - by_hand[&c.competency_id]).abs() < 1e-12, "{c:?}");
        assert_eq!(c.band, band(c.score), "D2");
    }
    assert_eq!(r.personality.map(|(_, at)| at), second.completed_at, "generatedAt: the latest completion");
    assert_eq!(w.completed_events(org).len(), 2);
}

#[test]
fn responses_and_seed_together_are_a_validation_error_and_write_nothing() {
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let before = w.store.snapshot();
    let r = w.run(
        p.id,
        AssessmentCommand {
            complete: true,
            responses: Some(vec![resp("mastery", "results", "mastery")]),
            seed: Some(1),
        },
    );
    assert_eq!(fields(r), vec!["seed"]);
    let after = w.store.snapshot();
    assert_eq!(after.assessments, before.assessments);
    assert_eq!(after.events, before.events);
    assert_eq!(after.persons, before.persons);
}

#[test]
fn invalid_responses_are_reported_by_index() {
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let r = w.run(
        p.id,
        AssessmentCommand {
            complete: true,
            responses: Some(vec![
                resp("mastery", "results", "mastery"),
                resp("nope", "results", "results"),
                resp("mastery", "mastery", "mastery"),
                resp("mastery", "results", "balance"),
            ]),
            seed: None,
        },
    );
    assert_eq!(fields(r), vec!["responses[1]", "responses[2]", "responses[3]"]);
    let empty = w.run(p.id, AssessmentCommand { complete: true, responses: Some(vec![]), seed: None });
    assert_eq!(fields(empty), vec!["responses"]);
    assert!(w.store.snapshot().assessments.is_empty());
    assert_eq!(w.get(org, p.id).assessment, AssessmentSummary::NONE);
}

#[test]
fn responses_or_a_seed_without_complete_are_a_validation_error() {
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let with_responses = w.run(
        p.id,
        AssessmentCommand { complete: false, responses: Some(vec![resp("mastery", "results", "mastery")]), seed: None },
    );
    assert_eq!(fields(with_responses), vec!["complete"]);
    let with_seed = w.run(p.id, AssessmentCommand { complete: false, responses: None, seed: Some(2) });
    assert_eq!(fields(with_seed), vec!["complete"]);
    assert!(w.store.snapshot().assessments.is_empty(), "nothing started");
    let unknown = w.run(PersonId(Uuid::from_u128(7)), AssessmentCommand { complete: true, ..Default::default() });
    assert_eq!(client_err(unknown).code, Code::NotFound);
}

#[test]
fn results_of_a_person_of_another_organization_are_not_found() {
    // D28: 404 for ids outside the organization, even when the human is a member there too.
    let w = world();
    let (a, b) = (w.org("professional"), w.org("professional"));
    let pa = w.import(a, "ada@example.com", None);
    w.complete_seed(pa.id, 1);
    let e = client_err(block_on(w.svc.results(b, pa.id)));
    assert_eq!(e.code, Code::NotFound);
    assert_eq!(e.details, None, "not the no_results reason: the person does not exist here");
    assert_eq!(client_err(block_on(w.svc.person_matches(b, b, pa.id))).code, Code::NotFound);
    assert_eq!(client_err(block_on(w.svc.report(b, pa.id, None))).code, Code::NotFound);
}

#[test]
fn the_report_of_a_person_with_results_is_rendered_by_the_port() {
    // D27: one person's report; the fake renderer writes the email after "%PDF-fake".
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    assert_no_results(block_on(w.svc.report(org, p.id, None)));
    w.complete_seed(p.id, 1);
    let (person, pdf) = block_on(w.svc.report(org, p.id, None)).unwrap();
    assert_eq!(person.id, p.id);
    assert_eq!(pdf, b"%PDF-fake ada@example.com".to_vec());
}

/// T176: a renderer that fails is neither the client's fault nor the store's: an internal error
/// that keeps the cause for the log.
#[test]
fn a_failing_report_renderer_is_an_internal_error() {
    struct Broken;
    impl talent_domain::ports::ReportRenderer for Broken {
        fn render(&self, _: &talent_domain::ports::ReportInput<'_>) -> Result<Vec<u8>, String> {
            Err("the font is missing".into())
        }
    }
    let mut w = world();
    let kit = talent_domain::fakes::fake_assessment_kit();
    w.svc.assessment = Arc::new(talent_domain::usecases::AssessmentKit { reports: Arc::new(Broken), ..kit });
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    w.complete_seed(p.id, 1);
    match block_on(w.svc.report(org, p.id, None)) {
        Err(UseCaseError::Internal(cause)) => assert!(cause.contains("the font is missing"), "{cause}"),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Profiles (D25, D5)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_valid_profile_is_stored_as_given_with_trimmed_text() {
    let w = world();
    let org = w.org("professional");
    let drive = competency_id("Drive for results");
    let quality = competency_id("Quality focus");
    let p = block_on(w.svc.create_profile(
        org,
        NewProfile {
            name: "  Engineer ".into(),
            description: Some("   ".into()),
            competencies: vec![
                ProfileCompetency { competency_id: drive, weight: 1.0 },
                ProfileCompetency { competency_id: quality, weight: 0.0 },
            ],
        },
    ))
    .unwrap();
    assert_eq!(p.name, "Engineer");
    assert_eq!(p.description, None, "a blank description is none");
    assert_eq!(p.org_id, org);
    assert_eq!(p.created_at, p.updated_at);
    assert_eq!(p.competencies.len(), 2);
    assert_eq!(block_on(w.svc.get_profile(org, p.id)).unwrap(), p);
    let other = w.org("professional");
    assert_eq!(client_err(block_on(w.svc.get_profile(other, p.id))).code, Code::NotFound);
    assert_eq!(block_on(w.svc.profiles_used(org)).unwrap(), 1);
    assert_eq!(block_on(w.svc.profiles_used(other)).unwrap(), 0);
}

#[test]
fn invalid_profiles_are_refused_with_field_paths() {
    let w = world();
    let org = w.org("professional");
    let drive = competency_id("Drive for results");
    let quality = competency_id("Quality focus");
    let unknown = Uuid::from_u128(42);
    let cases: Vec<(&str, NewProfile, Vec<&str>)> = vec![
        ("unknown competency", new_profile("X", &[(drive, 1.0), (unknown, 0.5)]), vec!["competencies[1].competencyId"]),
        (
            "duplicate",
            new_profile("X", &[(drive, 1.0), (quality, 0.5), (drive, 0.2)]),
            vec!["competencies[2].competencyId"],
        ),
        ("weight above 1", new_profile("X", &[(drive, 1.5)]), vec!["competencies[0].weight"]),
        ("negative weight", new_profile("X", &[(drive, 1.0), (quality, -0.1)]), vec!["competencies[1].weight"]),
        ("all weights zero", new_profile("X", &[(drive, 0.0), (quality, 0.0)]), vec!["competencies"]),
        ("no competencies", new_profile("X", &[]), vec!["competencies"]),
        ("blank name", new_profile("  ", &[(drive, 1.0)]), vec!["name"]),
        ("long name", new_profile(&"n".repeat(201), &[(drive, 1.0)]), vec!["name"]),
    ];
    for (what, n, want) in cases {
        assert_eq!(fields(block_on(w.svc.create_profile(org, n))), want, "{what}");
    }
    let long = NewProfile { description: Some("d".repeat(2001)), ..new_profile("X", &[(drive, 1.0)]) };
    assert_eq!(fields(block_on(w.svc.create_profile(org, long))), vec!["description"]);
    assert!(w.store.snapshot().profiles.is_empty(), "nothing stored");
    // The boundaries themselves are valid.
    w.profile(org, &"n".repeat(200), &[(drive, 1.0), (quality, 0.0)]).unwrap();
}

#[test]
fn the_profile_after_the_plans_limit_is_a_conflict() {
    // D5: the profile limit is per plan (the catalogue is configuration).
    let small = |id: &str, api| Plan {
        id: id.into(),
        api_access: api,
        person_limit: 10,
        profile_limit: 2,
        org_rpm: 120,
        key_rpm: 60,
        org_only_rpm: 60,
    };
    let w = world_with(PlanCatalogue::new(vec![small("professional", true), small("business", true)]));
    let (org, other) = (w.org("professional"), w.org("business"));
    let drive = competency_id("Drive for results");
    w.profile(org, "One", &[(drive, 1.0)]).unwrap();
    w.profile(org, "Two", &[(drive, 1.0)]).unwrap();
    let e = client_err(w.profile(org, "Three", &[(drive, 1.0)]));
    assert_eq!(e.code, Code::Conflict);
    assert_eq!(e.details, Some(json!({"used": 2, "limit": 2, "plan": "professional"})));
    let (_, usage) = block_on(w.svc.organization(org)).unwrap();
    assert_eq!((usage.profiles_used, usage.profiles_limit), (2, 2));
    // Another organization's limit is its own.
    w.profile(other, "One", &[(drive, 1.0)]).unwrap();
    assert_eq!(w.store.snapshot().profiles.len(), 3);
}

#[test]
fn profiles_are_listed_newest_first_page_by_page() {
    // D25 + D36: newest first, keyset pagination, no gaps or duplicates.
    let w = world();
    let (org, other) = (w.org("professional"), w.org("professional"));
    let drive = competency_id("Drive for results");
    let made: Vec<ProfileId> = (0..5).map(|i| w.profile(org, &format!("P{i}"), &[(drive, 1.0)]).unwrap().id).collect();
    w.profile(other, "Elsewhere", &[(drive, 1.0)]).unwrap();
    let mut seen = Vec::new();
    let mut before = None;
    let mut pages = Vec::new();
    loop {
        let page = block_on(w.svc.list_profiles(org, before, 2)).unwrap();
        assert!(page.items.len() <= 2);
        pages.push((page.items.len(), page.has_more));
        seen.extend(page.items.iter().map(|p| p.id));
        if !page.has_more {
            break;
        }
        before = page.items.last().map(|p| p.id);
    }
    assert_eq!(pages, vec![(2, true), (2, true), (1, false)]);
    let mut newest_first = made.clone();
    newest_first.reverse();
    assert_eq!(seen, newest_first);
    let all = block_on(w.svc.list_profiles(org, None, 5)).unwrap();
    assert_eq!((all.items.len(), all.has_more), (5, false));
}

// ---------------------------------------------------------------------------------------------
// Matches (D3, D26; spec concept 4)
// ---------------------------------------------------------------------------------------------

#[test]
fn matches_of_a_person_without_results_are_not_found_with_reason_no_results() {
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    w.profile(org, "Any", &[(competency_id("Innovation"), 1.0)]).unwrap();
    assert_no_results(block_on(w.svc.person_matches(org, org, p.id)));
    w.start(p.id);
    assert_no_results(block_on(w.svc.person_matches(org, org, p.id)));
}

#[test]
fn person_matches_carry_the_percentage_computed_by_hand_and_its_category() {
    // docs/scoring.md formula 4 and D3; one item per profile, highest percentage first (D26).
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let responses = vec![
        resp("mastery", "results", "mastery"),
        resp("mastery", "results", "mastery"),
        resp("mastery", "results", "mastery"),
        resp("helping", "harmony", "helping"),
        resp("helping", "belonging", "helping"),
        resp("influence", "harmony", "influence"),
        resp("creativity", "structure", "creativity"),
        resp("stability", "variety", "stability"),
    ];
    w.complete_with(p.id, responses.clone());
    let shapes: Vec<Vec<(Uuid, f64)>> = vec![
        vec![(competency_id("Drive for results"), 1.0)],
        vec![(competency_id("Coaching others"), 0.8), (competency_id("Collaboration"), 0.4)],
        vec![
            (competency_id("Innovation"), 0.3),
            (competency_id("Adaptability"), 0.7),
            (competency_id("Persuasion"), 0.1),
        ],
        vec![(competency_id("Planning and organising"), 0.5), (competency_id("Quality focus"), 0.0)],
    ];
    let mut want: BTreeMap<ProfileId, u8> = BTreeMap::new();
    for (i, s) in shapes.iter().enumerate() {
        let pr = w.profile(org, &format!("P{i}"), s).unwrap();
        let (_, pct) = by_hand(&[&responses], s);
        let scores: Scores = score(&model(), &[&responses]);
        assert_eq!(match_percentage(s, &scores), pct, "formula of docs/scoring.md, profile {i}");
        want.insert(pr.id, pct);
    }
    // The hand computation reproduces the worked example of docs/scoring.md (44 %, low).
    let example = vec![resp("mastery", "results", "mastery"); 3];
    let (comp, pct) = by_hand(&[&example], &shapes[0]);
    assert!((comp[&competency_id("Drive for results")] - (0.5 + (-0.18 + 0.09) / 1.4)).abs() < 1e-12);
    assert_eq!((pct, category(pct)), (44, MatchCategory::Low));

    let got = block_on(w.svc.person_matches(org, org, p.id)).unwrap();
    assert_eq!(got.len(), 4, "one item per profile");
    for m in &got {
        assert_eq!(m.person_id, p.id);
        assert_eq!(m.percentage, want[&m.profile_id], "{m:?}");
        assert_eq!(m.category, category(m.percentage));
        let expected = if m.percentage >= 70 {
            MatchCategory::High
        } else if m.percentage >= 50 {
            MatchCategory::Moderate
        } else {
            MatchCategory::Low
        };
        assert_eq!(m.category, expected, "D3 thresholds");
    }
    assert!(got.windows(2).all(|x| x[0].percentage >= x[1].percentage), "highest first");
    let ids: BTreeSet<ProfileId> = got.iter().map(|m| m.profile_id).collect();
    assert_eq!(ids, want.keys().copied().collect());
}

/// An organization with several persons: seeds with repeats (ties), one without results, one
/// archived with results, and one from another organization.
fn crowd(w: &World) -> (OrgId, ProfileId, Vec<PersonId>, PersonId, PersonId) {
    let org = w.org("business");
    let other = w.org("business");
    let profile = w
        .profile(org, "Lead", &[(competency_id("Drive for results"), 0.6), (competency_id("Coaching others"), 0.4)])
        .unwrap()
        .id;
    let mut with_results = Vec::new();
    for (i, seed) in [1u64, 2, 2, 3, 4, 4, 4, 5].iter().enumerate() {
        let p = w.import(org, &format!("p{i}@example.com"), None);
        w.complete_seed(p.id, *seed);
        with_results.push(p.id);
    }
    let none = w.import(org, "none@example.com", None).id;
    w.start(none);
    let archived = w.import(org, "gone@example.com", None).id;
    w.complete_seed(archived, 1);
    block_on(w.svc.archive_person(org, archived)).unwrap();
    let elsewhere = w.import(other, "else@example.com", None);
    w.complete_seed(elsewhere.id, 1);
    (org, profile, with_results, none, archived)
}

#[test]
fn profile_matches_list_active_persons_with_results_highest_percentage_first() {
    let w = world();
    let (org, profile, with_results, none, archived) = crowd(&w);
    let page = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap();
    assert!(!page.has_more);
    let got: BTreeSet<PersonId> = page.items.iter().map(|m| m.person_id).collect();
    assert_eq!(got, with_results.iter().copied().collect(), "exactly the active persons with results");
    assert!(!got.contains(&none) && !got.contains(&archived));
    // Sorted by percentage descending; ties by person id descending (the keyset order).
    assert!(page.items.windows(2).all(|x| (x[0].percentage, x[0].person_id) > (x[1].percentage, x[1].person_id)));
    let prof = block_on(w.svc.get_profile(org, profile)).unwrap();
    let weights: Vec<(Uuid, f64)> = prof.competencies.iter().map(|c| (c.competency_id, c.weight)).collect();
    for m in &page.items {
        assert_eq!(m.profile_id, profile);
        let a = w.store.snapshot().assessments;
        let human = human_of(&w, m.person_id);
        let mine: Vec<&[Response]> = a.iter().filter(|x| x.human_id == human).map(|x| x.responses.as_slice()).collect();
        assert_eq!(m.percentage, by_hand(&mine, &weights).1);
        assert_eq!(m.category, category(m.percentage));
    }
    let distinct: BTreeSet<u8> = page.items.iter().map(|m| m.percentage).collect();
    assert!(distinct.len() >= 3, "the crowd spreads over several percentages: {distinct:?}");
    assert!(distinct.len() < page.items.len(), "and has ties");
}

#[test]
fn profile_matches_pages_have_no_gaps_or_duplicates() {
    // D36 keyset after (percentage, personId), ties included.
    let w = world();
    let (org, profile, with_results, _, _) = crowd(&w);
    let all = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items;
    for limit in [1u32, 2, 3] {
        let mut walked: Vec<Match> = Vec::new();
        let mut after = None;
        let mut pages = 0;
        loop {
            let page = block_on(w.svc.profile_matches(org, org, profile, None, after, limit)).unwrap();
            pages += 1;
            assert!(page.items.len() <= limit as usize);
            walked.extend(page.items.iter().cloned());
            if !page.has_more {
                break;
            }
            let last = page.items.last().unwrap();
            after = Some((last.percentage, last.person_id));
            assert!(pages < 20, "pagination terminates");
        }
        assert_eq!(walked, all, "limit {limit}: same items, same order");
        assert_eq!(pages, with_results.len().div_ceil(limit as usize), "limit {limit}");
    }
}

#[test]
fn profile_matches_filter_by_person() {
    let w = world();
    let (org, profile, with_results, none, archived) = crowd(&w);
    let one = block_on(w.svc.profile_matches(org, org, profile, Some(with_results[3]), None, 25)).unwrap();
    assert_eq!(one.items.len(), 1);
    assert!(!one.has_more);
    assert_eq!(one.items[0].person_id, with_results[3]);
    let p = block_on(w.svc.person_matches(org, org, with_results[3])).unwrap();
    assert_eq!(p, one.items, "both endpoints agree on the match");
    for absent in [none, archived, PersonId(Uuid::from_u128(99))] {
        let page = block_on(w.svc.profile_matches(org, org, profile, Some(absent), None, 25)).unwrap();
        assert!(page.items.is_empty() && !page.has_more, "{absent:?}");
    }
    let e = client_err(block_on(w.svc.profile_matches(org, org, ProfileId(Uuid::from_u128(5)), None, None, 25)));
    assert_eq!(e.code, Code::NotFound);
}

#[test]
fn profile_matches_respect_consent() {
    // D11 in a comparative list: a person whose only assessment predates the membership does not
    // appear; after sharing, their results count (and the next summary refresh lists them).
    let w = world();
    let (a, b) = (w.org("professional"), w.org("professional"));
    let pa = w.import(a, "ada@example.com", None);
    w.later();
    w.complete_seed(pa.id, 1);
    w.later();
    let pb = w.import(b, "ada@example.com", None);
    let profile = w.profile(b, "Any", &[(competency_id("Innovation"), 1.0)]).unwrap().id;
    let page = block_on(w.svc.profile_matches(b, b, profile, None, None, 25)).unwrap();
    assert!(page.items.is_empty(), "nothing visible in B");
    w.later();
    w.complete_seed(pb.id, 2);
    let page = block_on(w.svc.profile_matches(b, b, profile, None, None, 25)).unwrap();
    assert_eq!(page.items.len(), 1);
    let only_second = by_hand(&[&seed_responses(&model(), 2)], &[(competency_id("Innovation"), 1.0)]).1;
    assert_eq!(page.items[0].percentage, only_second, "B's match uses B's visible assessment only");
}

// ---------------------------------------------------------------------------------------------
// Exact boundaries (D2, D3; docs/scoring.md "So exactly 0.65 is high, 0.55 is moderate, 0.45 is
// some")
// ---------------------------------------------------------------------------------------------

#[test]
fn a_competency_score_exactly_on_a_band_boundary_takes_the_upper_band() {
    // Drive for results by hand: results 1/3, challenge 1/3, mastery 3/5, balance 1/4 →
    // 0.5 + (0.6·(−1/6) + 0.3·(−1/6) + 0.3·(1/10) − 0.2·(−1/4)) / 1.4 = 0.5 − 0.07 / 1.4 = 0.45.
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    let responses = vec![
        resp("mastery", "results", "mastery"),
        resp("mastery", "challenge", "mastery"),
        resp("mastery", "helping", "helping"),
        resp("balance", "helping", "helping"),
        resp("balance", "harmony", "harmony"),
    ];
    w.complete_with(p.id, responses.clone());
    let scores = block_on(w.svc.results(org, p.id)).unwrap().scores.unwrap();
    let drive = scores.competencies.iter().find(|c| c.competency_id == competency_id("Drive for results")).unwrap();
    assert_eq!(drive.score, 0.45, "the documented formula gives exactly 0.45");
    assert_eq!(drive.band, talent_domain::assessment::Band::Some, "D2: exactly 0.45 is some");
    assert!((by_hand(&[&responses], &[]).0[&drive.competency_id] - 0.45).abs() < 1e-12);
}

#[test]
fn a_match_percentage_exactly_half_way_rounds_up() {
    // Innovation by hand: creativity 1/4, independence 2/3, structure 4/5 →
    // 0.5 + (0.7·(−1/4) + 0.3·(1/6) − 0.4·(3/10)) / 1.4 = 0.325; a profile of Innovation alone
    // matches at round(32.5) = 33 (D3; docs/scoring.md formula 4).
    let w = world();
    let org = w.org("professional");
    let p = w.import(org, "ada@example.com", None);
    w.complete_with(
        p.id,
        vec![
            resp("structure", "creativity", "structure"),
            resp("structure", "creativity", "structure"),
            resp("structure", "helping", "structure"),
            resp("independence", "helping", "independence"),
        ],
    );
    let innovation = competency_id("Innovation");
    let scores = block_on(w.svc.results(org, p.id)).unwrap().scores.unwrap();
    let c = scores.competencies.iter().find(|c| c.competency_id == innovation).unwrap();
    assert_eq!(c.score, 0.325);
    w.profile(org, "Inventor", &[(innovation, 1.0)]).unwrap();
    let m = block_on(w.svc.person_matches(org, org, p.id)).unwrap();
    assert_eq!((m[0].percentage, m[0].category), (33, MatchCategory::Low));
}

#[test]
fn profile_matches_are_scored_from_the_counts_stored_at_completion_not_from_responses_issue_11() {
    let w = world();
    let (org, profile, _, _, _) = crowd(&w);
    let before = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items;
    let stored = w.store.snapshot();
    let completed = stored.assessments.iter().filter(|a| a.state == AssessmentState::Completed).count();
    assert_eq!(stored.need_counts.len(), completed, "every completion stored its counts");
    // Rows written before the summed totals were stored (T85): the assessments' counts instead.
    w.store.state.lock().unwrap().persons.iter_mut().for_each(|p| p.assessment.totals = None);
    assert_eq!(block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items, before);
    // Responses gone: the matches must not change, so they come from the stored counts.
    {
        let mut s = w.store.state.lock().unwrap();
        let saved = s.assessments.clone();
        s.assessments.iter_mut().for_each(|a| a.responses.clear());
        drop(s);
        let after = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items;
        assert_eq!(after, before);
        w.store.state.lock().unwrap().assessments = saved;
    }
    // Counts of another model (its needs may differ): scored from responses alike.
    w.store.state.lock().unwrap().need_counts.iter_mut().for_each(|(_, c)| c.model = "another@2".into());
    let other = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items;
    assert_eq!(other, before);
    // Counts gone (assessments completed before they were stored): likewise.
    w.store.state.lock().unwrap().need_counts.clear();
    let legacy = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items;
    assert_eq!(legacy, before);
}

#[test]
fn profile_matches_score_each_persons_stored_totals_t85() {
    let w = world();
    let (org, profile, _, _, _) = crowd(&w);
    let before = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items;
    assert!(before.windows(2).any(|m| m[0].percentage != m[1].percentage), "the crowd scores apart");
    // Every person given the same totals: every match is the same, so the totals are what is scored.
    let one = {
        let mut s = w.store.state.lock().unwrap();
        let one = s.persons.iter().find_map(|p| p.assessment.totals.clone()).expect("stored totals");
        s.persons
            .iter_mut()
            .filter(|p| p.assessment.totals.is_some())
            .for_each(|p| p.assessment.totals = Some(one.clone()));
        one
    };
    let same = block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items;
    assert_eq!(same.len(), before.len());
    assert!(same.windows(2).all(|m| m[0].percentage == m[1].percentage));
    // Totals of another model are not scored: the assessments' counts are.
    let mut stale = one;
    stale.model = "another@2".into();
    w.store.state.lock().unwrap().persons.iter_mut().for_each(|p| p.assessment.totals = Some(stale.clone()));
    assert_eq!(block_on(w.svc.profile_matches(org, org, profile, None, None, 100)).unwrap().items, before);
}

// ---------------------------------------------------------------------------------------------
// D51: who sees an assessment (issue 33, finding 1 and 2)
// ---------------------------------------------------------------------------------------------

#[test]
fn d51_importing_an_address_yields_no_results_of_an_assessment_taken_for_another_organization() {
    // Finding 1, exactly: B imports alice (no act of hers); later A invites her, she accepts and
    // completes A's assessment. B sees nothing of it on any read path, and is told nothing.
    let w = world();
    let (a, b) = (w.org("business"), w.org("business"));
    let pb = w.import(b, "alice@example.com", None);
    let profile = w.profile(b, "Sales", &[(competency_id("Drive for results"), 1.0)]).unwrap();
    w.later();
    let pa = w.join(a, "alice@example.com");
    w.later();
    w.start(pa.id);
    w.later();
    let done = w.complete_seed(pa.id, 4);
    assert_eq!(done.origin_org, Some(a), "the assessment records the organization it was started for");

    assert_eq!(w.get(b, pb.id).assessment, AssessmentSummary::NONE, "B's summary");
    let r = block_on(w.svc.results(b, pb.id)).unwrap();
    assert!(r.scores.is_none() && r.personality.is_none(), "B's results: hasResults false");
    let no_results = |e: UseCaseError| match e {
        UseCaseError::Client(c) => (c.code, c.details.map(|d| d["reason"].clone())),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        no_results(block_on(w.svc.person_matches(b, b, pb.id)).unwrap_err()),
        (Code::NotFound, Some(json!("no_results")))
    );
    assert_eq!(
        no_results(block_on(w.svc.report(b, pb.id, None)).unwrap_err()),
        (Code::NotFound, Some(json!("no_results")))
    );
    assert!(block_on(w.svc.profile_matches(b, b, profile.id, None, None, 10)).unwrap().items.is_empty());
    let b_events: Vec<EventType> =
        w.store.snapshot().events.into_iter().filter(|e| e.org_id == b).map(|e| e.event_type).collect();
    assert!(
        !b_events.iter().any(|t| matches!(t, EventType::AssessmentCompleted | EventType::AssessmentStarted)),
        "no assessment.* event for B: {b_events:?}"
    );
    // A sees it; and B, asking her, asks for access to a profile it cannot see (D19).
    assert_eq!(w.get(a, pa.id).assessment.count, 1);
    assert_eq!(w.completed_events(a).len(), 1);
    let inv = block_on(w.svc.create_invitation(
        b,
        talent_domain::usecases::invitations::NewInvitation::new(Email::parse("alice@example.com").unwrap(), false),
    ))
    .unwrap()
    .0;
    assert_eq!(inv.invitation.variant, talent_domain::invitation::Variant::AccessRequest);
}

#[test]
fn d51_an_assessment_started_for_an_imported_membership_is_that_organizations() {
    // D51 (a): the admin API starting an assessment for B's membership counts as B's invitation.
    let w = world();
    let (a, b) = (w.org("business"), w.org("business"));
    let pa = w.import(a, "alice@example.com", None);
    let pb = w.import(b, "alice@example.com", None);
    w.later();
    w.start(pb.id);
    w.later();
    // Completed through A's membership: the running assessment keeps the organization that
    // started it.
    let done = w.complete_seed(pa.id, 1);
    assert_eq!(done.origin_org, Some(b));
    assert_eq!(w.get(b, pb.id).assessment.count, 1);
    assert_eq!(w.get(a, pa.id).assessment, AssessmentSummary::NONE, "A only imported her");
    assert_eq!((w.completed_events(a).len(), w.completed_events(b).len()), (0, 1));
}

#[test]
fn d51_withdrawal_hides_at_once_what_only_consent_showed() {
    // Finding 2: B imports alice, she gives B her consent (sharedExistingProfile) and B sees A's
    // assessment; she withdraws from B: B's results, summary, matches and report lose it at once.
    let w = world();
    let (a, b) = (w.org("business"), w.org("business"));
    let pa = w.join(a, "alice@example.com");
    w.later();
    w.complete_seed(pa.id, 4);
    w.later();
    let pb = w.import(b, "alice@example.com", None);
    let mut shared = w.get(b, pb.id);
    shared.shared_existing_profile = true;
    shared.assessment = talent_domain::results::summarize(
        &block_on(
            w.svc.store.read(move |tx| Box::pin(async move { tx.list_assessments_of_human(shared.human_id).await })),
        )
        .unwrap(),
        &Person { shared_existing_profile: true, ..shared.clone() },
        &model(),
    );
    let s = shared.clone();
    block_on(w.svc.store.write(move |tx| Box::pin(async move { tx.update_person(&s).await }))).unwrap();
    assert!(block_on(w.svc.results(b, pb.id)).unwrap().scores.is_some(), "visible through consent");
    w.later();
    let withdrawn = block_on(w.svc.admin_archive_person(pb.id, ArchiveReason::SelfRevoked)).unwrap();
    assert_eq!(withdrawn.assessment, AssessmentSummary::NONE, "the summary shrinks at once");
    assert!(block_on(w.svc.results(b, pb.id)).unwrap().scores.is_none());
    assert!(block_on(w.svc.person_matches(b, b, pb.id)).is_err());
    assert!(block_on(w.svc.report(b, pb.id, None)).is_err());
    assert_eq!(w.get(a, pa.id).assessment.count, 1, "A keeps what was taken for it");
}

#[test]
fn d51_the_events_feed_and_replay_drop_assessment_events_the_organization_no_longer_sees() {
    // B imports alice, who shares her profile with B (c); A's assessment completes and B is told.
    // After her withdrawal from B the feed no longer carries it; other events stay.
    use talent_domain::usecases::feed::FeedRequest;
    let w = world();
    let (a, b) = (w.org("business"), w.org("business"));
    let pb = w.import(b, "alice@example.com", None);
    let mut shared = w.get(b, pb.id);
    shared.shared_existing_profile = true;
    block_on(w.svc.store.write(move |tx| Box::pin(async move { tx.update_person(&shared).await }))).unwrap();
    w.later();
    let pa = w.join(a, "alice@example.com");
    w.later();
    w.complete_seed(pa.id, 4);
    let scopes = Scopes::new(vec![Scope::WebhooksManage]);
    let feed = |org| {
        block_on(w.svc.events_feed(org, &scopes, FeedRequest { after: 0, types: vec![], limit: 100 }))
            .unwrap()
            .items
            .into_iter()
            .map(|e| e.event.event_type)
            .collect::<Vec<_>>()
    };
    assert!(feed(b).contains(&EventType::AssessmentCompleted), "visible through consent: {:?}", feed(b));
    w.later();
    block_on(w.svc.admin_archive_person(pb.id, ArchiveReason::SelfRevoked)).unwrap();
    let after = feed(b);
    assert!(!after.contains(&EventType::AssessmentCompleted), "{after:?}");
    assert!(after.contains(&EventType::PersonCreated) && after.contains(&EventType::PersonArchived));
    assert!(feed(a).contains(&EventType::AssessmentCompleted), "A's own stays");
}
