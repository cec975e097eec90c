//! Use-case tests of the invitations slice over the in-memory fakes: the invitation state table
//! of the spec, variants (D19), consent (D11), acceptance (D15, D20), person limits (D6), the
//! pending-invitation rule (D18), the nested `invitation` of an import, and emails, retries,
//! reminders and resend (D21, D22). D-numbers refer to `/work/shared/spec/decisions.md`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::Ordering;
use std::sync::Arc;
use talent_domain::consent::Refusal;
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::events::{EventType, OutboxEvent};
use talent_domain::fakes::{block_on, services, FakeClock, FakeMailer, FakeStore};
use talent_domain::ids::*;
use talent_domain::invitation::{InvitationStatus, Variant};
use talent_domain::person::{ArchiveReason, JoinedVia, Person, PersonStatus};
use talent_domain::results::AssessmentStatus;
use talent_domain::usecases::assessments::AssessmentCommand;
use talent_domain::usecases::invitations::{no_wakeup, InvitationKit, InvitationView, NewInvitation, PageAnswer};
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::usecases::persons::{ImportPerson, NestedInvitation};
use talent_domain::values::*;
use talent_domain::Services;
use time::Duration;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

type Svc = Services<FakeStore>;

struct World {
    svc: Svc,
    store: FakeStore,
    clock: Arc<FakeClock>,
    mailer: Arc<FakeMailer>,
    org: OrgId,
}

fn email(s: &str) -> Email {
    Email::parse(s).unwrap()
}

fn labels(v: &[&str]) -> Labels {
    Labels::parse(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
}

fn plan(id: &str, api_access: bool, person_limit: u32) -> Plan {
    Plan { id: id.into(), api_access, person_limit, profile_limit: 25, org_rpm: 120, key_rpm: 60, org_only_rpm: 60 }
}

/// `professional` allows only `limit` persons, so the person limit is quick to reach (D6).
fn catalogue(limit: u32) -> PlanCatalogue {
    PlanCatalogue::new(vec![
        plan("starter", false, 50),
        plan("professional", true, limit),
        plan("business", true, 5_000),
    ])
}

fn new_org(svc: &Svc, company: &str, domains: &[&str]) -> OrgId {
    let (org, _) = block_on(svc.create_organization(NewOrganization {
        subscription_status: Some(SubscriptionStatus::Active),
        employee_domains: domains.iter().map(|d| d.to_string()).collect(),
        ..NewOrganization::new(company, email("hr@acme.test"), "professional")
    }))
    .unwrap();
    org.id
}

/// Services over the fakes with a mailer the test can inspect, and one organization "Acme".
fn world_with(plans: PlanCatalogue, domains: &[&str]) -> World {
    let (mut svc, store, clock) = services();
    let mailer = Arc::new(FakeMailer::default());
    svc.invites = Arc::new(InvitationKit {
        mailer: mailer.clone(),
        public_url: "http://talent.test".into(),
        sandbox: true,
        wake_emails: no_wakeup(),
        texts: Arc::new(talent_domain::fakes::FakeTexts),
    });
    svc.plans = plans;
    let org = new_org(&svc, "Acme", domains);
    World { svc, store, clock, mailer, org }
}

fn world() -> World {
    world_with(PlanCatalogue::default(), &[])
}

fn invite(e: &str) -> NewInvitation {
    NewInvitation::new(email(e), false)
}

fn import(e: &str) -> ImportPerson {
    ImportPerson::new(email(e))
}

fn client_err<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> ClientError {
    match r {
        Err(UseCaseError::Client(c)) => c,
        other => panic!("expected a client error, got {other:?}"),
    }
}

fn code<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> Code {
    client_err(r).code
}

impl World {
    fn create(&self, input: NewInvitation) -> InvitationView {
        let (v, created) = block_on(self.svc.create_invitation(self.org, input)).unwrap();
        assert!(created, "a new invitation is created");
        v
    }
    fn get(&self, id: InvitationId) -> InvitationView {
        block_on(self.svc.get_invitation(self.org, id)).unwrap()
    }
    fn import(&self, input: ImportPerson) -> Person {
        block_on(self.svc.import_person(self.org, input)).unwrap().person
    }
    fn accept(&self, id: InvitationId, share: bool) -> (InvitationView, Person) {
        block_on(self.svc.accept_invitation(id, share)).unwrap()
    }
    fn person(&self, id: PersonId) -> Person {
        block_on(self.svc.get_person(self.org, id)).unwrap()
    }
    /// Events of this organization of one type, oldest first.
    fn events(&self, t: EventType) -> Vec<OutboxEvent> {
        self.store.snapshot().events.into_iter().filter(|e| e.org_id == self.org && e.event_type == t).collect()
    }
    fn sent(&self) -> Vec<talent_domain::ports::OutgoingEmail> {
        self.mailer.sent.lock().unwrap().clone()
    }
    /// One pass of the email job (T175); returns how many emails it sent.
    fn job(&self) -> u32 {
        block_on(self.svc.deliver_emails()).unwrap()
    }
    /// Posts the person page once (D20, D43).
    fn post(&self, v: &InvitationView, share: bool, code: Option<&str>) -> PageAnswer {
        block_on(self.svc.respond_by_token(&token(v), share, code, None)).unwrap()
    }
    /// The code of the last code email the mailer sent (D43).
    fn last_code(&self) -> String {
        let mail =
            self.sent().into_iter().rev().find(|m| m.subject.starts_with("code-email-subject")).expect("a code email");
        let line = mail.body.lines().find(|l| l.starts_with("    ")).expect("the code line");
        line.chars().filter(|c| c.is_ascii_digit()).collect()
    }
    /// The person accepts by the link as the page lets them: with the code from the email when
    /// D43 asks for one.
    fn by_link(&self, token: &str, share: bool) -> Result<(InvitationView, Person), UseCaseError> {
        match block_on(self.svc.respond_by_token(token, share, None, None))? {
            PageAnswer::Accepted(b) => Ok(*b),
            PageAnswer::CodeSent(_) => {
                match block_on(self.svc.respond_by_token(token, share, Some(&self.last_code()), None))? {
                    PageAnswer::Accepted(b) => Ok(*b),
                    other => panic!("the right code accepts, got {other:?}"),
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    /// A second organization in which the human behind `e` completes an assessment now.
    fn completed_elsewhere(&self, e: &str) {
        let other = new_org(&self.svc, "Other Co", &[]);
        let p = block_on(self.svc.import_person(other, import(e))).unwrap().person;
        block_on(self.svc.admin_assessment(p.id, AssessmentCommand { complete: true, ..Default::default() })).unwrap();
    }
}

/// The token of an invitation's `url` (`{public_url}/i/{token}`, D20).
fn token(v: &InvitationView) -> String {
    v.url.strip_prefix("http://talent.test/i/").expect("url is {public_url}/i/{token}").to_string()
}

// ---------------------------------------------------------------------------------------------
// The invitation state table (spec, Invitation status; D20, D21)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_new_invitation_is_pending_with_the_default_expiry_of_14_days_and_a_public_url() {
    let w = world();
    let v = w.create(invite("ada@example.test"));
    let i = &v.invitation;
    assert_eq!(i.status, InvitationStatus::Pending);
    assert_eq!(i.variant, Variant::Assessment);
    assert_eq!(i.expires_at - i.created_at, Duration::days(14), "D18 default");
    assert_eq!((i.accepted_at, i.revoked_at, i.email_sent_at, i.person_id), (None, None, None, None));
    assert!(v.url.starts_with("http://talent.test/i/"), "D20 url: {}", v.url);
    let json = v.json();
    assert_eq!(json["status"], "pending");
    assert_eq!(json["labels"], serde_json::Value::Null);
    assert_eq!(json["url"], v.url.as_str());
}

#[test]
fn accepting_a_pending_invitation_sets_accepted_at_applies_labels_and_tags_and_emits_invitation_accepted() {
    let w = world();
    let mut input = invite("ada@example.test");
    input.labels = Some(labels(&["employee"]));
    input.tags = Some(vec![TagName::parse("remote").unwrap(), TagName::parse("Backend").unwrap()]);
    input.first_name = Some(PersonName::parse("Ada").unwrap());
    let v = w.create(input);
    let (after, p) = w.by_link(&token(&v), false).unwrap();

    let i = &after.invitation;
    assert_eq!(i.status, InvitationStatus::Accepted);
    assert!(i.accepted_at.is_some_and(|t| t > i.created_at), "acceptedAt set");
    assert_eq!(i.person_id, Some(p.id), "personId set at acceptance");
    assert_eq!(w.get(v.invitation.id).invitation.status, InvitationStatus::Accepted, "persisted");

    assert_eq!(p.labels, labels(&["employee"]), "the invitation's labels, no default added");
    assert_eq!(p.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Backend", "remote"], "sorted (D14)");
    assert_eq!(p.first_name.as_ref().map(|n| n.as_str()), Some("Ada"));
    assert_eq!(w.person(p.id).status, PersonStatus::Active);

    let accepted = w.events(EventType::InvitationAccepted);
    assert_eq!(accepted.len(), 1);
    assert_eq!(accepted[0].data.value()["id"], v.invitation.id.to_string(), "D34: the Invitation object");
    assert_eq!(accepted[0].data.value()["status"], "accepted");
    assert_eq!(accepted[0].data.value()["personId"], p.id.to_string());
}

#[test]
fn revoking_a_pending_invitation_sets_revoked_at_and_emits_invitation_revoked() {
    let w = world();
    let v = w.create(invite("ada@example.test"));
    let r = block_on(w.svc.revoke_invitation(w.org, v.invitation.id)).unwrap();
    assert_eq!(r.invitation.status, InvitationStatus::Revoked);
    assert!(r.invitation.revoked_at.is_some());
    assert_eq!(r.invitation.accepted_at, None);
    assert_eq!(w.get(v.invitation.id).invitation.status, InvitationStatus::Revoked, "persisted");
    let ev = w.events(EventType::InvitationRevoked);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].data.value()["status"], "revoked");
    assert_eq!(ev[0].data.value()["revokedAt"], talent_domain::timefmt::format(r.invitation.revoked_at.unwrap()));
}

#[test]
fn a_pending_invitation_expires_through_the_sweep_and_emits_invitation_expired_exactly_once() {
    let w = world();
    let v = w.create(invite("ada@example.test"));
    let id = v.invitation.id;

    w.clock.advance(Duration::days(14) - Duration::minutes(1));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0), "not due yet");
    assert_eq!(w.get(id).json()["status"], "pending");

    w.clock.advance(Duration::minutes(2));
    // D21: reads as expired at once, before the sweep persists it.
    assert_eq!(w.get(id).json()["status"], "expired");
    assert_eq!(w.store.snapshot().invitations[0].status, InvitationStatus::Pending, "not yet persisted");
    assert!(w.events(EventType::InvitationExpired).is_empty());

    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (1, 0));
    assert_eq!(w.store.snapshot().invitations[0].status, InvitationStatus::Expired, "persisted");
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0), "a second sweep changes nothing");
    let ev = w.events(EventType::InvitationExpired);
    assert_eq!(ev.len(), 1, "invitation.expired exactly once");
    assert_eq!(ev[0].data.value()["status"], "expired");
    assert_eq!(ev[0].data.value()["id"], id.to_string());
}

