//! The store conformance suite (issue 14 point 3, T101): one set of test bodies, generic over
//! the domain's [`Store`] port, that every backend must pass; run on the in-memory fake
//! (`tests/fake.rs` of this crate), on SQLite and on PostgreSQL
//! (`crates/store/tests/conformance.rs`). A new backend is one crate that runs
//! [`store_conformance_suite!`](crate::store_conformance_suite) with a runner giving each test a
//! fresh, migrated store. A crate of its own, used only by tests: the races need an async
//! runtime (tokio), which the domain crate does not depend on.
//!
//! The bodies drive the store through the use cases, plus direct [`Tx`] calls where a port method
//! has no use case; each is named as the rule it checks.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::sync::Arc;
use talent_domain::assessment::{score_counts, seed_responses, NeedCounts, Response};
use talent_domain::errors::{ClientError, Code, StoreError, UseCaseError};
use talent_domain::fakes::{FakeClock, FakeSecrets};
use talent_domain::ids::*;
use talent_domain::model::*;
use talent_domain::ports::*;
use talent_domain::usecases::assessments::{AssessmentCommand, NewProfile, ProfilePatch};
use talent_domain::usecases::idempotency::{IdempotencyBegin, IdempotentRequest, StoredResponse};
use talent_domain::usecases::orgs::{NewOrganization, OrganizationPatch};
use talent_domain::usecases::persons::{ImportOutcome, ImportPerson, PatchPerson};
use talent_domain::values::*;
use talent_domain::wire::person_json;
use talent_domain::Services;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};
use tokio::sync::Barrier;
use uuid::Uuid;

/// Generates one `#[tokio::test]` per body of this suite, each running `$run(body).await`, where
/// `$run` is the backend's runner: `async fn run<F, Fut>(body: F) where F: FnOnce(MyStore) -> Fut,
/// Fut: Future<Output = ()>` gives `body` a fresh store with every migration applied and removes
/// it afterwards. The test crate needs `tokio` (macros, rt-multi-thread).
#[macro_export]
macro_rules! store_conformance_suite {
    ($run:path) => {
        $crate::store_conformance_suite!(@tests $run;
            organizations_users_and_keys_round_trip,
            person_round_trips_every_field,
            concurrent_imports_of_one_email_create_one_person,
            concurrent_imports_respect_the_person_limit,
            active_person_count_follows_concurrent_imports_archives_and_reactivations,
            a_panicking_transaction_writes_nothing_and_the_pool_stays_usable,
            concurrent_imports_crossing_into_the_exclusive_zone_stop_exactly_at_the_limit,
            concurrent_imports_in_many_organizations_share_one_human,
            concurrent_tag_spellings_resolve_to_one_catalogue_entry,
            concurrent_new_tags_in_any_order_do_not_deadlock,
            concurrent_updates_of_one_person_are_serialized,
            concurrent_idempotency_begin_lets_exactly_one_proceed,
            idempotency_records_replay_reuse_takeover_and_expiry,
            idempotency_purge_deletes_old_records,
            list_filters_select_exactly_the_matching_persons,
            keyset_pagination_walks_every_page_newest_first,
            patch_archive_and_reactivate_persist,
            removing_employee_removes_the_person_from_every_team,
            failed_use_cases_write_nothing,
            documented_unique_violations_are_reported,
            setting_get_or_insert_keeps_the_first_value,
            assessment_round_trips_responses_and_timestamps,
            assessments_of_humans_returns_those_of_every_listed_human,
            completion_stores_need_counts_that_score_like_the_responses,
            persons_of_human_spans_organizations,
            persons_with_results_lists_active_members_with_visible_completions,
            completion_persists_summaries_and_one_event_per_visible_membership,
            concurrent_completions_through_memberships_of_one_human_all_count,
            d51_stored_origins_and_joins_decide_what_each_membership_sees,
            concurrent_starts_of_one_human_create_one_running_assessment,
            profiles_round_trip_list_newest_first_and_count,
            profiles_are_changed_and_deleted_within_their_organization,
            organizations_list_newest_first_in_pages,
            delivery_claims_keep_the_per_endpoint_and_per_org_caps,
            concurrent_claims_never_take_one_delivery_twice,
            open_breakers_and_disabled_endpoints_are_not_claimed,
            outcomes_of_a_batch_are_recorded_in_one_transaction,
            concurrent_recorders_of_one_endpoint_lose_no_count,
            a_feed_reader_sees_every_event_once_in_sequence_order_while_writers_commit_out_of_order,
            the_feed_filters_by_type_and_organization_and_numbers_are_never_reused,
            replay_queues_the_subscribed_events_after_a_sequence_in_pages,
            retention_purges_only_history_older_than_the_window,
            retention_purges_emails_codes_and_idempotency_records_exactly_past_their_windows_in_batches,
            resends_are_limited_by_the_emails_stored_for_the_address,
            invitations_round_trip_and_acceptance_makes_one_member,
            concurrent_email_deliveries_send_each_email_once,
            fan_out_makes_one_delivery_per_subscribed_endpoint_of_the_organization,
            concurrent_expiry_sweeps_expire_each_invitation_once,
            events_and_deliveries_record_the_request_that_caused_them,
            sign_in_links_work_once_within_fifteen_minutes_and_sessions_end,
            sign_in_links_per_address_are_limited,
            removing_a_user_deletes_their_keys_and_sessions_and_keeps_an_administrator,
            teams_list_by_name_with_member_counts_within_the_organization,
            a_persons_teams_list_by_name_and_one_membership_is_removed_within_the_organization,
            codes_of_an_address_span_its_invitations_in_one_organization_d53,
        );
    };
    (@tests $run:path; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() {
                $run($crate::$name).await;
            }
        )*
    };
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The services of a suite run: a store of the backend under test and fakes for the rest.
pub type Svc<S> = Services<S>;

/// Production-like ids: UUIDv7, ordered by creation within the process.
pub struct V7Ids;

impl Ids for V7Ids {
    fn new_uuid(&self) -> Uuid {
        Uuid::now_v7()
    }
}

pub fn services<S: Store + Clone>(store: S) -> (Svc<S>, Arc<FakeClock>) {
    services_with(store, PlanCatalogue::default())
}

pub fn services_with<S: Store + Clone>(store: S, plans: PlanCatalogue) -> (Svc<S>, Arc<FakeClock>) {
    let clock = Arc::new(FakeClock::new());
    // Sub-second digits in every timestamp the use cases write.
    clock.advance(Duration::days(30) + Duration::microseconds(123_457));
    let svc = Services {
        store: Arc::new(store),
        clock: clock.clone(),
        ids: Arc::new(V7Ids),
        secrets: Arc::new(FakeSecrets::default()),
        plans,
        assessment: Arc::new(talent_domain::fakes::fake_assessment_kit()),
        invites: Arc::new(talent_domain::usecases::invitations::InvitationKit {
            mailer: Arc::new(talent_domain::fakes::FakeMailer::default()),
            public_url: "http://talent.test".into(),
            sandbox: true,
            wake_emails: talent_domain::usecases::invitations::no_wakeup(),
        }),
        webhooks: Arc::new(talent_domain::fakes::FakeSender::default()),
        correlation: Arc::new(talent_domain::ports::NoCorrelation),
    };
    (svc, clock)
}

pub fn email(s: &str) -> Email {
    Email::parse(s).unwrap()
}

pub fn name(s: &str) -> PersonName {
    PersonName::parse(s).unwrap()
}

pub fn ext(s: &str) -> ExternalId {
    ExternalId::parse(s).unwrap()
}

pub fn tag_names(v: &[&str]) -> Vec<TagName> {
    v.iter().map(|t| TagName::parse(t).unwrap()).collect()
}

pub fn import(e: &str) -> ImportPerson {
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

pub fn client_err<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> ClientError {
    match r {
        Ok(v) => panic!("expected a client error, got {v:?}"),
        Err(UseCaseError::Client(c)) => c,
        Err(e) => panic!("expected a client error, got {e}"),
    }
}

pub fn code<T: std::fmt::Debug>(r: Result<T, UseCaseError>) -> Code {
    client_err(r).code
}

/// An invitation to `e` that Talent emails, with nothing else set.
pub fn emailed_invitation(e: &str) -> talent_domain::usecases::invitations::NewInvitation {
    talent_domain::usecases::invitations::NewInvitation {
        email: email(e),
        first_name: None,
        last_name: None,
        external_id: None,
        labels: None,
        tags: None,
        message: None,
        send_email: true,
        expires_in_days: None,
    }
}

pub async fn new_org<S: Store + Clone>(svc: &Svc<S>, plan: &str, domains: &[&str]) -> Organization {
    let (org, _) = svc
        .create_organization(NewOrganization {
            company_name: "Acme".into(),
            email: email("billing@acme.com"),
            plan: plan.into(),
            subscription_status: Some(SubscriptionStatus::Active),
            trial_ends_at: None,
            current_period_end: None,
            employee_domains: domains.iter().map(|d| d.to_string()).collect(),
        })
        .await
        .unwrap();
    org
}

pub async fn imported<S: Store + Clone>(svc: &Svc<S>, org: OrgId, input: ImportPerson) -> Person {
    svc.import_person(org, input).await.unwrap().person
}

/// A membership the person establishes herself by accepting the organization's invitation
/// (`joinedVia: invitation_personal`, D51 (b)).
pub async fn joined<S: Store + Clone>(svc: &Svc<S>, org: OrgId, e: &str) -> Person {
    let inv = svc
        .create_invitation(
            org,
            talent_domain::usecases::invitations::NewInvitation { send_email: false, ..emailed_invitation(e) },
        )
        .await
        .unwrap()
        .0;
    svc.accept_invitation(inv.invitation.id, false).await.unwrap().1
}

/// Runs `f` in a read transaction of the store.
pub async fn read<S: Store + Clone, R, F>(svc: &Svc<S>, f: F) -> R
where
    R: Send + 'static,
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, StoreResult<R>> + Send + 'static,
{
    svc.store.read(f).await.unwrap()
}

/// Runs `f` in a write transaction of the store (committed on `Ok`).
pub async fn write<S: Store + Clone, R, F>(svc: &Svc<S>, f: F) -> StoreResult<R>
where
    R: Send + 'static,
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, StoreResult<R>> + Send + 'static,
{
    svc.store.write(f).await
}

pub async fn events<S: Store + Clone>(svc: &Svc<S>, org: OrgId) -> Vec<OutboxEvent> {
    read(svc, move |tx| Box::pin(async move { tx.list_events_of_org(org).await })).await
}

pub async fn count_active<S: Store + Clone>(svc: &Svc<S>, org: OrgId) -> u32 {
    read(svc, move |tx| Box::pin(async move { tx.count_active_persons(org).await })).await
}

pub async fn team_members<S: Store + Clone>(svc: &Svc<S>, team: TeamId) -> Vec<PersonId> {
    svc.team_members(team).await.unwrap()
}

/// Ends a probing transaction: carries its finding out through a rollback.
pub enum Probe<T> {
    Found(T),
    Store(StoreError),
}

impl<T> From<StoreError> for Probe<T> {
    fn from(e: StoreError) -> Self {
        Probe::Store(e)
    }
}

/// The catalogue entry of `tag` (case-insensitive) if it exists. Asks `resolve_tags` with a fresh
/// id inside a transaction that is rolled back, so the probe itself never writes.
pub async fn probe_tag<S: Store + Clone>(svc: &Svc<S>, org: OrgId, tag: &str) -> Option<Tag> {
    let fresh = TagId(Uuid::now_v7());
    let names = vec![(TagName::parse(tag).unwrap(), fresh)];
    let now = svc.clock.now();
    let r: Result<(), Probe<Vec<Tag>>> = svc
        .store
        .write(move |tx| {
            Box::pin(async move {
                let tags = tx.resolve_tags(org, &names, now).await?;
                Err(Probe::Found(tags))
            })
        })
        .await;
    match r {
        Err(Probe::Found(mut tags)) => {
            assert_eq!(tags.len(), 1);
            let t = tags.remove(0);
            (t.id != fresh).then_some(t)
        }
        Err(Probe::Store(e)) => panic!("probe failed: {e}"),
        Ok(()) => unreachable!(),
    }
}

pub fn query(org: OrgId) -> PersonQuery {
    PersonQuery { org_id: Some(org), limit: 100, ..Default::default() }
}

/// Emails of one page that must hold every match; checks newest-first order.
pub async fn emails<S: Store + Clone>(svc: &Svc<S>, q: PersonQuery) -> BTreeSet<String> {
    let page = svc.list_persons(q).await.unwrap();
    assert!(!page.has_more);
    assert!(page.items.windows(2).all(|w| w[0].id > w[1].id), "newest first (id descending)");
    page.items.iter().map(|p| p.email.as_str().to_string()).collect()
}

pub fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// Migrations
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Organizations, users, API keys
// ---------------------------------------------------------------------------------------------

pub async fn organizations_users_and_keys_round_trip<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);

    // Organizations: every field, Some and None timestamps with microseconds, domains.
    let (org, usage) = svc
        .create_organization(NewOrganization {
            company_name: "Acme «Ünïcode» & Co".into(),
            email: email("Billing@Acme.com"),
            plan: "business".into(),
            subscription_status: Some(SubscriptionStatus::PastDue),
            trial_ends_at: Some(datetime!(2026-02-03 04:05:06.789012 UTC)),
            current_period_end: None,
            employee_domains: vec!["acme.com".into(), "acme.co.uk".into()],
        })
        .await
        .unwrap();
    assert_eq!(usage.persons_used, 0);
    assert_ne!(org.created_at.microsecond(), 0);
    assert_eq!(svc.organization(org.id).await.unwrap().0, org);

    clock.advance(Duration::seconds(1));
    let (twin, _) = svc
        .create_organization(NewOrganization {
            company_name: "Acme «Ünïcode» & Co".into(),
            email: email("other@example.org"),
            plan: "starter".into(),
            subscription_status: None,
            trial_ends_at: None,
            current_period_end: Some(datetime!(2027-12-31 23:59:59.999999 UTC)),
            employee_domains: vec![],
        })
        .await
        .unwrap();
    assert_eq!(twin.subscription_status, SubscriptionStatus::Trialing);
    assert_eq!(svc.organization(twin.id).await.unwrap().0, twin);

    let oldest = read(&svc, |tx| Box::pin(async move { tx.find_org_by_name("Acme «Ünïcode» & Co").await })).await;
    assert_eq!(oldest, Some(org.clone()), "find_org_by_name returns the oldest");
    let none = read(&svc, |tx| Box::pin(async move { tx.find_org_by_name("Acme").await })).await;
    assert_eq!(none, None);
    let unknown = OrgId(Uuid::now_v7());
    assert_eq!(code(svc.organization(unknown).await), Code::NotFound);

    // update_org: Some -> None, None -> Some, domains replaced.
    let (org, _) = svc
        .patch_organization(
            org.id,
            OrganizationPatch {
                company_name: Some("Acme Renamed".into()),
                email: Some(email("new@acme.com")),
                plan: Some("professional".into()),
                subscription_status: Some(SubscriptionStatus::Canceled),
                trial_ends_at: Some(None),
                current_period_end: Some(Some(datetime!(2026-06-30 12:00:00.000001 UTC))),
                employee_domains: Some(vec!["acme.io".into()]),
            },
        )
        .await
        .unwrap();
    assert_eq!(org.trial_ends_at, None);
    assert_eq!(svc.organization(org.id).await.unwrap().0, org);
    assert_eq!(svc.organization(twin.id).await.unwrap().0, twin, "the other organization is untouched");

    // Users.
    let admin = svc.create_user(org.id, email("Admin@Acme.com"), OrgRole::Admin).await.unwrap();
    let member = svc.create_user(org.id, email("member@acme.com"), OrgRole::Member).await.unwrap();
    assert_eq!(code(svc.create_user(org.id, email("ADMIN@acme.com"), OrgRole::Member).await), Code::Conflict);
    let (a, m, o) = (admin.id, member.id, org.id);
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_user(a).await })).await, Some(admin.clone()));
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_user(m).await })).await, Some(member.clone()));
    let all = read(&svc, move |tx| Box::pin(async move { tx.list_users_of_org(o).await })).await;
    assert_eq!(all, vec![admin.clone(), member.clone()], "oldest first");

    // API keys: every field.
    let k1 = svc
        .create_api_key(
            admin.id,
            Some("CI key ✓".into()),
            Scopes::new(vec![Scope::WebhooksManage, Scope::PersonsWrite, Scope::OrganizationRead]),
            Some(datetime!(2027-01-02 03:04:05.000001 UTC)),
        )
        .await
        .unwrap();
    let k2 = svc.create_api_key(member.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    let id1 = k1.key.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_api_key(id1).await })).await, Some(k1.key.clone()));
    let keys = read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_user(a).await })).await;
    assert_eq!(keys, vec![k1.key.clone()]);

    // A key written directly: binary hash, no name, no expiry.
    let raw = ApiKey {
        id: ApiKeyId(Uuid::now_v7()),
        user_id: admin.id,
        org_id: org.id,
        name: None,
        prefix: "rawprefix0000001".into(),
        hash: vec![0, 255, 128, 7, 0, 1],
        scopes: Scopes::new(Scope::ALL.to_vec()),
        expires_at: None,
        revoked_at: Some(datetime!(2026-01-05 06:07:08.090807 UTC)),
        created_at: datetime!(2026-01-04 00:00:00.000001 UTC),
    };
    let r = raw.clone();
    write(&svc, move |tx| Box::pin(async move { tx.insert_api_key(&r).await })).await.unwrap();
    let rid = raw.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_api_key(rid).await })).await, Some(raw.clone()));
    let keys = read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_user(a).await })).await;
    assert_eq!(keys, vec![raw.clone(), k1.key.clone()], "oldest first");
    // Every key of the organization's users, newest first; none of another organization's.
    let by_org = read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_org(o).await })).await;
    let mut want = vec![k1.key.clone(), k2.key.clone(), raw.clone()];
    want.sort_by_key(|k| std::cmp::Reverse((k.created_at, k.id.0)));
    assert_eq!(by_org, want);
    let t = twin.id;
    assert!(read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_org(t).await })).await.is_empty());

    // key_context: key + owner's role + organization, by prefix.
    let p1 = k1.key.prefix.clone();
    let ctx = read(&svc, move |tx| Box::pin(async move { tx.find_key_context(&p1).await })).await.unwrap();
    assert_eq!(ctx, KeyContext { key: k1.key.clone(), role: OrgRole::Admin, org: org.clone() });
    let p2 = k2.key.prefix.clone();
    let ctx2 = read(&svc, move |tx| Box::pin(async move { tx.find_key_context(&p2).await })).await.unwrap();
    assert_eq!(ctx2, KeyContext { key: k2.key.clone(), role: OrgRole::Member, org: org.clone() });
    assert_eq!(read(&svc, |tx| Box::pin(async move { tx.find_key_context("0000000000000099").await })).await, None);
    let principal = svc.authenticate(Some(&format!("Bearer {}", k1.value))).await.unwrap();
    assert_eq!(principal.ctx, ctx);

    // Revocation is visible to every reader.
    let revoked = svc.revoke_api_key(k2.key.id).await.unwrap();
    let at = revoked.revoked_at.expect("revoked_at set");
    let p2 = k2.key.prefix.clone();
    let ctx2 = read(&svc, move |tx| Box::pin(async move { tx.find_key_context(&p2).await })).await.unwrap();
    assert_eq!(ctx2.key.revoked_at, Some(at));
    assert_eq!(ctx2.key, revoked);
    assert_eq!(code(svc.authenticate(Some(&format!("Bearer {}", k2.value))).await), Code::KeyRevoked);
    clock.advance(Duration::minutes(1));
    assert_eq!(svc.revoke_api_key(k2.key.id).await.unwrap().revoked_at, Some(at), "revoking twice keeps the time");
    let id2 = k2.key.id;
    let stored = read(&svc, move |tx| Box::pin(async move { tx.get_api_key(id2).await })).await.unwrap();
    assert_eq!(stored.revoked_at, Some(at));
}

