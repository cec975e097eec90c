//! [`OrgRepo`]: organizations, their users and API keys (spec, Organization, Authentication; D5, D39, D41).

use crate::api_key::{ApiKey, KeyContext};
use crate::ids::{ApiKeyId, OrgId, UserId};
use crate::organization::{Organization, User};
use crate::ports::{BoxFuture, StoreResult};
use crate::values::OrgRole;
use time::OffsetDateTime;

/// Organizations, their users and API keys (spec, Organization, Authentication; D5, D39, D41). Part of [`Tx`](super::Tx).
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
    /// API's list, issue 16); test twins are not listed (D60).
    fn list_orgs(&mut self, before: Option<OrgId>, limit: u32) -> BoxFuture<'_, StoreResult<Vec<Organization>>>;
    /// The test twin of the live organization `live` (D60), if it has one.
    fn find_test_twin(&mut self, live: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>>;
    /// Ages the data of the test twin `twin` by `seconds` (D60: its clock moves forward): every
    /// time that a rule of the service compares with the present moves `seconds` into the past,
    /// so what would fall due in `seconds` falls due now. Those times are the invitations' (sent,
    /// reminded, expires, accepted, revoked, created, updated), their one-time codes', the
    /// emails', the outbox events', the webhook deliveries' (created, next and last attempt) and
    /// their attempts', the endpoints' secret grace period, breaker and failure streak, and the
    /// answered idempotency records' (one in flight, such as the advancing request's own, keeps
    /// its time: it is neither taken over nor purged while its request runs). Persons and assessments keep theirs: no rule ages them, and D11's
    /// visibility compares them with each other. Wakes the delivery engines after commit (a
    /// retry may be due now).
    ///
    /// # Locking
    /// On PostgreSQL the outbox events first, then the deliveries (the order of erasure); a
    /// delivery a worker has claimed is skipped (`SKIP LOCKED`), never waited for.
    fn age_test_data(&mut self, twin: OrgId, seconds: i64) -> BoxFuture<'_, StoreResult<()>>;
    /// The oldest organization whose company name is `name` (used by `talent demo`); never a
    /// test twin (D60).
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
