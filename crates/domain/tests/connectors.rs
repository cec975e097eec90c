//! Use-case tests of ATS connections and orders over the in-memory fakes (connectors.md,
//! D63-D67, D75; D19 and D51 of decisions.md): connections mint their key, orders import and
//! invite once, follow the invitation and assessment events, and keep consent.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use talent_domain::connector::*;
use talent_domain::errors::{Code, UseCaseError};
use talent_domain::fakes::{block_on, services, FakeClock, FakeStore};
use talent_domain::ids::*;
use talent_domain::invitation::{InvitationStatus, Variant};
use talent_domain::person::JoinedVia;
use talent_domain::ports::Secrets;
use talent_domain::results::ProfileCompetency;
use talent_domain::usecases::assessments::{AssessmentCommand, NewProfile};
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::usecases::persons::ImportPerson;
use talent_domain::values::*;
use talent_domain::Services;
use time::Duration;

type Svc = Services<FakeStore>;

struct World {
    svc: Svc,
    store: FakeStore,
    clock: Arc<FakeClock>,
    org: OrgId,
    admin: UserId,
}

fn email(s: &str) -> Email {
    Email::parse(s).unwrap()
}

fn new_org(svc: &Svc, name: &str) -> (OrgId, UserId) {
    let (org, _) = block_on(svc.create_organization(NewOrganization {
        subscription_status: Some(SubscriptionStatus::Active),
        ..NewOrganization::new(name, email("hr@acme.test"), "professional")
    }))
    .unwrap();
    block_on(svc.create_user(org.id, email("member@acme.test"), OrgRole::Member)).unwrap();
    let admin = block_on(svc.create_user(org.id, email("admin@acme.test"), OrgRole::Admin)).unwrap();
    (org.id, admin.id)
}

fn world() -> World {
    let (svc, store, clock) = services();
    let (org, admin) = new_org(&svc, "Acme");
    World { svc, store, clock, org, admin }
}

fn greenhouse() -> NewConnection {
    NewConnection {
        ats: Ats::Greenhouse,
        name: "Greenhouse".into(),
        settings: ConnectionSettings::default(),
        locale: None,
    }
}

fn code<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> Code {
    match r {
        Err(UseCaseError::Client(c)) => c.code,
        other => panic!("expected a client error, got {other:?}"),
    }
}

fn order(test: TestRef, to: &str, key: &str) -> NewOrder {
    NewOrder {
        test,
        candidate: OrderCandidate { email: email(to), first_name: PersonName::parse("Ada").ok(), last_name: None },
        ats_key: key.into(),
        refs: OrderRefs { profile_url: Some(format!("https://ats.example/{key}")), ..Default::default() },
        callback_url: Some("https://ats.example/callback".into()),
    }
}

impl World {
    fn connect(&self) -> Connection {
        block_on(self.svc.create_connection(self.org, greenhouse(), None)).unwrap().view.connection
    }
    fn profile(&self) -> ProfileId {
        let c = self.svc.assessment.model.competencies[0].id;
        let p = NewProfile {
            name: "Engineer".into(),
            description: None,
            competencies: vec![ProfileCompetency { competency_id: c, weight: 1.0 }],
        };
        block_on(self.svc.create_profile(self.org, p)).unwrap().id
    }
    fn place(&self, c: &Connection, o: NewOrder) -> (Order, bool) {
        block_on(self.svc.place_order(c, o)).unwrap()
    }
    fn order(&self, id: OrderId) -> Order {
        block_on(self.svc.get_order(self.org, id)).unwrap()
    }
    fn emails(&self) -> usize {
        self.store.snapshot().emails.len()
    }
    fn complete(&self, person: PersonId) -> AssessmentId {
        let cmd = AssessmentCommand { complete: true, ..Default::default() };
        block_on(self.svc.admin_assessment(person, cmd)).unwrap().id
    }
}