// ---------------------------------------------------------------------------------------------
// Persons
// ---------------------------------------------------------------------------------------------

pub async fn person_round_trips_every_field<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let out = svc
        .import_person(
            org.id,
            ImportPerson {
                invitation: None,
                email: email("  Zoe.Nunez@ACME.com "),
                first_name: Some(name("Zoë")),
                last_name: Some(name("Núñez-O'Brien")),
                external_id: Some(ext("ATS/42?x=1&y=%_\\ \"q\"")),
                labels: Some(Labels { candidate: true, employee: false }),
                tags: tag_names(&["beta", "Alpha", "ALPHA", "gamma ray"]),
            },
        )
        .await
        .unwrap();
    assert!(out.created);
    let p = out.person;
    assert_eq!(p.email.as_str(), "zoe.nunez@acme.com");
    assert_eq!(p.labels, Labels { candidate: true, employee: true }, "employee domain rule");
    assert_eq!(p.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["Alpha", "beta", "gamma ray"]);
    assert_ne!(p.member_since.microsecond(), 0);

    assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), p);
    let (o, e) = (org.id, p.email.clone());
    assert_eq!(
        read(&svc, move |tx| Box::pin(async move { tx.find_person_by_email(o, &e).await })).await,
        Some(p.clone())
    );
    let id = p.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_person_any(id).await })).await, Some(p.clone()));
    let listed = svc.list_persons(query(org.id)).await.unwrap();
    assert_eq!(listed.items, vec![p.clone()]);
    assert_eq!(count_active(&svc, org.id).await, 1);

    // The event carries the Person object, in the same transaction.
    let ev = events(&svc, org.id).await;
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].event_type, EventType::PersonCreated);
    assert_eq!(ev[0].data, person_json(&p));
    assert_eq!(ev[0].created_at, p.member_since);

    // Another organization cannot read it by id; the human is shared by email.
    let other = new_org(&svc, "business", &[]).await;
    assert_eq!(code(svc.get_person(other.id, p.id).await), Code::NotFound);
    let q = imported(&svc, other.id, import("zoe.nunez@acme.com")).await;
    assert_eq!(q.human_id, p.human_id);
    assert_ne!(q.id, p.id);
    assert_eq!(q.labels, Labels::DEFAULT);

    // Every other field, through a direct update: None/Some both ways, archived, assessment.
    let mut changed = p.clone();
    changed.first_name = None;
    changed.external_id = None;
    changed.status = PersonStatus::Archived;
    changed.archive_reason = Some(ArchiveReason::Deactivated);
    changed.archived_at = Some(datetime!(2026-03-04 05:06:07.000001 UTC));
    changed.labels = Labels::default();
    changed.tags = vec![];
    changed.joined_via = JoinedVia::InvitationPersonal;
    changed.shared_existing_profile = true;
    changed.assessment = AssessmentSummary {
        status: AssessmentStatus::Completed,
        completed_at: Some(datetime!(2026-03-01 00:00:00.654321 UTC)),
        count: 3,
        // T85: the summed need counts round-trip with the summary.
        totals: Some(NeedCounts { model: "m@1".into(), responses: 7, exposure: vec![3, 0, 11], chosen: vec![1, 0, 6] }),
    };
    changed.updated_at = clock.now();
    let c = changed.clone();
    write(&svc, move |tx| Box::pin(async move { tx.update_person(&c).await })).await.unwrap();
    assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), changed);
    assert_eq!(count_active(&svc, org.id).await, 0);

    // And back, with new tags.
    let mut back = changed.clone();
    back.first_name = Some(name("Zoé"));
    back.external_id = Some(ext("X"));
    back.status = PersonStatus::Active;
    back.archive_reason = None;
    back.archived_at = None;
    back.labels = Labels { candidate: false, employee: true };
    back.joined_via = JoinedVia::InvitationLink;
    back.assessment =
        AssessmentSummary { status: AssessmentStatus::InProgress, completed_at: None, count: 0, totals: None };
    back.tags = p.tags[1..].to_vec();
    back.updated_at = clock.now();
    let b = back.clone();
    write(&svc, move |tx| Box::pin(async move { tx.update_person(&b).await })).await.unwrap();
    assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), back);
    let mut qq = query(org.id);
    qq.tag_key = Some("alpha".into());
    assert!(emails(&svc, qq).await.is_empty(), "removed tags leave the tag filter");
    let mut qq = query(org.id);
    qq.tag_key = Some("beta".into());
    assert_eq!(emails(&svc, qq).await, set(&["zoe.nunez@acme.com"]));
}

pub async fn concurrent_imports_of_one_email_create_one_person<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            tokio::spawn(async move {
                let mut input = import(if i % 2 == 0 { "race@example.com" } else { " Race@Example.COM " });
                input.tags = tag_names(&[&format!("t{i}")]);
                barrier.wait().await;
                svc.import_person(org.id, input).await
            })
        })
        .collect();
    let mut outcomes: Vec<ImportOutcome> = Vec::new();
    for t in tasks {
        outcomes.push(t.await.unwrap().unwrap());
    }
    assert_eq!(outcomes.iter().filter(|o| o.created).count(), 1, "exactly one import creates");
    let id = outcomes[0].person.id;
    assert!(outcomes.iter().all(|o| o.person.id == id), "all imports return the same person");
    assert_eq!(count_active(&svc, org.id).await, 1);
    let created: Vec<_> =
        events(&svc, org.id).await.into_iter().filter(|e| e.event_type == EventType::PersonCreated).collect();
    assert_eq!(created.len(), 1, "exactly one person.created");
    assert_eq!(created[0].data["id"], id.to_string());
    // Merges were serialized: every import's tag was added, none lost.
    let p = svc.get_person(org.id, id).await.unwrap();
    let names: BTreeSet<_> = p.tags.iter().map(|t| t.name.clone()).collect();
    assert_eq!(names, (0..8).map(|i| format!("t{i}")).collect::<BTreeSet<_>>());
}

pub async fn concurrent_imports_respect_the_person_limit<S: Store + Clone>(store: S) {
    let tiny = Plan {
        id: "tiny".into(),
        api_access: true,
        person_limit: 5,
        profile_limit: 1,
        org_rpm: 100,
        key_rpm: 100,
        org_only_rpm: 100,
    };
    let (svc, _) = services_with(store, PlanCatalogue::new(vec![tiny]));
    let org = new_org(&svc, "tiny", &[]).await;
    let barrier = Arc::new(Barrier::new(12));
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                svc.import_person(org.id, import(&format!("p{i}@example.com"))).await
            })
        })
        .collect();
    let (mut ok, mut refused) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(o) => {
                assert!(o.created);
                ok += 1;
            }
            Err(e) => {
                let c = client_err::<()>(Err(e));
                assert_eq!(c.code, Code::PersonLimitReached);
                let d = c.details.expect("details");
                assert_eq!(
                    (d["used"].as_u64(), d["limit"].as_u64(), d["plan"].as_str()),
                    (Some(5), Some(5), Some("tiny"))
                );
                refused += 1;
            }
        }
    }
    assert_eq!((ok, refused), (5, 7));
    assert_eq!(count_active(&svc, org.id).await, 5);
    assert_eq!(events(&svc, org.id).await.len(), 5);
    assert_eq!(svc.list_persons(query(org.id)).await.unwrap().items.len(), 5);
    assert_eq!(svc.organization(org.id).await.unwrap().1.persons_used, 5);
}

/// T69: the count of active persons that the person limit reads is kept by triggers on both
/// backends. After imports, archives and reactivations, eight of each at once, it equals the
/// persons listed, and another organization's count is its own.
pub async fn active_person_count_follows_concurrent_imports_archives_and_reactivations<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let mut first = vec![];
    for i in 0..12 {
        first.push(imported(&svc, o, import(&format!("c{i}@example.com"))).await.id);
    }
    imported(&svc, other, import("c0@example.com")).await;
    assert_eq!(count_active(&svc, o).await, 12);
    let barrier = Arc::new(Barrier::new(16));
    let mut tasks = vec![];
    for (i, id) in first.iter().copied().enumerate().take(8) {
        let (svc, barrier) = (svc.clone(), barrier.clone());
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            svc.archive_person(o, id).await.unwrap();
            if i % 2 == 0 {
                assert!(svc.import_person(o, import(&format!("c{i}@example.com"))).await.unwrap().created);
            }
        }));
    }
    for i in 12..20 {
        let (svc, barrier) = (svc.clone(), barrier.clone());
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            svc.import_person(o, import(&format!("c{i}@example.com"))).await.unwrap();
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    // 12 imported, 8 archived, 4 of them reactivated, 8 new.
    assert_eq!(count_active(&svc, o).await, 16);
    assert_eq!(emails(&svc, query(o)).await.len(), 16);
    assert_eq!(svc.organization(o).await.unwrap().1.persons_used, 16);
    assert_eq!(count_active(&svc, other).await, 1);
}

/// T74: a use case that panics inside its transaction is rolled back and reported as an error,
/// and the connection it held serves the transactions that follow (SQLite's transactions are
/// written out by the store; PostgreSQL's are diesel's).
pub async fn a_panicking_transaction_writes_nothing_and_the_pool_stays_usable<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    for _ in 0..3 {
        let r: StoreResult<()> = write(&svc, move |tx| {
            Box::pin(async move {
                let now = OffsetDateTime::UNIX_EPOCH;
                tx.ensure_human(HumanId(uuid::Uuid::now_v7()), &email("ghost@example.com"), now).await?;
                panic!("a use case that panics half-way");
            })
        })
        .await;
        assert!(matches!(r, Err(StoreError::Internal(_))), "{r:?}");
    }
    let ghost =
        read(&svc, move |tx| Box::pin(async move { tx.find_human_by_email(&email("ghost@example.com")).await })).await;
    assert_eq!(ghost, None, "the panicking transaction's insert was rolled back");
    for i in 0..6 {
        imported(&svc, o, import(&format!("after{i}@example.com"))).await;
    }
    assert_eq!(count_active(&svc, o).await, 6);
}

/// T65: far from the limit imports hold the organization in shared mode and run side by side;
/// within `writers` (PostgreSQL: max_connections, 100 here) of it they go exclusive. 16 clients
/// import 160 persons into a limit of `writers + 30`: exactly the limit is created, the rest is
/// refused with 409, across the switch from shared to exclusive.
pub async fn concurrent_imports_crossing_into_the_exclusive_zone_stop_exactly_at_the_limit<S: Store + Clone>(store: S) {
    let writers = {
        let (svc, _) = services(store.clone());
        write(&svc, |tx| Box::pin(async move { tx.concurrent_writers().await })).await.unwrap()
    };
    let limit = writers + 30;
    let plan = Plan {
        id: "edge".into(),
        api_access: true,
        person_limit: limit,
        profile_limit: 1,
        org_rpm: 100,
        key_rpm: 100,
        org_only_rpm: 100,
    };
    let (svc, _) = services_with(store, PlanCatalogue::new(vec![plan]));
    let org = new_org(&svc, "edge", &[]).await;
    // Fill up to `writers` below the limit plus 10 at once: the next 20 are shared, then exclusive.
    let pre = limit.saturating_sub(writers + 20);
    for i in 0..pre {
        svc.import_person(org.id, import(&format!("pre{i}@example.com"))).await.unwrap();
    }
    let barrier = Arc::new(Barrier::new(16));
    let tasks: Vec<_> = (0..16)
        .map(|t| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let (mut ok, mut refused) = (0u32, 0u32);
                for i in 0..10 {
                    match svc.import_person(org.id, import(&format!("c{t}x{i}@example.com"))).await {
                        Ok(o) if o.created => ok += 1,
                        Err(e) => {
                            assert_eq!(client_err::<()>(Err(e)).code, Code::PersonLimitReached);
                            refused += 1;
                        }
                        Ok(_) => panic!("a new email merged"),
                    }
                }
                (ok, refused)
            })
        })
        .collect();
    let (mut ok, mut refused) = (0, 0);
    for t in tasks {
        let (o, r) = t.await.unwrap();
        ok += o;
        refused += r;
    }
    assert_eq!(pre + ok, limit, "exactly the limit is created");
    assert_eq!(ok + refused, 160);
    assert_eq!(count_active(&svc, org.id).await, limit);
}

pub async fn concurrent_imports_in_many_organizations_share_one_human<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let mut orgs = Vec::new();
    for _ in 0..8 {
        orgs.push(new_org(&svc, "business", &[]).await.id);
    }
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = orgs
        .iter()
        .map(|&org| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                svc.import_person(org, import("shared@example.com")).await
            })
        })
        .collect();
    let mut persons = Vec::new();
    for t in tasks {
        let o = t.await.unwrap().unwrap();
        assert!(o.created);
        persons.push(o.person);
    }
    let human = persons[0].human_id;
    assert!(persons.iter().all(|p| p.human_id == human), "one human behind every membership");
    let ids: BTreeSet<_> = persons.iter().map(|p| p.id).collect();
    assert_eq!(ids.len(), 8, "one membership per organization");
}

pub async fn concurrent_tag_spellings_resolve_to_one_catalogue_entry<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    const VIP: [&str; 8] = ["VIP", "vip", "Vip", "vIP", "ViP", "VIp", "vIp", "viP"];
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = VIP
        .iter()
        .enumerate()
        .map(|(i, spelling)| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            let mut input = import(&format!("tag{i}@example.com"));
            input.tags = tag_names(&[spelling]);
            tokio::spawn(async move {
                barrier.wait().await;
                svc.import_person(org.id, input).await
            })
        })
        .collect();
    let mut persons = Vec::new();
    for t in tasks {
        persons.push(t.await.unwrap().unwrap().person);
    }
    let tag = persons[0].tags[0].clone();
    assert!(VIP.contains(&tag.name.as_str()));
    for p in &persons {
        assert_eq!(p.tags, vec![tag.clone()], "one canonical spelling for everyone");
        assert_eq!(svc.get_person(org.id, p.id).await.unwrap().tags, vec![tag.clone()]);
    }
    assert_eq!(probe_tag(&svc, org.id, "vIp").await, Some(tag.clone()), "the catalogue entry");
    assert_eq!(probe_tag(&svc, org.id, "vip2").await, None, "the probe itself writes nothing");
    assert_eq!(probe_tag(&svc, org.id, "vip2").await, None);
    let mut q = query(org.id);
    q.tag_key = Some("vip".into());
    assert_eq!(svc.list_persons(q).await.unwrap().items.len(), 8);

    // Patches do not lock the organization: concurrent first spellings race on the catalogue.
    const GOLD: [&str; 8] = ["gold", "GOLD", "Gold", "gOLD", "GoLd", "gOlD", "GOld", "goLD"];
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = persons
        .iter()
        .zip(GOLD)
        .map(|(p, spelling)| {
            let (svc, barrier, id) = (svc.clone(), barrier.clone(), p.id);
            let patch = PatchPerson { tags: Some(tag_names(&[spelling, "vip"])), ..Default::default() };
            tokio::spawn(async move {
                barrier.wait().await;
                svc.patch_person(org.id, id, patch).await
            })
        })
        .collect();
    let mut patched = Vec::new();
    for t in tasks {
        patched.push(t.await.unwrap().unwrap());
    }
    let gold = probe_tag(&svc, org.id, "GOLD").await.expect("gold in the catalogue");
    assert!(GOLD.contains(&gold.name.as_str()));
    for p in &patched {
        assert_eq!(p.tags, vec![gold.clone(), tag.clone()]);
        assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), *p);
    }
}

pub async fn concurrent_new_tags_in_any_order_do_not_deadlock<S: Store + Clone>(store: S) {
    // Transactions that insert the same new catalogue entries in different orders must not
    // deadlock (PostgreSQL aborts one with "deadlock detected" after deadlock_timeout).
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let mut ids = Vec::new();
    for i in 0..8 {
        ids.push(imported(&svc, org.id, import(&format!("order{i}@example.com"))).await.id);
    }
    const ORDERS: [[usize; 4]; 8] = [
        [0, 1, 2, 3],
        [3, 2, 1, 0],
        [1, 0, 3, 2],
        [2, 3, 0, 1],
        [0, 2, 1, 3],
        [3, 1, 2, 0],
        [1, 3, 0, 2],
        [2, 0, 3, 1],
    ];
    for round in 0..3 {
        let names: Vec<String> = (0..4).map(|i| format!("r{round}-t{i}")).collect();
        let barrier = Arc::new(Barrier::new(8));
        let tasks: Vec<_> = ids
            .iter()
            .zip(ORDERS)
            .map(|(&id, order)| {
                let (svc, barrier) = (svc.clone(), barrier.clone());
                let tags: Vec<&str> = order.iter().map(|&i| names[i].as_str()).collect();
                let patch = PatchPerson { tags: Some(tag_names(&tags)), ..Default::default() };
                tokio::spawn(async move {
                    barrier.wait().await;
                    svc.patch_person(org.id, id, patch).await
                })
            })
            .collect();
        let mut patched = Vec::new();
        for t in tasks {
            patched.push(t.await.unwrap().expect("no deadlock"));
        }
        let mut catalogue = Vec::new();
        for n in &names {
            catalogue.push(probe_tag(&svc, org.id, n).await.expect("tag in the catalogue"));
        }
        for p in &patched {
            assert_eq!(p.tags, catalogue, "round {round}");
        }
    }
}

