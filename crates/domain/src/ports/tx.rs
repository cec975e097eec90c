//! The transaction ports, one per aggregate, and [`Tx`], their sum: what a use case can do inside one transaction.

use super::*;
use crate::ids::*;
use crate::model::*;
use crate::values::*;
use time::OffsetDateTime;

/// Organizations, their users and API keys (spec, Organization, Authentication; D5, D39, D41). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL the
/// organization row is locked by [`OrgRepo::lock_org`] (exclusive) and
/// [`OrgRepo::lock_org_shared`] (shared, T65) until the transaction ends; a use case that checks
/// a limit of the organization (persons D6, profiles D25, keys) takes one of them first.
pub trait OrgRepo: Send {
    /// Inserts an organization.
    fn insert_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an organization's fields.
    fn update_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads an organization.
    fn get_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>>;
    /// Reads an organization and locks it until the transaction ends (serializes person-limit
    /// checks per organization).
    fn lock_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>>;
    /// Reads an organization and locks it in *shared* mode until the transaction ends (T65): shared
    /// holders do not wait for each other; [`OrgRepo::lock_org`] waits for all of them and blocks new
    /// ones. A backend whose write transactions never overlap (SQLite) may treat it as
    /// `lock_org`, the default.
    fn lock_org_shared(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
        self.lock_org(id)
    }
    /// The most write transactions the database can have in flight at once, this one included
    /// (T65): PostgreSQL's `max_connections`; 1 where write transactions never overlap (SQLite,
    /// the default).
    fn concurrent_writers(&mut self) -> BoxFuture<'_, StoreResult<u32>> {
        Box::pin(async { Ok(1) })
    }
    /// Organizations, newest first (id descending), with an id lower than `before` (the admin
    /// API's list, issue 16).
    fn list_orgs(&mut self, before: Option<OrgId>, limit: u32) -> BoxFuture<'_, StoreResult<Vec<Organization>>>;
    /// The oldest organization whose company name is `name` (used by `talent demo`).
    fn find_org_by_name<'a>(&'a mut self, name: &'a str) -> BoxFuture<'a, StoreResult<Option<Organization>>>;
    /// Number of active persons of the organization: those committed, plus this transaction's
    /// own changes. Errors: `Internal`. # Locking: none; a use case that enforces the person
    /// limit holds the organization lock first (shared or exclusive, T65), and adapters may keep
    /// the count as counters updated with every change of persons (T69) rather than count rows.
    fn count_active_persons(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>>;

    /// Inserts a user. Errors: `UniqueViolation` when the email is already a user of the organization.
    fn insert_user<'a>(&'a mut self, user: &'a User) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads a user.
    fn get_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<Option<User>>>;
    /// Users of an organization, oldest first.
    fn list_users_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<User>>>;
    /// Sets a user's role (the dashboard's user settings, issue 18).
    fn update_user_role(&mut self, id: UserId, role: OrgRole) -> BoxFuture<'_, StoreResult<()>>;
    /// Deletes a user with its API keys and dashboard sessions (issue 18): its keys stop
    /// authenticating at once. Returns how many keys went.
    fn delete_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<u64>>;
    /// Inserts an API key record.
    fn insert_api_key<'a>(&'a mut self, key: &'a ApiKey) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads an API key record.
    fn get_api_key(&mut self, id: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<ApiKey>>>;
    /// Keys of a user (active or not), oldest first.
    fn list_api_keys_of_user(&mut self, user: UserId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>>;
    /// Every API key of the users of an organization, newest first (the dashboard's key page:
    /// one query, through the users' `(org_id, email)` index and the keys' `user_id` index).
    fn list_api_keys_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>>;
    /// Sets `revoked_at` of a key.
    fn revoke_api_key(&mut self, id: ApiKeyId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>>;
    /// Key, owner role and organization by key prefix: one indexed lookup (authentication).
    fn find_key_context<'a>(&'a mut self, prefix: &'a str) -> BoxFuture<'a, StoreResult<Option<KeyContext>>>;
}

/// Persons (memberships), the humans behind them, tags and teams (D9-D16). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL the
/// reads a use case updates next lock the person's row in a write transaction, as each method
/// says ([`PersonRepo::find_person_by_email`]); two imports of one new email both find none and the
/// second insert fails with `UniqueViolation` (T70).
pub trait PersonRepo: Send {
    /// The human with this email, created with `new_id` when absent (race-safe).
    fn ensure_human<'a>(
        &'a mut self,
        new_id: HumanId,
        email: &'a Email,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<HumanId>>;
    /// The human with this email, if any (read only).
    fn find_human_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Option<HumanId>>>;
    /// The person of the organization with this email (any status). Errors: `Internal`.
    /// # Locking: in a write transaction the person's row, when there is one, until commit.
    /// Nothing is locked when there is none: two imports of one new email both find none, and
    /// the second's [`PersonRepo::insert_person`] then fails with `UniqueViolation` (T70).
    fn find_person_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
    ) -> BoxFuture<'a, StoreResult<Option<Person>>>;
    /// The person of the organization with this id (any status).
    fn get_person(&mut self, org: OrgId, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>>;
    /// The person with this id in any organization (admin API).
    fn get_person_any(&mut self, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>>;
    /// Inserts a person with its tags. Errors: `UniqueViolation` when the organization already has
    /// a person with this email.
    fn insert_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a person's fields and tag set.
    fn update_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>>;
    /// Maps tag names onto the organization's catalogue, creating missing entries with the given
    /// ids (first spelling wins, D14). Returns one tag per input, in input order.
    fn resolve_tags<'a>(
        &'a mut self,
        org: OrgId,
        names: &'a [(TagName, TagId)],
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<Tag>>>;
    /// One page of persons (at most `q.limit` rows), newest first.
    fn list_persons<'a>(&'a mut self, q: &'a PersonQuery) -> BoxFuture<'a, StoreResult<Vec<Person>>>;

    /// Inserts a team.
    fn insert_team<'a>(&'a mut self, team: &'a Team) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads a team.
    fn get_team(&mut self, id: TeamId) -> BoxFuture<'_, StoreResult<Option<Team>>>;
    /// The teams of an organization with their member counts, by name (the dashboard, issue 18).
    fn list_teams(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<(Team, u64)>>>;
    /// Adds a person to a team (no-op when already a member).
    fn add_team_member(&mut self, team: TeamId, person: PersonId, at: OffsetDateTime)
        -> BoxFuture<'_, StoreResult<()>>;
    /// Members of a team, in the order they were added.
    fn list_team_members(&mut self, team: TeamId) -> BoxFuture<'_, StoreResult<Vec<PersonId>>>;
    /// Removes a person from every team; returns how many memberships were removed.
    fn remove_person_from_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<u64>>;
    /// The teams a person is a member of, by name (the dashboard's person page).
    fn list_person_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<Vec<Team>>>;
    /// Removes a person from one team; whether they were a member.
    fn remove_team_member(&mut self, team: TeamId, person: PersonId) -> BoxFuture<'_, StoreResult<bool>>;
}

/// Invitations and the one-time codes of consent (D17-D21, D43). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL an
/// invitation read in a write transaction is locked until commit
/// ([`InvitationRepo::get_invitation`]); the expiry and the reminder are conditional updates
/// that exactly one of concurrent sweeps wins.
pub trait InvitationRepo: Send {
    /// Inserts an invitation.
    fn insert_invitation<'a>(&'a mut self, i: &'a crate::invitation::Invitation) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an invitation.
    fn update_invitation<'a>(&'a mut self, i: &'a crate::invitation::Invitation) -> BoxFuture<'a, StoreResult<()>>;
    /// An invitation of the organization (locked for update in a write transaction).
    fn get_invitation(
        &mut self,
        org: OrgId,
        id: InvitationId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::invitation::Invitation>>>;
    /// An invitation in any organization (admin API, sweeps).
    fn get_invitation_any(
        &mut self,
        id: InvitationId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::invitation::Invitation>>>;
    /// The invitation whose token hashes to `hash`.
    fn find_invitation_by_token_hash<'a>(
        &'a mut self,
        hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<crate::invitation::Invitation>>>;
    /// The newest invitation of the organization for `email` stored as pending and not past
    /// `now`.
    fn find_pending_invitation_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Option<crate::invitation::Invitation>>>;
    /// One page of invitations, newest first.
    fn list_invitations<'a>(
        &'a mut self,
        q: &'a InvitationQuery,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::invitation::Invitation>>>;
    /// Ids of invitations stored as pending whose `expiresAt` is at or before `now`.
    fn list_due_invitations(
        &mut self,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>>;
    /// Pending, unexpired invitations sent at or before `sent_before` without a reminder yet.
    fn list_reminders_due(
        &mut self,
        sent_before: OffsetDateTime,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>>;
    /// Sets the status to expired if (and only if) it is still stored as pending and due: the
    /// conditional update makes the sweep exactly-once across instances. Returns whether it did.
    fn expire_invitation_if_pending(
        &mut self,
        id: InvitationId,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>>;
    /// Sets `reminder_sent_at` if still unset; returns whether it did (exactly-once reminders).
    fn mark_reminder_if_unset(&mut self, id: InvitationId, now: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>>;

    /// Inserts a code.
    fn insert_consent_code<'a>(&'a mut self, c: &'a crate::consent::ConsentCode) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a code's `tries` and `used_at`.
    fn update_consent_code<'a>(&'a mut self, c: &'a crate::consent::ConsentCode) -> BoxFuture<'a, StoreResult<()>>;
    /// The invitation's codes created after `since`, in any order. The caller serializes issuing
    /// and checking by locking the invitation first ([`InvitationRepo::get_invitation`]).
    fn list_consent_codes_since(
        &mut self,
        invitation: InvitationId,
        since: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<Vec<crate::consent::ConsentCode>>>;
    /// The codes created after `since` for every invitation of organization `org` to `email`
    /// (revoked, expired and accepted ones included), in any order: the codes one person was
    /// sent by one organization, whatever the invitation (D53). The caller serializes issuing
    /// per organization by locking it first ([`OrgRepo::lock_org`]).
    fn list_consent_codes_of_address_since<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::consent::ConsentCode>>>;
}

/// Assessments, their need counts, and competency profiles (D10, D11, D23, D25). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL the
/// callers serialize per human through the person's row (a human's concurrent starts make one
/// running assessment).
pub trait AssessmentRepo: Send {
    /// Inserts an assessment.
    fn insert_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an assessment's state, completion time and responses.
    fn update_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>>;
    /// Assessments of a human, oldest first.
    fn list_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Assessment>>>;
    /// Assessments of several humans, oldest first.
    fn list_assessments_of_humans<'a>(
        &'a mut self,
        humans: &'a [HumanId],
    ) -> BoxFuture<'a, StoreResult<Vec<Assessment>>>;
    /// Stores the [`NeedCounts`] of a completed assessment, so matching reads them instead of its
    /// responses (issue 11). Errors: `Internal`.
    ///
    /// [`NeedCounts`]: crate::assessment::NeedCounts
    fn set_need_counts<'a>(
        &'a mut self,
        id: AssessmentId,
        counts: &'a crate::assessment::NeedCounts,
    ) -> BoxFuture<'a, StoreResult<()>>;
    /// The completed assessments of the humans of the organization's [`AssessmentRepo::list_result_holders`], in
    /// one query (no list of humans sent), in no particular order, *without* their responses (`responses`
    /// empty), each with its stored counts: `None` for one completed before counts were stored
    /// (the caller scores its responses instead). Visibility per membership (D11) is the caller's.
    /// Errors: `Internal`, also for counts that do not parse.
    fn list_completed_counts_of_result_holders(
        &mut self,
        org: OrgId,
    ) -> BoxFuture<'_, StoreResult<Vec<CountedAssessment>>>;
    /// Every membership of a human, in any organization and status.
    fn list_persons_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Person>>>;
    /// Active persons of an organization with at least one visible completed assessment, newest
    /// first (id descending).
    fn list_persons_with_results(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Person>>>;
    /// [`AssessmentRepo::list_persons_with_results`], only what matching needs of each ([`ResultHolder`]), newest
    /// first. Errors: `Internal`.
    fn list_result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ResultHolder>>>;

    /// Inserts a profile.
    fn insert_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>>;
    /// A profile of the organization.
    fn get_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<Option<Profile>>>;
    /// Profiles of the organization, newest first (id descending), with an id lower than `before`.
    fn list_profiles(
        &mut self,
        org: OrgId,
        before: Option<ProfileId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Profile>>>;
    /// Number of profiles of the organization.
    fn count_profiles(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>>;
    /// Overwrites a profile's name, description and competencies (the admin API, issue 16).
    fn update_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes a profile of the organization; false when there was none.
    fn delete_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<bool>>;
}

/// The event outbox (D31): events are written in the use case's transaction. Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL events
/// are plain inserts: nothing is locked; [`OutboxRepo::sequence_events`] locks the one counter
/// row, which makes sequencers take turns.
pub trait OutboxRepo: Send {
    /// Inserts an event into the outbox, nothing more: use cases append events with
    /// [`crate::outbox::append`], which also fans them out (D31, T96).
    fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>>;
    /// Events of an organization, oldest first (diagnostics and tests).
    fn list_events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>>;
    /// Whether some committed event has no feed sequence yet: the cheap read before the
    /// sequencer's write (D48, T106).
    fn has_unsequenced_events(&mut self) -> BoxFuture<'_, StoreResult<bool>>;
    /// The sequencer (D48, T106): gives at most `limit` committed events without a sequence the
    /// next numbers of the service-wide counter, in the order (`created_at`, id), and advances the
    /// counter; returns how many it numbered. Numbers are never reused (the counter survives
    /// retention) and have no holes when the transaction commits.
    ///
    /// # Locking
    /// Locks the counter row (PostgreSQL `FOR UPDATE`) first, so sequencers run one after the
    /// other: the numbers of one commit are all above those of every earlier commit, and a reader
    /// that sees a number sees every smaller one.
    fn sequence_events(&mut self, limit: u32) -> BoxFuture<'_, StoreResult<u32>>;
    /// The organization's numbered events with a sequence above `q.after`, ascending, of the types
    /// `q.types` (every type when empty), at most `q.limit` (D48).
    fn list_feed<'a>(&'a mut self, q: &'a FeedQuery) -> BoxFuture<'a, StoreResult<Vec<SequencedEvent>>>;
}

/// Webhook endpoints, deliveries and attempts (D29-D35, T60). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL claims
/// take due deliveries with `FOR UPDATE SKIP LOCKED` ([`WebhookRepo::claim_deliveries`]);
/// recording outcomes locks the endpoints ([`WebhookRepo::lock_endpoints`]) and then the
/// deliveries ([`WebhookRepo::list_deliveries_by_ids`]). **Lock order:** a transaction that
/// writes an endpoint and deliveries of it locks the endpoint first, as deleting an endpoint
/// (which removes its deliveries) does; then no two such transactions wait on each other in a
/// cycle (T104).
pub trait WebhookRepo: Send {
    /// Inserts an endpoint.
    fn insert_endpoint<'a>(&'a mut self, e: &'a crate::webhook::Endpoint) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an endpoint.
    fn update_endpoint<'a>(&'a mut self, e: &'a crate::webhook::Endpoint) -> BoxFuture<'a, StoreResult<()>>;
    /// An endpoint of the organization.
    fn get_endpoint(
        &mut self,
        org: OrgId,
        id: WebhookId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::webhook::Endpoint>>>;
    /// Endpoints of the organization, oldest first.
    fn list_endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<crate::webhook::Endpoint>>>;
    /// Deletes an endpoint and its deliveries.
    ///
    /// # Locking
    /// Locks the endpoint (PostgreSQL: `FOR UPDATE`) before it deletes the deliveries: the lock
    /// order above.
    fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>>;
    /// Inserts a delivery (test pings).
    fn insert_delivery<'a>(&'a mut self, d: &'a crate::webhook::Delivery) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a delivery's state and releases its claim.
    fn update_delivery<'a>(&'a mut self, d: &'a crate::webhook::Delivery) -> BoxFuture<'a, StoreResult<()>>;
    /// [`WebhookRepo::update_delivery`] for many deliveries: their state (status, attempts, next and last
    /// attempt, last response status and error), claims released. An adapter may do it in one
    /// statement (the engine's outcome batches, T60). Default: one `update_delivery` each.
    fn update_deliveries<'a>(&'a mut self, ds: &'a [crate::webhook::Delivery]) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            for d in ds {
                self.update_delivery(d).await?;
            }
            Ok(())
        })
    }
    /// Records attempts of deliveries (one statement for the batch where the backend allows),
    /// numbering each after the attempts its delivery already has.
    ///
    /// # Errors
    /// `Internal` when a delivery does not exist (callers pass ids read in the same transaction).
    fn insert_attempts<'a>(&'a mut self, attempts: &'a [AttemptRecord]) -> BoxFuture<'a, StoreResult<()>>;
    /// Endpoints by id, in any organization (the delivery engine's batch read); missing ids are
    /// left out. Not locked: a transaction that updates them reads them with
    /// [`WebhookRepo::lock_endpoints`].
    fn list_endpoints_by_ids<'a>(
        &'a mut self,
        ids: &'a [WebhookId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Endpoint>>>;
    /// [`WebhookRepo::list_endpoints_by_ids`], locking the rows until the transaction ends, so that
    /// read-modify-writes of an endpoint's counters (breaker, consecutive failures; T59, D31) by
    /// two recorders do not lose one another's update (T104).
    ///
    /// # Locking
    /// PostgreSQL: `FOR NO KEY UPDATE` in id order (new deliveries' foreign-key checks, `FOR KEY
    /// SHARE`, do not wait for it). Take it before locking any delivery of these endpoints (the
    /// lock order above). SQLite: the write lock already serializes writers.
    fn lock_endpoints<'a>(
        &'a mut self,
        ids: &'a [WebhookId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Endpoint>>>;
    /// Deliveries by id, as stored now; missing ids (deleted with their endpoint) are left out.
    ///
    /// # Locking
    /// In a write transaction on PostgreSQL the rows are locked (`FOR UPDATE`), so recording
    /// outcomes does not race a concurrent redeliver.
    fn list_deliveries_by_ids<'a>(
        &'a mut self,
        ids: &'a [DeliveryId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Delivery>>>;
    /// A delivery of an endpoint.
    fn get_delivery(
        &mut self,
        endpoint: WebhookId,
        id: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::webhook::Delivery>>>;
    /// Attempts of a delivery, oldest first.
    fn list_attempts_of(
        &mut self,
        delivery: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Vec<(OffsetDateTime, crate::webhook::AttemptOutcome)>>>;
    /// Deliveries of an endpoint, newest first, keyset by id, optional status and event type
    /// (the dashboard's delivery log filters by both, issue 18).
    fn list_deliveries(
        &mut self,
        endpoint: WebhookId,
        status: Option<crate::webhook::DeliveryStatus>,
        event_type: Option<crate::events::EventType>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<crate::webhook::Delivery>>>;
    /// Claims pending deliveries due at `now` of enabled endpoints whose breaker is not open, each
    /// until `c.lease_until` (a claim whose worker died expires and is claimed again), oldest due
    /// first, at most `c.limit` in all, and per endpoint and per organization at most the cap less
    /// what the caller already has in flight there ([`ClaimRequest`], T60).
    ///
    /// # Locking
    /// Safe with several instances: on PostgreSQL rows are claimed with `FOR UPDATE SKIP LOCKED`;
    /// on SQLite the claim is one `UPDATE ... RETURNING` under the write lock.
    fn claim_deliveries<'a>(
        &'a mut self,
        c: &'a ClaimRequest,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Delivery>>>;
    /// Deletes up to `limit` deliveries (with their attempts) created before `before` that no
    /// worker holds, and up to `limit` outbox events created before `before` (retention, T61).
    /// Returns how many rows of each were deleted: (deliveries, events).
    fn purge_webhook_history(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<(u64, u64)>>;
    /// Asks the store to wake the delivery engines once this transaction commits (in-process, and
    /// on PostgreSQL every instance through `NOTIFY`): call it when the transaction made a
    /// delivery due now (fan-out, redeliver, re-enabling an endpoint). A rolled-back transaction
    /// wakes nobody.
    fn wake_deliveries(&mut self);
}

/// The email outbox (D22, T58, T93). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL an
/// email is claimed by one conditional update ([`EmailRepo::claim_email`]): of concurrent
/// claimers exactly one wins.
pub trait EmailRepo: Send {
    /// Inserts an email.
    fn insert_email<'a>(&'a mut self, e: &'a EmailRecord) -> BoxFuture<'a, StoreResult<()>>;
    /// Unsent emails due at `now`, oldest first.
    fn list_due_emails(&mut self, now: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>>;
    /// Claims an unsent email due at `now` for one sender: moves `next_attempt_at` to
    /// `lease_until`; true for the one caller that claimed it (concurrent deliverers skip it, so
    /// each email is sent once; a crashed sender's email is retried after the lease).
    fn claim_email(
        &mut self,
        id: EmailId,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>>;
    /// Records a send attempt: `Ok` sets `sent_at`; `Err` records the error and the next attempt.
    fn record_email_attempt<'a>(
        &'a mut self,
        id: EmailId,
        result: Result<OffsetDateTime, (&'a str, OffsetDateTime)>,
    ) -> BoxFuture<'a, StoreResult<()>>;
    /// Emails, newest first, optionally to one address (admin API).
    fn list_emails<'a>(&'a mut self, to: Option<&'a Email>, limit: u32)
        -> BoxFuture<'a, StoreResult<Vec<EmailRecord>>>;
}

/// Idempotency records (D38). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL the
/// record of a key is locked while a request holds it (D38): concurrent requests with one key
/// see exactly one `Proceed`.
pub trait IdempotencyRepo: Send {
    /// Reads a record.
    fn find_idempotency<'a>(
        &'a mut self,
        org: OrgId,
        path: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>>;
    /// Inserts a record unless (org, path, key) exists (race-safe); returns whether it inserted.
    fn idem_insert<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<bool>>;
    /// Overwrites a record's state.
    fn idem_update<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes a record.
    fn idem_delete<'a>(&'a mut self, org: OrgId, path: &'a str, key: &'a str) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes the oldest records created before `before`, about `limit` of them (records created
    /// at the same instant as the `limit`-th go together); returns how many (D46).
    fn idem_purge(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
}

/// Export and erasure of a human's data (D44, D45) and retention (D46). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL erasure
/// and export read and write by human across organizations in one transaction; retention deletes
/// in batches of a given size, each its own transaction.
pub trait PrivacyRepo: Send {
    /// Stored JSON texts that may carry a person's data and contain one of `needles` (plain
    /// substrings, matched case-insensitively or not as the backend's `LIKE` does; the caller
    /// checks): outbox events' `data`, deliveries' payloads and stored idempotent responses, of
    /// `org` or of every organization.
    fn list_texts_mentioning<'a>(
        &'a mut self,
        org: Option<OrgId>,
        needles: &'a [String],
    ) -> BoxFuture<'a, StoreResult<Vec<StoredText>>>;
    /// Overwrites one stored text found by [`PrivacyRepo::list_texts_mentioning`].
    fn rewrite_text<'a>(&'a mut self, t: &'a StoredText) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes the stored emails of an invitation; returns how many.
    fn delete_emails_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<u64>>;
    /// Outbox events (any organization) whose `data` contains `needle` (as
    /// [`PrivacyRepo::list_texts_mentioning`] matches), oldest first (D45 export).
    fn list_events_mentioning<'a>(&'a mut self, needle: &'a str) -> BoxFuture<'a, StoreResult<Vec<OutboxEvent>>>;
    /// Deletes up to `limit` stored emails created before `before`, oldest first; returns how
    /// many (D46).
    fn purge_emails(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
    /// Deletes up to `limit` one-time codes created before `before`; returns how many (D46).
    fn purge_consent_codes(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
    /// The emails queued to `to` (any organization) at or after `since`, newest first, at most
    /// `limit`: what the email limits of T93 count.
    fn list_emails_to_since<'a>(
        &'a mut self,
        to: &'a Email,
        since: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailStamp>>>;
    /// Deletes every stored email to `to`; returns how many (D45).
    fn delete_emails_to<'a>(&'a mut self, to: &'a Email) -> BoxFuture<'a, StoreResult<u64>>;
    /// Deletes a human's assessments with their responses and counts; returns how many (D45).
    fn delete_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<u64>>;
    /// Deletes a human that no membership and no assessment refers to any more (D45).
    fn delete_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<()>>;
}

/// Server settings and secrets at rest (T84), and the transaction's durability. Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL a
/// setting is inserted once with `ON CONFLICT DO NOTHING` and read back, so every instance reads
/// the same value.
pub trait SettingsRepo: Send {
    /// Lets this transaction's commit return before it is durable (PostgreSQL: `SET LOCAL
    /// synchronous_commit = off`; SQLite in WAL with `synchronous=NORMAL` already is). For the
    /// delivery engine's claims and outcomes only (T60): a crash may lose the last few of them,
    /// which at-least-once delivery absorbs (a lost claim is claimed again; a lost outcome means
    /// the delivery is sent again after its lease). Never for a use case whose answer a client
    /// receives.
    fn relax_durability(&mut self) -> BoxFuture<'_, StoreResult<()>>;

    /// Seals again, with the store's current [`SecretBox`] key, every stored secret that needs it
    /// ([`SecretBox::needs_reseal`]): webhook signing secrets and settings. Run at start-up, so a
    /// database from before sealing, or from before a key rotation, is sealed under the current
    /// key. Returns how many values were rewritten. Errors: a value no configured key opens.
    fn reseal_secrets(&mut self) -> BoxFuture<'_, StoreResult<u64>>;

    /// The value of a setting, inserting `value` first when absent (race-safe); returns the stored
    /// value. Values are secrets: the store seals them ([`SecretBox`]).
    fn setting_get_or_insert<'a>(&'a mut self, name: &'a str, value: &'a str) -> BoxFuture<'a, StoreResult<String>>;
}

/// The dashboard's sign-in links and sessions (issue 18, T122). Part of [`Tx`].
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure.
///
/// # Locking
/// [`SessionRepo::use_sign_in_link`] is a conditional update: of concurrent uses of one link,
/// exactly one returns true.
pub trait SessionRepo: Send {
    /// Stores a sign-in link.
    fn insert_sign_in_link<'a>(&'a mut self, l: &'a crate::dashboard::SignInLink) -> BoxFuture<'a, StoreResult<()>>;
    /// The link whose token has SHA-256 `token_hash`, used or not.
    fn find_sign_in_link<'a>(
        &'a mut self,
        token_hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<crate::dashboard::SignInLink>>>;
    /// Marks link `id` used at `at` unless it is used already; true when this call used it.
    fn use_sign_in_link(&mut self, id: uuid::Uuid, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>>;
    /// How many links were asked for `email` at or after `since`.
    fn count_sign_in_links_since<'a>(
        &'a mut self,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<u64>>;
    /// The users with login `email`, of every organization, oldest first.
    fn list_users_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Vec<User>>>;
    /// Stores a session.
    fn insert_session<'a>(&'a mut self, s: &'a crate::dashboard::Session) -> BoxFuture<'a, StoreResult<()>>;
    /// The session whose token has SHA-256 `token_hash`, expired or not.
    fn find_session<'a>(
        &'a mut self,
        token_hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<crate::dashboard::Session>>>;
    /// Ends session `id` (nothing when it is gone).
    fn delete_session(&mut self, id: uuid::Uuid) -> BoxFuture<'_, StoreResult<()>>;
    /// Deletes up to `limit` sessions and up to `limit` sign-in links that expired before
    /// `before`; returns how many rows went.
    fn purge_sign_ins(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
}

/// The store's operations inside one transaction. Every method runs on the transaction's
/// connection; nothing is visible to others before commit. Errors: [`StoreError::Internal`] for
/// infrastructure failures; [`StoreError::UniqueViolation`] only where a method says so.
///
/// It is the sum of the aggregate ports ([`OrgRepo`], [`PersonRepo`], [`InvitationRepo`], [`AssessmentRepo`], [`OutboxRepo`], [`WebhookRepo`], [`EmailRepo`], [`IdempotencyRepo`], [`PrivacyRepo`], [`SettingsRepo`], [`SessionRepo`]); a backend implements each of them
/// and gets `Tx` from the blanket implementation.
pub trait Tx:
    OrgRepo
    + PersonRepo
    + InvitationRepo
    + AssessmentRepo
    + OutboxRepo
    + WebhookRepo
    + EmailRepo
    + IdempotencyRepo
    + PrivacyRepo
    + SettingsRepo
    + SessionRepo
{
}

impl<
        T: OrgRepo
            + PersonRepo
            + InvitationRepo
            + AssessmentRepo
            + OutboxRepo
            + WebhookRepo
            + EmailRepo
            + IdempotencyRepo
            + PrivacyRepo
            + SettingsRepo
            + SessionRepo
            + ?Sized,
    > Tx for T
{
}
