//! [`PersonRepo`]: persons (memberships), the humans behind them, tags and teams (D9-D16).

use crate::ids::{HumanId, OrgId, PersonId, TagId, TeamId};
use crate::organization::Organization;
use crate::person::{Person, Team};
use crate::ports::{BoxFuture, PersonQuery, StoreResult};
use crate::values::{Email, Tag, TagName};
use time::OffsetDateTime;

/// What [`PersonRepo::lock_import_target`] read: the organization (locked), its member with the
/// imported email if there is one (locked), and its active persons.
#[derive(Clone, Debug)]
pub struct ImportTarget {
    /// The organization, locked until the transaction ends.
    pub org: Organization,
    /// Its member with the imported email (any status), locked until the transaction ends.
    pub person: Option<Person>,
    /// Its active persons, as [`OrgRepo::count_active_persons`](super::OrgRepo::count_active_persons).
    pub active: u32,
}

/// Persons (memberships), the humans behind them, tags and teams (D9-D16). Part of [`Tx`](super::Tx).
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
    /// The human with this key ([`crate::organization::human_key`]: the email, or for a test
    /// twin's persons the email within the twin, D60), created with `new_id` when absent
    /// (race-safe). Returns `new_id` exactly when this call created the human (the caller then
    /// knows it has taken no assessment, T203).
    fn ensure_human<'a>(
        &'a mut self,
        new_id: HumanId,
        key: &'a str,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<HumanId>>;
    /// The human with this key ([`crate::organization::human_key`]), if any (read only).
    fn find_human<'a>(&'a mut self, key: &'a str) -> BoxFuture<'a, StoreResult<Option<HumanId>>>;
    /// Every human of the address `email` (D45, D60): the one whose key is the address, and
    /// the test twins' ones, whose keys begin with [`crate::organization::test_human_prefix`]
    /// (read only; any order).
    fn find_humans_of_address<'a>(&'a mut self, email: &'a str) -> BoxFuture<'a, StoreResult<Vec<HumanId>>>;
    /// The person of the organization with this email (any status). Errors: `Internal`.
    /// # Locking: in a write transaction the person's row, when there is one, until commit.
    /// Nothing is locked when there is none: two imports of one new email both find none, and
    /// the second's [`PersonRepo::insert_person`] then fails with `UniqueViolation` (T70).
    fn find_person_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
    ) -> BoxFuture<'a, StoreResult<Option<Person>>>;
    /// What an import reads before it writes, in one call (T266): the organization, locked as
    /// [`OrgRepo::lock_org_shared`](super::OrgRepo::lock_org_shared) does, or as
    /// [`OrgRepo::lock_org`](super::OrgRepo::lock_org) when `exclusive`; its member with
    /// `email`, read and locked as [`PersonRepo::find_person_by_email`]; and its active persons
    /// as [`OrgRepo::count_active_persons`](super::OrgRepo::count_active_persons) counts them,
    /// read after the organization's lock is granted. `None` when the organization does not
    /// exist. A backend may send the reads together (PostgreSQL pipelines them in one round
    /// trip, with the organization's webhook endpoints that an event of the import fans out to).
    /// Errors: as the three methods'.
    fn lock_import_target<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        exclusive: bool,
    ) -> BoxFuture<'a, StoreResult<Option<ImportTarget>>>;
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
