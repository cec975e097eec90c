//! The store conformance suite (issue 14 point 3, T101): one set of test bodies, generic over
//! the domain's [`Store`] port, that every backend must pass; run on the in-memory fake
//! (`tests/fake.rs` of this crate), on SQLite and on PostgreSQL
//! (`crates/store/tests/conformance.rs`). A new backend is one crate that runs
//! [`store_conformance_suite!`](crate::store_conformance_suite) with a runner giving each test a
//! fresh, migrated store. A crate of its own, used only by tests: the races need an async
//! runtime (tokio), which the domain crate does not depend on.
//!
//! The bodies drive the store through the use cases, plus direct [`Tx`] calls where a port method
//! has no use case; each is named as the rule it checks. They live in one module per aggregate
//! (as the ports and the store's repositories do), each re-exported here, where the macro names
//! them `$crate::body`; this file keeps the macro and the helpers the modules share.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::sync::Arc;
use talent_domain::api_key::*;
use talent_domain::assessment::{score_counts, seed_responses, NeedCounts, Response};
use talent_domain::errors::{ClientError, Code, StoreError, UseCaseError};
use talent_domain::events::*;
use talent_domain::fakes::{FakeClock, FakeSecrets};
use talent_domain::ids::*;
use talent_domain::invitation::InvitationStatus;
use talent_domain::organization::*;
use talent_domain::person::*;
use talent_domain::ports::*;
use talent_domain::results::*;
use talent_domain::usecases::assessments::{AssessmentCommand, NewProfile, ProfilePatch};
use talent_domain::usecases::deliveries::{ClaimCaps, DeliveryJob, FinishedAttempt};
use talent_domain::usecases::idempotency::{Claim, IdempotencyBegin, IdempotentRequest, Keyed, StoredResponse};
use talent_domain::usecases::orgs::{NewOrganization, OrganizationPatch};
use talent_domain::usecases::persons::{ImportOutcome, ImportPerson, PatchPerson};
use talent_domain::usecases::webhooks::NewEndpoint;
use talent_domain::values::*;
use talent_domain::webhook::{AttemptOutcome, Breaker, Delivery, DeliveryStatus, Endpoint, Subscription};
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
            the_import_target_is_the_organization_its_member_and_its_active_count,
            concurrent_imports_of_one_email_create_one_person,
            concurrent_imports_respect_the_person_limit,
            active_person_count_follows_concurrent_imports_archives_and_reactivations,
            a_panicking_transaction_writes_nothing_and_the_pool_stays_usable,
            a_write_whose_caller_stops_waiting_still_commits,
            concurrent_imports_crossing_into_the_exclusive_zone_stop_exactly_at_the_limit,
            concurrent_imports_in_many_organizations_share_one_human,
            concurrent_tag_spellings_resolve_to_one_catalogue_entry,
            concurrent_new_tags_in_any_order_do_not_deadlock,
            concurrent_updates_of_one_person_are_serialized,
            concurrent_idempotency_begin_lets_exactly_one_proceed,
            concurrent_claims_of_one_key_run_the_work_once,
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
            aging_a_test_twin_moves_its_times_back_and_nothing_of_the_live_organization_d60,
            concurrent_advances_of_one_test_clock_all_apply_d60,
            delivery_claims_keep_the_per_endpoint_and_per_org_caps,
            concurrent_claims_never_take_one_delivery_twice,
            claims_numbering_events_beside_the_sequencer_and_imports_agree_with_the_feed,
            open_breakers_and_disabled_endpoints_are_not_claimed,
            outcomes_of_a_batch_are_recorded_in_one_transaction,
            concurrent_recorders_of_one_endpoint_lose_no_count,
            a_feed_reader_sees_every_event_once_in_sequence_order_while_writers_commit_out_of_order,
            the_feed_filters_by_type_and_organization_and_numbers_are_never_reused,
            one_sequencer_run_continues_each_organizations_own_count,
            replay_queues_the_subscribed_events_after_a_sequence_in_pages,
            a_claimed_delivery_carries_its_events_id_and_sequence,
            retention_purges_only_history_older_than_the_window,
            retention_purges_emails_codes_and_idempotency_records_exactly_past_their_windows_in_batches,
            resends_are_limited_by_the_emails_stored_for_the_address,
            invitations_round_trip_and_acceptance_makes_one_member,
            concurrent_email_deliveries_send_each_email_once,
            a_pass_claims_due_emails_once_and_reads_their_invitations_by_id,
            fan_out_makes_one_delivery_per_subscribed_endpoint_of_the_organization,
            a_transaction_lists_the_endpoints_it_wrote,
            concurrent_expiry_sweeps_expire_each_invitation_once,
            events_and_deliveries_record_the_request_that_caused_them,
            sign_in_links_work_once_within_fifteen_minutes_and_sessions_end,
            sign_in_links_per_address_are_limited,
            removing_a_user_deletes_their_keys_and_sessions_and_keeps_an_administrator,
            teams_list_by_name_with_member_counts_within_the_organization,
            a_persons_teams_list_by_name_and_one_membership_is_removed_within_the_organization,
            codes_of_an_address_span_its_invitations_in_one_organization_d53,
            connections_and_orders_round_trip_every_field,
            a_calls_connection_follows_every_committed_change_and_stamps_activity_once_a_minute,
            kombo_connections_are_found_across_organizations_and_orders_by_key_in_any_state,
            concurrent_placements_of_one_order_make_one_order_and_one_email,
            orders_end_with_their_invitations_expiry_and_revocation,
            a_connections_pushes_go_through_its_hidden_endpoint_never_listed_as_a_webhook,
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
            texts: Arc::new(talent_domain::fakes::FakeTexts),
        }),
        webhooks: Arc::new(talent_domain::fakes::FakeSender::default()),
        pushes: Arc::new(talent_domain::fakes::FakePushRenderer),
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
    ImportPerson::new(email(e))
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
    talent_domain::usecases::invitations::NewInvitation::new(email(e), true)
}