#[test]
fn accepted_expired_and_revoked_invitations_cannot_be_revoked_accepted_or_resent() {
    let w = world();
    let accepted = w.create(invite("a@example.test")).invitation.id;
    w.accept(accepted, false);
    let revoked = w.create(invite("r@example.test")).invitation.id;
    block_on(w.svc.revoke_invitation(w.org, revoked)).unwrap();
    let mut short = invite("e@example.test");
    short.expires_in_days = Some(1);
    let expired = w.create(short).invitation.id;
    let mut short = invite("s@example.test");
    short.expires_in_days = Some(1);
    let swept = w.create(short).invitation.id;
    w.clock.advance(Duration::days(1) + Duration::seconds(1));
    // `expired` stays pending in storage (reads expired, D21); `swept` is persisted expired.
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap().0, 2);
    let expired_later = {
        let mut short = invite("late@example.test");
        short.expires_in_days = Some(1);
        w.create(short).invitation.id
    };
    w.clock.advance(Duration::days(1) + Duration::seconds(1));

    let events_before = w.store.snapshot().events.len();
    for (id, status) in [
        (accepted, "accepted"),
        (revoked, "revoked"),
        (expired, "expired"),
        (swept, "expired"),
        (expired_later, "expired"),
    ] {
        let before = w.get(id).invitation;
        let e = client_err(block_on(w.svc.revoke_invitation(w.org, id)));
        assert_eq!(e.code, Code::Conflict, "revoke {status}");
        assert_eq!(e.details.as_ref().unwrap()["status"], status);
        assert_eq!(code(block_on(w.svc.accept_invitation(id, true))), Code::Conflict, "accept {status}");
        assert_eq!(code(block_on(w.svc.resend_invitation(w.org, id, Some(5)))), Code::Conflict, "resend {status}");
        assert_eq!(w.get(id).invitation, before, "{status} unchanged");
        assert_eq!(w.get(id).json()["status"], status);
    }
    assert_eq!(w.store.snapshot().events.len(), events_before, "no events from refused transitions");
    assert!(w.sent().is_empty(), "no email from a refused resend");
}

#[test]
fn an_unknown_invitation_is_not_found_for_every_operation() {
    let w = world();
    let id = InvitationId(uuid::Uuid::from_u128(42));
    assert_eq!(code(block_on(w.svc.get_invitation(w.org, id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.revoke_invitation(w.org, id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.resend_invitation(w.org, id, None))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.accept_invitation(id, false))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.respond_by_token("tok-unknown", false, None, None))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.invitation_page("tok-unknown"))), Code::NotFound);
}

#[test]
fn another_organization_cannot_read_or_revoke_an_invitation() {
    let w = world();
    let other = new_org(&w.svc, "Other Co", &[]);
    let id = w.create(invite("ada@example.test")).invitation.id;
    assert_eq!(code(block_on(w.svc.get_invitation(other, id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.revoke_invitation(other, id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.resend_invitation(other, id, None))), Code::NotFound);
    assert_eq!(w.get(id).invitation.status, InvitationStatus::Pending);
}

// ---------------------------------------------------------------------------------------------
// Variant (D19) and consent (D11)
// ---------------------------------------------------------------------------------------------

#[test]
fn the_variant_is_access_request_when_the_human_completed_an_assessment_in_another_organization() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let v = w.create(invite("ada@example.test"));
    assert_eq!(v.invitation.variant, Variant::AccessRequest);
    assert_eq!(v.json()["variant"], "access_request");
}

#[test]
fn the_variant_is_assessment_for_a_new_human_an_unfinished_assessment_or_results_already_visible() {
    let w = world();
    assert_eq!(w.create(invite("new@example.test")).invitation.variant, Variant::Assessment, "unknown human");

    // Only an assessment in progress elsewhere: nothing completed to share.
    let other = new_org(&w.svc, "Other Co", &[]);
    let p = block_on(w.svc.import_person(other, import("busy@example.test"))).unwrap().person;
    block_on(w.svc.admin_assessment(p.id, AssessmentCommand::default())).unwrap();
    assert_eq!(w.create(invite("busy@example.test")).invitation.variant, Variant::Assessment, "in progress only");

    // A member whose completed assessment was taken after joining: the organization sees it.
    let m = w.import(import("member@example.test"));
    block_on(w.svc.admin_assessment(m.id, AssessmentCommand { complete: true, ..Default::default() })).unwrap();
    assert_eq!(w.create(invite("member@example.test")).invitation.variant, Variant::Assessment, "visible results");
}

#[test]
fn a_member_with_hidden_earlier_results_gets_an_access_request() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let p = w.import(import("ada@example.test"));
    assert_eq!(p.assessment.count, 0, "D11: earlier results hidden after an import");
    let v = w.create(invite("ada@example.test"));
    assert_eq!(v.invitation.variant, Variant::AccessRequest);
    assert_eq!(v.invitation.person_id, Some(p.id));
}