pub async fn concurrent_updates_of_one_person_are_serialized<S: Store + Clone>(store: S) {
    // Read-modify-write use cases of one person must not lose each other's changes.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let o = org.id;

    // D13: of eight concurrent patches filling the first name, exactly one wins.
    let p = imported(&svc, o, import("names@example.com")).await;
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            let patch = PatchPerson { first_name: Some(name(&format!("N{i}"))), ..Default::default() };
            tokio::spawn(async move {
                barrier.wait().await;
                svc.patch_person(o, p.id, patch).await
            })
        })
        .collect();
    let mut winners = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(p) => winners.push(p),
            other => assert_eq!(code(other), Code::Conflict),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one first name is set");
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), winners[0]);

    // Patches of different fields all persist.
    let p = imported(&svc, o, import("fields@acme.com")).await;
    let patches = [
        PatchPerson { first_name: Some(name("First")), ..Default::default() },
        PatchPerson { last_name: Some(name("Last")), ..Default::default() },
        PatchPerson { external_id: Some(Some(ext("EXT"))), ..Default::default() },
        PatchPerson { tags: Some(tag_names(&["Tagged"])), ..Default::default() },
    ];
    let barrier = Arc::new(Barrier::new(patches.len()));
    let tasks: Vec<_> = patches
        .into_iter()
        .map(|patch| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                svc.patch_person(o, p.id, patch).await
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let got = svc.get_person(o, p.id).await.unwrap();
    assert_eq!(got.first_name, Some(name("First")));
    assert_eq!(got.last_name, Some(name("Last")));
    assert_eq!(got.external_id, Some(ext("EXT")));
    assert_eq!(got.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["Tagged"]);

    // Archive (by the organization or an administrator) racing a patch: the person stays archived.
    for round in 0..6 {
        let p = imported(&svc, o, import(&format!("race{round}@example.com"))).await;
        let barrier = Arc::new(Barrier::new(2));
        let (s1, b1) = (svc.clone(), barrier.clone());
        let archive = tokio::spawn(async move {
            b1.wait().await;
            if round % 2 == 0 {
                s1.archive_person(o, p.id).await
            } else {
                s1.admin_archive_person(p.id, ArchiveReason::Deactivated).await
            }
        });
        let (s2, b2) = (svc.clone(), barrier.clone());
        let patch = tokio::spawn(async move {
            b2.wait().await;
            let patch = PatchPerson { last_name: Some(name("Late")), ..Default::default() };
            s2.patch_person(o, p.id, patch).await
        });
        let archived = archive.await.unwrap().unwrap();
        patch.await.unwrap().unwrap();
        let got = svc.get_person(o, p.id).await.unwrap();
        assert_eq!(got.status, PersonStatus::Archived, "round {round}: the patch must not undo the archive");
        assert_eq!(got.archive_reason, archived.archive_reason);
        assert_eq!(got.archived_at, archived.archived_at);
        assert_eq!(got.last_name, Some(name("Late")), "round {round}: the archive must not undo the patch");
    }
    let archived_events = events(&svc, o).await.iter().filter(|e| e.event_type == EventType::PersonArchived).count();
    assert_eq!(archived_events, 6);
    assert_eq!(count_active(&svc, o).await, 2);
}

// ---------------------------------------------------------------------------------------------
// Idempotency
// ---------------------------------------------------------------------------------------------

pub fn idem_req(org: OrgId, path: &str, key: &str, hash: &str) -> IdempotentRequest {
    IdempotentRequest { org_id: org, path: path.into(), key: key.into(), request_hash: hash.into() }
}

pub async fn idem_get<S: Store + Clone>(svc: &Svc<S>, org: OrgId, path: &str, key: &str) -> Option<IdempotencyRecord> {
    let (path, key) = (path.to_string(), key.to_string());
    read(svc, move |tx| Box::pin(async move { tx.find_idempotency(org, &path, &key).await })).await
}

pub async fn concurrent_idempotency_begin_lets_exactly_one_proceed<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                svc.idempotency_begin(idem_req(org.id, "/v1/persons", "key-1", "h1")).await
            })
        })
        .collect();
    let (mut proceed, mut conflict) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(IdempotencyBegin::Proceed) => proceed += 1,
            other => {
                assert_eq!(code(other), Code::Conflict);
                conflict += 1;
            }
        }
    }
    assert_eq!((proceed, conflict), (1, 7));
    let r = idem_get(&svc, org.id, "/v1/persons", "key-1").await.expect("record");
    assert_eq!(r.state, IdempotencyState::InFlight);
    assert_eq!(r.request_hash, "h1");

    // An abandoned in-flight record, then an expired stored one: exactly one request takes over.
    clock.advance(Duration::minutes(6));
    assert_eq!(race_begin(&svc, org.id, "h2").await, 1);
    let resp = StoredResponse { status: 201, body: "{}".into(), existing_resource: false };
    svc.idempotency_finish(idem_req(org.id, "/v1/persons", "key-1", "h2"), resp).await.unwrap();
    clock.advance(Duration::hours(25));
    assert_eq!(race_begin(&svc, org.id, "h3").await, 1);
}

/// Eight concurrent `idempotency_begin` of `key-1` with body hash `hash`: how many proceed (the
/// others must get `conflict`).
pub async fn race_begin<S: Store + Clone>(svc: &Svc<S>, org: OrgId, hash: &'static str) -> usize {
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                svc.idempotency_begin(idem_req(org, "/v1/persons", "key-1", hash)).await
            })
        })
        .collect();
    let mut proceed = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(IdempotencyBegin::Proceed) => proceed += 1,
            other => assert_eq!(code(other), Code::Conflict),
        }
    }
    proceed
}

pub async fn idempotency_records_replay_reuse_takeover_and_expiry<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let req = |k: &str, h: &str| idem_req(org.id, "/v1/persons", k, h);

    assert_eq!(svc.idempotency_begin(req("k1", "h1")).await.unwrap(), IdempotencyBegin::Proceed);
    let body = r#"{"id":"x","note":"ünïcode"}"#.to_string();
    let resp = StoredResponse { status: 201, body: body.clone(), existing_resource: true };
    svc.idempotency_finish(req("k1", "h1"), resp).await.unwrap();
    let r = idem_get(&svc, org.id, "/v1/persons", "k1").await.unwrap();
    assert_eq!(r.state, IdempotencyState::Done { status: 201, body: body.clone(), existing_resource: true });
    assert_ne!(r.created_at.microsecond(), 0);
    assert_eq!(
        svc.idempotency_begin(req("k1", "h1")).await.unwrap(),
        IdempotencyBegin::Replay { status: 201, body: body.clone(), existing_resource: true }
    );
    assert_eq!(code(svc.idempotency_begin(req("k1", "h2")).await), Code::IdempotencyKeyReused);

    // Scope: organization + path.
    assert_eq!(
        svc.idempotency_begin(idem_req(org.id, "/v1/other", "k1", "h1")).await.unwrap(),
        IdempotencyBegin::Proceed
    );
    assert_eq!(
        svc.idempotency_begin(idem_req(other.id, "/v1/persons", "k1", "h1")).await.unwrap(),
        IdempotencyBegin::Proceed
    );

    // Responses that are not stored forget the key.
    assert_eq!(svc.idempotency_begin(req("k2", "h1")).await.unwrap(), IdempotencyBegin::Proceed);
    let resp = StoredResponse { status: 503, body: "{}".into(), existing_resource: false };
    svc.idempotency_finish(req("k2", "h1"), resp).await.unwrap();
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "k2").await, None);
    assert_eq!(svc.idempotency_begin(req("k2", "h1")).await.unwrap(), IdempotencyBegin::Proceed);

    // An abandoned in-flight record is taken over, once.
    assert_eq!(code(svc.idempotency_begin(req("k2", "h1")).await), Code::Conflict);
    clock.advance(Duration::minutes(6));
    assert_eq!(svc.idempotency_begin(req("k2", "h9")).await.unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(code(svc.idempotency_begin(req("k2", "h9")).await), Code::Conflict);
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "k2").await.unwrap().request_hash, "h9");

    // After 24 h the key is fresh again.
    clock.advance(Duration::hours(24));
    assert_eq!(svc.idempotency_begin(req("k1", "h2")).await.unwrap(), IdempotencyBegin::Proceed);
    let r = idem_get(&svc, org.id, "/v1/persons", "k1").await.unwrap();
    assert_eq!((r.state, r.request_hash.as_str()), (IdempotencyState::InFlight, "h2"));
}

pub async fn idempotency_purge_deletes_old_records<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let req = |k: &str| idem_req(org.id, "/v1/persons", k, "h");
    svc.idempotency_begin(req("old-1")).await.unwrap();
    svc.idempotency_begin(req("old-2")).await.unwrap();
    let resp = StoredResponse { status: 200, body: "{}".into(), existing_resource: false };
    svc.idempotency_finish(req("old-2"), resp).await.unwrap();
    clock.advance(Duration::hours(24) + Duration::seconds(1));
    svc.idempotency_begin(req("new")).await.unwrap();
    assert_eq!(svc.idempotency_purge().await.unwrap(), 2);
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "old-1").await, None);
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "old-2").await, None);
    assert!(idem_get(&svc, org.id, "/v1/persons", "new").await.is_some());
    assert_eq!(svc.idempotency_purge().await.unwrap(), 0);

    // The boundary is exclusive: a record created exactly at `before` stays.
    let at = clock.now();
    let r = IdempotencyRecord {
        org_id: org.id,
        path: "/p".into(),
        key: "edge".into(),
        request_hash: "h".into(),
        state: IdempotencyState::InFlight,
        created_at: at,
    };
    let dup = r.clone();
    assert!(write(&svc, move |tx| Box::pin(async move { tx.idem_insert(&r).await })).await.unwrap());
    assert!(
        !write(&svc, move |tx| Box::pin(async move { tx.idem_insert(&dup).await })).await.unwrap(),
        "insert is once"
    );
    let purged = write(&svc, move |tx| Box::pin(async move { tx.idem_purge(at, 1000).await })).await.unwrap();
    assert_eq!(purged, 1, "only the older record ('new')");
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "new").await, None);
    assert!(idem_get(&svc, org.id, "/p", "edge").await.is_some());
    let after = at + Duration::microseconds(1);
    assert_eq!(write(&svc, move |tx| Box::pin(async move { tx.idem_purge(after, 1000).await })).await.unwrap(), 1);
    assert_eq!(idem_get(&svc, org.id, "/p", "edge").await, None);
}

// ---------------------------------------------------------------------------------------------
// Listing
// ---------------------------------------------------------------------------------------------

pub async fn list_filters_select_exactly_the_matching_persons<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let other = new_org(&svc, "business", &[]).await;
    let o = org.id;
    let with = |e: &str, first: &str, last: Option<&str>, labels: Option<Labels>, tags: &[&str]| ImportPerson {
        invitation: None,
        email: email(e),
        first_name: Some(name(first)),
        last_name: last.map(name),
        external_id: None,
        labels,
        tags: tag_names(tags),
    };
    let mut ada_in = with("ada@example.com", "Ada", Some("Lovelace"), None, &["VIP"]);
    ada_in.external_id = Some(ext("EXT-1"));
    let ada = imported(&svc, o, ada_in).await;
    let pct = imported(&svc, o, with("pct@example.com", "100%", Some("Sure"), None, &[])).await;
    imported(&svc, o, with("near@example.com", "1000", Some("Surely"), None, &[])).await;
    imported(&svc, o, with("x_y@example.com", "Under_score", None, None, &[])).await;
    imported(&svc, o, with("xzy@example.com", "Plain", None, None, &[])).await;
    imported(&svc, o, with("bs@example.com", "Back\\slash", None, None, &[])).await;
    imported(&svc, o, with("nobs@example.com", "Backslash", None, None, &[])).await;
    imported(&svc, o, with("zoe@example.com", "Zoë", Some("Ünal"), None, &[])).await;
    let eve = imported(
        &svc,
        o,
        with("eve@acme.com", "Eve", None, Some(Labels { candidate: false, employee: true }), &["Vip"]),
    )
    .await;
    let otto = imported(&svc, o, with("otto@example.com", "Otto", None, Some(Labels::default()), &["misc"])).await;
    let both = imported(&svc, o, with("both@acme.com", "Bo", None, None, &[])).await;
    let arch = imported(&svc, o, with("arch@example.com", "Archie", None, None, &["vIP"])).await;
    svc.archive_person(o, arch.id).await.unwrap();
    imported(&svc, other.id, with("ada@example.com", "Ada", Some("Lovelace"), None, &["VIP"])).await;
    assert_eq!(eve.labels, Labels { candidate: false, employee: true });
    assert_eq!(otto.labels, Labels::default());
    assert_eq!(both.labels, Labels { candidate: true, employee: true });

    // Assessment states (no use case sets them yet).
    for (p, status) in [(&ada, AssessmentStatus::InProgress), (&otto, AssessmentStatus::Completed)] {
        let mut p = p.clone();
        p.assessment.status = status;
        write(&svc, move |tx| Box::pin(async move { tx.update_person(&p).await })).await.unwrap();
    }

    let active = set(&[
        "ada@example.com",
        "pct@example.com",
        "near@example.com",
        "x_y@example.com",
        "xzy@example.com",
        "bs@example.com",
        "nobs@example.com",
        "zoe@example.com",
        "eve@acme.com",
        "otto@example.com",
        "both@acme.com",
    ]);
    assert_eq!(emails(&svc, query(o)).await, active, "default: active persons of the organization");
    let all = svc.list_persons(query(o)).await.unwrap().items;
    for p in &all {
        assert_eq!(svc.get_person(o, p.id).await.unwrap(), *p, "list rows are whole persons");
    }

    let q = |f: &dyn Fn(&mut PersonQuery)| {
        let mut q = query(o);
        f(&mut q);
        q
    };
    // status
    assert_eq!(emails(&svc, q(&|q| q.status = PersonStatusFilter::Archived)).await, set(&["arch@example.com"]));
    assert_eq!(emails(&svc, q(&|q| q.status = PersonStatusFilter::Active)).await, active);
    let mut everyone = active.clone();
    everyone.insert("arch@example.com".to_string());
    assert_eq!(emails(&svc, q(&|q| q.status = PersonStatusFilter::Any)).await, everyone);
    // q: substring of names and email; `%`, `_` and `\` are literal.
    let search = |s: &str| q(&|q| q.q = Some(s.to_string()));
    assert_eq!(emails(&svc, search("lovelace")).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, search("ada lovelace ada@")).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, search("100%")).await, set(&["pct@example.com"]));
    assert_eq!(emails(&svc, search("%")).await, set(&["pct@example.com"]));
    assert_eq!(emails(&svc, search("100")).await, set(&["pct@example.com", "near@example.com"]));
    assert_eq!(emails(&svc, search("x_y")).await, set(&["x_y@example.com"]));
    assert_eq!(emails(&svc, search("_")).await, set(&["x_y@example.com"]));
    assert_eq!(emails(&svc, search("k\\s")).await, set(&["bs@example.com"]));
    assert_eq!(emails(&svc, search("zoë ünal")).await, set(&["zoe@example.com"]));
    assert_eq!(emails(&svc, search("acme.com")).await, set(&["eve@acme.com", "both@acme.com"]));
    assert_eq!(emails(&svc, search("archie")).await, set(&[]), "archived persons are not listed by default");
    // email, externalId (exact, case-sensitive)
    assert_eq!(emails(&svc, q(&|q| q.email = Some(email("ada@example.com")))).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, q(&|q| q.email = Some(email("ada@example.co")))).await, set(&[]));
    assert_eq!(emails(&svc, q(&|q| q.external_id = Some("EXT-1".into()))).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, q(&|q| q.external_id = Some("ext-1".into()))).await, set(&[]));
    // assessmentStatus
    let assess = |s| q(&move |q| q.assessment_status = Some(s));
    assert_eq!(emails(&svc, assess(AssessmentStatus::InProgress)).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, assess(AssessmentStatus::Completed)).await, set(&["otto@example.com"]));
    let not_started: BTreeSet<_> =
        active.iter().filter(|e| !["ada@example.com", "otto@example.com"].contains(&e.as_str())).cloned().collect();
    assert_eq!(emails(&svc, assess(AssessmentStatus::NotStarted)).await, not_started);
    // label
    let label = |l| q(&move |q| q.label = Some(l));
    assert_eq!(emails(&svc, label(LabelFilter::Employee)).await, set(&["eve@acme.com", "both@acme.com"]));
    assert_eq!(emails(&svc, label(LabelFilter::Other)).await, set(&["otto@example.com"]));
    let candidates: BTreeSet<_> =
        active.iter().filter(|e| !["eve@acme.com", "otto@example.com"].contains(&e.as_str())).cloned().collect();
    assert_eq!(emails(&svc, label(LabelFilter::Candidate)).await, candidates);
    // tag: case-insensitive, canonical spelling shown
    assert_eq!(emails(&svc, q(&|q| q.tag_key = Some("vip".into()))).await, set(&["ada@example.com", "eve@acme.com"]));
    assert_eq!(
        emails(
            &svc,
            q(&|q| {
                q.tag_key = Some("vip".into());
                q.status = PersonStatusFilter::Archived;
            })
        )
        .await,
        set(&["arch@example.com"])
    );
    assert_eq!(emails(&svc, q(&|q| q.tag_key = Some("nope".into()))).await, set(&[]));
    let e = svc.get_person(o, eve.id).await.unwrap();
    assert_eq!(e.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["VIP"]);
    // combined filters
    assert_eq!(
        emails(
            &svc,
            q(&|q| {
                q.tag_key = Some("vip".into());
                q.label = Some(LabelFilter::Candidate);
            })
        )
        .await,
        set(&["ada@example.com"])
    );
    // updatedAfter (exclusive)
    let t = clock.now();
    let patched = svc
        .patch_person(o, pct.id, PatchPerson { external_id: Some(Some(ext("P"))), ..Default::default() })
        .await
        .unwrap();
    assert!(patched.updated_at > t);
    let after = |u: OffsetDateTime| q(&move |q| q.updated_after = Some(u));
    assert_eq!(emails(&svc, after(t)).await, set(&["pct@example.com"]));
    assert_eq!(emails(&svc, after(patched.updated_at)).await, set(&[]));
    assert_eq!(emails(&svc, after(patched.updated_at - Duration::microseconds(1))).await, set(&["pct@example.com"]));
    // no organization (admin): every organization
    let mut admin = query(o);
    admin.org_id = None;
    admin.q = Some("lovelace".into());
    assert_eq!(svc.list_persons(admin).await.unwrap().items.len(), 2);
    // limit
    let mut small = query(o);
    small.limit = 3;
    let page = svc.list_persons(small).await.unwrap();
    assert_eq!((page.items.len(), page.has_more), (3, true));
    assert_eq!(page.items, all[..3].to_vec(), "the first page holds the newest persons");
}