pub async fn new_org<S: Store + Clone>(svc: &Svc<S>, plan: &str, domains: &[&str]) -> Organization {
    let (org, _) = svc
        .create_organization(NewOrganization {
            subscription_status: Some(SubscriptionStatus::Active),
            employee_domains: domains.iter().map(|d| d.to_string()).collect(),
            ..NewOrganization::new("Acme", email("billing@acme.com"), plan)
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

/// Runs `f` in a write transaction of the store (committed on `Ok`; `f` may run again, a clone,
/// when the store rolls back its group).
pub async fn write<S: Store + Clone, R, F>(svc: &Svc<S>, f: F) -> StoreResult<R>
where
    R: Send + 'static,
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, StoreResult<R>> + Clone + Send + 'static,
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

/// The services on `store` with one plan, `id`, of at most `person_limit` persons, and an
/// organization on it.
pub async fn limited<S: Store + Clone>(store: S, id: &str, person_limit: u32) -> (Svc<S>, Organization) {
    let plan = Plan {
        id: id.into(),
        api_access: true,
        person_limit,
        profile_limit: 1,
        org_rpm: 100,
        key_rpm: 100,
        org_only_rpm: 100,
    };
    let (svc, _) = services_with(store, PlanCatalogue::new(vec![plan]));
    let org = new_org(&svc, id, &[]).await;
    (svc, org)
}

/// Runs `n` calls of `f(svc, i)` at once, each in its own task with its own handle on the
/// services, all released together by one barrier; their outputs in the order of `i`.
pub async fn race<S, T, F, Fut>(svc: &Svc<S>, n: usize, f: F) -> Vec<T>
where
    S: Store + Clone,
    F: Fn(Svc<S>, usize) -> Fut,
    Fut: std::future::Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let barrier = Arc::new(Barrier::new(n));
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let (barrier, run) = (barrier.clone(), f(svc.clone(), i));
            tokio::spawn(async move {
                barrier.wait().await;
                run.await
            })
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

pub fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// The bodies, one module per aggregate.
mod assessment;
mod connector;
mod email;
mod idempotency;
mod invitation;
mod org;
mod outbox;
mod person;
mod person_races;
mod privacy;
mod session;
mod settings;
mod webhook;
pub use assessment::*;
pub use connector::*;
pub use email::*;
pub use idempotency::*;
pub use invitation::*;
pub use org::*;
pub use outbox::*;
pub use person::*;
pub use person_races::*;
pub use privacy::*;
pub use session::*;
pub use settings::*;
pub use webhook::*;