#[test]
fn accepting_an_access_request_with_consent_makes_earlier_results_visible() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let v = w.create(invite("ada@example.test"));
    assert_eq!(v.invitation.variant, Variant::AccessRequest);
    w.clock.advance(Duration::days(1));
    let (_, p) = w.by_link(&token(&v), true).unwrap();
    assert!(p.shared_existing_profile, "sharedExistingProfile (D11)");
    assert_eq!(p.assessment.count, 1);
    assert_eq!(p.assessment.status, AssessmentStatus::Completed);
    let r = block_on(w.svc.results(w.org, p.id)).unwrap();
    assert!(r.scores.is_some(), "results visible");
    assert!(r.personality.is_some());
    assert_eq!(w.person(p.id).assessment.count, 1, "persisted");
}

#[test]
fn accepting_an_access_request_without_consent_keeps_earlier_results_hidden() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let v = w.create(invite("ada@example.test"));
    w.clock.advance(Duration::days(1));
    let (_, p) = w.by_link(&token(&v), false).unwrap();
    assert!(!p.shared_existing_profile);
    assert_eq!(p.assessment.count, 0);
    assert_eq!(p.assessment.status, AssessmentStatus::NotStarted);
    let r = block_on(w.svc.results(w.org, p.id)).unwrap();
    assert!(r.scores.is_none(), "hasResults false");
}

#[test]
fn consent_on_an_active_member_with_hidden_results_reveals_them() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let p = w.import(import("ada@example.test"));
    let v = w.create(invite("ada@example.test"));
    let (_, after) = w.accept(v.invitation.id, true);
    assert_eq!(after.id, p.id, "the same membership");
    assert!(after.shared_existing_profile);
    assert_eq!(w.person(p.id).assessment.count, 1);
    assert!(block_on(w.svc.results(w.org, p.id)).unwrap().scores.is_some());
}

#[test]
fn share_on_an_assessment_invitation_gives_no_consent() {
    // D20: `share=true` gives consent on an `access_request` only.
    let w = world();
    let v = w.create(invite("ada@example.test"));
    let (_, p) = w.accept(v.invitation.id, true);
    assert!(!p.shared_existing_profile);
}

// ---------------------------------------------------------------------------------------------
// Acceptance creates, re-admits or refuses the membership (D15, D20)
// ---------------------------------------------------------------------------------------------

#[test]
fn acceptance_creates_a_person_joined_via_invitation_personal_with_default_labels_and_the_domain_rule() {
    let w = world_with(PlanCatalogue::default(), &["acme.test"]);
    let mut input = invite("eve@acme.test");
    input.external_id = Some(ExternalId::parse("ats-1").unwrap());
    input.last_name = Some(PersonName::parse("Smith").unwrap());
    let staff = w.create(input);
    let outsider = w.create(invite("olga@example.test"));
    let mut explicit = invite("ed@acme.test");
    explicit.labels = Some(labels(&["candidate"]));
    let explicit = w.create(explicit);

    let (_, p) = w.accept(staff.invitation.id, false);
    assert_eq!(p.joined_via, JoinedVia::InvitationPersonal);
    assert_eq!(p.labels, labels(&["candidate", "employee"]), "D15: null labels = default + domain rule");
    assert_eq!(p.external_id.as_ref().map(|x| x.as_str()), Some("ats-1"));
    assert_eq!(p.last_name.as_ref().map(|x| x.as_str()), Some("Smith"));
    assert_eq!(p.status, PersonStatus::Active);
    assert_eq!(p.member_since, p.updated_at);
    assert_eq!(w.person(p.id), p, "persisted");
    assert_eq!(p.email, email("eve@acme.test"));

    let (_, o) = w.accept(outsider.invitation.id, false);
    assert_eq!(o.labels, Labels::DEFAULT, "no employee outside the domains");
    let (_, e) = w.accept(explicit.invitation.id, false);
    assert_eq!(e.labels, labels(&["candidate"]), "D15: the rule applies to null labels only");

    assert_eq!(w.events(EventType::PersonJoined).len(), 3, "person.joined for each new member");
    assert_eq!(w.events(EventType::InvitationAccepted).len(), 3);
    assert!(w.events(EventType::PersonCreated).is_empty(), "person.created is for API imports");
    let joined = &w.events(EventType::PersonJoined)[0];
    assert_eq!(joined.data.value()["id"], p.id.to_string(), "D34: the Person object");
    assert_eq!(joined.data.value()["joinedVia"], "invitation_personal");
}

#[test]
fn acceptance_re_admits_a_person_who_withdrew_their_own_participation() {
    let w = world();
    let p = w.import(import("ada@example.test"));
    block_on(w.svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked)).unwrap();
    assert_eq!(code(block_on(w.svc.import_person(w.org, import("ada@example.test")))), Code::PersonSelfRevoked);

    let v = w.create(invite("ada@example.test"));
    assert_eq!(v.invitation.person_id, Some(p.id), "known person linked at creation");
    let joined_before = w.events(EventType::PersonJoined).len();
    let (i, back) = w.accept(v.invitation.id, false);
    assert_eq!(back.id, p.id, "the same membership is re-admitted");
    assert_eq!(back.status, PersonStatus::Active);
    assert_eq!(back.archived_at, None);
    assert_eq!(back.archive_reason, None);
    assert_eq!(back.joined_via, JoinedVia::InvitationPersonal);
    assert_eq!(back.member_since, p.member_since, "memberSince kept");
    assert_eq!(i.invitation.person_id, Some(p.id));
    assert_eq!(w.events(EventType::PersonJoined).len(), joined_before + 1, "was not an active member");
    // Now an ordinary member again: a later import merges (200).
    assert!(!block_on(w.svc.import_person(w.org, import("ada@example.test"))).unwrap().created);
}

#[test]
fn acceptance_refuses_a_person_deactivated_by_an_administrator() {
    let w = world();
    let p = w.import(import("ada@example.test"));
    let v = w.create(invite("ada@example.test"));
    block_on(w.svc.admin_archive_person(p.id, ArchiveReason::Deactivated)).unwrap();
    assert_eq!(code(w.by_link(&token(&v), false)), Code::PersonDeactivated);
    assert_eq!(w.get(v.invitation.id).invitation.status, InvitationStatus::Pending, "nothing changed");
    assert_eq!(w.person(p.id).status, PersonStatus::Archived);
    assert!(w.events(EventType::InvitationAccepted).is_empty());
    assert!(w.events(EventType::PersonJoined).is_empty());
}

#[test]
fn acceptance_by_an_active_member_emits_invitation_accepted_but_not_person_joined() {
    let w = world();
    let p = w.import(ImportPerson { tags: vec![TagName::parse("old").unwrap()], ..import("ada@example.test") });
    let mut input = invite("ada@example.test");
    input.labels = Some(labels(&["employee"]));
    input.tags = Some(vec![TagName::parse("new").unwrap()]);
    input.first_name = Some(PersonName::parse("Ada").unwrap());
    let v = w.create(input);
    let (_, after) = w.accept(v.invitation.id, false);
    assert_eq!(after.id, p.id);
    assert_eq!(after.joined_via, JoinedVia::Api, "joinedVia of an existing member is kept");
    assert_eq!(after.labels, labels(&["employee"]), "T35: labels applied when not null");
    assert_eq!(after.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["new", "old"], "tags added");
    assert_eq!(after.first_name.as_ref().map(|n| n.as_str()), Some("Ada"), "empty name filled in");
    assert_eq!(w.events(EventType::InvitationAccepted).len(), 1);
    assert!(w.events(EventType::PersonJoined).is_empty(), "D20: only when not an active member");
}

#[test]
fn acceptance_with_null_labels_keeps_the_labels_of_an_existing_member() {
    let w = world_with(PlanCatalogue::default(), &["acme.test"]);
    let p = w.import(ImportPerson { labels: Some(labels(&[])), ..import("ada@example.test") });
    let v = w.create(invite("ada@example.test"));
    let (_, after) = w.accept(v.invitation.id, false);
    assert_eq!(after.id, p.id);
    assert_eq!(after.labels, labels(&[]));
}

// ---------------------------------------------------------------------------------------------
// Person limit (D6)
// ---------------------------------------------------------------------------------------------