pub async fn keyset_pagination_walks_every_page_newest_first<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let mut created = Vec::new();
    for i in 0..23 {
        let mut input = import(&format!("page{i:02}@example.com"));
        if i % 3 == 0 {
            input.tags = tag_names(&["Third"]);
        }
        created.push(imported(&svc, org.id, input).await);
    }
    let newest_first: Vec<PersonId> = created.iter().rev().map(|p| p.id).collect();
    let mut sorted = newest_first.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(sorted, newest_first, "UUIDv7 ids follow creation order");

    for (size, tag) in
        [(1u32, None), (5, None), (7, None), (23, None), (100, None), (2, Some("third")), (4, Some("third"))]
    {
        let expected: Vec<PersonId> = created
            .iter()
            .rev()
            .filter(|p| tag.is_none() || p.tags.iter().any(|t| t.name.to_lowercase() == "third"))
            .map(|p| p.id)
            .collect();
        let mut seen = Vec::new();
        let mut before = None;
        let mut pages = 0;
        loop {
            let mut q = query(org.id);
            q.limit = size;
            q.before_id = before;
            q.tag_key = tag.map(str::to_string);
            let page = svc.list_persons(q).await.unwrap();
            pages += 1;
            assert!(page.items.len() <= size as usize);
            seen.extend(page.items.iter().map(|p| p.id));
            if !page.has_more {
                break;
            }
            assert_eq!(page.items.len(), size as usize, "a page with more after it is full");
            before = page.items.last().map(|p| p.id);
        }
        assert_eq!(seen, expected, "size {size}, tag {tag:?}: no duplicates, no gaps, newest first");
        assert_eq!(pages, expected.len().div_ceil(size as usize).max(1), "size {size}, tag {tag:?}");
    }

    // A cursor that is not itself in the result set (archived person) still works.
    let middle = created[11].id;
    svc.archive_person(org.id, middle).await.unwrap();
    let mut q = query(org.id);
    q.before_id = Some(middle);
    let ids: Vec<_> = svc.list_persons(q).await.unwrap().items.iter().map(|p| p.id).collect();
    assert_eq!(ids, created[..11].iter().rev().map(|p| p.id).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------------
// Patch, archive, reactivate, teams
// ---------------------------------------------------------------------------------------------

pub async fn patch_archive_and_reactivate_persist<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let o = org.id;
    let mut input = import("pat@example.com");
    input.tags = tag_names(&["One", "Two"]);
    let p = imported(&svc, o, input).await;

    // Patch: fill names, set externalId, replace tags and labels.
    clock.advance(Duration::seconds(3));
    let patched = svc
        .patch_person(
            o,
            p.id,
            PatchPerson {
                external_id: Some(Some(ext("E-1"))),
                first_name: Some(name("Pat")),
                last_name: Some(name("Doe")),
                labels: Some(Labels { candidate: false, employee: true }),
                tags: Some(tag_names(&["two", "Three"])),
            },
        )
        .await
        .unwrap();
    assert!(patched.updated_at > p.updated_at);
    assert_eq!(patched.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["Three", "Two"]);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), patched);
    let mut q = query(o);
    q.q = Some("pat doe".into());
    assert_eq!(emails(&svc, q).await, set(&["pat@example.com"]), "search text follows the patch");
    let mut q = query(o);
    q.tag_key = Some("one".into());
    assert_eq!(emails(&svc, q).await, set(&[]), "replaced tags leave the tag filter");

    // Clearing externalId; a patch that changes nothing writes nothing.
    let cleared =
        svc.patch_person(o, p.id, PatchPerson { external_id: Some(None), ..Default::default() }).await.unwrap();
    assert_eq!(cleared.external_id, None);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), cleared);
    let same = svc.patch_person(o, p.id, PatchPerson::default()).await.unwrap();
    assert_eq!(same, cleared);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), cleared);

    // Archive.
    let archived = svc.archive_person(o, p.id).await.unwrap();
    assert_eq!((archived.status, archived.archive_reason), (PersonStatus::Archived, Some(ArchiveReason::Archived)));
    assert!(archived.archived_at.is_some());
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), archived);
    assert_eq!(count_active(&svc, o).await, 0);
    assert_eq!(code(svc.archive_person(o, p.id).await), Code::NotFound);

    // Reactivate by import: same membership, memberSince kept, new tag merged, the archived
    // period recorded (D42).
    clock.advance(Duration::seconds(5));
    let mut again = import("PAT@example.com");
    again.tags = tag_names(&["four"]);
    let out = svc.import_person(o, again).await.unwrap();
    assert!(out.created);
    let r = out.person;
    assert_eq!(r.id, p.id);
    assert_eq!(r.member_since, p.member_since);
    assert_eq!((r.status, r.archive_reason, r.archived_at), (PersonStatus::Active, None, None));
    let gap = Period { from: archived.archived_at.unwrap(), until: r.updated_at };
    assert_eq!(r.inactive_periods, vec![gap]);
    assert_eq!(r.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["four", "Three", "Two"]);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), r);
    assert_eq!(count_active(&svc, o).await, 1);
    let types: Vec<_> = events(&svc, o).await.iter().map(|e| e.event_type).collect();
    // D47: a person.updated per patch that changed something, none for the empty one.
    assert_eq!(
        types,
        vec![
            EventType::PersonCreated,
            EventType::PersonUpdated,
            EventType::PersonUpdated,
            EventType::PersonArchived,
            EventType::PersonCreated
        ]
    );

    // Withdrawal and deactivation persist their reason; a later import is refused.
    let s = svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked).await.unwrap();
    assert_eq!(s.archive_reason, Some(ArchiveReason::SelfRevoked));
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), s);
    assert_eq!(code(svc.import_person(o, import("pat@example.com")).await), Code::PersonSelfRevoked);
    let d = svc.admin_archive_person(p.id, ArchiveReason::Deactivated).await.unwrap();
    assert_eq!(d.archive_reason, Some(ArchiveReason::Deactivated));
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), d);
    assert_eq!(code(svc.import_person(o, import("pat@example.com")).await), Code::PersonDeactivated);
    assert_eq!(events(&svc, o).await.len(), 6, "the withdrawal archives; no second person.archived");
}

pub async fn removing_employee_removes_the_person_from_every_team<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let o = org.id;
    let p1 = imported(&svc, o, import("one@acme.com")).await;
    let p2 = imported(&svc, o, import("two@acme.com")).await;
    let p3 = imported(&svc, o, import("three@acme.com")).await;
    assert!(p1.labels.employee && p2.labels.employee);
    let blue = svc.create_team(o, "Blue".into()).await.unwrap();
    let red = svc.create_team(o, "Red".into()).await.unwrap();
    let tid = blue.id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.get_team(tid).await })).await;
    assert_eq!(got, Some(blue.clone()));

    svc.add_team_member(blue.id, p1.id).await.unwrap();
    svc.add_team_member(blue.id, p2.id).await.unwrap();
    assert_eq!(svc.add_team_member(blue.id, p1.id).await.unwrap(), vec![p1.id, p2.id], "adding twice is a no-op");
    svc.add_team_member(red.id, p1.id).await.unwrap();
    svc.add_team_member(red.id, p3.id).await.unwrap();
    let foreign_org = new_org(&svc, "business", &[]).await;
    let foreign = imported(&svc, foreign_org.id, import("x@example.com")).await;
    assert_eq!(code(svc.add_team_member(blue.id, foreign.id).await), Code::NotFound);

    // Keeping employee keeps membership.
    let kept = svc
        .patch_person(
            o,
            p2.id,
            PatchPerson { labels: Some(Labels { candidate: false, employee: true }), ..Default::default() },
        )
        .await
        .unwrap();
    assert!(kept.labels.employee);
    assert_eq!(team_members(&svc, blue.id).await, vec![p1.id, p2.id]);

    // Removing employee removes p1 from both teams, nobody else.
    svc.patch_person(o, p1.id, PatchPerson { labels: Some(Labels::DEFAULT), ..Default::default() }).await.unwrap();
    assert_eq!(svc.get_person(o, p1.id).await.unwrap().labels, Labels::DEFAULT);
    assert_eq!(team_members(&svc, blue.id).await, vec![p2.id]);
    assert_eq!(team_members(&svc, red.id).await, vec![p3.id]);

    // The port directly: returns how many memberships it removed.
    svc.add_team_member(red.id, p2.id).await.unwrap();
    let id = p2.id;
    let n = write(&svc, move |tx| Box::pin(async move { tx.remove_person_from_teams(id).await })).await.unwrap();
    assert_eq!(n, 2);
    let n = write(&svc, move |tx| Box::pin(async move { tx.remove_person_from_teams(id).await })).await.unwrap();
    assert_eq!(n, 0);
    assert_eq!(team_members(&svc, blue.id).await, Vec::<PersonId>::new());
    assert_eq!(team_members(&svc, red.id).await, vec![p3.id]);
}

// ---------------------------------------------------------------------------------------------
// Failures and rollback
// ---------------------------------------------------------------------------------------------

pub async fn failed_use_cases_write_nothing<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let o = org.id;

    // Import of a person who withdrew: refused, nothing written.
    let gone = imported(&svc, o, import("gone@example.com")).await;
    let gone = svc.admin_archive_person(gone.id, ArchiveReason::SelfRevoked).await.unwrap();
    let before_events = events(&svc, o).await;
    let r = svc
        .import_person(
            o,
            ImportPerson {
                invitation: None,
                email: email("gone@example.com"),
                first_name: Some(name("G")),
                last_name: Some(name("One")),
                external_id: Some(ext("G-1")),
                labels: None,
                tags: tag_names(&["Brand New"]),
            },
        )
        .await;
    assert_eq!(code(r), Code::PersonSelfRevoked);
    assert_eq!(svc.get_person(o, gone.id).await.unwrap(), gone);
    assert_eq!(events(&svc, o).await, before_events);
    assert_eq!(probe_tag(&svc, o, "brand new").await, None);

    // A patch that fails after it resolved (inserted) new tags: the whole transaction rolls back.
    let mut input = import("named@acme.com");
    input.first_name = Some(name("Named"));
    let named = imported(&svc, o, input).await;
    let team = svc.create_team(o, "T".into()).await.unwrap();
    svc.add_team_member(team.id, named.id).await.unwrap();
    let before_events = events(&svc, o).await;
    let r = svc
        .patch_person(
            o,
            named.id,
            PatchPerson {
                first_name: Some(name("Other")),
                labels: Some(Labels::DEFAULT),
                tags: Some(tag_names(&["Fresh"])),
                ..Default::default()
            },
        )
        .await;
    assert_eq!(code(r), Code::Conflict);
    assert_eq!(probe_tag(&svc, o, "fresh").await, None, "the tag inserted before the failure is rolled back");
    assert_eq!(svc.get_person(o, named.id).await.unwrap(), named);
    assert_eq!(team_members(&svc, team.id).await, vec![named.id]);
    assert_eq!(events(&svc, o).await, before_events);
    assert_eq!(count_active(&svc, o).await, 1);

    // The store's contract directly: an `Err` from the body rolls back every write before it.
    let ghost = Organization { id: OrgId(Uuid::now_v7()), ..org.clone() };
    let g = ghost.clone();
    let r: Result<(), Probe<()>> = svc
        .store
        .write(move |tx| {
            Box::pin(async move {
                tx.insert_org(&g).await?;
                assert!(tx.get_org(g.id).await?.is_some(), "visible inside the transaction");
                Err(Probe::Found(()))
            })
        })
        .await;
    assert!(matches!(r, Err(Probe::Found(()))));
    let gid = ghost.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_org(gid).await })).await, None);
}

pub async fn documented_unique_violations_are_reported<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let p = imported(&svc, org.id, import("dup@example.com")).await;

    // insert_person: same organization and email.
    let dup = Person { id: PersonId(Uuid::now_v7()), tags: vec![], ..p.clone() };
    let r = write(&svc, move |tx| Box::pin(async move { tx.insert_person(&dup).await })).await;
    assert_eq!(r, Err(StoreError::UniqueViolation));
    assert_eq!(count_active(&svc, org.id).await, 1);

    // insert_user: same organization and email.
    let u = svc.create_user(org.id, email("u@example.com"), OrgRole::Member).await.unwrap();
    let dup = User { id: UserId(Uuid::now_v7()), ..u.clone() };
    let r = write(&svc, move |tx| Box::pin(async move { tx.insert_user(&dup).await })).await;
    assert_eq!(r, Err(StoreError::UniqueViolation));
    let o = org.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.list_users_of_org(o).await })).await, vec![u]);
}

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

pub async fn setting_get_or_insert_keeps_the_first_value<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let set = |n: &'static str, v: String| {
        let svc = svc.clone();
        async move { write(&svc, move |tx| Box::pin(async move { tx.setting_get_or_insert(n, &v).await })).await.unwrap() }
    };
    assert_eq!(set("webhook_secret", "first".into()).await, "first");
    assert_eq!(set("webhook_secret", "second".into()).await, "first");
    assert_eq!(set("other", "x".into()).await, "x");

    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let (barrier, fut) = (barrier.clone(), set("raced", format!("v{i}")));
            tokio::spawn(async move {
                barrier.wait().await;
                fut.await
            })
        })
        .collect();
    let mut values = BTreeSet::new();
    for t in tasks {
        values.insert(t.await.unwrap());
    }
    assert_eq!(values.len(), 1, "every caller sees the one stored value: {values:?}");
    let v = values.into_iter().next().unwrap();
    assert_eq!(set("raced", "late".into()).await, v);
}

// ---------------------------------------------------------------------------------------------
// Assessments and profiles (D10, D11, D23, D25, D26)
// ---------------------------------------------------------------------------------------------

pub fn forced(a: &str, b: &str, chosen: &str) -> Response {
    Response { shown: [a.into(), b.into()], chosen: chosen.into() }
}

pub fn seeded(seed: u64) -> AssessmentCommand {
    AssessmentCommand { complete: true, responses: None, seed: Some(seed) }
}

pub async fn assessments_of<S: Store + Clone>(svc: &Svc<S>, human: HumanId) -> Vec<Assessment> {
    read(svc, move |tx| Box::pin(async move { tx.list_assessments_of_human(human).await })).await
}

pub async fn assessment_round_trips_responses_and_timestamps<S: Store + Clone>(store: S) {
    // D10: assessments belong to the human; responses stored as JSON, times to the microsecond.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let p = imported(&svc, org.id, import("ada@example.com")).await;
    let other = imported(&svc, org.id, import("bob@example.com")).await;
    let started = Assessment {
        id: AssessmentId(Uuid::now_v7()),
        human_id: p.human_id,
        origin_org: Some(org.id),
        state: AssessmentState::InProgress,
        started_at: datetime!(2026-02-03 04:05:06.789012 UTC),
        completed_at: None,
        responses: vec![],
    };
    let s = started.clone();
    write(&svc, move |tx| Box::pin(async move { tx.insert_assessment(&s).await })).await.unwrap();
    assert_eq!(assessments_of(&svc, p.human_id).await, vec![started.clone()]);
    assert!(assessments_of(&svc, other.human_id).await.is_empty(), "another human has none");

    let mut done = started.clone();
    done.state = AssessmentState::Completed;
    done.completed_at = Some(datetime!(2026-02-03 04:35:00.000001 UTC));
    done.responses = vec![
        forced("mastery", "results", "mastery"),
        forced("helping", "influence", "influence"),
        forced("stability", "variety", "stability"),
    ];
    let d = done.clone();
    write(&svc, move |tx| Box::pin(async move { tx.update_assessment(&d).await })).await.unwrap();
    assert_eq!(assessments_of(&svc, p.human_id).await, vec![done.clone()]);

    // A second one, started earlier: the list is ordered by start time.
    let earlier = Assessment {
        id: AssessmentId(Uuid::now_v7()),
        human_id: p.human_id,
        // D51: an origin that is not known round-trips as such.
        origin_org: None,
        state: AssessmentState::Completed,
        started_at: datetime!(2026-01-01 00:00:00.5 UTC),
        completed_at: Some(datetime!(2026-01-01 00:10:00.25 UTC)),
        responses: seed_responses(&svc.assessment.model, 3),
    };
    let e = earlier.clone();
    write(&svc, move |tx| Box::pin(async move { tx.insert_assessment(&e).await })).await.unwrap();
    assert_eq!(assessments_of(&svc, p.human_id).await, vec![earlier, done]);

    // A failed transaction leaves no assessment behind.
    let ghost = Assessment { id: AssessmentId(Uuid::now_v7()), ..started };
    let r: Result<(), Probe<()>> = svc
        .store
        .write(move |tx| {
            Box::pin(async move {
                tx.insert_assessment(&ghost).await?;
                Err(Probe::Found(()))
            })
        })
        .await;
    assert!(matches!(r, Err(Probe::Found(()))));
    assert_eq!(assessments_of(&svc, p.human_id).await.len(), 2);
}