#[test]
fn a_connection_mints_a_key_with_the_four_scopes_owned_by_the_oldest_administrator_d63() {
    let w = world();
    let created = block_on(w.svc.create_connection(w.org, greenhouse(), None)).unwrap();
    assert!(created.key.starts_with("tk_"), "the key is shown once: {}", created.key);
    let c = &created.view.connection;
    assert_eq!((c.ats, c.enabled, created.view.orders), (Ats::Greenhouse, true, 0));
    let key = w.store.snapshot().keys.into_iter().find(|k| k.id == c.api_key_id).unwrap();
    assert_eq!(key.user_id, w.admin, "the administrator, not the older member");
    assert_eq!(key.scopes, connection_scopes());
    let listed = block_on(w.svc.list_connections(w.org)).unwrap();
    assert_eq!(listed, vec![created.view.clone()]);
}

#[test]
fn settings_an_ats_does_not_take_or_needs_are_field_errors_and_nothing_is_created_d63() {
    let w = world();
    let bad = NewConnection {
        ats: Ats::Kombo,
        name: "Kombo".into(),
        settings: ConnectionSettings { api_key: Some("k".into()), ..Default::default() },
        locale: None,
    };
    assert_eq!(code(block_on(w.svc.create_connection(w.org, bad, None))), Code::ValidationError);
    assert!(w.store.snapshot().connections.is_empty());
    assert!(w.store.snapshot().keys.is_empty(), "no key minted for a refused connection");
}

#[test]
fn an_organization_without_an_administrator_cannot_own_a_connections_key() {
    let (svc, _store, _clock) = services();
    let (org, _) =
        block_on(svc.create_organization(NewOrganization::new("Solo", email("a@solo.test"), "professional"))).unwrap();
    assert_eq!(code(block_on(svc.create_connection(org.id, greenhouse(), None))), Code::Conflict);
}

#[test]
fn an_order_imports_the_candidate_and_emails_an_invitation_d67() {
    let w = world();
    let c = w.connect();
    let (o, created) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    assert!(created);
    assert_eq!(o.status, OrderStatus::Sent);
    let s = w.store.snapshot();
    let p = s.persons.iter().find(|p| p.id == o.person_id).unwrap();
    assert_eq!((p.joined_via, p.first_name.as_ref().map(|n| n.as_str())), (JoinedVia::Api, Some("Ada")));
    let inv = s.invitations.iter().find(|i| i.id == o.invitation_id).unwrap();
    assert!(inv.send_email, "the vendor emails the candidate");
    assert_eq!(w.emails(), 1);
    assert_eq!(block_on(w.svc.get_connection(c.id)).unwrap().orders, 1);
    assert!(s.connections[0].last_activity_at.is_some(), "the order is the connection's activity");
}