#[test]
fn creating_an_invitation_for_a_new_person_is_refused_at_the_person_limit() {
    let w = world_with(catalogue(2), &[]);
    w.import(import("one@example.test"));
    w.import(import("two@example.test"));
    let e = client_err(block_on(w.svc.create_invitation(w.org, invite("three@example.test"))));
    assert_eq!(e.code, Code::PersonLimitReached);
    assert_eq!(e.details.unwrap(), serde_json::json!({"used": 2, "limit": 2, "plan": "professional"}));
    assert!(w.store.snapshot().invitations.is_empty(), "nothing stored");
    // An active member needs no new seat.
    let (v, created) = block_on(w.svc.create_invitation(w.org, invite("two@example.test"))).unwrap();
    assert!(created);
    assert_eq!(v.invitation.status, InvitationStatus::Pending);
}

#[test]
fn accepting_an_invitation_is_refused_at_the_person_limit_until_a_seat_is_freed() {
    let w = world_with(catalogue(2), &[]);
    let one = w.import(import("one@example.test"));
    let v = w.create(invite("new@example.test"));
    w.import(import("two@example.test"));
    let e = client_err(w.by_link(&token(&v), false));
    assert_eq!(e.code, Code::PersonLimitReached);
    assert_eq!(e.details.unwrap()["used"], 2);
    assert_eq!(w.get(v.invitation.id).invitation.status, InvitationStatus::Pending);
    assert!(w.events(EventType::InvitationAccepted).is_empty());

    block_on(w.svc.archive_person(w.org, one.id)).unwrap();
    let (i, p) = w.by_link(&token(&v), false).unwrap();
    assert_eq!(i.invitation.status, InvitationStatus::Accepted);
    assert_eq!(p.status, PersonStatus::Active);
}

#[test]
fn an_active_member_can_accept_while_the_pool_is_full() {
    let w = world_with(catalogue(1), &[]);
    w.import(import("one@example.test"));
    let v = w.create(invite("one@example.test"));
    let (i, _) = w.accept(v.invitation.id, false);
    assert_eq!(i.invitation.status, InvitationStatus::Accepted);
}

// ---------------------------------------------------------------------------------------------
// Pending invitation per email (D18), personId at creation
// ---------------------------------------------------------------------------------------------

#[test]
fn creating_an_invitation_for_an_email_with_a_pending_one_returns_it() {
    let w = world();
    let mut first = invite("ada@example.test");
    first.send_email = true;
    let v = w.create(first);
    let mut again = invite("  ADA@example.test ");
    again.send_email = true;
    again.expires_in_days = Some(60);
    let (same, created) = block_on(w.svc.create_invitation(w.org, again)).unwrap();
    assert!(!created, "200 with X-Existing-Resource (D18)");
    assert_eq!(same.invitation.id, v.invitation.id);
    assert_eq!(same.invitation.expires_at, v.invitation.expires_at, "unchanged");
    assert_eq!(w.store.snapshot().invitations.len(), 1);
    w.job();
    assert_eq!(w.sent().len(), 1, "no second email");
}

#[test]
fn a_new_invitation_is_created_once_the_previous_one_is_no_longer_pending() {
    let w = world();
    let first = w.create(invite("ada@example.test")).invitation.id;
    block_on(w.svc.revoke_invitation(w.org, first)).unwrap();
    let second = w.create(invite("ada@example.test")).invitation.id;
    assert_ne!(first, second);
    w.clock.advance(Duration::days(15));
    let third = w.create(invite("ada@example.test")).invitation.id;
    assert_ne!(second, third, "an expired invitation is not returned");
}

#[test]
fn person_id_is_set_at_creation_when_the_email_is_a_member_and_null_otherwise() {
    let w = world();
    let p = w.import(import("member@example.test"));
    assert_eq!(w.create(invite("member@example.test")).invitation.person_id, Some(p.id));
    let v = w.create(invite("stranger@example.test"));
    assert_eq!(v.invitation.person_id, None);
    assert_eq!(v.json()["personId"], serde_json::Value::Null);
}

// ---------------------------------------------------------------------------------------------
// The nested invitation of POST /persons (spec)
// ---------------------------------------------------------------------------------------------

#[test]
fn an_import_with_a_nested_invitation_creates_it_and_a_repeated_import_returns_the_pending_one() {
    let w = world();
    let nested = NestedInvitation { send_email: false, expires_in_days: Some(30), candidate: Default::default() };
    let first = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            first_name: Some(PersonName::parse("Ada").unwrap()),
            invitation: Some(nested),
            ..import("ada@example.test")
        },
    ))
    .unwrap();
    assert!(first.created, "201");
    let inv = first.invitation.expect("invitation object");
    assert_eq!(inv.invitation.person_id, Some(first.person.id));
    assert_eq!(inv.invitation.status, InvitationStatus::Pending);
    assert_eq!(inv.invitation.expires_at - inv.invitation.created_at, Duration::days(30));
    assert_eq!(inv.invitation.first_name.as_ref().map(|n| n.as_str()), Some("Ada"));
    assert_eq!(inv.invitation.variant, Variant::Assessment);

    let again = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            invitation: Some(NestedInvitation {
                send_email: true,
                expires_in_days: None,
                candidate: Default::default(),
            }),
            ..import("ada@example.test")
        },
    ))
    .unwrap();
    assert!(!again.created, "200");
    assert_eq!(again.invitation.expect("invitation object").invitation.id, inv.invitation.id, "the pending one");
    assert_eq!(w.store.snapshot().invitations.len(), 1);
    assert!(w.sent().is_empty(), "sendEmail of the returned invitation does not send");

    let plain = block_on(w.svc.import_person(w.org, import("ada@example.test"))).unwrap();
    assert!(plain.invitation.is_none(), "no invitation requested: null");
}

#[test]
fn an_import_with_a_nested_invitation_and_send_email_sends_it() {
    let w = world();
    let out = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            invitation: Some(NestedInvitation {
                send_email: true,
                expires_in_days: None,
                candidate: Default::default(),
            }),
            ..import("ada@example.test")
        },
    ))
    .unwrap();
    let inv = out.invitation.unwrap();
    assert_eq!(w.job(), 1, "the email job sends it (T175)");
    assert!(w.get(inv.invitation.id).invitation.email_sent_at.is_some());
    assert_eq!(w.sent().len(), 1);
    assert!(w.sent()[0].body.contains(&inv.url));
}

#[test]
fn an_import_of_a_person_with_hidden_earlier_results_nests_an_access_request() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let out = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            invitation: Some(NestedInvitation {
                send_email: false,
                expires_in_days: None,
                candidate: Default::default(),
            }),
            ..import("ada@example.test")
        },
    ))
    .unwrap();
    assert_eq!(out.invitation.unwrap().invitation.variant, Variant::AccessRequest, "D19");
}

#[test]
fn a_refused_import_creates_no_nested_invitation() {
    let w = world_with(catalogue(1), &[]);
    w.import(import("one@example.test"));
    let r = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            invitation: Some(NestedInvitation {
                send_email: true,
                expires_in_days: None,
                candidate: Default::default(),
            }),
            ..import("two@example.test")
        },
    ));
    assert_eq!(code(r), Code::PersonLimitReached);
    assert!(w.store.snapshot().invitations.is_empty());
    assert!(w.store.snapshot().emails.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Emails (D21, D22)
// ---------------------------------------------------------------------------------------------

#[test]
fn send_email_sends_one_email_with_the_message_the_url_and_the_expiry_date() {
    let w = world();
    let mut input = invite("ada@example.test");
    input.send_email = true;
    input.message = Some("We loved your portfolio, Ada.".into());
    input.first_name = Some(PersonName::parse("Ada").unwrap());
    let v = w.create(input);
    w.job();
    let sent = w.sent();
    assert_eq!(sent.len(), 1);
    let m = &sent[0];
    assert_eq!(m.to, email("ada@example.test"));
    assert!(m.subject.contains("Acme"), "subject names the organization: {}", m.subject);
    assert!(m.body.contains("We loved your portfolio, Ada."), "message in {}", m.body);
    assert!(m.body.contains(&v.url), "url in {}", m.body);
    // T217: the words are the texts' (the fake shows what was asked): greeting by name, the
    // organization, the expiry as a date in the organization's time zone (UTC by default) and
    // English (no invitation or organization locale).
    assert!(
        m.subject.starts_with("invitation-email-subject[en](company=Acme; variant=assessment; reminder=no)"),
        "{}",
        m.subject
    );
    assert!(m.body.starts_with("email-greeting[en](name=Ada)"), "{}", m.body);
    assert!(
        m.body.contains("invitation-email-valid-until[en](expiry=2026-01-15T00:00:00") && m.body.contains(" UTC)"),
        "14 days after 2026-01-01: {}",
        m.body
    );
    assert_eq!(m.invitation_url.as_deref(), Some(v.url.as_str()));
    assert!(w.get(v.invitation.id).invitation.email_sent_at.is_some(), "emailSentAt once sent (T33)");
    let rec = block_on(w.svc.emails(Some(email("ada@example.test")), 10)).unwrap();
    assert_eq!(rec.len(), 1);
    assert!(rec[0].sent_at.is_some());
    assert_eq!(rec[0].invitation_id, Some(v.invitation.id));
}

#[test]
fn without_send_email_no_email_is_sent_or_recorded() {
    let w = world();
    let v = w.create(invite("ada@example.test"));
    assert!(w.sent().is_empty());
    assert!(w.store.snapshot().emails.is_empty());
    assert_eq!(v.invitation.email_sent_at, None);
    w.clock.advance(Duration::days(4));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0), "no reminder of an unsent invitation");
    assert!(w.sent().is_empty());
}