pub async fn assessments_of_humans_returns_those_of_every_listed_human<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let mut persons = Vec::new();
    for (i, n) in [2usize, 1, 3, 1].iter().enumerate() {
        let p = imported(&svc, org.id, import(&format!("h{i}@example.com"))).await;
        for k in 0..*n {
            svc.admin_assessment(p.id, seeded(k as u64)).await.unwrap();
        }
        persons.push(p);
    }
    let listed: Vec<HumanId> = persons[..3].iter().map(|p| p.human_id).collect();
    let l = listed.clone();
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_assessments_of_humans(&l).await })).await;
    assert_eq!(got.len(), 6, "2 + 1 + 3, not the unlisted human's");
    for h in &listed {
        let mine: Vec<_> = got.iter().filter(|a| a.human_id == *h).cloned().collect();
        assert_eq!(mine, assessments_of(&svc, *h).await, "same rows, same order as one by one");
    }
    assert!(got.iter().all(|a| a.human_id != persons[3].human_id));
    let none = read(&svc, move |tx| Box::pin(async move { tx.list_assessments_of_humans(&[]).await })).await;
    assert!(none.is_empty());
}

pub async fn completion_stores_need_counts_that_score_like_the_responses<S: Store + Clone>(store: S) {
    // Issue 11: matches read the counts stored at completion; they must round-trip and equal the
    // counts of the stored responses. Running and never-completed assessments are not listed.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let ada = imported(&svc, org.id, import("ada@example.com")).await;
    let bob = imported(&svc, org.id, import("bob@example.com")).await;
    svc.admin_assessment(ada.id, seeded(1)).await.unwrap();
    svc.admin_assessment(ada.id, seeded(2)).await.unwrap();
    svc.admin_assessment(bob.id, AssessmentCommand { complete: false, responses: None, seed: None }).await.unwrap();
    let o = org.id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_completed_counts_of_result_holders(o).await })).await;
    let full = assessments_of(&svc, ada.human_id).await;
    assert_eq!(got.len(), 2, "Ada's two completions, not Bob's running assessment");
    let model = talent_domain::assessment::AssessmentModel::builtin().unwrap();
    let mut ids: Vec<_> = got.iter().map(|(a, _)| a.id).collect();
    ids.sort_by_key(|id| full.iter().position(|f| f.id == *id));
    assert_eq!(ids, full.iter().map(|f| f.id).collect::<Vec<_>>(), "both completions, in no particular order");
    for (a, counts) in &got {
        let f = full.iter().find(|f| f.id == a.id).unwrap();
        assert!(a.responses.is_empty(), "responses are not read");
        let want = talent_domain::assessment::need_counts(&model, &f.responses);
        let have = counts.clone().expect("counts stored at completion");
        assert_eq!(have, want);
        assert!(have.responses > 0 && have.fits(&model));
    }
    // Setting counts again overwrites them (here with counts of no model).
    let id = got[0].0.id;
    write(&svc, move |tx| {
        Box::pin(async move { tx.set_need_counts(id, &talent_domain::assessment::NeedCounts::default()).await })
    })
    .await
    .unwrap();
    let again =
        read(&svc, move |tx| Box::pin(async move { tx.list_completed_counts_of_result_holders(o).await })).await;
    let overwritten = again.iter().find(|(a, _)| a.id == id).unwrap();
    assert_eq!(overwritten.1, Some(talent_domain::assessment::NeedCounts::default()), "overwritten");
}

pub async fn persons_of_human_spans_organizations<S: Store + Clone>(store: S) {
    // D10: one human, one membership (person id) per organization, archived ones included.
    let (svc, _) = services(store);
    let mut memberships = Vec::new();
    for _ in 0..3 {
        let org = new_org(&svc, "business", &[]).await;
        memberships.push(imported(&svc, org.id, import("ada@example.com")).await);
    }
    let lone = new_org(&svc, "business", &[]).await;
    let bob = imported(&svc, lone.id, import("bob@example.com")).await;
    svc.archive_person(memberships[1].org_id, memberships[1].id).await.unwrap();
    let human = memberships[0].human_id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_persons_of_human(human).await })).await;
    let mut want: Vec<Person> = Vec::new();
    for m in &memberships {
        want.push(svc.get_person(m.org_id, m.id).await.unwrap());
    }
    want.sort_by_key(|p| p.id);
    assert_eq!(got, want, "every membership, by id");
    assert_eq!(got.iter().filter(|p| p.status == PersonStatus::Archived).count(), 1);
    let bh = bob.human_id;
    let got = write(&svc, move |tx| Box::pin(async move { tx.list_persons_of_human(bh).await })).await.unwrap();
    assert_eq!(got, vec![bob], "also in a write transaction (locks the rows on PostgreSQL)");
}

pub async fn persons_with_results_lists_active_members_with_visible_completions<S: Store + Clone>(store: S) {
    // D26: profile matches list active persons with results only; D11: visible ones.
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let done1 = imported(&svc, org.id, import("done1@example.com")).await;
    let running = imported(&svc, org.id, import("running@example.com")).await;
    let _never = imported(&svc, org.id, import("never@example.com")).await;
    let gone = imported(&svc, org.id, import("gone@example.com")).await;
    let elsewhere = imported(&svc, other.id, import("else@example.com")).await;
    // Completed in `other` before joining `org`: not visible to `org`.
    let early = imported(&svc, other.id, import("early@example.com")).await;
    svc.admin_assessment(early.id, seeded(1)).await.unwrap();
    clock.advance(Duration::minutes(1));
    let early_here = imported(&svc, org.id, import("early@example.com")).await;
    clock.advance(Duration::minutes(1));
    let done2 = imported(&svc, org.id, import("done2@example.com")).await;
    for p in [&done1, &gone, &elsewhere, &done2] {
        svc.admin_assessment(p.id, seeded(2)).await.unwrap();
    }
    svc.admin_assessment(done2.id, seeded(3)).await.unwrap();
    svc.admin_assessment(running.id, AssessmentCommand::default()).await.unwrap();
    svc.archive_person(org.id, gone.id).await.unwrap();

    let o = org.id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_persons_with_results(o).await })).await;
    let ids: Vec<PersonId> = got.iter().map(|p| p.id).collect();
    let mut want = vec![done1.id, done2.id];
    want.sort_by(|a, b| b.cmp(a));
    assert_eq!(ids, want, "active, visible completions, newest first");
    assert!(!ids.contains(&early_here.id));
    assert_eq!(got.iter().map(|p| p.assessment.count).sum::<u32>(), 3, "summaries persisted");
    for p in &got {
        assert_eq!(*p, svc.get_person(org.id, p.id).await.unwrap(), "whole rows");
    }
    // The light read of matching (issue 11): the same memberships, in the same order.
    let holders = read(&svc, move |tx| Box::pin(async move { tx.list_result_holders(o).await })).await;
    let projected: Vec<ResultHolder> = got.iter().map(ResultHolder::from).collect();
    assert_eq!(holders, projected);
    let ot = other.id;
    let there = read(&svc, move |tx| Box::pin(async move { tx.list_persons_with_results(ot).await })).await;
    let mut want: Vec<PersonId> = vec![elsewhere.id, early.id];
    want.sort_by(|a, b| b.cmp(a));
    assert_eq!(there.iter().map(|p| p.id).collect::<Vec<_>>(), want);
}

pub async fn completion_persists_summaries_and_one_event_per_visible_membership<S: Store + Clone>(store: S) {
    // D11, D51 (b) on stored rows (microsecond timestamps compared with memberSince, the
    // membership's origin of the assessment), D31 outbox.
    let (svc, clock) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let pa = joined(&svc, a.id, "ada@example.com").await;
    clock.advance(Duration::minutes(1));
    let first = svc.admin_assessment(pa.id, seeded(1)).await.unwrap();
    clock.advance(Duration::minutes(1));
    let pb = joined(&svc, b.id, "ada@example.com").await;
    clock.advance(Duration::minutes(1));
    let second = svc.admin_assessment(pb.id, seeded(2)).await.unwrap();

    let (sa, sb) = (svc.get_person(a.id, pa.id).await.unwrap(), svc.get_person(b.id, pb.id).await.unwrap());
    let summary = |s: &AssessmentSummary| (s.status, s.completed_at, s.count);
    assert_eq!(summary(&sa.assessment), (AssessmentStatus::Completed, second.completed_at, 2));
    assert_eq!(summary(&sb.assessment), (AssessmentStatus::Completed, second.completed_at, 1));
    let ra = svc.results(a.id, pa.id).await.unwrap().scores.unwrap();
    let rb = svc.results(b.id, pb.id).await.unwrap().scores.unwrap();
    assert_eq!((ra.assessments, rb.assessments), (2, 1));
    // T85: each membership's stored totals are its visible assessments summed: they score the same.
    let model = &svc.assessment.model;
    let scored = |s: &AssessmentSummary| {
        let x = score_counts(model, &[s.totals.as_ref().expect("totals stored")]);
        (x.responses, x.needs, x.competencies)
    };
    let ra = (ra.responses, ra.needs, ra.competencies);
    let rb = (rb.responses, rb.needs, rb.competencies);
    assert_eq!((scored(&sa.assessment), scored(&sb.assessment)), (ra, rb));
    let completed = |v: Vec<OutboxEvent>| -> Vec<serde_json::Value> {
        v.into_iter().filter(|e| e.event_type == EventType::AssessmentCompleted).map(|e| e.data).collect()
    };
    let ea = completed(events(&svc, a.id).await);
    let eb = completed(events(&svc, b.id).await);
    assert_eq!(ea.len(), 2);
    assert_eq!(ea[0]["assessmentId"], first.id.to_string());
    assert_eq!(eb.len(), 1);
    assert_eq!(eb[0]["assessmentId"], second.id.to_string());
    assert_eq!(eb[0]["personId"], pb.id.to_string());
    assert_eq!(
        assessments_of(&svc, pa.human_id).await.iter().map(|x| x.id).collect::<Vec<_>>(),
        vec![first.id, second.id]
    );
}

pub async fn d51_stored_origins_and_joins_decide_what_each_membership_sees<S: Store + Clone>(store: S) {
    // D51 on stored rows: the origin an assessment records and how each membership joined travel
    // through every read that matching and the summaries use. B imports the address, A's
    // invitation is answered and its assessment completed: B's summary, results, stored totals and
    // profile matches see nothing, A's see it.
    let (svc, clock) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let pb = imported(&svc, b.id, import("alice@example.com")).await;
    clock.advance(Duration::minutes(1));
    let pa = joined(&svc, a.id, "alice@example.com").await;
    clock.advance(Duration::minutes(1));
    let done = svc.admin_assessment(pa.id, seeded(7)).await.unwrap();
    let stored = assessments_of(&svc, pa.human_id).await;
    assert_eq!(stored.iter().map(|x| x.origin_org).collect::<Vec<_>>(), vec![Some(a.id)]);
    assert_eq!(stored[0].id, done.id);
    assert_eq!(svc.get_person(b.id, pb.id).await.unwrap().assessment, AssessmentSummary::NONE);
    assert!(svc.results(b.id, pb.id).await.unwrap().scores.is_none());
    assert_eq!(svc.get_person(a.id, pa.id).await.unwrap().assessment.count, 1);
    let ob = b.id;
    let holders = read(&svc, move |tx| Box::pin(async move { tx.list_result_holders(ob).await })).await;
    assert!(holders.is_empty(), "B holds no results: {holders:?}");
    let oa = a.id;
    let holders = read(&svc, move |tx| Box::pin(async move { tx.list_result_holders(oa).await })).await;
    assert_eq!(holders.len(), 1);
    assert_eq!(
        (holders[0].visibility.org_id, holders[0].visibility.established_by_person),
        (a.id, true),
        "the light read carries what D51 needs"
    );
    for org in [a.id, b.id] {
        let comps: Vec<(Uuid, f64)> = vec![(svc.assessment.model.competencies[0].id, 1.0)];
        let profile = svc
            .create_profile(
                org,
                NewProfile {
                    name: "Role".into(),
                    description: None,
                    competencies: comps
                        .iter()
                        .map(|(id, w)| ProfileCompetency { competency_id: *id, weight: *w })
                        .collect(),
                },
            )
            .await
            .unwrap();
        let page = svc.profile_matches(org, profile.id, None, None, 10).await.unwrap();
        assert_eq!(page.items.len(), usize::from(org == a.id), "matches of {org:?}");
    }
    let completed_in =
        |v: Vec<OutboxEvent>| v.iter().filter(|e| e.event_type == EventType::AssessmentCompleted).count();
    assert_eq!((completed_in(events(&svc, a.id).await), completed_in(events(&svc, b.id).await)), (1, 0));
}

pub async fn concurrent_completions_through_memberships_of_one_human_all_count<S: Store + Clone>(store: S) {
    // A human in two organizations: completions through either membership run concurrently;
    // each must commit (no deadlock between the memberships' row locks) and count everywhere.
    let (svc, _) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let pa = joined(&svc, a.id, "ada@example.com").await;
    let pb = joined(&svc, b.id, "ada@example.com").await;
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = (0..8u64)
        .map(|i| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            let id = if i % 2 == 0 { pa.id } else { pb.id };
            tokio::spawn(async move {
                barrier.wait().await;
                svc.admin_assessment(id, seeded(i)).await
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap().expect("every completion commits");
    }
    assert_eq!(svc.get_person(a.id, pa.id).await.unwrap().assessment.count, 8);
    assert_eq!(svc.get_person(b.id, pb.id).await.unwrap().assessment.count, 8);
    assert_eq!(assessments_of(&svc, pa.human_id).await.len(), 8);
    for org in [a.id, b.id] {
        let n = events(&svc, org).await.iter().filter(|e| e.event_type == EventType::AssessmentCompleted).count();
        assert_eq!(n, 8, "one event per completion in each organization");
    }
}

pub async fn concurrent_starts_of_one_human_create_one_running_assessment<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let pa = joined(&svc, a.id, "ada@example.com").await;
    let pb = joined(&svc, b.id, "ada@example.com").await;
    let barrier = Arc::new(Barrier::new(8));
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let (svc, barrier) = (svc.clone(), barrier.clone());
            let id = if i % 2 == 0 { pa.id } else { pb.id };
            tokio::spawn(async move {
                barrier.wait().await;
                svc.admin_assessment(id, AssessmentCommand::default()).await
            })
        })
        .collect();
    let mut ids = BTreeSet::new();
    for t in tasks {
        ids.insert(t.await.unwrap().expect("every start commits").id);
    }
    assert_eq!(ids.len(), 1, "all starts return the one running assessment");
    assert_eq!(assessments_of(&svc, pa.human_id).await.len(), 1);
    assert_eq!(svc.get_person(b.id, pb.id).await.unwrap().assessment.status, AssessmentStatus::InProgress);
}

pub fn profile_input(
    name: &str,
    weights: &[(usize, f64)],
    model: &talent_domain::assessment::AssessmentModel,
) -> NewProfile {
    NewProfile {
        name: name.into(),
        description: Some(format!("«{name}» — für Zoë's team; 100% \"quoted\"")),
        competencies: weights
            .iter()
            .map(|(i, w)| ProfileCompetency { competency_id: model.competencies[*i].id, weight: *w })
            .collect(),
    }
}

pub async fn profiles_round_trip_list_newest_first_and_count<S: Store + Clone>(store: S) {
    // D25: profile fields; D36 keyset (newest first); D5 usage counts.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let model = svc.assessment.model.clone();
    let mut made = Vec::new();
    for i in 0..7usize {
        let weights = [(i, 0.1 + 0.05 * i as f64), ((i + 3) % model.competencies.len(), 1.0 / 3.0)];
        made.push(svc.create_profile(org.id, profile_input(&format!("Role {i}"), &weights, &model)).await.unwrap());
    }
    let plain = svc
        .create_profile(org.id, NewProfile { description: None, ..profile_input("Plain", &[(0, 1.0)], &model) })
        .await
        .unwrap();
    made.push(plain.clone());
    svc.create_profile(other.id, profile_input("Theirs", &[(1, 0.5)], &model)).await.unwrap();

    for p in &made {
        assert_eq!(svc.get_profile(org.id, p.id).await.unwrap(), *p, "every field, weights exactly");
        assert_eq!(code(svc.get_profile(other.id, p.id).await), Code::NotFound);
    }
    assert_eq!(plain.description, None);
    assert_ne!(made[0].created_at.microsecond(), 0, "sub-second digits kept");

    let (o, ot) = (org.id, other.id);
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.count_profiles(o).await })).await, 8);
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.count_profiles(ot).await })).await, 1);
    assert_eq!(svc.organization(org.id).await.unwrap().1.profiles_used, 8);

    let newest_first: Vec<ProfileId> = made.iter().rev().map(|p| p.id).collect();
    for size in [1u32, 3, 8, 100] {
        let mut seen = Vec::new();
        let mut before = None;
        loop {
            let page = svc.list_profiles(org.id, before, size).await.unwrap();
            assert!(page.items.len() <= size as usize);
            seen.extend(page.items.iter().map(|p| p.id));
            if !page.has_more {
                break;
            }
            before = page.items.last().map(|p| p.id);
        }
        assert_eq!(seen, newest_first, "size {size}: no gaps, no duplicates, newest first");
    }
    // The store's own limit and cursor, with an "everything" limit (person matches use it).
    let all = read(&svc, move |tx| Box::pin(async move { tx.list_profiles(o, None, u32::MAX).await })).await;
    assert_eq!(all.iter().map(|p| p.id).collect::<Vec<_>>(), newest_first);
    let cut = made[3].id;
    let older = read(&svc, move |tx| Box::pin(async move { tx.list_profiles(o, Some(cut), 2).await })).await;
    assert_eq!(older.iter().map(|p| p.id).collect::<Vec<_>>(), vec![made[2].id, made[1].id]);
}

// ---------------------------------------------------------------------------------------------
// The delivery engine's store operations (issue 10; T59-T61)
// ---------------------------------------------------------------------------------------------

use talent_domain::invitation::InvitationStatus;
use talent_domain::usecases::webhooks::{ClaimCaps, DeliveryJob, FinishedAttempt, NewEndpoint};
use talent_domain::webhook::{AttemptOutcome, Breaker, Delivery, DeliveryStatus, Endpoint, Subscription};