#[test]
fn the_same_order_again_while_open_is_the_same_order_and_no_second_email_d67() {
    let w = world();
    let c = w.connect();
    let (first, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    let (again, created) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    assert!(!created);
    assert_eq!(again.id, first.id);
    assert_eq!(w.emails(), 1, "no second email");
    // Another test, or another ATS key, is another order (the same pending invitation).
    let p = w.profile();
    let (other, created) = w.place(&c, order(TestRef::Profile(p), "ada@example.test", "gh-1"));
    assert!(created && other.id != first.id);
    assert_eq!(other.invitation_id, first.invitation_id, "the pending invitation is reused (D18)");
    assert_eq!(w.emails(), 1);
}

#[test]
fn a_finished_order_does_not_absorb_a_new_one() {
    let w = world();
    let c = w.connect();
    let (first, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    block_on(w.svc.cancel_order(w.org, first.id)).unwrap();
    let (second, created) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    assert!(created && second.id != first.id);
    assert_eq!(w.emails(), 2, "a new invitation, a new email");
}

#[test]
fn unknown_tests_and_another_organizations_profiles_are_refused_and_nothing_is_created_d65() {
    let w = world();
    let c = w.connect();
    let (other_org, _) = new_org(&w.svc, "Other");
    let comp = w.svc.assessment.model.competencies[0].id;
    let foreign = block_on(w.svc.create_profile(
        other_org,
        NewProfile {
            name: "Theirs".into(),
            description: None,
            competencies: vec![ProfileCompetency { competency_id: comp, weight: 1.0 }],
        },
    ))
    .unwrap();
    for t in [TestRef::Profile(ProfileId(uuid::Uuid::from_u128(42))), TestRef::Profile(foreign.id)] {
        let r = block_on(w.svc.place_order(&c, order(t, "ada@example.test", "gh-1")));
        assert_eq!(code(r), Code::ValidationError);
    }
    let bad_callback = NewOrder {
        callback_url: Some("ftp://ats.example".into()),
        ..order(TestRef::TalentAssessment, "a@example.test", "k")
    };
    assert_eq!(code(block_on(w.svc.place_order(&c, bad_callback))), Code::ValidationError);
    let s = w.store.snapshot();
    assert!(s.orders.is_empty() && s.persons.is_empty() && s.emails.is_empty());
}

#[test]
fn the_tests_are_talent_assessment_then_the_profiles_d65() {
    let w = world();
    let p = w.profile();
    let tests = block_on(w.svc.connector_tests(w.org)).unwrap();
    assert_eq!(tests.iter().map(|t| t.test).collect::<Vec<_>>(), vec![TestRef::TalentAssessment, TestRef::Profile(p)]);
    assert_eq!(tests[1].name, "Engineer");
}

#[test]
fn an_order_starts_on_acceptance_and_completes_with_the_organizations_own_assessment_d67_d51() {
    let w = world();
    let c = w.connect();
    let (o, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    block_on(w.svc.accept_invitation(o.invitation_id, false)).unwrap();
    assert_eq!(w.order(o.id).status, OrderStatus::Started);
    let a = w.complete(o.person_id);
    let done = w.order(o.id);
    assert_eq!((done.status, done.assessment_id), (OrderStatus::Completed, Some(a)));
    assert!(done.started_at.is_some() && done.completed_at.is_some());
}

#[test]
fn an_assessment_of_another_organization_does_not_complete_an_order_d51() {
    let w = world();
    let c = w.connect();
    let (o, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    block_on(w.svc.accept_invitation(o.invitation_id, false)).unwrap();
    // The same human completes one in another organization, which shares nothing with Acme.
    let (other, _) = new_org(&w.svc, "Other");
    let there = block_on(w.svc.import_person(other, ImportPerson::new(email("ada@example.test")))).unwrap().person;
    w.complete(there.id);
    assert_eq!(w.order(o.id).status, OrderStatus::Started);
}

#[test]
fn expiry_and_revocation_of_the_invitation_end_the_order_d67() {
    let w = world();
    let c = w.connect();
    let (expiring, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    let (revoked, _) = w.place(&c, order(TestRef::TalentAssessment, "bob@example.test", "gh-2"));
    block_on(w.svc.revoke_invitation(w.org, revoked.invitation_id)).unwrap();
    assert_eq!(w.order(revoked.id).status, OrderStatus::Cancelled);
    w.clock.advance(Duration::days(15));
    block_on(w.svc.sweep_invitations()).unwrap();
    assert_eq!(w.order(expiring.id).status, OrderStatus::Expired);
}

#[test]
fn cancelling_revokes_a_pending_invitation_or_cancels_a_started_order_alone_d78() {
    let w = world();
    let c = w.connect();
    let (pending, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    let done = block_on(w.svc.cancel_order(w.org, pending.id)).unwrap();
    assert_eq!(done.status, OrderStatus::Cancelled);
    let inv = w.store.snapshot().invitations.into_iter().find(|i| i.id == pending.invitation_id).unwrap();
    assert_eq!(inv.status, InvitationStatus::Revoked);

    let (started, _) = w.place(&c, order(TestRef::TalentAssessment, "bob@example.test", "gh-2"));
    block_on(w.svc.accept_invitation(started.invitation_id, false)).unwrap();
    assert_eq!(block_on(w.svc.cancel_order(w.org, started.id)).unwrap().status, OrderStatus::Cancelled);
    // A finished order stays as it is; another organization's is not found.
    assert_eq!(block_on(w.svc.cancel_order(w.org, started.id)).unwrap().status, OrderStatus::Cancelled);
    let (other, _) = new_org(&w.svc, "Other");
    assert_eq!(code(block_on(w.svc.cancel_order(other, started.id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.get_order(other, started.id))), Code::NotFound);
}

#[test]
fn an_order_for_results_the_organization_cannot_see_is_an_access_request_completed_only_with_consent_d19() {
    let w = world();
    // The human completed an assessment elsewhere first.
    let (other, _) = new_org(&w.svc, "Other");
    let there = block_on(w.svc.import_person(other, ImportPerson::new(email("ada@example.test")))).unwrap().person;
    w.complete(there.id);
    let c = w.connect();
    let (declined, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    let inv = w.store.snapshot().invitations.into_iter().find(|i| i.id == declined.invitation_id).unwrap();
    assert_eq!(inv.variant, Variant::AccessRequest);
    block_on(w.svc.accept_invitation(declined.invitation_id, false)).unwrap();
    assert_eq!(w.order(declined.id).status, OrderStatus::Started, "joined without sharing: nothing to report");

    let (shared, _) = w.place(&c, order(TestRef::TalentAssessment, "eve@example.test", "gh-2"));
    let there = block_on(w.svc.import_person(other, ImportPerson::new(email("eve@example.test")))).unwrap().person;
    w.complete(there.id);
    // Eve's invitation was an assessment invitation when it was created; a new order after her
    // results exist elsewhere asks for access.
    block_on(w.svc.cancel_order(w.org, shared.id)).unwrap();
    let (asked, _) = w.place(&c, order(TestRef::TalentAssessment, "eve@example.test", "gh-3"));
    let inv = w.store.snapshot().invitations.into_iter().find(|i| i.id == asked.invitation_id).unwrap();
    assert_eq!(inv.variant, Variant::AccessRequest);
    block_on(w.svc.accept_invitation(asked.invitation_id, true)).unwrap();
    let o = w.order(asked.id);
    assert_eq!(o.status, OrderStatus::Completed, "consent shows the results: the order is complete");
    assert!(o.assessment_id.is_some());
}

#[test]
fn deleting_a_connection_revokes_its_key_and_removes_its_orders_d63() {
    let w = world();
    let c = w.connect();
    w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    block_on(w.svc.delete_connection(c.id)).unwrap();
    let s = w.store.snapshot();
    assert!(s.connections.is_empty() && s.orders.is_empty());
    let key = s.keys.iter().find(|k| k.id == c.api_key_id).unwrap();
    assert!(key.revoked_at.is_some(), "the ATS's access ends at once");
    assert_eq!(code(block_on(w.svc.get_connection(c.id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.delete_connection(c.id))), Code::NotFound);
}

#[test]
fn a_call_speaks_for_the_keys_connection_or_the_organizations_enabled_one_d64() {
    let w = world();
    let c = w.connect();
    let plain = ApiKeyId(uuid::Uuid::from_u128(77));
    assert_eq!(block_on(w.svc.connection_for_call(w.org, c.api_key_id, Ats::Greenhouse)).unwrap().id, c.id);
    assert_eq!(block_on(w.svc.connection_for_call(w.org, plain, Ats::Greenhouse)).unwrap().id, c.id);
    assert_eq!(code(block_on(w.svc.connection_for_call(w.org, c.api_key_id, Ats::Ashby))), Code::Unauthorized);
    let patch = ConnectionPatch { enabled: Some(false), ..Default::default() };
    block_on(w.svc.update_connection(c.id, patch)).unwrap();
    assert_eq!(code(block_on(w.svc.connection_for_call(w.org, c.api_key_id, Ats::Greenhouse))), Code::Unauthorized);
}

#[test]
fn an_update_checks_the_settings_as_they_would_be_and_keeps_activity() {
    let w = world();
    let c = block_on(w.svc.create_connection(
        w.org,
        NewConnection {
            ats: Ats::Ashby,
            name: "Ashby".into(),
            settings: ConnectionSettings { api_key: Some("ashby-key".into()), ..Default::default() },
            locale: None,
        },
        Some(w.admin),
    ))
    .unwrap()
    .view
    .connection;
    let clear_key =
        ConnectionPatch { settings: SettingsPatch { api_key: Some(None), ..Default::default() }, ..Default::default() };
    assert_eq!(code(block_on(w.svc.update_connection(c.id, clear_key))), Code::ValidationError);
    let rename = ConnectionPatch { name: Some("Ashby EU".into()), ..Default::default() };
    let v = block_on(w.svc.update_connection(c.id, rename)).unwrap();
    assert_eq!(v.connection.name, "Ashby EU");
    assert_eq!(v.connection.settings.api_key.as_deref(), Some("ashby-key"));
}

#[test]
fn an_error_report_is_recorded_on_the_connection_and_changes_nothing_else_d75() {
    let w = world();
    let c = w.connect();
    let before = w.store.snapshot().events.len();
    let long = "x".repeat(5000);
    block_on(w.svc.record_connection_error(c.id, "send_test", &long, None)).unwrap();
    let list = block_on(w.svc.list_connection_errors(c.id, 10)).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].errors.chars().count(), 4000);
    assert_eq!(w.store.snapshot().events.len(), before);
}

fn viewed() -> talent_domain::usecases::report_links::Viewed {
    talent_domain::usecases::report_links::Viewed { client_ip: "203.0.113.9".into(), user_agent: Some("ATS".into()) }
}

fn token_of(url: &str) -> String {
    url.rsplit('/').next().unwrap().to_string()
}

#[test]
fn the_report_link_opens_after_completion_is_recorded_and_is_gone_after_180_days_d68() {
    use talent_domain::usecases::report_links::ReportAccess;
    let w = world();
    let c = w.connect();
    let p = w.profile();
    let (o, _) = w.place(&c, order(TestRef::Profile(p), "ada@example.test", "gh-1"));
    assert_eq!(w.svc.report_url(&o), None, "no link before completion");
    let early = talent_domain::fakes::FakeSecrets::default().report_token(o.id);
    assert_eq!(code(block_on(w.svc.open_report(&early, viewed(), false, None))), Code::NotFound);
    block_on(w.svc.accept_invitation(o.invitation_id, false)).unwrap();
    w.complete(o.person_id);
    let done = w.order(o.id);
    let url = w.svc.report_url(&done).unwrap();
    assert!(url.starts_with("http://talent.test/r/"), "{url}");
    match block_on(w.svc.open_report(&token_of(&url), viewed(), true, None)).unwrap() {
        ReportAccess::Open(v) => {
            assert_eq!(v.person_name, "Ada");
            assert_eq!(v.profile_match.as_ref().map(|(n, _)| n.as_str()), Some("Engineer"));
            assert!(!v.competencies.is_empty() && v.pdf.is_some());
        }
        ReportAccess::Gone => panic!("open"),
    }
    let opened = block_on(w.svc.report_openings(w.org, o.id, 10)).unwrap();
    assert_eq!(opened.len(), 1);
    assert_eq!((opened[0].client_ip.as_str(), opened[0].pdf), ("203.0.113.9", true));
    assert_eq!(code(block_on(w.svc.open_report("forged", viewed(), false, None))), Code::NotFound);
    w.clock.advance(Duration::days(181));
    assert!(matches!(block_on(w.svc.open_report(&token_of(&url), viewed(), false, None)).unwrap(), ReportAccess::Gone));
    assert_eq!(block_on(w.svc.report_openings(w.org, o.id, 10)).unwrap().len(), 1, "a gone link records nothing");
}

#[test]
fn the_report_link_is_gone_once_the_person_is_erased_d68_d44() {
    use talent_domain::usecases::report_links::ReportAccess;
    let w = world();
    let c = w.connect();
    let (o, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    block_on(w.svc.accept_invitation(o.invitation_id, false)).unwrap();
    w.complete(o.person_id);
    let url = w.svc.report_url(&w.order(o.id)).unwrap();
    assert!(matches!(
        block_on(w.svc.open_report(&token_of(&url), viewed(), false, None)).unwrap(),
        ReportAccess::Open(_)
    ));
    block_on(w.svc.erase_human(email("ada@example.test"))).unwrap();
    assert!(matches!(block_on(w.svc.open_report(&token_of(&url), viewed(), false, None)).unwrap(), ReportAccess::Gone));
}

// ---------------------------------------------------------------------------------------------
// Pushes (D69)
// ---------------------------------------------------------------------------------------------

/// A world whose webhook sender the test can read and answer for.
fn push_world(ats: Ats) -> (World, Arc<talent_domain::fakes::FakeSender>, Connection) {
    let mut w = world();
    let sender = Arc::new(talent_domain::fakes::FakeSender::default());
    w.svc.webhooks = sender.clone();
    let settings = match ats {
        Ats::Greenhouse => ConnectionSettings::default(),
        _ => ConnectionSettings { api_key: Some("their-key".into()), ..Default::default() },
    };
    let input = NewConnection { ats, name: ats.display_name().into(), settings, locale: None };
    let c = block_on(w.svc.create_connection(w.org, input, None)).unwrap().view.connection;
    (w, sender, c)
}

fn pushes(sender: &talent_domain::fakes::FakeSender) -> Vec<talent_domain::ports::PushRequest> {
    sender.pushes.lock().unwrap().clone()
}

#[test]
fn a_completion_is_pushed_through_the_delivery_engine_with_the_score_and_the_link_d69() {
    let (w, sender, c) = push_world(Ats::Greenhouse);
    let p = w.profile();
    let (o, _) = w.place(&c, order(TestRef::Profile(p), "ada@example.test", "gh-1"));
    block_on(w.svc.accept_invitation(o.invitation_id, false)).unwrap();
    assert!(block_on(w.svc.push_log(c.id, None, None, 10)).unwrap().items.is_empty(), "Greenhouse: no push on start");
    w.complete(o.person_id);
    let log = block_on(w.svc.push_log(c.id, None, None, 10)).unwrap().items;
    assert_eq!(log.len(), 1, "one push, written with the completion");
    assert_eq!(log[0].event_type, talent_domain::events::EventType::AssessmentCompleted);
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1);
    let sent = pushes(&sender);
    assert_eq!(sent.len(), 1);
    let body: serde_json::Value = serde_json::from_str(sent[0].body.as_deref().unwrap()).unwrap();
    let matches = block_on(w.svc.person_matches(w.org, w.org, o.person_id)).unwrap();
    assert_eq!(body["score"], serde_json::json!(matches[0].percentage), "the match percentage (D66)");
    assert_eq!(body["link"], serde_json::json!(w.svc.report_url(&w.order(o.id)).unwrap()));
    assert!(sender.sent.lock().unwrap().is_empty(), "not a signed webhook");
    let log = block_on(w.svc.push_log(c.id, None, None, 10)).unwrap().items;
    assert_eq!(log[0].status, talent_domain::webhook::DeliveryStatus::Succeeded);
}

#[test]
fn the_hidden_endpoint_is_not_a_webhook_endpoint_d69() {
    let (w, _sender, _c) = push_world(Ats::Ashby);
    assert!(block_on(w.svc.list_endpoints(w.org)).unwrap().is_empty(), "never listed");
    let ep = w.store.snapshot().endpoints[0].clone();
    assert_eq!(code(block_on(w.svc.get_endpoint(w.org, ep.id))), Code::NotFound, "never read");
    for i in 0..10 {
        let n = talent_domain::usecases::webhooks::NewEndpoint {
            url: format!("https://hooks.example/{i}"),
            events: talent_domain::webhook::Subscription::All,
            description: None,
        };
        block_on(w.svc.create_endpoint(w.org, n)).unwrap();
    }
    assert_eq!(block_on(w.svc.list_endpoints(w.org)).unwrap().len(), 10, "never counted against the ten");
}

#[test]
fn a_failing_ats_gets_retries_for_three_days_and_a_redelivery_d69() {
    let (w, sender, c) = push_world(Ats::Ashby);
    let (o, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "app-1"));
    block_on(w.svc.accept_invitation(o.invitation_id, false)).unwrap();
    sender.answers.lock().unwrap().extend(std::iter::repeat_n(500, 40));
    let mut attempts = 0;
    for _ in 0..40 {
        attempts += block_on(w.svc.run_deliveries(10)).unwrap();
        w.clock.advance(Duration::hours(6));
    }
    assert_eq!(attempts, 17, "the first attempt and 16 retries (D69)");
    let failed =
        block_on(w.svc.push_log(c.id, Some(talent_domain::webhook::DeliveryStatus::Failed), None, 10)).unwrap().items;
    assert_eq!(failed.len(), 1);
    assert_eq!(block_on(w.svc.get_connection(c.id)).unwrap().failed_pushes, 1);
    assert!(
        !w.store.snapshot().events.iter().any(|e| e.event_type == talent_domain::events::EventType::WebhookDisabled),
        "no webhook.disabled for a connection"
    );
    sender.answers.lock().unwrap().clear();
    block_on(w.svc.redeliver_push(c.id, failed[0].id)).unwrap();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1);
    assert_eq!(block_on(w.svc.get_connection(c.id)).unwrap().failed_pushes, 0);
    let (_, log) = block_on(w.svc.push_attempts(c.id, failed[0].id)).unwrap();
    assert_eq!(log.len(), 18);
}

#[test]
fn a_disabled_connection_holds_its_pushes_until_enabled_again_d69() {
    let (w, sender, c) = push_world(Ats::Ashby);
    let (o, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "app-1"));
    block_on(w.svc.update_connection(c.id, ConnectionPatch { enabled: Some(false), ..Default::default() })).unwrap();
    block_on(w.svc.cancel_order(w.org, o.id)).unwrap();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 0, "held");
    block_on(w.svc.update_connection(c.id, ConnectionPatch { enabled: Some(true), ..Default::default() })).unwrap();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1, "released");
    assert_eq!(pushes(&sender).len(), 1);
}

#[test]
fn deleting_a_connection_deletes_its_endpoint_and_pushes_d63_d69() {
    let (w, _sender, c) = push_world(Ats::Ashby);
    let (o, _) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "app-1"));
    block_on(w.svc.cancel_order(w.org, o.id)).unwrap();
    block_on(w.svc.delete_connection(c.id)).unwrap();
    let s = w.store.snapshot();
    assert!(s.endpoints.is_empty() && s.deliveries.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Kombo (D81-D83)
// ---------------------------------------------------------------------------------------------

fn kombo_settings() -> ConnectionSettings {
    ConnectionSettings {
        base_url: Some("https://kombo.example/v1".into()),
        api_key: Some("kombo-key".into()),
        integration_id: Some("acme:1".into()),
        webhook_secret: Some("kombo-secret".into()),
    }
}

/// A world with a Kombo connection whose sender the test reads.
fn kombo_world() -> (World, Arc<talent_domain::fakes::FakeSender>, Connection) {
    let mut w = world();
    let sender = Arc::new(talent_domain::fakes::FakeSender::default());
    w.svc.webhooks = sender.clone();
    let input = NewConnection { ats: Ats::Kombo, name: "Kombo".into(), settings: kombo_settings(), locale: None };
    let c = block_on(w.svc.create_connection(w.org, input, None)).unwrap().view.connection;
    (w, sender, c)
}

/// The test ids of the package pushes sent so far (the fake renders `{"packages": [ids]}`).
fn package_lists(sender: &talent_domain::fakes::FakeSender) -> Vec<Vec<String>> {
    pushes(sender)
        .iter()
        .filter(|p| p.url.ends_with("/packages"))
        .map(|p| {
            let v: serde_json::Value = serde_json::from_str(p.body.as_deref().unwrap()).unwrap();
            v["packages"].as_array().unwrap().iter().map(|i| i.as_str().unwrap().to_string()).collect()
        })
        .collect()
}

#[test]
fn a_kombo_connection_gets_its_packages_when_created_and_whenever_the_profiles_change_d81() {
    let (w, sender, c) = kombo_world();
    let other = w.connect(); // Greenhouse keeps no list of tests
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1, "one push at creation");
    assert_eq!(package_lists(&sender), vec![vec!["talent-assessment".to_string()]]);
    let p = w.profile();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1);
    let patch =
        talent_domain::usecases::assessments::ProfilePatch { name: Some("Engineer II".into()), ..Default::default() };
    block_on(w.svc.update_profile(w.org, p, patch)).unwrap();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1);
    block_on(w.svc.delete_profile(w.org, p)).unwrap();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1);
    let lists = package_lists(&sender);
    assert_eq!(lists.len(), 4);
    assert_eq!(lists[1], vec!["talent-assessment".to_string(), p.to_string()], "the new profile is a package");
    assert_eq!(lists[3], vec!["talent-assessment".to_string()], "the deleted profile is gone from the list");
    let log = block_on(w.svc.push_log(c.id, None, None, 10)).unwrap().items;
    assert!(log.iter().all(|d| talent_domain::connector::pushes_packages(&d.payload)));
    assert!(block_on(w.svc.push_log(other.id, None, None, 10)).unwrap().items.is_empty(), "not for Greenhouse");
    // A disabled connection hears nothing; enabling it sends the list again.
    block_on(w.svc.update_connection(c.id, ConnectionPatch { enabled: Some(false), ..Default::default() })).unwrap();
    w.profile();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 0);
    block_on(w.svc.update_connection(c.id, ConnectionPatch { enabled: Some(true), ..Default::default() })).unwrap();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1);
    assert_eq!(package_lists(&sender).last().unwrap().len(), 2);
}