#[test]
fn a_failed_send_keeps_the_invitation_and_is_retried_later() {
    let w = world();
    w.mailer.fail.store(true, Ordering::SeqCst);
    let mut input = invite("ada@example.test");
    input.send_email = true;
    let v = w.create(input);
    assert_eq!(w.job(), 0, "the relay is down");
    assert_eq!(v.invitation.status, InvitationStatus::Pending, "the invitation exists");
    assert_eq!(v.invitation.email_sent_at, None);
    assert_eq!(w.get(v.invitation.id).invitation.email_sent_at, None);
    let rec = &w.store.snapshot().emails[0];
    assert_eq!((rec.attempts, rec.sent_at), (1, None));
    assert!(rec.last_error.as_deref().is_some_and(|e| e.contains("smtp down")));

    w.mailer.fail.store(false, Ordering::SeqCst);
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 0, "not before the retry delay");
    assert!(w.sent().is_empty());
    w.clock.advance(Duration::seconds(61));
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 1);
    assert_eq!(w.sent().len(), 1);
    assert!(w.get(v.invitation.id).invitation.email_sent_at.is_some(), "emailSentAt after the successful send");
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 0, "sent once");
}

#[test]
fn an_email_claimed_by_another_sender_is_not_sent_twice_and_is_retried_after_the_lease() {
    // T33: requests and the background job deliver concurrently; an email claimed by one of them
    // is skipped by the others, and sent again only when its sender never recorded the result.
    use talent_domain::ports::{Store, Tx};
    let w = world();
    w.mailer.fail.store(true, Ordering::SeqCst);
    let mut input = invite("ada@example.test");
    input.send_email = true;
    let v = w.create(input);
    w.mailer.fail.store(false, Ordering::SeqCst);
    w.clock.advance(Duration::seconds(61));
    let email_id = w.store.snapshot().emails[0].id;
    let now = talent_domain::ports::Clock::now(&*w.clock);
    let lease = talent_domain::usecases::invitations::EMAIL_LEASE;
    let claimed = block_on(w.svc.store.write(move |tx: &mut dyn Tx| {
        Box::pin(async move { Ok::<_, UseCaseError>(tx.claim_emails(&[email_id], now, now + lease).await?) })
    }))
    .unwrap();
    assert_eq!(claimed, vec![email_id], "the other sender claims it");
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 0, "claimed elsewhere: skipped");
    assert!(w.sent().is_empty());
    w.clock.advance(lease);
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 1, "the other sender died: retried after the lease");
    assert_eq!(w.sent().len(), 1);
    assert!(w.get(v.invitation.id).invitation.email_sent_at.is_some());
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 0);
}

#[test]
fn one_reminder_goes_out_three_days_after_sending() {
    let w = world();
    let mut input = invite("ada@example.test");
    input.send_email = true;
    input.message = Some("See you soon".into());
    let v = w.create(input);
    w.job();
    assert_eq!(w.sent().len(), 1);

    w.clock.advance(Duration::days(3) - Duration::minutes(1));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0), "not yet");
    w.clock.advance(Duration::minutes(2));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 1));
    assert_eq!(w.job(), 1, "the reminder goes out with the email job");
    let sent = w.sent();
    assert_eq!(sent.len(), 2);
    assert!(sent[1].subject.contains("reminder=yes"), "{}", sent[1].subject);
    assert!(sent[1].body.contains("See you soon"), "D21: the message is in reminders too");
    assert!(sent[1].body.contains(&v.url));

    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0), "one reminder only");
    w.clock.advance(Duration::days(3) + Duration::minutes(1));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0));
    assert_eq!(w.sent().len(), 2);
}

#[test]
fn no_reminder_goes_out_for_an_accepted_or_revoked_invitation() {
    let w = world();
    let mut a = invite("a@example.test");
    a.send_email = true;
    let a = w.create(a).invitation.id;
    let mut r = invite("r@example.test");
    r.send_email = true;
    let r = w.create(r).invitation.id;
    assert_eq!(w.job(), 2);
    w.accept(a, false);
    block_on(w.svc.revoke_invitation(w.org, r)).unwrap();
    w.clock.advance(Duration::days(4));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0));
    assert_eq!(w.sent().len(), 2, "the two invitations only");
}

#[test]
fn resend_sets_a_new_expiry_sends_again_and_re_arms_the_reminder() {
    let w = world();
    let mut input = invite("ada@example.test");
    input.send_email = true;
    let v = w.create(input);
    w.job();
    let first_sent = w.get(v.invitation.id).invitation.email_sent_at.unwrap();
    w.clock.advance(Duration::days(4));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 1), "the reminder of the first send");
    w.job();
    assert_eq!(w.sent().len(), 2);

    w.clock.advance(Duration::days(1));
    let r = block_on(w.svc.resend_invitation(w.org, v.invitation.id, Some(30))).unwrap();
    let i = &r.invitation;
    assert_eq!(i.status, InvitationStatus::Pending);
    let delta = i.expires_at - (i.updated_at);
    assert!(delta > Duration::days(30) - Duration::minutes(1) && delta <= Duration::days(30), "new expiry: {delta}");
    assert!(i.expires_at > v.invitation.expires_at);
    w.job();
    assert!(w.get(i.id).invitation.email_sent_at.is_some_and(|t| t > first_sent), "emailSentAt moves");
    let sent = w.sent();
    assert_eq!(sent.len(), 3, "sent again");
    assert!(sent[2].subject.contains("reminder=no"));
    let expiry = i.expires_at.format(&time::format_description::well_known::Rfc3339).unwrap();
    assert!(sent[2].body.contains(&format!("(expiry={expiry} UTC)")), "the new expiry in the email: {}", sent[2].body);

    w.clock.advance(Duration::days(3) + Duration::minutes(1));
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 1), "T38: re-armed reminder");
    w.job();
    assert_eq!(w.sent().len(), 4);
}

#[test]
fn resend_of_an_invitation_created_without_email_sends_one() {
    let w = world();
    let v = w.create(invite("ada@example.test"));
    let r = block_on(w.svc.resend_invitation(w.org, v.invitation.id, None)).unwrap();
    assert_eq!(w.job(), 1);
    assert_eq!(w.sent().len(), 1);
    assert!(w.get(v.invitation.id).invitation.email_sent_at.is_some());
    assert_eq!(r.invitation.expires_at, v.invitation.expires_at, "no expiresInDays: expiry unchanged");
}

#[test]
fn the_invitation_page_shows_the_organization_and_the_status() {
    let w = world();
    let v = w.create(invite("ada@example.test"));
    let page = block_on(w.svc.invitation_page(&token(&v))).unwrap();
    assert_eq!(page.company_name, "Acme");
    assert_eq!(page.status, InvitationStatus::Pending);
    w.clock.advance(Duration::days(15));
    assert_eq!(block_on(w.svc.invitation_page(&token(&v))).unwrap().status, InvitationStatus::Expired);
}