pub async fn hook<S: Store + Clone>(svc: &Svc<S>, org: OrgId, n: usize) -> Endpoint {
    let url = format!("https://hooks{n}.example.com/");
    svc.create_endpoint(org, NewEndpoint { url, events: Subscription::All, description: None }).await.unwrap()
}

pub fn caps(limit: u32, per_endpoint: u32, per_org: u32) -> ClaimCaps {
    ClaimCaps { limit, per_endpoint, per_org, ..Default::default() }
}

pub fn ok200() -> AttemptOutcome {
    AttemptOutcome { status: Some(200), duration_ms: 2, error: None, response_body: Some("ok".into()) }
}

pub async fn claim_counts<S: Store + Clone>(
    svc: &Svc<S>,
    c: ClaimCaps,
) -> std::collections::BTreeMap<WebhookId, usize> {
    let mut m = std::collections::BTreeMap::new();
    for j in svc.claim_due(c).await.unwrap() {
        *m.entry(j.delivery.endpoint_id).or_insert(0) += 1;
    }
    m
}

pub async fn delivery_claims_keep_the_per_endpoint_and_per_org_caps<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let (a1, a2, b1) = (hook(&svc, a.id, 1).await, hook(&svc, a.id, 2).await, hook(&svc, b.id, 3).await);
    for i in 0..6 {
        imported(&svc, a.id, import(&format!("a{i}@example.com"))).await;
    }
    imported(&svc, b.id, import("b@example.com")).await;
    // 12 due for organization a (6 per endpoint), 1 for b (created last).
    let mut c = caps(100, 4, 5);
    c.busy_endpoints = vec![(a1.id, 1)];
    let got = claim_counts(&svc, c).await;
    let a_total = got.get(&a1.id).unwrap_or(&0) + got.get(&a2.id).unwrap_or(&0);
    assert_eq!(a_total, 5, "at most 5 per organization: {got:?}");
    assert!(*got.get(&a1.id).unwrap_or(&0) <= 3, "a1 had one in flight: at most 3 more: {got:?}");
    assert_eq!(got.get(&b1.id), Some(&1), "the other organization is not starved: {got:?}");
    // An organization at its cap gets nothing; the limit counts across all; a cap is spent by the
    // rows claimed, not by an endpoint's allowance (a1 has 3 left, a2 4: one claim takes all 7).
    let mut c = caps(100, 4, 5);
    c.busy_orgs = vec![(a.id, 5)];
    assert!(claim_counts(&svc, c).await.is_empty());
    let got = claim_counts(&svc, caps(3, 10, 10)).await;
    assert_eq!(got.values().sum::<usize>(), 3, "the limit: {got:?}");
    let got = claim_counts(&svc, caps(100, 10, 10)).await;
    assert_eq!(got.values().sum::<usize>(), 12 - 5 - 3, "the rest: {got:?}");
}

pub async fn concurrent_claims_never_take_one_delivery_twice<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    for n in 0..3 {
        hook(&svc, org.id, n).await;
    }
    for i in 0..40 {
        imported(&svc, org.id, import(&format!("p{i}@example.com"))).await;
    }
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let svc = svc.clone();
            tokio::spawn(async move {
                let mut ids = vec![];
                loop {
                    let jobs = svc.claim_due(caps(7, 100, 100)).await.unwrap();
                    if jobs.is_empty() {
                        return ids;
                    }
                    ids.extend(jobs.into_iter().map(|j| j.delivery.id));
                }
            })
        })
        .collect();
    let mut all = vec![];
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let distinct: BTreeSet<_> = all.iter().map(|d| d.0).collect();
    assert_eq!(all.len(), 120, "every delivery claimed");
    assert_eq!(distinct.len(), 120, "none twice");
}

pub async fn open_breakers_and_disabled_endpoints_are_not_claimed<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let (open, off, fine) = (hook(&svc, org.id, 1).await, hook(&svc, org.id, 2).await, hook(&svc, org.id, 3).await);
    let now = clock.now();
    let (mut o, mut f) = (open.clone(), off.clone());
    o.breaker = Breaker { failed_attempts: 5, open_until: Some(now + Duration::seconds(15)) };
    f.enabled = false;
    write(&svc, move |tx| {
        Box::pin(async move {
            tx.update_endpoint(&o).await?;
            tx.update_endpoint(&f).await
        })
    })
    .await
    .unwrap();
    imported(&svc, org.id, import("p@example.com")).await;
    let got = claim_counts(&svc, ClaimCaps::total(10)).await;
    assert_eq!(got.keys().copied().collect::<Vec<_>>(), vec![fine.id]);
    let stored = svc.get_endpoint(org.id, open.id).await.unwrap();
    assert_eq!(stored.breaker.failed_attempts, 5, "the breaker round-trips");
    clock.advance(Duration::seconds(15));
    let got = claim_counts(&svc, ClaimCaps::total(10)).await;
    assert_eq!(got.keys().copied().collect::<Vec<_>>(), vec![open.id], "claimable once open_until has passed");
}

pub async fn outcomes_of_a_batch_are_recorded_in_one_transaction<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let e = hook(&svc, org.id, 1).await;
    for i in 0..3 {
        imported(&svc, org.id, import(&format!("p{i}@example.com"))).await;
    }
    let fail =
        AttemptOutcome { status: None, duration_ms: 10_000, error: Some("timed out".into()), response_body: None };
    for round in 0..2 {
        let jobs = svc.claim_due(ClaimCaps::total(10)).await.unwrap();
        assert_eq!(jobs.len(), 3, "round {round}");
        let at = clock.now();
        let done = jobs
            .iter()
            .map(|j| FinishedAttempt {
                delivery: j.delivery.id,
                endpoint: j.delivery.endpoint_id,
                at,
                outcome: if round == 0 { fail.clone() } else { ok200() },
            })
            .collect();
        svc.record_attempts(done).await.unwrap();
        clock.advance(Duration::minutes(1) + Duration::seconds(1));
    }
    let page = svc.list_deliveries(org.id, e.id, None, None, None, 10).await.unwrap();
    assert_eq!(page.items.len(), 3);
    for d in page.items {
        assert_eq!((d.status, d.attempts), (DeliveryStatus::Succeeded, 2));
        let (_, attempts) = svc.get_delivery(org.id, e.id, d.id).await.unwrap();
        assert_eq!(attempts.len(), 2, "two attempts, numbered in order");
        assert_eq!(attempts[0].1.error.as_deref(), Some("timed out"));
        assert_eq!(attempts[1].1.status, Some(200));
    }
    let ep = svc.get_endpoint(org.id, e.id).await.unwrap();
    assert_eq!(ep.breaker, Breaker::default(), "closed by the successes");
    // A redelivered delivery keeps numbering after its earlier attempts.
    let d = svc.list_deliveries(org.id, e.id, None, None, None, 1).await.unwrap().items.remove(0);
    svc.redeliver(org.id, e.id, d.id).await.unwrap();
    assert_eq!(svc.run_deliveries(10).await.unwrap(), 1);
    assert_eq!(svc.get_delivery(org.id, e.id, d.id).await.unwrap().1.len(), 3);
}

/// T121: an event written while a request is served carries its request id, and so do its
/// deliveries, in the store and after a redelivery; a background job's carry none.
pub async fn events_and_deliveries_record_the_request_that_caused_them<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let request = Arc::new(talent_domain::fakes::FakeCorrelation::default());
    let svc = Services { correlation: request.clone(), ..svc };
    let org = new_org(&svc, "business", &[]).await;
    let e = hook(&svc, org.id, 1).await;
    *request.0.lock().unwrap() = Some("req-import-1".into());
    imported(&svc, org.id, import("caused@example.com")).await;
    *request.0.lock().unwrap() = None;
    let ds = deliveries_of(&svc, org.id, e.id).await;
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].request_id.as_deref(), Some("req-import-1"), "the delivery names the request");
    let feed = svc.events_feed(org.id, &every_scope(), feed_req(0, 10)).await.unwrap();
    let created = feed.items.iter().find(|s| s.event.event_type == EventType::PersonCreated).unwrap();
    assert_eq!(created.event.request_id.as_deref(), Some("req-import-1"), "so does the stored event");
    // A redelivery (another request) keeps the cause of the event.
    *request.0.lock().unwrap() = Some("req-redeliver".into());
    svc.redeliver(org.id, e.id, ds[0].id).await.unwrap();
    *request.0.lock().unwrap() = None;
    let (d, _) = svc.get_delivery(org.id, e.id, ds[0].id).await.unwrap();
    assert_eq!(d.request_id.as_deref(), Some("req-import-1"));
    // A background job's events name no request: the expiry sweep.
    let mut late = emailed_invitation("late@example.com");
    late.send_email = false;
    late.expires_in_days = Some(1);
    let (inv, _) = svc.create_invitation(org.id, late).await.unwrap();
    clock.advance(Duration::days(2));
    svc.sweep_invitations().await.unwrap();
    let expired = deliveries_of(&svc, org.id, e.id)
        .await
        .into_iter()
        .find(|d| d.event_type == EventType::InvitationExpired && d.payload.contains(&inv.invitation.id.0.to_string()))
        .unwrap();
    assert_eq!(expired.request_id, None);
}

/// T104: the outcomes of one endpoint's deliveries can be recorded by several recorders at once
/// (the engines of two instances, the sandbox clock's delivery pass); none loses another's count.
/// Eight recorders of one failed attempt each leave the breaker at eight failures (T59), and
/// none of them deadlocks.
pub async fn concurrent_recorders_of_one_endpoint_lose_no_count<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let e = hook(&svc, org.id, 1).await;
    for i in 0..8 {
        imported(&svc, org.id, import(&format!("r{i}@example.com"))).await;
    }
    let fail =
        AttemptOutcome { status: Some(500), duration_ms: 20, error: Some("HTTP 500".into()), response_body: None };
    // One recorder per claimed job, all released at once by `barrier` (sized one larger when the
    // caller races something else against them).
    let recorders =
        |jobs: &[DeliveryJob], barrier: &Arc<Barrier>| -> Vec<tokio::task::JoinHandle<Result<(), UseCaseError>>> {
            let at = clock.now();
            jobs.iter()
                .map(|j| {
                    let (svc, barrier) = (svc.clone(), barrier.clone());
                    let done = vec![FinishedAttempt {
                        delivery: j.delivery.id,
                        endpoint: j.delivery.endpoint_id,
                        at,
                        outcome: fail.clone(),
                    }];
                    tokio::spawn(async move {
                        barrier.wait().await;
                        svc.record_attempts(done).await
                    })
                })
                .collect()
        };

    let jobs = svc.claim_due(ClaimCaps::total(10)).await.unwrap();
    assert_eq!(jobs.len(), 8);
    for t in recorders(&jobs, &Arc::new(Barrier::new(jobs.len()))) {
        t.await.unwrap().unwrap();
    }
    let ep = svc.get_endpoint(org.id, e.id).await.unwrap();
    assert_eq!(ep.breaker.failed_attempts, 8, "every recorder's failure counts");
    let page = svc.list_deliveries(org.id, e.id, None, None, None, 10).await.unwrap();
    assert!(page.items.iter().all(|d| d.attempts == 1 && d.status == DeliveryStatus::Pending));

    // Recorders racing the deletion of their endpoint (which removes its deliveries) take the
    // locks in the same order, endpoint first: every one ends without an error (no deadlock),
    // and an outcome of a delivery deleted meanwhile is skipped.
    clock.advance(Duration::minutes(2));
    let jobs = svc.claim_due(ClaimCaps::total(10)).await.unwrap();
    assert_eq!(jobs.len(), 8, "due again after the first retry delay");
    let barrier = Arc::new(Barrier::new(jobs.len() + 1));
    let mut tasks = recorders(&jobs, &barrier);
    let (svc2, o, id) = (svc.clone(), org.id, e.id);
    tasks.push(tokio::spawn(async move {
        barrier.wait().await;
        svc2.delete_endpoint(o, id).await
    }));
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert_eq!(code(svc.get_endpoint(org.id, e.id).await), Code::NotFound);
}

pub async fn retention_purges_only_history_older_than_the_window<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let e = hook(&svc, org.id, 1).await;
    for i in 0..5 {
        imported(&svc, org.id, import(&format!("old{i}@example.com"))).await;
    }
    assert_eq!(svc.run_deliveries(10).await.unwrap(), 5);
    clock.advance(Duration::days(10));
    imported(&svc, org.id, import("new@example.com")).await;
    assert_eq!(svc.run_deliveries(10).await.unwrap(), 1);
    clock.advance(Duration::days(20) + Duration::seconds(1));
    let before = events(&svc, org.id).await.len();
    // 30 days and 1 s after the first five, 20 days after the last: batches of 2.
    assert_eq!(svc.purge_webhook_history(30, 2).await.unwrap(), (5, 5));
    let left = svc.list_deliveries(org.id, e.id, None, None, None, 100).await.unwrap().items;
    assert_eq!(left.len(), 1);
    assert_eq!(svc.get_delivery(org.id, e.id, left[0].id).await.unwrap().1.len(), 1, "its attempt stays");
    assert_eq!(events(&svc, org.id).await.len(), before - 5);
    assert_eq!(svc.purge_webhook_history(30, 2).await.unwrap(), (0, 0));
}

// ---------------------------------------------------------------------------------------------
// Erasure (D44)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Retention (D46)
// ---------------------------------------------------------------------------------------------

/// D46: in batches of 2, the retention job deletes exactly the stored emails older than the
/// window (30 days), the one-time codes and idempotency records older than 24 hours, and keeps
/// the younger ones, whatever the batch boundaries.
pub async fn retention_purges_emails_codes_and_idempotency_records_exactly_past_their_windows_in_batches<
    S: Store + Clone,