#[test]
fn another_organizations_profiles_never_reach_a_kombo_connection_d81() {
    let (w, sender, _c) = kombo_world();
    let (other, _) = new_org(&w.svc, "Globex");
    let cid = w.svc.assessment.model.competencies[0].id;
    let p = NewProfile {
        name: "Theirs".into(),
        description: None,
        competencies: vec![ProfileCompetency { competency_id: cid, weight: 1.0 }],
    };
    block_on(w.svc.create_profile(other, p)).unwrap();
    block_on(w.svc.run_deliveries(10)).unwrap();
    assert_eq!(package_lists(&sender), vec![vec!["talent-assessment".to_string()]]);
}

#[test]
fn a_kombo_order_is_taken_once_whatever_its_state_d82() {
    let (w, _sender, c) = kombo_world();
    let (o, created) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "kombo-order-1"));
    assert!(created);
    block_on(w.svc.cancel_order(w.org, o.id)).unwrap();
    let (again, created) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "kombo-order-1"));
    assert!(!created, "a cancelled Kombo order is not taken again");
    assert_eq!(again.id, o.id);
    assert_eq!(w.emails(), 1, "no second email");
    assert_eq!(block_on(w.svc.order_by_key(c.id, "kombo-order-1".into())).unwrap().unwrap().id, o.id);
    assert!(block_on(w.svc.order_by_key(c.id, "kombo-order-2".into())).unwrap().is_none());
}