#[test]
fn a_queued_email_of_an_invitation_revoked_since_is_never_sent() {
    // T58: the email failed (retry due later); the invitation is revoked before the retry.
    let w = world();
    w.mailer.fail.store(true, Ordering::SeqCst);
    let mut input = invite("ada@example.test");
    input.send_email = true;
    let v = w.create(input);
    assert_eq!(w.job(), 0);
    assert!(w.sent().is_empty());
    block_on(w.svc.revoke_invitation(w.org, v.invitation.id)).unwrap();
    w.mailer.fail.store(false, Ordering::SeqCst);
    w.clock.advance(Duration::hours(2));
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 0);
    assert!(w.sent().is_empty(), "nothing goes out for a revoked invitation");
    let rec = &w.store.snapshot().emails[0];
    assert_eq!(rec.sent_at, None);
    assert_eq!(rec.last_error.as_deref(), Some("not sent: the invitation is revoked"));
    w.clock.advance(Duration::days(30));
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 0, "and it is never due again");
    assert!(w.sent().is_empty());
    assert_eq!(w.get(v.invitation.id).invitation.email_sent_at, None);
}

#[test]
fn a_queued_email_of_an_invitation_that_expired_meanwhile_is_not_sent_but_a_pending_ones_is() {
    let w = world();
    w.mailer.fail.store(true, Ordering::SeqCst);
    let mut short = invite("short@example.test");
    short.send_email = true;
    short.expires_in_days = Some(1);
    let short = w.create(short);
    let mut long = invite("long@example.test");
    long.send_email = true;
    long.expires_in_days = Some(30);
    let long = w.create(long);
    assert_eq!(w.job(), 0);
    w.mailer.fail.store(false, Ordering::SeqCst);
    w.clock.advance(Duration::days(2));
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 1);
    let sent = w.sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].to.as_str(), "long@example.test");
    assert!(w.get(long.invitation.id).invitation.email_sent_at.is_some());
    assert_eq!(w.get(short.invitation.id).invitation.email_sent_at, None);
}

// ---------------------------------------------------------------------------------------------
// Consent is the person's act (D43): the one-time code
// ---------------------------------------------------------------------------------------------

/// What an organization could observe changing: its persons, its events, the invitation.
fn observable(w: &World, v: &InvitationView) -> (usize, usize, InvitationStatus) {
    let snap = w.store.snapshot();
    let persons = snap.persons.iter().filter(|p| p.org_id == w.org).count();
    let events = snap.events.iter().filter(|e| e.org_id == w.org).count();
    (persons, events, w.get(v.invitation.id).invitation.status)
}

#[test]
fn consent_by_the_link_alone_sends_a_code_and_changes_nothing() {
    // Issue 12, hole 1: whoever holds the url (the organization too) cannot give consent.
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let v = w.create(invite("ada@example.test"));
    let before = observable(&w, &v);
    match w.post(&v, true, None) {
        PageAnswer::CodeSent(to) => assert_eq!(to.as_str(), "ada@example.test"),
        other => panic!("expected a code, got {other:?}"),
    }
    assert_eq!(observable(&w, &v), before, "no person, no event, still pending");
    let mail = w.sent().pop().unwrap();
    assert_eq!(mail.to.as_str(), "ada@example.test", "the code goes to the invitation's address");
    let code = w.last_code();
    assert_eq!(code.len(), 6);
    // Stored only hashed: the code row holds no digits of it.
    let stored = w.store.snapshot().consent_codes;
    assert_eq!(stored.len(), 1);
    assert!(!stored[0].code_hash.windows(6).any(|x| x == code.as_bytes()));
    // A wrong code changes nothing either; the right one gives consent.
    let wrong = if code == "000000" { "111111" } else { "000000" };
    assert_eq!(w.post(&v, true, Some(wrong)), PageAnswer::Refused(Refusal::WrongCode { tries_left: 4 }));
    assert_eq!(observable(&w, &v), before);
    let PageAnswer::Accepted(b) = w.post(&v, true, Some(&code)) else { panic!("the code accepts") };
    let p = b.1;
    assert!(p.shared_existing_profile);
    assert_eq!(p.assessment.count, 1, "earlier results visible with consent");
}

#[test]
fn joining_without_consent_needs_no_code() {
    // D43: the url stays usable for joining an assessment invitation, and for an access request
    // answered without sharing.
    let w = world();
    let v = w.create(invite("ada@example.test"));
    assert!(matches!(w.post(&v, true, None), PageAnswer::Accepted(_)), "share means nothing on an assessment");
    let w = world();
    w.completed_elsewhere("bob@example.test");
    let v = w.create(invite("bob@example.test"));
    assert_eq!(v.invitation.variant, Variant::AccessRequest);
    let PageAnswer::Accepted(b) = w.post(&v, false, None) else { panic!("joins") };
    let p = b.1;
    assert!(!p.shared_existing_profile && p.assessment.count == 0);
    assert!(w.sent().iter().all(|m| !m.subject.starts_with("code-email-subject")), "no code was sent");
}

#[test]
fn rejoining_after_the_persons_own_withdrawal_needs_the_code() {
    let w = world();
    let p = w.import(import("ada@example.test"));
    block_on(w.svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked)).unwrap();
    let v = w.create(invite("ada@example.test"));
    assert_eq!(v.invitation.variant, Variant::Assessment);
    let before = observable(&w, &v);
    assert!(matches!(w.post(&v, false, None), PageAnswer::CodeSent(_)));
    assert_eq!(observable(&w, &v), before);
    assert_eq!(w.person(p.id).status, PersonStatus::Archived);
    let PageAnswer::Accepted(b) = w.post(&v, false, Some(&w.last_code())) else { panic!("rejoins") };
    let back = b.1;
    assert_eq!((back.id, back.status), (p.id, PersonStatus::Active));
    // The operator's tool accepts directly (D43).
    let q = w.import(import("bob@example.test"));
    block_on(w.svc.admin_archive_person(q.id, ArchiveReason::SelfRevoked)).unwrap();
    let v = w.create(invite("bob@example.test"));
    assert_eq!(w.accept(v.invitation.id, false).1.status, PersonStatus::Active);
}

#[test]
fn five_wrong_entries_spend_the_code_and_five_codes_an_hour_are_the_most() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let v = w.create(invite("ada@example.test"));
    assert!(matches!(w.post(&v, true, None), PageAnswer::CodeSent(_)));
    let code = w.last_code();
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for left in (0..5).rev() {
        assert_eq!(w.post(&v, true, Some(wrong)), PageAnswer::Refused(Refusal::WrongCode { tries_left: left }));
    }
    assert_eq!(w.post(&v, true, Some(&code)), PageAnswer::Refused(Refusal::NoLiveCode), "spent");
    assert_eq!(w.post(&v, true, Some("12 34")), PageAnswer::Refused(Refusal::Malformed));
    for _ in 0..4 {
        assert!(matches!(w.post(&v, true, None), PageAnswer::CodeSent(_)));
    }
    assert_eq!(w.post(&v, true, None), PageAnswer::Refused(Refusal::TooManyCodes), "the sixth in an hour");
    let fifth = w.last_code();
    w.clock.advance(Duration::minutes(11));
    assert_eq!(w.post(&v, true, Some(&fifth)), PageAnswer::Refused(Refusal::NoLiveCode), "valid 10 minutes");
    w.clock.advance(Duration::minutes(50));
    assert!(matches!(w.post(&v, true, None), PageAnswer::CodeSent(_)), "the window moved on");
    assert!(matches!(w.post(&v, true, Some(&w.last_code())), PageAnswer::Accepted(_)));
    assert_eq!(w.sent().iter().filter(|m| m.subject.starts_with("code-email-subject")).count(), 6);
}