>(
    store: S,
) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await.id;
    let invite = |e: &str| talent_domain::usecases::invitations::NewInvitation {
        expires_in_days: Some(90),
        ..emailed_invitation(e)
    };
    let idem = |k: String| idem_req(org, "/v1/persons", &k, "h");
    let mails = || async { svc.emails(None, 1000).await.unwrap() };
    // t0: five invitation emails and five idempotency records; an access request and its code.
    for i in 0..5 {
        svc.create_invitation(org, invite(&format!("old{i}@example.com"))).await.unwrap();
        svc.idempotency_begin(idem(format!("old-{i}"))).await.unwrap();
    }
    let other = new_org(&svc, "business", &[]).await.id;
    let pa = imported(&svc, other, import("coded@example.com")).await;
    svc.admin_assessment(pa.id, AssessmentCommand { complete: true, ..Default::default() }).await.unwrap();
    let (access, _) = svc.create_invitation(org, invite("coded@example.com")).await.unwrap();
    let token = access.url.rsplit('/').next().unwrap().to_string();
    let code = || async {
        let sent = svc.respond_by_token(&token, true, None).await.unwrap();
        assert!(matches!(sent, talent_domain::usecases::invitations::PageAnswer::CodeSent(_)), "{sent:?}");
    };
    code().await;
    assert_eq!(mails().await.len(), 7, "six invitations and one code");
    // t0 + 2 h: two more records and a second code (its email stays: 30 days are not over).
    clock.advance(Duration::hours(2));
    for i in 0..2 {
        svc.idempotency_begin(idem(format!("mid-{i}"))).await.unwrap();
    }
    code().await;
    // t0 + 29 d + 1 h: two emails, two records and a code inside every window.
    clock.advance(Duration::days(29) - Duration::hours(1));
    for i in 0..2 {
        svc.create_invitation(org, invite(&format!("new{i}@example.com"))).await.unwrap();
        svc.idempotency_begin(idem(format!("new-{i}"))).await.unwrap();
    }
    code().await;
    // t0 + 30 d + 1 s, batches of 2.
    clock.advance(Duration::hours(23) + Duration::seconds(1));
    let r = svc.retention(30, 2).await.unwrap();
    assert_eq!((r.emails, r.codes, r.idempotency), (7, 2, 7), "{r:?}");
    let left: Vec<String> = mails().await.iter().map(|e| e.to.to_string()).collect();
    assert_eq!(left.len(), 4, "{left:?}");
    assert_eq!(
        left.iter().cloned().collect::<BTreeSet<_>>(),
        set(&["coded@example.com", "new0@example.com", "new1@example.com"])
    );
    for k in ["new-0", "new-1"] {
        assert!(idem_get(&svc, org, "/v1/persons", k).await.is_some(), "{k} is younger than 24 h");
    }
    assert_eq!(idem_get(&svc, org, "/v1/persons", "mid-0").await, None);
    assert_eq!(svc.retention(30, 2).await.unwrap().total(), 0, "nothing else is past its window");
    // A day on, the third code and the two younger records go too.
    clock.advance(Duration::days(1));
    let r = svc.retention(30, 2).await.unwrap();
    assert_eq!((r.codes, r.idempotency), (1, 2), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Secrets at rest (issue 12, T84)
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Email limits (issue 13, T93)
// ---------------------------------------------------------------------------------------------

/// T93: `list_emails_to_since` lists the emails queued to one address since a moment (any
/// organization, newest first, with their invitation), and the resend use case refuses within
/// the cooldown with nothing written.
pub async fn resends_are_limited_by_the_emails_stored_for_the_address<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let invite = emailed_invitation;
    let t0 = clock.now();
    let (a, _) = svc.create_invitation(org, invite("ada@example.com")).await.unwrap();
    svc.create_invitation(org, invite("bob@example.com")).await.unwrap();
    clock.advance(Duration::seconds(30));
    let (b, _) = svc.create_invitation(other, invite("ada@example.com")).await.unwrap();
    let e = client_err(svc.resend_invitation(org, a.invitation.id, Some(30)).await);
    assert_eq!((e.code, e.retry_after), (Code::RateLimited, Some(30)), "{e:?}");
    assert_eq!(svc.get_invitation(org, a.invitation.id).await.unwrap().invitation.expires_at, a.invitation.expires_at);
    clock.advance(Duration::seconds(31));
    svc.resend_invitation(org, a.invitation.id, None).await.unwrap();

    let ada = email("ada@example.com");
    let all = read(&svc, move |tx| Box::pin(async move { tx.list_emails_to_since(&ada, t0, 100).await })).await;
    let ids: Vec<Option<InvitationId>> = all.iter().map(|s| s.invitation_id).collect();
    assert_eq!(ids, [Some(a.invitation.id), Some(b.invitation.id), Some(a.invitation.id)], "newest first");
    // The fake clock ticks a microsecond per reading.
    for (s, at) in all.iter().zip([61, 30, 0]) {
        let off = s.created_at - (t0 + Duration::seconds(at));
        assert!(off >= Duration::ZERO && off < Duration::milliseconds(1), "{all:?}");
    }
    let ada = email("ada@example.com");
    let recent = read(&svc, move |tx| {
        Box::pin(async move { tx.list_emails_to_since(&ada, t0 + Duration::seconds(1), 1).await })
    })
    .await;
    assert_eq!(recent.len(), 1);
    assert_eq!(recent[0].created_at, all[0].created_at);
    let since_last = all[0].created_at + Duration::microseconds(1);
    let ada = email("ada@example.com");
    let none = read(&svc, move |tx| Box::pin(async move { tx.list_emails_to_since(&ada, since_last, 10).await })).await;
    assert!(none.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Invitations, email claims, fan-out, expiry sweeps (issue 14 point 3)
// ---------------------------------------------------------------------------------------------

/// The deliveries of an endpoint, newest first.
pub async fn deliveries_of<S: Store + Clone>(svc: &Svc<S>, org: OrgId, hook: WebhookId) -> Vec<Delivery> {
    svc.list_deliveries(org, hook, None, None, None, 100).await.unwrap().items
}

/// D18, D19, D21: an invitation round-trips; inviting the same email again answers the pending
/// invitation; acceptance makes one active member and answers 409 `conflict` the second time.
pub async fn invitations_round_trip_and_acceptance_makes_one_member<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let mut input = emailed_invitation("Invitee@Example.com");
    input.first_name = Some(name("Ida"));
    input.external_id = Some(ext("ats-77"));
    let (made, created) = svc.create_invitation(o, input.clone()).await.unwrap();
    assert!(created);
    let inv = made.invitation;
    assert_eq!(inv.email.as_str(), "invitee@example.com");
    assert_eq!(inv.status, InvitationStatus::Pending);
    assert_eq!(svc.get_invitation(o, inv.id).await.unwrap().invitation, inv, "round trip");
    let (again, created) = svc.create_invitation(o, input).await.unwrap();
    assert!(!created, "D18: the pending invitation of that email");
    assert_eq!(again.invitation.id, inv.id);
    let other = new_org(&svc, "business", &[]).await.id;
    assert_eq!(code(svc.get_invitation(other, inv.id).await), Code::NotFound, "another organization's");

    let (accepted, person) = svc.accept_invitation(inv.id, false).await.unwrap();
    assert_eq!(accepted.invitation.status, InvitationStatus::Accepted);
    assert_eq!(accepted.invitation.person_id, Some(person.id));
    assert_eq!(person.email.as_str(), "invitee@example.com");
    assert_eq!(person.external_id, Some(ext("ats-77")));
    assert_eq!(count_active(&svc, o).await, 1);
    assert_eq!(code(svc.accept_invitation(inv.id, false).await), Code::Conflict, "not pending any more");
    assert_eq!(count_active(&svc, o).await, 1);
    let types: Vec<EventType> = events(&svc, o).await.iter().map(|e| e.event_type).collect();
    assert_eq!(types.iter().filter(|t| **t == EventType::InvitationAccepted).count(), 1, "{types:?}");
    assert_eq!(types.iter().filter(|t| **t == EventType::PersonJoined).count(), 1, "{types:?}");
}

/// D22, T58: an email whose first send failed is retried later; eight concurrent email runs then
/// send it exactly once (the claim decides) and record it as sent; a revoked invitation's queued
/// email is never sent.
pub async fn concurrent_email_deliveries_send_each_email_once<S: Store + Clone>(store: S) {
    use std::sync::atomic::Ordering::SeqCst;
    let (mut svc, clock) = services(store);
    let mailer = Arc::new(talent_domain::fakes::FakeMailer::default());
    svc.invites = Arc::new(talent_domain::usecases::invitations::InvitationKit {
        mailer: mailer.clone(),
        public_url: "http://talent.test".into(),
        sandbox: true,
        wake_emails: talent_domain::usecases::invitations::no_wakeup(),
    });
    let o = new_org(&svc, "business", &[]).await.id;
    // The relay is down while the invitations are made: their emails stay queued.
    mailer.fail.store(true, SeqCst);
    svc.create_invitation(o, emailed_invitation("once@example.com")).await.unwrap();
    let (revoked, _) = svc.create_invitation(o, emailed_invitation("never@example.com")).await.unwrap();
    svc.revoke_invitation(o, revoked.invitation.id).await.unwrap();
    assert_eq!(svc.deliver_emails().await.unwrap(), 0, "the relay is down");
    mailer.fail.store(false, SeqCst);
    assert_eq!(svc.deliver_emails().await.unwrap(), 0, "not due before the retry delay");
    clock.advance(Duration::minutes(2));
    let runs: Vec<_> = (0..8)
        .map(|_| {
            let svc = svc.clone();
            tokio::spawn(async move { svc.deliver_emails().await.unwrap() })
        })
        .collect();
    let mut sent = 0;
    for r in runs {
        sent += r.await.unwrap();
    }
    assert_eq!(sent, 1, "one run sent it");
    let to: Vec<String> = mailer.sent.lock().unwrap().iter().map(|m| m.to.as_str().to_string()).collect();
    assert_eq!(to, ["once@example.com"], "the revoked invitation's email is never sent");
    assert_eq!(svc.deliver_emails().await.unwrap(), 0, "nothing is due any more");
    let stored = svc.emails(Some(email("once@example.com")), 10).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert!(stored[0].sent_at.is_some(), "{:?}", stored[0]);
    let never = svc.emails(Some(email("never@example.com")), 10).await.unwrap();
    assert!(never[0].sent_at.is_none(), "{:?}", never[0]);
}

/// D29, D31, T96: an event is delivered once to each endpoint of its organization subscribed to
/// its type, and to no endpoint of another organization.
pub async fn fan_out_makes_one_delivery_per_subscribed_endpoint_of_the_organization<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let all = hook(&svc, o, 1).await;
    let typed = |url: &str, t: EventType| NewEndpoint {
        url: url.into(),
        events: Subscription::Types(vec![t]),
        description: None,
    };
    let created =
        svc.create_endpoint(o, typed("https://created.example.com/", EventType::PersonCreated)).await.unwrap();
    let archived =
        svc.create_endpoint(o, typed("https://archived.example.com/", EventType::PersonArchived)).await.unwrap();
    let elsewhere = hook(&svc, other, 2).await;
    imported(&svc, o, import("fan@example.com")).await;
    for (h, n) in [(&all, 1), (&created, 1), (&archived, 0)] {
        let ds = deliveries_of(&svc, o, h.id).await;
        assert_eq!(ds.len(), n, "{}: {ds:?}", h.url);
        for d in &ds {
            assert_eq!((d.event_type, d.org_id, d.endpoint_id), (EventType::PersonCreated, o, h.id));
            assert_eq!(d.status, DeliveryStatus::Pending);
            assert_eq!(d.attempts, 0);
            let env: serde_json::Value = serde_json::from_str(&d.payload).unwrap();
            assert_eq!(env["type"], "person.created", "{}", d.payload);
            assert_eq!(env["id"], serde_json::json!(d.id.0.to_string()), "the envelope id is the delivery id");
        }
    }
    assert!(deliveries_of(&svc, other, elsewhere.id).await.is_empty(), "another organization's endpoint");
    let a = deliveries_of(&svc, o, all.id).await;
    let c = deliveries_of(&svc, o, created.id).await;
    assert_ne!(a[0].id, c[0].id, "one delivery per endpoint");
}

/// D21: four concurrent sweeps expire a due invitation exactly once, with one
/// `invitation.expired` event; an invitation not yet due stays pending.
pub async fn concurrent_expiry_sweeps_expire_each_invitation_once<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let mut short = emailed_invitation("short@example.com");
    short.send_email = false;
    short.expires_in_days = Some(1);
    let (due, _) = svc.create_invitation(o, short).await.unwrap();
    let mut long = emailed_invitation("long@example.com");
    long.send_email = false;
    long.expires_in_days = Some(30);
    let (later, _) = svc.create_invitation(o, long).await.unwrap();
    clock.advance(Duration::days(2));
    let sweeps: Vec<_> = (0..4)
        .map(|_| {
            let svc = svc.clone();
            tokio::spawn(async move { svc.sweep_invitations().await.unwrap().0 })
        })
        .collect();
    let mut expired = 0;
    for s in sweeps {
        expired += s.await.unwrap();
    }
    assert_eq!(expired, 1, "exactly one sweep expired it");
    assert_eq!(svc.sweep_invitations().await.unwrap().0, 0, "nothing left to expire");
    let stored = |id| read(&svc, move |tx| Box::pin(async move { tx.get_invitation_any(id).await }));
    assert_eq!(stored(due.invitation.id).await.unwrap().status, InvitationStatus::Expired);
    assert_eq!(stored(later.invitation.id).await.unwrap().status, InvitationStatus::Pending);
    let n = events(&svc, o).await.iter().filter(|e| e.event_type == EventType::InvitationExpired).count();
    assert_eq!(n, 1);
}

// ---------------------------------------------------------------------------------------------
// The events feed and replay (D48, T106)
// ---------------------------------------------------------------------------------------------

/// An event of `org` created at `at`, with its index in `data`.
pub fn feed_event(svc_ids: &dyn Ids, org: OrgId, t: EventType, at: OffsetDateTime, n: u64) -> OutboxEvent {
    OutboxEvent {
        id: EventId(svc_ids.new_uuid()),
        org_id: org,
        event_type: t,
        data: serde_json::json!({"n": n}),
        created_at: at,
        request_id: None,
    }
}

pub fn every_scope() -> Scopes {
    Scopes::new(Scope::ALL.to_vec())
}

/// D48, T106: eight writers commit events in an order unrelated to when they began (random delays
/// before and after the insert, inside the transaction) while a reader follows the feed with
/// `after` and a second sequencer runs beside it (another instance). The reader sees every event
/// exactly once, in ascending sequence, and the numbers are 1, 2, 3, ... without a hole.
pub async fn a_feed_reader_sees_every_event_once_in_sequence_order_while_writers_commit_out_of_order<
    S: Store + Clone,
>(
    store: S,
) {
    // D56: two organizations written to at once; each reader sees its own numbers 1, 2, 3, ...
    let (svc, clock) = services(store);
    let orgs = [new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id];
    let mut base = [0u64; 2];
    for (k, org) in orgs.iter().enumerate() {
        let start = svc.events_feed(*org, &every_scope(), feed_req(0, 100)).await.unwrap();
        base[k] = start.items.last().map(|e| e.sequence).unwrap_or(0);
        assert_eq!(start.items.iter().map(|e| e.sequence).collect::<Vec<_>>(), (1..=base[k]).collect::<Vec<_>>());
    }
    let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let writers: Vec<_> = (0..8u64)
        .map(|w| {
            let (svc, done, at) = (svc.clone(), done.clone(), clock.now());
            let org = orgs[(w % 2) as usize];
            tokio::spawn(async move {
                let mut x = w.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for i in 0..10u64 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let (before, after) = (x % 7, (x >> 8) % 11);
                    let e = feed_event(&*svc.ids, org, EventType::PersonCreated, at, w * 100 + i);
                    svc.store
                        .write(move |tx| {
                            Box::pin(async move {
                                tokio::time::sleep(std::time::Duration::from_millis(before)).await;
                                tx.insert_event(&e).await?;
                                tokio::time::sleep(std::time::Duration::from_millis(after)).await;
                                Ok::<_, StoreError>(())
                            })
                        })
                        .await
                        .unwrap();
                }
                done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            })
        })
        .collect();
    let (svc2, done2) = (svc.clone(), done.clone());
    let other_sequencer = tokio::spawn(async move {
        for _ in 0..2_000 {
            if done2.load(std::sync::atomic::Ordering::SeqCst) == 8 {
                break;
            }
            svc2.sequence_events().await.unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        }
    });
    let (mut after, mut seen) = (base, [Vec::new(), Vec::new()]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        // Finished, or failed: a writer that panicked ends too (and fails the test below).
        let finished = writers.iter().all(|w| w.is_finished());
        assert!(std::time::Instant::now() < deadline, "the writers did not finish within 60 s");
        let mut empty = true;
        for k in 0..2 {
            let page = svc.events_feed(orgs[k], &every_scope(), feed_req(after[k], 7)).await.unwrap();
            for e in &page.items {
                assert_eq!(e.event.org_id, orgs[k]);
                assert_eq!(e.sequence, after[k] + 1, "ascending with no hole in organization {k}'s numbers");
                after[k] = e.sequence;
                seen[k].push(e.event.data["n"].as_u64().unwrap());
            }
            empty &= page.items.is_empty();
        }
        if finished && empty {
            break;
        }
        if empty {
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    }
    for w in writers {
        w.await.unwrap();
    }
    other_sequencer.await.unwrap();
    for k in 0..2 {
        let unique: BTreeSet<u64> = seen[k].iter().copied().collect();
        assert_eq!(seen[k].len(), 40, "every event of organization {k} once");
        assert_eq!(unique.len(), 40, "none twice");
        assert_eq!(after[k], base[k] + 40, "numbered 1..n in the organization");
    }
}

pub fn feed_req(after: u64, limit: u32) -> talent_domain::usecases::feed::FeedRequest {
    talent_domain::usecases::feed::FeedRequest { after, types: vec![], limit }
}

/// D48: the feed holds one organization's events, of the requested types, readable with the
/// scope of their resource; a sequence is never given twice, not even after retention deleted
/// every event (the counter is kept apart from the events).
pub async fn the_feed_filters_by_type_and_organization_and_numbers_are_never_reused<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let (a, b) = (new_org(&svc, "business", &[]).await, new_org(&svc, "business", &[]).await);
    let at = clock.now();
    let types = [EventType::PersonCreated, EventType::InvitationRevoked, EventType::AssessmentCompleted];
    for (n, t) in types.iter().enumerate() {
        for org in [a.id, b.id] {
            let e = feed_event(&*svc.ids, org, *t, at, n as u64);
            write(&svc, move |tx| Box::pin(async move { tx.insert_event(&e).await })).await.unwrap();
        }
    }
    let all = svc.events_feed(a.id, &every_scope(), feed_req(0, 100)).await.unwrap();
    assert_eq!(all.items.iter().map(|e| e.event.event_type).collect::<Vec<_>>(), types.to_vec());
    assert!(all.items.iter().all(|e| e.event.org_id == a.id), "only the organization's own");
    // D56: each organization counts its own events, 1, 2, 3, with no gap for the other's.
    for org in [a.id, b.id] {
        let mine = svc.events_feed(org, &every_scope(), feed_req(0, 100)).await.unwrap();
        assert_eq!(mine.items.iter().map(|e| e.sequence).collect::<Vec<_>>(), vec![1, 2, 3], "{org:?}");
    }
    let req =
        talent_domain::usecases::feed::FeedRequest { after: 0, types: vec![EventType::InvitationRevoked], limit: 100 };
    let only = svc.events_feed(a.id, &every_scope(), req.clone()).await.unwrap();
    assert_eq!(only.items.len(), 1);
    assert_eq!(only.items[0].event.event_type, EventType::InvitationRevoked);
    // The read scope of each resource (D48).
    let persons = Scopes::new(vec![Scope::PersonsRead]);
    let mine = svc.events_feed(a.id, &persons, feed_req(0, 100)).await.unwrap();
    assert_eq!(mine.items.iter().map(|e| e.event.event_type).collect::<Vec<_>>(), vec![EventType::PersonCreated]);
    assert_eq!(code(svc.events_feed(a.id, &persons, req).await), Code::InsufficientScope);
    let none = Scopes::new(vec![Scope::OrganizationRead]);
    assert_eq!(code(svc.events_feed(a.id, &none, feed_req(0, 100)).await), Code::InsufficientScope);
    // Paging: `hasMore` until the last one.
    let first = svc.events_feed(a.id, &every_scope(), feed_req(0, 2)).await.unwrap();
    assert!(first.has_more);
    let rest = svc.events_feed(a.id, &every_scope(), feed_req(first.items[1].sequence, 2)).await.unwrap();
    assert_eq!((rest.items.len(), rest.has_more), (1, false));
    // Retention deletes every event; the next one still gets the organization's next number.
    let top = all.items.iter().chain(&rest.items).map(|e| e.sequence).max().unwrap_or(0);
    clock.advance(Duration::days(31));
    svc.purge_webhook_history(30, 100).await.unwrap();
    assert!(svc.events_feed(a.id, &every_scope(), feed_req(0, 100)).await.unwrap().items.is_empty());
    let e = feed_event(&*svc.ids, a.id, EventType::PersonJoined, clock.now(), 9);
    write(&svc, move |tx| Box::pin(async move { tx.insert_event(&e).await })).await.unwrap();
    let after = svc.events_feed(a.id, &every_scope(), feed_req(0, 100)).await.unwrap();
    assert_eq!(after.items.len(), 1);
    assert_eq!(after.items[0].sequence, top + 1, "the next of A's own numbers, never one given before");
}