#[test]
fn a_kombo_completion_carries_the_pdf_report_and_an_expiry_is_pushed_d83() {
    let (w, sender, c) = kombo_world();
    let p = w.profile();
    block_on(w.svc.run_deliveries(10)).unwrap();
    let (o, _) = w.place(&c, order(TestRef::Profile(p), "ada@example.test", "kombo-order-1"));
    block_on(w.svc.accept_invitation(o.invitation_id, false)).unwrap();
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 0, "no push on start");
    w.complete(o.person_id);
    assert_eq!(block_on(w.svc.run_deliveries(10)).unwrap(), 1);
    let sent = pushes(&sender);
    let body: serde_json::Value = serde_json::from_str(sent.last().unwrap().body.as_deref().unwrap()).unwrap();
    assert_eq!(body["status"], "completed");
    assert!(body["pdf"].as_str().unwrap().starts_with("%PDF"), "the report goes with the result");
    // An expired order is told too (Kombo's CANCELLED).
    let (o2, _) = w.place(&c, order(TestRef::TalentAssessment, "bo@example.test", "kombo-order-2"));
    w.clock.advance(Duration::days(31));
    block_on(w.svc.sweep_invitations()).unwrap();
    assert_eq!(w.order(o2.id).status, OrderStatus::Expired);
    block_on(w.svc.run_deliveries(10)).unwrap();
    let body: serde_json::Value =
        serde_json::from_str(pushes(&sender).last().unwrap().body.as_deref().unwrap()).unwrap();
    assert_eq!((body["status"].as_str(), body["pdf"].is_null()), (Some("expired"), true));
}

#[test]
fn a_repeated_order_is_the_same_order_even_when_its_import_would_now_be_refused_d67_t203() {
    let w = world();
    let c = w.connect();
    let (first, created) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    assert!(created);
    // Ada is archived with her order open, and the organization's 500 seats are taken.
    block_on(w.svc.archive_person(w.org, first.person_id)).unwrap();
    for i in 0..500 {
        block_on(w.svc.import_person(w.org, ImportPerson::new(email(&format!("p{i}@example.test"))))).unwrap();
    }
    let refused = block_on(w.svc.place_order(&c, order(TestRef::TalentAssessment, "eve@example.test", "gh-2")));
    assert_eq!(code(refused), Code::PersonLimitReached, "a new order needs a seat");
    // The ATS's retry of Ada's order would reactivate her (a seat): it is her order, as it was.
    let (again, created) = w.place(&c, order(TestRef::TalentAssessment, "ada@example.test", "gh-1"));
    assert_eq!((again.id, created), (first.id, false));
    assert_eq!(w.emails(), 1, "no second email");
}