/// D53: the hourly limit of codes follows the human, not the invitation: five codes on one
/// invitation, then revoking it and inviting the same address again gives no sixth code (and no
/// email), while another address of the organization, and the same address in another
/// organization, still get theirs. The window moving on frees the address again.
#[test]
fn the_sixth_code_in_an_hour_is_refused_across_a_new_invitation_to_the_same_address_d53() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    w.completed_elsewhere("bob@example.test");
    let first = w.create(invite("ada@example.test"));
    for _ in 0..5 {
        assert!(matches!(w.post(&first, true, None), PageAnswer::CodeSent(_)));
    }
    let codes = |w: &World| w.sent().iter().filter(|m| m.subject.starts_with("code-email-subject")).count();
    assert_eq!(codes(&w), 5);
    block_on(w.svc.revoke_invitation(w.org, first.invitation.id)).unwrap();
    let second = w.create(invite("ADA@example.test"));
    assert_ne!(second.invitation.id, first.invitation.id);
    assert_eq!(second.invitation.variant, Variant::AccessRequest);
    assert_eq!(w.post(&second, true, None), PageAnswer::Refused(Refusal::TooManyCodes), "the sixth for ada");
    assert_eq!(codes(&w), 5, "nothing emailed");
    assert_eq!(w.store.snapshot().consent_codes.len(), 5, "no code stored");
    // Another address of the same organization is not limited by ada's codes.
    let bob = w.create(invite("bob@example.test"));
    assert!(matches!(w.post(&bob, true, None), PageAnswer::CodeSent(_)));
    // The same address in another organization has its own limit.
    let third = new_org(&w.svc, "Third Co", &[]);
    let (elsewhere, _) = block_on(w.svc.create_invitation(third, invite("ada@example.test"))).unwrap();
    assert!(matches!(w.post(&elsewhere, true, None), PageAnswer::CodeSent(_)));
    // An hour after the first code, ada can be sent codes again, and the code accepts.
    w.clock.advance(Duration::minutes(61));
    assert!(matches!(w.post(&second, true, None), PageAnswer::CodeSent(_)));
    assert!(matches!(w.post(&second, true, Some(&w.last_code())), PageAnswer::Accepted(_)));
}

#[test]
fn a_replaced_code_no_longer_verifies() {
    let w = world();
    w.completed_elsewhere("ada@example.test");
    let v = w.create(invite("ada@example.test"));
    w.post(&v, true, None);
    let first = w.last_code();
    w.post(&v, true, None);
    let second = w.last_code();
    assert_ne!(first, second);
    assert!(matches!(w.post(&v, true, Some(&first)), PageAnswer::Refused(Refusal::WrongCode { .. })));
    assert!(matches!(w.post(&v, true, Some(&second)), PageAnswer::Accepted(_)));
}

#[test]
fn outside_the_sandbox_the_stored_code_email_does_not_hold_the_code() {
    let (mut svc, store, clock) = services();
    let mailer = Arc::new(FakeMailer::default());
    svc.invites = Arc::new(InvitationKit {
        mailer: mailer.clone(),
        public_url: "http://talent.test".into(),
        sandbox: false,
        wake_emails: no_wakeup(),
        texts: Arc::new(talent_domain::fakes::FakeTexts),
    });
    let org = new_org(&svc, "Acme", &[]);
    let w = World { svc, store, clock, mailer, org };
    w.completed_elsewhere("ada@example.test");
    let v = w.create(invite("ada@example.test"));
    w.post(&v, true, None);
    let code = w.last_code();
    let stored = w.store.snapshot().emails.into_iter().find(|e| e.subject.starts_with("code-email-subject")).unwrap();
    assert!(!stored.body.contains(&format!("{} {}", &code[..3], &code[3..])), "{}", stored.body);
    assert!(stored.body.contains("(not stored)"));
    assert!(stored.sent_at.is_some(), "sent by the request, recorded as sent");
    // A failing mailer: the page says so, the row records the failure and is never retried.
    w.mailer.fail.store(true, Ordering::SeqCst);
    assert_eq!(w.post(&v, true, None), PageAnswer::CodeNotSent);
    block_on(w.svc.deliver_emails()).unwrap();
    let failed = w.store.snapshot().emails.into_iter().filter(|e| e.subject.starts_with("code-email-subject")).count();
    assert_eq!(failed, 2);
    assert_eq!(w.sent().iter().filter(|m| m.subject.starts_with("code-email-subject")).count(), 1);
}

/// T175: a request that queues an email sends nothing itself: it commits the email, due at once,
/// wakes the email job and answers `emailSentAt: null`; the job's pass sends it and sets
/// `emailSentAt`. The same for a resend and an import's nested invitation.
#[test]
fn a_request_queues_its_email_and_wakes_the_email_job_t175() {
    use std::sync::atomic::AtomicU32;
    let mut w = world();
    let wakes = Arc::new(AtomicU32::new(0));
    let counted = wakes.clone();
    w.svc.invites = Arc::new(InvitationKit {
        mailer: w.mailer.clone(),
        public_url: "http://talent.test".into(),
        sandbox: true,
        wake_emails: Arc::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        }),
        texts: Arc::new(talent_domain::fakes::FakeTexts),
    });
    let mut input = invite("sent@example.test");
    input.send_email = true;
    let (v, created) = block_on(w.svc.create_invitation(w.org, input)).unwrap();
    assert!(created);
    assert_eq!(v.invitation.email_sent_at, None, "the answer does not wait for the mailer");
    assert_eq!(wakes.load(Ordering::SeqCst), 1, "the job is woken after the commit");
    assert!(w.sent().is_empty(), "nothing sent on the request's time");
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 1, "the job's pass sends it");
    let sent_at = w.get(v.invitation.id).invitation.email_sent_at;
    assert!(sent_at.is_some());
    // A resend (after the T93 cooldown).
    w.clock.advance(Duration::minutes(2));
    let r = block_on(w.svc.resend_invitation(w.org, v.invitation.id, None)).unwrap();
    assert_eq!(r.invitation.email_sent_at, sent_at, "unchanged until the job sends it");
    assert_eq!((wakes.load(Ordering::SeqCst), w.sent().len()), (2, 1));
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 1);
    assert!(w.get(v.invitation.id).invitation.email_sent_at > sent_at);
    // An import with a nested invitation.
    let out = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            invitation: Some(NestedInvitation {
                send_email: true,
                expires_in_days: None,
                candidate: Default::default(),
            }),
            ..import("nested@example.test")
        },
    ))
    .unwrap();
    assert_eq!(out.invitation.unwrap().invitation.email_sent_at, None);
    assert_eq!((wakes.load(Ordering::SeqCst), w.sent().len()), (3, 2));
    assert_eq!(block_on(w.svc.deliver_emails()).unwrap(), 1);
    // Without an email to send nothing is woken.
    w.create(invite("quiet@example.test"));
    assert_eq!(wakes.load(Ordering::SeqCst), 3);
}

#[test]
fn a_pass_sends_every_due_email_and_records_them_in_batches_t200() {
    let w = world();
    let mut ids = vec![];
    for i in 0..45 {
        let mut input = invite(&format!("p{i}@example.test"));
        input.send_email = true;
        ids.push(w.create(input).invitation.id);
    }
    // One revoked before the pass: closed, never sent.
    block_on(w.svc.revoke_invitation(w.org, ids[7])).unwrap();
    assert_eq!(w.job(), 44, "one pass, three record batches");
    assert_eq!(w.sent().len(), 44);
    for (i, id) in ids.iter().enumerate() {
        let sent_at = w.get(*id).invitation.email_sent_at;
        assert_eq!(sent_at.is_some(), i != 7, "invitation {i}");
    }
    let emails = w.store.snapshot().emails;
    assert_eq!(emails.iter().filter(|e| e.sent_at.is_some()).count(), 44);
    assert!(emails.iter().any(|e| e.last_error.as_deref().is_some_and(|m| m.contains("revoked"))));
    assert_eq!(w.job(), 0, "each sent once");
}