/// D48: replay queues, for one endpoint, a new delivery of every kept event after `after` that
/// it subscribes to, oldest first, in pages of `REPLAY_BATCH`; each delivery carries the event's
/// envelope (its time and data) under a new delivery id.
pub async fn replay_queues_the_subscribed_events_after_a_sequence_in_pages<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    for i in 0..5 {
        imported(&svc, org.id, import(&format!("early{i}@example.com"))).await;
    }
    clock.advance(Duration::minutes(1));
    let only_created = svc
        .create_endpoint(
            org.id,
            NewEndpoint {
                url: "https://late.example.com/".into(),
                events: Subscription::parse(&["person.created".to_string()]).unwrap(),
                description: None,
            },
        )
        .await
        .unwrap();
    assert!(svc.list_deliveries(org.id, only_created.id, None, None, None, 10).await.unwrap().items.is_empty());
    let feed = svc.events_feed(org.id, &every_scope(), feed_req(0, 100)).await.unwrap();
    let created: Vec<&SequencedEvent> =
        feed.items.iter().filter(|e| e.event.event_type == EventType::PersonCreated).collect();
    assert_eq!(created.len(), 5);
    let r = svc.replay(org.id, only_created.id, created[1].sequence).await.unwrap();
    assert_eq!((r.queued, r.last_sequence, r.has_more), (3, Some(created[4].sequence), false));
    let ds = svc.list_deliveries(org.id, only_created.id, None, None, None, 10).await.unwrap().items;
    assert_eq!(ds.len(), 3);
    for (d, e) in ds.iter().rev().zip(&created[2..]) {
        assert_eq!((d.status, d.event_type, d.attempts), (DeliveryStatus::Pending, EventType::PersonCreated, 0));
        let env: serde_json::Value = serde_json::from_str(&d.payload).unwrap();
        assert_eq!(env["data"], e.event.data, "the event's own data");
        assert_eq!(env["createdAt"], talent_domain::timefmt::format(e.event.created_at), "the event's own time");
        assert_eq!(env["id"], d.id.0.to_string(), "a new delivery id");
    }
    let nothing = svc.replay(org.id, only_created.id, created[4].sequence).await.unwrap();
    assert_eq!((nothing.queued, nothing.last_sequence, nothing.has_more), (0, None, false));
    let other = new_org(&svc, "business", &[]).await;
    assert_eq!(code(svc.replay(other.id, only_created.id, 0).await), Code::NotFound);
}

/// Issue 16 point 5 (admin API): a profile's change is stored whole, a deletion is of the named
/// organization's profile only, and frees a place of the plan's limit.
pub async fn profiles_are_changed_and_deleted_within_their_organization<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let model = svc.assessment.model.clone();
    let p = svc.create_profile(org.id, profile_input("Before", &[(0, 0.5), (1, 0.5)], &model)).await.unwrap();
    clock.advance(Duration::seconds(3));
    let patch = ProfilePatch {
        name: Some("After".into()),
        description: Some(None),
        competencies: Some(vec![ProfileCompetency { competency_id: model.competencies[2].id, weight: 0.25 }]),
    };
    let changed = svc.update_profile(org.id, p.id, patch).await.unwrap();
    assert_eq!((changed.name.as_str(), changed.description.as_deref()), ("After", None));
    assert!(changed.updated_at > p.updated_at && changed.created_at == p.created_at);
    assert_eq!(svc.get_profile(org.id, p.id).await.unwrap(), changed, "stored as returned");
    let keep = ProfilePatch { name: Some("Again".into()), ..Default::default() };
    assert_eq!(svc.update_profile(org.id, p.id, keep).await.unwrap().competencies, changed.competencies);
    let bad = ProfilePatch { competencies: Some(vec![]), ..Default::default() };
    assert_eq!(code(svc.update_profile(org.id, p.id, bad).await), Code::ValidationError);
    assert_eq!(code(svc.update_profile(other.id, p.id, ProfilePatch::default()).await), Code::NotFound);

    assert_eq!(code(svc.delete_profile(other.id, p.id).await), Code::NotFound, "another organization's");
    svc.delete_profile(org.id, p.id).await.unwrap();
    assert_eq!(code(svc.get_profile(org.id, p.id).await), Code::NotFound);
    assert_eq!(code(svc.delete_profile(org.id, p.id).await), Code::NotFound);
    assert_eq!(svc.organization(org.id).await.unwrap().1.profiles_used, 0);
}

/// Issue 16 point 5 (admin API): organizations page newest first, each once, whatever the page
/// size.
pub async fn organizations_list_newest_first_in_pages<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let mut made = Vec::new();
    for _ in 0..5 {
        made.push(new_org(&svc, "business", &["x.example"]).await.id);
    }
    let newest_first: Vec<OrgId> = made.iter().rev().copied().collect();
    for size in [1u32, 2, 5, 100] {
        let (mut seen, mut before) = (Vec::new(), None);
        loop {
            let page = svc.list_organizations(before, size).await.unwrap();
            assert!(page.items.len() <= size as usize);
            seen.extend(page.items.iter().map(|(o, _)| o.id));
            if !page.has_more {
                break;
            }
            before = page.items.last().map(|(o, _)| o.id);
        }
        assert_eq!(seen, newest_first, "page size {size}");
    }
    let first = svc.list_organizations(None, 1).await.unwrap();
    assert_eq!(first.items[0].0.employee_domains, vec!["x.example".to_string()]);
    assert_eq!(first.items[0].1.persons_limit, 5_000);
}

// ---------------------------------------------------------------------------------------------
// The dashboard's sign-in (issue 18, T122)
// ---------------------------------------------------------------------------------------------

async fn sign_in_token<S: Store + Clone>(svc: &Svc<S>, to: &str) -> String {
    let sent = svc.emails(Some(email(to)), 1).await.unwrap();
    let url = sent[0].invitation_url.clone().unwrap();
    url.rsplit('/').next().unwrap().to_string()
}

pub async fn sign_in_links_work_once_within_fifteen_minutes_and_sessions_end<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let stranger = new_org(&svc, "business", &[]).await;
    svc.create_user(a.id, email("x@acme.com"), OrgRole::Admin).await.unwrap();
    svc.create_user(b.id, email("X@acme.com"), OrgRole::Member).await.unwrap();

    // An address that is no user's gets the same answer, a stored link and no email.
    assert!(!svc.request_sign_in(email("nobody@acme.com")).await.unwrap().known);
    assert!(svc.emails(Some(email("nobody@acme.com")), 10).await.unwrap().is_empty());

    assert!(svc.request_sign_in(email("x@acme.com")).await.unwrap().known);
    let token = sign_in_token(&svc, "x@acme.com").await;
    let mail = &svc.emails(Some(email("x@acme.com")), 1).await.unwrap()[0];
    assert!(mail.invitation_url.as_deref().unwrap().starts_with("http://talent.test/dashboard/sign-in/"));
    // The link's page offers both organizations and does not use the link.
    let choices = svc.sign_in_choices(&token).await.unwrap();
    assert_eq!(choices.organizations.iter().map(|(id, _)| *id).collect::<BTreeSet<_>>(), BTreeSet::from([a.id, b.id]));
    assert!(svc.sign_in_choices(&token).await.is_ok());
    assert!(matches!(
        svc.sign_in(&token, stranger.id).await,
        Err(talent_domain::usecases::dashboard::SignInError::NotOffered)
    ));

    // Eight concurrent uses of one link: one session.
    let barrier = Arc::new(Barrier::new(8));
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (svc, token, barrier) = (svc.clone(), token.clone(), barrier.clone());
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            svc.sign_in(&token, a.id).await
        }));
    }
    let mut started = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(s) => started.push(s),
            Err(talent_domain::usecases::dashboard::SignInError::Link(talent_domain::dashboard::LinkProblem::Used)) => {
            }
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(started.len(), 1, "a link signs in once");
    let s = &started[0];
    let signed = svc.session(&s.token).await.unwrap().unwrap();
    assert_eq!((signed.org.id, signed.user.role), (a.id, OrgRole::Admin));
    assert!(svc.session("forged").await.unwrap().is_none());
    use talent_domain::dashboard::LinkProblem;
    use talent_domain::usecases::dashboard::SignInError;
    assert!(matches!(svc.sign_in("forged", a.id).await, Err(SignInError::Link(LinkProblem::Unknown))));

    // A link unused for 15 minutes has expired.
    svc.request_sign_in(email("x@acme.com")).await.unwrap();
    let late = sign_in_token(&svc, "x@acme.com").await;
    clock.advance(Duration::minutes(15));
    assert!(matches!(svc.sign_in_choices(&late).await, Err(SignInError::Link(LinkProblem::Expired))));
    assert!(matches!(svc.sign_in(&late, a.id).await, Err(SignInError::Link(LinkProblem::Expired))));

    // Sign-out ends the session; a session ends by itself after 12 hours.
    svc.sign_out(signed.session.id).await.unwrap();
    assert!(svc.session(&s.token).await.unwrap().is_none());
    svc.request_sign_in(email("x@acme.com")).await.unwrap();
    let again = svc.sign_in(&sign_in_token(&svc, "x@acme.com").await, b.id).await.unwrap();
    assert_eq!(svc.session(&again.token).await.unwrap().unwrap().org.id, b.id);
    clock.advance(talent_domain::dashboard::SESSION_TTL - Duration::seconds(1));
    assert!(svc.session(&again.token).await.unwrap().is_some());
    clock.advance(Duration::seconds(1));
    assert!(svc.session(&again.token).await.unwrap().is_none());
    // Retention deletes what expired.
    let r = svc.retention(30, 2).await.unwrap();
    assert!(r.sign_ins >= 4, "{r:?}");
    assert_eq!(svc.retention(30, 2).await.unwrap().sign_ins, 0);
}

pub async fn sign_in_links_per_address_are_limited<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    for _ in 0..talent_domain::dashboard::LINKS_PER_ADDRESS {
        svc.request_sign_in(email("who@acme.com")).await.unwrap();
    }
    let err = svc.request_sign_in(email("WHO@acme.com")).await.unwrap_err();
    let UseCaseError::Client(c) = err else { panic!("{err:?}") };
    assert_eq!((c.code, c.retry_after), (Code::RateLimited, Some(900)));
    assert!(svc.request_sign_in(email("other@acme.com")).await.is_ok(), "per address");
    clock.advance(talent_domain::dashboard::LINK_WINDOW);
    assert!(svc.request_sign_in(email("who@acme.com")).await.is_ok());
}

pub async fn removing_a_user_deletes_their_keys_and_sessions_and_keeps_an_administrator<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let admin = svc.create_user(org.id, email("admin@acme.com"), OrgRole::Admin).await.unwrap();
    let member = svc.create_user(org.id, email("member@acme.com"), OrgRole::Member).await.unwrap();
    let outsider = svc.create_user(other.id, email("out@acme.com"), OrgRole::Admin).await.unwrap();
    let sign = |who: &str, org: OrgId| {
        let (svc, who) = (svc.clone(), who.to_string());
        async move {
            svc.request_sign_in(email(&who)).await.unwrap();
            let t = sign_in_token(&svc, &who).await;
            let s = svc.sign_in(&t, org).await.unwrap();
            (svc.session(&s.token).await.unwrap().unwrap(), s.token)
        }
    };
    let (as_admin, _) = sign("admin@acme.com", org.id).await;
    let (as_member, member_token) = sign("member@acme.com", org.id).await;
    let key = svc.create_api_key(member.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    let admin_key = svc.create_api_key(admin.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    svc.create_api_key(outsider.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    // Members see their own keys, administrators every key of the organization.
    assert_eq!(svc.dashboard_keys(&as_member).await.unwrap().len(), 1);
    assert_eq!(svc.dashboard_keys(&as_admin).await.unwrap().len(), 2);
    assert_eq!(code(svc.dashboard_revoke_key(&as_member, admin_key.key.id).await), Code::NotFound);
    // Members cannot manage users; the last administrator stays one.
    assert_eq!(code(svc.change_role(&as_member, member.id, OrgRole::Admin).await), Code::InsufficientScope);
    assert_eq!(code(svc.change_role(&as_admin, admin.id, OrgRole::Member).await), Code::Conflict);
    assert_eq!(code(svc.remove_user(&as_admin, admin.id).await), Code::Conflict);
    assert_eq!(code(svc.remove_user(&as_admin, outsider.id).await), Code::NotFound);
    assert_eq!(svc.change_role(&as_admin, member.id, OrgRole::Admin).await.unwrap().role, OrgRole::Admin);
    assert_eq!(svc.get_user(member.id).await.unwrap().role, OrgRole::Admin);
    svc.remove_user(&as_admin, member.id).await.unwrap();
    assert_eq!(code(svc.get_user(member.id).await), Code::NotFound);
    assert!(svc.authenticate(Some(&format!("Bearer {}", key.value))).await.is_err(), "its keys stop working");
    assert!(svc.session(&member_token).await.unwrap().is_none(), "its sessions end");
    assert_eq!(svc.dashboard_keys(&as_admin).await.unwrap().len(), 1);
}

pub async fn teams_list_by_name_with_member_counts_within_the_organization<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let b = svc.create_team(org.id, "Backend".into()).await.unwrap();
    let a = svc.create_team(org.id, "Analytics".into()).await.unwrap();
    svc.create_team(other.id, "Elsewhere".into()).await.unwrap();
    let p1 = imported(&svc, org.id, import("t1@acme.com")).await;
    let p2 = imported(&svc, org.id, import("t2@acme.com")).await;
    svc.add_team_member(b.id, p1.id).await.unwrap();
    svc.add_team_member(b.id, p2.id).await.unwrap();
    svc.add_team_member(b.id, p2.id).await.unwrap();
    let teams = svc.list_teams(org.id).await.unwrap();
    let got: Vec<(String, u64)> = teams.iter().map(|(t, n)| (t.name.clone(), *n)).collect();
    assert_eq!(got, vec![("Analytics".to_string(), 0), ("Backend".to_string(), 2)]);
    assert_eq!(teams[0].0.id, a.id);
    assert!(svc.list_teams(OrgId(Uuid::now_v7())).await.unwrap().is_empty());
}

pub async fn a_persons_teams_list_by_name_and_one_membership_is_removed_within_the_organization<S: Store + Clone>(
    store: S,
) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let ops = svc.create_team(org.id, "Ops".into()).await.unwrap();
    let design = svc.create_team(org.id, "Design".into()).await.unwrap();
    let elsewhere = svc.create_team(other.id, "Elsewhere".into()).await.unwrap();
    let p = imported(&svc, org.id, import("pt1@acme.com")).await;
    let q = imported(&svc, org.id, import("pt2@acme.com")).await;
    let stranger = imported(&svc, other.id, import("pt3@acme.com")).await;
    svc.add_team_member(ops.id, p.id).await.unwrap();
    svc.add_team_member(design.id, p.id).await.unwrap();
    svc.add_team_member(ops.id, q.id).await.unwrap();
    svc.add_team_member(elsewhere.id, stranger.id).await.unwrap();
    let names = |v: Vec<Team>| v.into_iter().map(|t| t.name).collect::<Vec<_>>();
    assert_eq!(names(svc.person_teams(org.id, p.id).await.unwrap()), ["Design", "Ops"]);
    assert_eq!(names(svc.person_teams(org.id, q.id).await.unwrap()), ["Ops"]);
    assert_eq!(code(svc.person_teams(org.id, stranger.id).await), Code::NotFound, "a person of another organization");

    assert_eq!(svc.remove_team_member(org.id, ops.id, p.id).await.unwrap(), vec![q.id]);
    assert_eq!(names(svc.person_teams(org.id, p.id).await.unwrap()), ["Design"]);
    assert_eq!(svc.remove_team_member(org.id, ops.id, p.id).await.unwrap(), vec![q.id], "removing twice is a no-op");
    // Another organization's team or person is not found, and nothing changes.
    assert_eq!(code(svc.remove_team_member(org.id, elsewhere.id, stranger.id).await), Code::NotFound);
    assert_eq!(code(svc.remove_team_member(other.id, ops.id, q.id).await), Code::NotFound);
    assert_eq!(code(svc.remove_team_member(org.id, ops.id, stranger.id).await), Code::NotFound);
    assert_eq!(team_members(&svc, elsewhere.id).await, vec![stranger.id]);
    assert_eq!(team_members(&svc, ops.id).await, vec![q.id]);
    // The port directly: whether a membership was removed.
    let (t, person) = (design.id, p.id);
    let removed = write(&svc, move |tx| Box::pin(async move { tx.remove_team_member(t, person).await })).await.unwrap();
    assert!(removed);
    let removed = write(&svc, move |tx| Box::pin(async move { tx.remove_team_member(t, person).await })).await.unwrap();
    assert!(!removed);
    assert!(svc.person_teams(org.id, p.id).await.unwrap().is_empty());
}

/// D53: `list_consent_codes_of_address_since` returns the codes sent after `since` for every
/// invitation of the organization to the address (a revoked one too), and none of another
/// address, of the same address in another organization, or sent at or before `since`.
pub async fn codes_of_an_address_span_its_invitations_in_one_organization_d53<S: Store + Clone>(store: S) {
    use talent_domain::consent::ConsentCode;
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let invite =
        |e: &str| talent_domain::usecases::invitations::NewInvitation { send_email: false, ..emailed_invitation(e) };
    let (first, _) = svc.create_invitation(org, invite("ada@example.com")).await.unwrap();
    svc.revoke_invitation(org, first.invitation.id).await.unwrap();
    let (second, _) = svc.create_invitation(org, invite("ada@example.com")).await.unwrap();
    let (bob, _) = svc.create_invitation(org, invite("bob@example.com")).await.unwrap();
    let (elsewhere, _) = svc.create_invitation(other, invite("ada@example.com")).await.unwrap();
    let since = clock.now();
    let mut codes = Vec::new();
    // (invitation, seconds after `since`): the one at 0 is not after `since`.
    for (inv, at) in [
        (first.invitation.id, 0),
        (first.invitation.id, 1),
        (second.invitation.id, 2),
        (second.invitation.id, 3),
        (bob.invitation.id, 4),
        (elsewhere.invitation.id, 5),
    ] {
        let created = since + Duration::seconds(at);
        codes.push(ConsentCode {
            id: ConsentCodeId(Uuid::now_v7()),
            invitation_id: inv,
            code_hash: vec![at as u8; 32],
            tries: 0,
            used_at: None,
            expires_at: created + talent_domain::consent::CODE_VALIDITY,
            created_at: created,
        });
    }
    let stored = codes.clone();
    write(&svc, move |tx| {
        Box::pin(async move {
            for c in &stored {
                tx.insert_consent_code(c).await?;
            }
            Ok(())
        })
    })
    .await
    .unwrap();
    let of = |o: OrgId, e: &'static str| {
        let svc = svc.clone();
        async move {
            let mut got = read(&svc, move |tx| {
                Box::pin(async move { tx.list_consent_codes_of_address_since(o, &email(e), since).await })
            })
            .await;
            got.sort_by_key(|c| c.created_at);
            got
        }
    };
    assert_eq!(of(org, "ada@example.com").await, codes[1..4].to_vec(), "both invitations, after `since` only");
    assert_eq!(of(org, "bob@example.com").await, codes[4..5].to_vec());
    assert_eq!(of(other, "ada@example.com").await, codes[5..6].to_vec(), "per organization");
    assert!(of(org, "nobody@example.com").await.is_empty());
}