/// D60: the emails of an organization's test twin are recorded as sent and never reach the
/// mailer, while the live organization's go out; the twin's listing shows only its own.
#[test]
fn a_test_twins_emails_are_recorded_never_sent_d60() {
    let w = world();
    let admin = block_on(w.svc.create_user(w.org, email("admin@acme.test"), OrgRole::Admin)).unwrap();
    let scopes = Scopes::new(vec![Scope::InvitationsWrite]);
    let key = block_on(w.svc.create_test_api_key(admin.id, None, scopes, None)).unwrap();
    assert!(key.value.starts_with("tk_test_"));
    let twin = key.key.org_id;
    assert_ne!(twin, w.org, "the key acts on the twin");
    let twin_org = block_on(w.svc.organization(twin)).unwrap().0;
    assert_eq!(twin_org.test_of, Some(w.org));
    block_on(w.svc.create_invitation(twin, NewInvitation::new(email("try@example.test"), true))).unwrap();
    block_on(w.svc.create_invitation(w.org, NewInvitation::new(email("real@example.test"), true))).unwrap();
    w.job();
    let sent: Vec<String> = w.sent().iter().map(|m| m.to.as_str().to_string()).collect();
    assert_eq!(sent, ["real@example.test"], "only the live organization's email reaches the mailer");
    let recorded = block_on(w.svc.test_emails(&twin_org)).unwrap();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].to.as_str(), "try@example.test");
    assert!(recorded[0].sent_at.is_some(), "recorded as sent");
    let live_org = block_on(w.svc.organization(w.org)).unwrap().0;
    assert_eq!(code(block_on(w.svc.test_emails(&live_org))), Code::TestKeyRequired);
    // A second test key reuses the twin.
    let again =
        block_on(w.svc.create_test_api_key(admin.id, None, Scopes::new(vec![Scope::PersonsRead]), None)).unwrap();
    assert_eq!(again.key.org_id, twin);
}

/// D60: the test twin's clock. A step reminds and then expires the twin's invitation and
/// records its reminder email, while the live invitation sent at the same moment is neither
/// reminded nor expired; the step is refused to a live organization and outside 1..=ten years.
#[test]
fn the_test_clock_reminds_and_expires_the_twins_invitations_only_d60() {
    let w = world();
    let admin = block_on(w.svc.create_user(w.org, email("admin@acme.test"), OrgRole::Admin)).unwrap();
    let key =
        block_on(w.svc.create_test_api_key(admin.id, None, Scopes::new(vec![Scope::InvitationsWrite]), None)).unwrap();
    let twin = block_on(w.svc.organization(key.key.org_id)).unwrap().0;
    let live = block_on(w.svc.organization(w.org)).unwrap().0;
    let (t, _) =
        block_on(w.svc.create_invitation(twin.id, NewInvitation::new(email("try@example.test"), true))).unwrap();
    let (l, _) =
        block_on(w.svc.create_invitation(w.org, NewInvitation::new(email("real@example.test"), true))).unwrap();
    w.job();

    assert_eq!(code(block_on(w.svc.test_advance_clock(&live, 60))), Code::TestKeyRequired);
    for bad in [0, -1, talent_domain::usecases::test_mode::MAX_ADVANCE_SECONDS + 1] {
        assert_eq!(code(block_on(w.svc.test_advance_clock(&twin, bad))), Code::ValidationError, "{bad}");
    }
    let step = block_on(w.svc.test_advance_clock(&twin, 3 * 86_400 + 1)).unwrap();
    assert_eq!((step.expired, step.reminded), (0, 1));
    w.job();
    let recorded = block_on(w.svc.test_emails(&twin)).unwrap();
    assert_eq!(recorded.len(), 2, "the invitation and its reminder");
    let step = block_on(w.svc.test_advance_clock(&twin, 11 * 86_400)).unwrap();
    assert_eq!((step.expired, step.reminded), (1, 0));
    let status = |org, id| block_on(w.svc.get_invitation(org, id)).unwrap().invitation.status;
    assert_eq!(status(twin.id, t.invitation.id), InvitationStatus::Expired);
    assert_eq!(status(w.org, l.invitation.id), InvitationStatus::Pending);
    assert_eq!(block_on(w.svc.sweep_invitations()).unwrap(), (0, 0), "nothing of the live organization fell due");
    assert_eq!(w.sent().len(), 1, "only the live invitation's email reached the mailer");
}

/// T217-T219: the email is written in the invitation's locale, else the organization's; dates in
/// the invitation's time zone, else the organization's; the accommodations are listed; a
/// `redirectUrl` off the organization's redirect hosts is refused, naming the field, and
/// nothing is created.
#[test]
fn emails_speak_the_invitations_language_in_its_time_zone_with_its_accommodations_t217() {
    use talent_domain::invitation::{CandidateOptions, RedirectUrl};
    use talent_domain::usecases::orgs::OrganizationPatch;
    let w = world();
    let tokyo = TimeZone::parse("Asia/Tokyo").unwrap();
    let granted = Accommodations::new(50, true, false, Some("Large print".into())).unwrap();
    let mut input = invite("hanako@example.test");
    input.send_email = true;
    input.candidate = CandidateOptions {
        locale: Some(Locale::Ja),
        time_zone: Some(tokyo.clone()),
        accommodations: Some(granted.clone()),
        redirect_url: None,
    };
    let v = w.create(input);
    assert_eq!(v.invitation.candidate.locale, Some(Locale::Ja));
    let json = v.json();
    assert_eq!(json["locale"], "ja");
    assert_eq!(json["timeZone"], "Asia/Tokyo");
    assert_eq!(json["accommodations"]["extraTimePercent"], 50);
    assert_eq!(json["accommodations"]["notes"], "Large print");
    w.job();
    let m = w.sent().pop().unwrap();
    assert!(m.subject.starts_with("invitation-email-subject[ja]"), "{}", m.subject);
    assert!(m.body.contains("accommodation-extra-time[ja](percent=50)"), "{}", m.body);
    assert!(m.body.contains("accommodation-breaks[ja]()"), "{}", m.body);
    assert!(!m.body.contains("accommodation-screen-reader"), "only what is granted: {}", m.body);
    assert!(m.body.contains("accommodation-notes[ja](notes=Large print)"), "{}", m.body);
    assert!(m.body.contains("+09:00 Asia/Tokyo)"), "the expiry in Tokyo time: {}", m.body);

    // Without an invitation locale: the organization's default language and time zone.
    let patch = OrganizationPatch {
        locale: Some(Locale::De),
        time_zone: Some(TimeZone::parse("Europe/Berlin").unwrap()),
        redirect_hosts: Some(vec!["jobs.acme.test".into()]),
        ..Default::default()
    };
    block_on(w.svc.patch_organization(w.org, patch)).unwrap();
    let mut input = invite("max@example.test");
    input.send_email = true;
    let v = w.create(input);
    assert_eq!(v.json()["locale"], serde_json::Value::Null, "the invitation names none");
    w.job();
    let m = w.sent().pop().unwrap();
    assert!(m.subject.starts_with("invitation-email-subject[de]"), "{}", m.subject);
    assert!(m.body.contains("+01:00 Europe/Berlin)"), "{}", m.body);

    // redirectUrl: on a redirect host, kept; elsewhere 400 naming the field, nothing created.
    let mut input = invite("ok@example.test");
    input.candidate.redirect_url = Some(RedirectUrl::parse("https://jobs.acme.test/thanks").unwrap());
    let v = w.create(input);
    assert_eq!(v.json()["redirectUrl"], "https://jobs.acme.test/thanks");
    let before = w.store.snapshot().invitations.len();
    let mut input = invite("evil@example.test");
    input.candidate.redirect_url = Some(RedirectUrl::parse("https://evil.test/").unwrap());
    let e = client_err(block_on(w.svc.create_invitation(w.org, input)));
    assert_eq!(e.code, Code::ValidationError);
    assert_eq!(e.details.unwrap()["fields"][0]["field"], "redirectUrl");
    let mut nested = import("evil2@example.test");
    let candidate = CandidateOptions {
        redirect_url: Some(RedirectUrl::parse("https://jobs.acme.test.evil.test/").unwrap()),
        ..Default::default()
    };
    nested.invitation = Some(NestedInvitation { send_email: false, expires_in_days: None, candidate });
    let e = client_err(block_on(w.svc.import_person(w.org, nested)));
    assert_eq!(e.details.unwrap()["fields"][0]["field"], "invitation.redirectUrl");
    assert_eq!(w.store.snapshot().invitations.len(), before, "nothing created");
    assert!(
        w.store.snapshot().persons.iter().all(|p| p.email.as_str() != "evil2@example.test"),
        "the import was not half written"
    );
}
