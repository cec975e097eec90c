//! The [`Tx`] port implemented once, expanded per backend by `impl_tx!` (the same query code runs
//! on PostgreSQL and SQLite; anything that exists on one backend only fails to compile here).
//! Backend-specific pieces (row locks) are inherent methods of each connection's `DbTx`.

use crate::rows::*;
use crate::schema::*;
use crate::types::{DbTime, DbUuid};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::RunQueryDsl;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use talent_domain::errors::StoreError;
use talent_domain::ids::*;
use talent_domain::invitation::{Invitation, InvitationStatus};
use talent_domain::model::*;
use talent_domain::ports::*;
use talent_domain::values::*;
use talent_domain::webhook::{AttemptOutcome, Delivery, DeliveryStatus, Endpoint};
use time::OffsetDateTime;

/// Maps diesel's errors onto the port's: unique violations become `UniqueViolation`; a lost
/// connection or a server that is going away, starting up or (SQLite) locked beyond the busy
/// timeout becomes `Unavailable` (answered 503, T87); anything else `Internal`.
pub fn db_err(e: DieselError) -> StoreError {
    match e {
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => StoreError::UniqueViolation,
        DieselError::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
            StoreError::Unavailable(info.message().to_string())
        }
        DieselError::DatabaseError(_, info) if is_outage(info.message()) => {
            StoreError::Unavailable(info.message().to_string())
        }
        DieselError::BrokenTransactionManager => StoreError::Unavailable(e.to_string()),
        other => StoreError::Internal(other.to_string()),
    }
}

/// Whether a database error message says the server cannot serve now rather than that the
/// statement is wrong (T87): PostgreSQL's SQLSTATE class 57P (admin shutdown, crash shutdown,
/// cannot connect now) and 08 (connection exceptions), whose SQLSTATE diesel does not expose, and
/// SQLite's `SQLITE_BUSY` after the busy timeout.
pub fn is_outage(message: &str) -> bool {
    const SIGNS: [&str; 10] = [
        "terminating connection",
        "the database system is shutting down",
        "the database system is starting up",
        "the database system is in recovery mode",
        "server closed the connection",
        "connection refused",
        "connection reset",
        "broken pipe",
        "could not connect to server",
        "database is locked",
    ];
    let m = message.to_ascii_lowercase();
    SIGNS.iter().any(|s| m.contains(s))
}

/// A transaction on one connection of backend `C`.
pub struct DbTx<'c, C> {
    /// The connection, inside a transaction.
    pub conn: &'c mut C,
    /// A read-write transaction ([`Store::write`]): on PostgreSQL, reads of rows that a use case
    /// may then update (persons, idempotency records) lock them (`FOR UPDATE`), so concurrent
    /// read-modify-write use cases of one row are serialized as they are on SQLite.
    pub write: bool,
    /// Set by [`Tx::wake_deliveries`] (and fan-out): wake the delivery engines after commit.
    pub wake: bool,
    /// Set by writes that change what authentication reads (an organization, a key's revocation):
    /// the authentication caches are emptied after commit (T63).
    pub auth_changed: bool,
    /// PostgreSQL's `max_connections` once read (0: not yet), shared by the store's transactions:
    /// it changes only with a server restart, so it is read once, not per import (T65, T66).
    pub max_writers: Arc<AtomicU32>,
    /// Seals webhook signing secrets and server secrets on write, opens them on read (issue 12).
    pub sealer: Arc<dyn SecretBox>,
}

impl<'c, C> DbTx<'c, C> {
    /// A transaction handle on `conn`; `write` as [`DbTx::write`]; secrets stored as they are
    /// until [`DbTx::sealed`].
    pub fn new(conn: &'c mut C, write: bool) -> Self {
        DbTx { conn, write, wake: false, auth_changed: false, max_writers: Arc::default(), sealer: Arc::new(PlainBox) }
    }

    /// This handle with `sealer` ([`DbTx::sealer`]).
    pub fn sealed(mut self, sealer: Arc<dyn SecretBox>) -> Self {
        self.sealer = sealer;
        self
    }

    fn open_endpoint(&self, r: EndpointRow) -> StoreResult<Endpoint> {
        let mut e = Endpoint::try_from(r)?;
        e.secret = self.sealer.open(&e.secret).map_err(|m| StoreError::Internal(format!("webhook secret: {m}")))?;
        e.previous_secret = e
            .previous_secret
            .map(|p| self.sealer.open(&p).map_err(|m| StoreError::Internal(format!("webhook secret: {m}"))))
            .transpose()?;
        Ok(e)
    }

    /// The row of an idempotency record; a response that carries a signing secret is sealed.
    fn idem_row(&self, r: &IdempotencyRecord) -> IdemRow {
        let mut row = IdemRow::from(r);
        if talent_domain::usecases::idempotency::response_carries_secret(&r.path) {
            row.response_body = row.response_body.map(|b| self.sealer.seal(&b));
        }
        row
    }

    fn open_idem(&self, row: IdemRow) -> StoreResult<IdempotencyRecord> {
        let mut r = IdempotencyRecord::try_from(row)?;
        if let IdempotencyState::Done { body, .. } = &mut r.state {
            if is_sealed(body) {
                *body = self.sealer.open(body).map_err(|m| StoreError::Internal(format!("stored response: {m}")))?;
            }
        }
        Ok(r)
    }

    fn seal_endpoint(&self, e: &Endpoint) -> EndpointRow {
        let mut r = EndpointRow::from(e);
        r.secret = self.sealer.seal(&e.secret);
        r.previous_secret = e.previous_secret.as_deref().map(|p| self.sealer.seal(p));
        r
    }

    /// As [`DbTx::new`], sharing `max_writers` ([`DbTx::max_writers`]) with the store.
    pub fn with_writers(conn: &'c mut C, write: bool, max_writers: Arc<AtomicU32>) -> Self {
        DbTx { max_writers, ..DbTx::new(conn, write) }
    }
}

/// A person lookup whose row a use case may update next.
enum PersonKey {
    Human(HumanId),
    Id(OrgId, PersonId),
    AnyOrg(PersonId),
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
fn like_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

macro_rules! impl_tx {
    ($conn:ty) => {
        impl<'c> OrgRepo for DbTx<'c, $conn> {
            fn insert_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(organizations::table)
                        .values(OrgRow::from(org))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(organizations::table.find(DbUuid(org.id.0)))
                        .set(OrgRow::from(org))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    self.auth_changed = true;
                    Ok(())
                })
            }

            fn get_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move {
                    organizations::table
                        .find(DbUuid(id.0))
                        .select(OrgRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Organization::try_from)
                        .transpose()
                })
            }

            fn lock_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move { self.lock_org_row(id).await?.map(Organization::try_from).transpose() })
            }

            fn lock_org_shared(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move { self.share_org_row(id).await?.map(Organization::try_from).transpose() })
            }

            fn concurrent_writers(&mut self) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move { self.writers_impl().await })
            }

            fn find_org_by_name<'a>(&'a mut self, name: &'a str) -> BoxFuture<'a, StoreResult<Option<Organization>>> {
                Box::pin(async move {
                    organizations::table
                        .filter(organizations::company_name.eq(name))
                        .order(organizations::created_at.asc())
                        .select(OrgRow::as_select())
                        .first(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Organization::try_from)
                        .transpose()
                })
            }

            fn count_active_persons(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move {
                    // The triggers' per-organization counter rows (T69), not COUNT(*) of persons.
                    let n: i64 = org_active_persons::table
                        .filter(org_active_persons::org_id.eq(DbUuid(org.0)))
                        .select(diesel::dsl::sql::<diesel::sql_types::BigInt>("CAST(COALESCE(SUM(n), 0) AS BIGINT)"))
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(u32::try_from(n).unwrap_or(u32::MAX))
                })
            }

            fn insert_user<'a>(&'a mut self, user: &'a User) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(users::table)
                        .values(UserRow::from(user))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<Option<User>>> {
                Box::pin(async move {
                    users::table
                        .find(DbUuid(id.0))
                        .select(UserRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(User::try_from)
                        .transpose()
                })
            }

            fn users_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<User>>> {
                Box::pin(async move {
                    users::table
                        .filter(users::org_id.eq(DbUuid(org.0)))
                        .order((users::created_at.asc(), users::id.asc()))
                        .select(UserRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(User::try_from)
                        .collect()
                })
            }

            fn insert_api_key<'a>(&'a mut self, key: &'a ApiKey) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(api_keys::table)
                        .values(KeyRow::from(key))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_api_key(&mut self, id: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<ApiKey>>> {
                Box::pin(async move {
                    api_keys::table
                        .find(DbUuid(id.0))
                        .select(KeyRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(ApiKey::try_from)
                        .transpose()
                })
            }

            fn api_keys_of_user(&mut self, user: UserId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
                Box::pin(async move {
                    api_keys::table
                        .filter(api_keys::user_id.eq(DbUuid(user.0)))
                        .order((api_keys::created_at.asc(), api_keys::id.asc()))
                        .select(KeyRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(ApiKey::try_from)
                        .collect()
                })
            }

            fn revoke_api_key(&mut self, id: ApiKeyId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(api_keys::table.find(DbUuid(id.0)))
                        .set(api_keys::revoked_at.eq(Some(DbTime(at))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    self.auth_changed = true;
                    Ok(())
                })
            }

            fn key_context<'a>(&'a mut self, prefix: &'a str) -> BoxFuture<'a, StoreResult<Option<KeyContext>>> {
                Box::pin(async move {
                    let row: Option<(KeyRow, String, OrgRow)> = api_keys::table
                        .inner_join(users::table)
                        .inner_join(organizations::table)
                        .filter(api_keys::prefix.eq(prefix))
                        .select((KeyRow::as_select(), users::role, OrgRow::as_select()))
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    let Some((k, role, o)) = row else { return Ok(None) };
                    Ok(Some(KeyContext {
                        key: ApiKey::try_from(k)?,
                        role: OrgRole::parse(&role).map_err(|_| StoreError::Internal("corrupt users.role".into()))?,
                        org: Organization::try_from(o)?,
                    }))
                })
            }
        }

        impl<'c> PersonRepo for DbTx<'c, $conn> {
            fn ensure_human<'a>(
                &'a mut self,
                new_id: HumanId,
                email: &'a Email,
                now: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<HumanId>> {
                Box::pin(async move {
                    let inserted = diesel::insert_into(humans::table)
                        .values((
                            humans::id.eq(DbUuid(new_id.0)),
                            humans::email.eq(email.as_str()),
                            humans::created_at.eq(DbTime(now)),
                        ))
                        .on_conflict(humans::email)
                        .do_nothing()
                        .returning(humans::id)
                        .get_result::<DbUuid>(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    // A new human: one statement; an existing one: its id read next.
                    if let Some(id) = inserted {
                        return Ok(HumanId(id.0));
                    }
                    let id: DbUuid = humans::table
                        .filter(humans::email.eq(email.as_str()))
                        .select(humans::id)
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(HumanId(id.0))
                })
            }

            fn human_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Option<HumanId>>> {
                Box::pin(async move {
                    let id: Option<DbUuid> = humans::table
                        .filter(humans::email.eq(email.as_str()))
                        .select(humans::id)
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    Ok(id.map(|u| HumanId(u.0)))
                })
            }

            fn person_by_email<'a>(
                &'a mut self,
                org: OrgId,
                email: &'a Email,
            ) -> BoxFuture<'a, StoreResult<Option<Person>>> {
                Box::pin(async move { self.person_by_email_impl(org, email).await?.map(Person::try_from).transpose() })
            }

            fn person_by_id(&mut self, org: OrgId, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
                Box::pin(async move {
                    self.lock_person_row(PersonKey::Id(org, id)).await?;
                    persons::table
                        .find(DbUuid(id.0))
                        .filter(persons::org_id.eq(DbUuid(org.0)))
                        .select(PersonRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Person::try_from)
                        .transpose()
                })
            }

            fn person_by_id_any(&mut self, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
                Box::pin(async move {
                    self.lock_person_row(PersonKey::AnyOrg(id)).await?;
                    persons::table
                        .find(DbUuid(id.0))
                        .select(PersonRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Person::try_from)
                        .transpose()
                })
            }

            fn insert_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(persons::table)
                        .values(PersonRow::from(p))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    self.write_person_tags(p).await
                })
            }

            fn update_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(persons::table.find(DbUuid(p.id.0)))
                        .set(PersonRow::from(p))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(person_tags::table.filter(person_tags::person_id.eq(DbUuid(p.id.0))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    self.write_person_tags(p).await
                })
            }

            fn resolve_tags<'a>(
                &'a mut self,
                org: OrgId,
                names: &'a [(TagName, TagId)],
                now: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<Vec<Tag>>> {
                Box::pin(async move {
                    // Insert in one global order (by key; stable, so the first spelling of a call
                    // still wins): concurrent transactions inserting the same new tags in
                    // different orders would otherwise deadlock on PostgreSQL.
                    let mut by_key: Vec<&(TagName, TagId)> = names.iter().collect();
                    by_key.sort_by_key(|(name, _)| name.key());
                    for (name, id) in by_key {
                        diesel::insert_into(tags::table)
                            .values((
                                tags::id.eq(DbUuid(id.0)),
                                tags::org_id.eq(DbUuid(org.0)),
                                tags::name.eq(name.as_str()),
                                tags::name_key.eq(name.key()),
                                tags::created_at.eq(DbTime(now)),
                            ))
                            .on_conflict((tags::org_id, tags::name_key))
                            .do_nothing()
                            .execute(self.conn)
                            .await
                            .map_err(db_err)?;
                    }
                    let mut out = Vec::with_capacity(names.len());
                    for (name, _) in names {
                        let (tid, tname): (DbUuid, String) = tags::table
                            .filter(tags::org_id.eq(DbUuid(org.0)))
                            .filter(tags::name_key.eq(name.key()))
                            .select((tags::id, tags::name))
                            .get_result(self.conn)
                            .await
                            .map_err(db_err)?;
                        out.push(Tag { id: TagId(tid.0), name: tname });
                    }
                    Ok(out)
                })
            }

            fn list_persons<'a>(&'a mut self, q: &'a PersonQuery) -> BoxFuture<'a, StoreResult<Vec<Person>>> {
                Box::pin(async move {
                    let Some(tag_ids) = self.tag_filter(q).await? else { return Ok(vec![]) };
                    Self::persons_query(q, tag_ids)
                        .select(PersonRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Person::try_from)
                        .collect()
                })
            }

            fn insert_team<'a>(&'a mut self, team: &'a Team) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(teams::table)
                        .values(TeamRow {
                            id: DbUuid(team.id.0),
                            org_id: DbUuid(team.org_id.0),
                            name: team.name.clone(),
                            created_at: DbTime(team.created_at),
                        })
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_team(&mut self, id: TeamId) -> BoxFuture<'_, StoreResult<Option<Team>>> {
                Box::pin(async move {
                    Ok(teams::table
                        .find(DbUuid(id.0))
                        .select(TeamRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(|r| Team {
                            id: TeamId(r.id.0),
                            org_id: OrgId(r.org_id.0),
                            name: r.name,
                            created_at: r.created_at.0,
                        }))
                })
            }

            fn add_team_member(
                &mut self,
                team: TeamId,
                person: PersonId,
                at: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(team_members::table)
                        .values((
                            team_members::team_id.eq(DbUuid(team.0)),
                            team_members::person_id.eq(DbUuid(person.0)),
                            team_members::created_at.eq(DbTime(at)),
                        ))
                        .on_conflict_do_nothing()
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn team_members(&mut self, team: TeamId) -> BoxFuture<'_, StoreResult<Vec<PersonId>>> {
                Box::pin(async move {
                    let v: Vec<DbUuid> = team_members::table
                        .filter(team_members::team_id.eq(DbUuid(team.0)))
                        .order((team_members::created_at.asc(), team_members::person_id.asc()))
                        .select(team_members::person_id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(v.into_iter().map(|u| PersonId(u.0)).collect())
                })
            }

            fn remove_person_from_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let n = diesel::delete(team_members::table.filter(team_members::person_id.eq(DbUuid(person.0))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(n as u64)
                })
            }
        }

        impl<'c> InvitationRepo for DbTx<'c, $conn> {
            fn insert_invitation<'a>(&'a mut self, i: &'a Invitation) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(invitations::table)
                        .values(InvitationRow::from(i))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_invitation<'a>(&'a mut self, i: &'a Invitation) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(invitations::table.find(DbUuid(i.id.0)))
                        .set(InvitationRow::from(i))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_invitation(
                &mut self,
                org: OrgId,
                id: InvitationId,
            ) -> BoxFuture<'_, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    self.lock_invitation_row(id).await?;
                    invitations::table
                        .find(DbUuid(id.0))
                        .filter(invitations::org_id.eq(DbUuid(org.0)))
                        .select(InvitationRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Invitation::try_from)
                        .transpose()
                })
            }

            fn get_invitation_any(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    self.lock_invitation_row(id).await?;
                    invitations::table
                        .find(DbUuid(id.0))
                        .select(InvitationRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Invitation::try_from)
                        .transpose()
                })
            }

            fn invitation_by_token_hash<'a>(
                &'a mut self,
                hash: &'a [u8],
            ) -> BoxFuture<'a, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    let found: Option<DbUuid> = invitations::table
                        .filter(invitations::token_hash.eq(hash.to_vec()))
                        .select(invitations::id)
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    match found {
                        Some(id) => self.get_invitation_any(InvitationId(id.0)).await,
                        None => Ok(None),
                    }
                })
            }

            fn pending_invitation_by_email<'a>(
                &'a mut self,
                org: OrgId,
                email: &'a Email,
                now: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    invitations::table
                        .filter(invitations::org_id.eq(DbUuid(org.0)))
                        .filter(invitations::email.eq(email.as_str()))
                        .filter(invitations::status.eq("pending"))
                        .filter(invitations::expires_at.gt(DbTime(now)))
                        .order(invitations::id.desc())
                        .select(InvitationRow::as_select())
                        .first(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Invitation::try_from)
                        .transpose()
                })
            }

            fn list_invitations<'a>(
                &'a mut self,
                q: &'a InvitationQuery,
            ) -> BoxFuture<'a, StoreResult<Vec<Invitation>>> {
                Box::pin(async move {
                    let mut query = invitations::table.into_boxed();
                    if let Some(org) = q.org_id {
                        query = query.filter(invitations::org_id.eq(DbUuid(org.0)));
                    }
                    let now = DbTime(q.now.unwrap_or(OffsetDateTime::UNIX_EPOCH));
                    match q.status {
                        None => {}
                        Some(InvitationStatus::Pending) => {
                            query =
                                query.filter(invitations::status.eq("pending")).filter(invitations::expires_at.gt(now))
                        }
                        Some(InvitationStatus::Expired) => {
                            query = query.filter(
                                invitations::status
                                    .eq("expired")
                                    .or(invitations::status.eq("pending").and(invitations::expires_at.le(now))),
                            )
                        }
                        Some(st) => query = query.filter(invitations::status.eq(st.as_str())),
                    }
                    if let Some(v) = q.variant {
                        query = query.filter(invitations::variant.eq(v.as_str()));
                    }
                    if let Some(e) = &q.email {
                        query = query.filter(invitations::email.eq(e.as_str().to_string()));
                    }
                    if let Some(x) = &q.external_id {
                        query = query.filter(invitations::external_id.eq(x.clone()));
                    }
                    if let Some(p) = q.person_id {
                        query = query.filter(invitations::person_id.eq(DbUuid(p.0)));
                    }
                    if let Some(u) = q.updated_after {
                        query = query.filter(invitations::updated_at.gt(DbTime(u)));
                    }
                    if let Some(b) = q.before_id {
                        query = query.filter(invitations::id.lt(DbUuid(b.0)));
                    }
                    query
                        .order(invitations::id.desc())
                        .limit(i64::from(q.limit))
                        .select(InvitationRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Invitation::try_from)
                        .collect()
                })
            }

            fn due_invitations(
                &mut self,
                now: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
                Box::pin(async move {
                    let v: Vec<DbUuid> = invitations::table
                        .filter(invitations::status.eq("pending"))
                        .filter(invitations::expires_at.le(DbTime(now)))
                        .order(invitations::expires_at.asc())
                        .limit(i64::from(limit))
                        .select(invitations::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(v.into_iter().map(|u| InvitationId(u.0)).collect())
                })
            }

            fn reminders_due(
                &mut self,
                sent_before: OffsetDateTime,
                now: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
                Box::pin(async move {
                    let v: Vec<DbUuid> = invitations::table
                        .filter(invitations::status.eq("pending"))
                        .filter(invitations::expires_at.gt(DbTime(now)))
                        .filter(invitations::reminder_sent_at.is_null())
                        .filter(invitations::email_sent_at.le(DbTime(sent_before)))
                        .limit(i64::from(limit))
                        .select(invitations::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(v.into_iter().map(|u| InvitationId(u.0)).collect())
                })
            }

            fn expire_invitation_if_pending(
                &mut self,
                id: InvitationId,
                now: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    let n = diesel::update(
                        invitations::table
                            .find(DbUuid(id.0))
                            .filter(invitations::status.eq("pending"))
                            .filter(invitations::expires_at.le(DbTime(now))),
                    )
                    .set((invitations::status.eq("expired"), invitations::updated_at.eq(DbTime(now))))
                    .execute(self.conn)
                    .await
                    .map_err(db_err)?;
                    Ok(n == 1)
                })
            }

            fn mark_reminder_if_unset(
                &mut self,
                id: InvitationId,
                now: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    let n = diesel::update(
                        invitations::table.find(DbUuid(id.0)).filter(invitations::reminder_sent_at.is_null()),
                    )
                    .set(invitations::reminder_sent_at.eq(Some(DbTime(now))))
                    .execute(self.conn)
                    .await
                    .map_err(db_err)?;
                    Ok(n == 1)
                })
            }

            fn insert_consent_code<'a>(
                &'a mut self,
                c: &'a talent_domain::consent::ConsentCode,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(consent_codes::table)
                        .values(ConsentCodeRow::from(c))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_consent_code<'a>(
                &'a mut self,
                c: &'a talent_domain::consent::ConsentCode,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(consent_codes::table.find(DbUuid(c.id.0)))
                        .set((
                            consent_codes::tries.eq(i64::from(c.tries)),
                            consent_codes::used_at.eq(c.used_at.map(DbTime)),
                        ))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn consent_codes_since(
                &mut self,
                invitation: InvitationId,
                since: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<Vec<talent_domain::consent::ConsentCode>>> {
                Box::pin(async move {
                    consent_codes::table
                        .filter(consent_codes::invitation_id.eq(DbUuid(invitation.0)))
                        .filter(consent_codes::created_at.gt(DbTime(since)))
                        .select(ConsentCodeRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(talent_domain::consent::ConsentCode::try_from)
                        .collect()
                })
            }
        }

        impl<'c> AssessmentRepo for DbTx<'c, $conn> {
            fn insert_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(assessments::table)
                        .values(AssessmentRow::from(a))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(assessments::table.find(DbUuid(a.id.0)))
                        .set(AssessmentRow::from(a))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Assessment>>> {
                Box::pin(async move {
                    assessments::table
                        .filter(assessments::human_id.eq(DbUuid(human.0)))
                        .order((assessments::started_at.asc(), assessments::id.asc()))
                        .select(AssessmentRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Assessment::try_from)
                        .collect()
                })
            }

            fn assessments_of_humans<'a>(
                &'a mut self,
                humans: &'a [HumanId],
            ) -> BoxFuture<'a, StoreResult<Vec<Assessment>>> {
                Box::pin(async move {
                    let mut out = Vec::new();
                    for chunk in humans.chunks(500) {
                        let ids: Vec<DbUuid> = chunk.iter().map(|h| DbUuid(h.0)).collect();
                        let rows: Vec<AssessmentRow> = assessments::table
                            .filter(assessments::human_id.eq_any(ids))
                            .order((assessments::started_at.asc(), assessments::id.asc()))
                            .select(AssessmentRow::as_select())
                            .load(self.conn)
                            .await
                            .map_err(db_err)?;
                        for r in rows {
                            out.push(Assessment::try_from(r)?);
                        }
                    }
                    Ok(out)
                })
            }

            fn set_need_counts<'a>(
                &'a mut self,
                id: AssessmentId,
                counts: &'a talent_domain::assessment::NeedCounts,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(assessments::table.find(DbUuid(id.0)))
                        .set(assessments::need_counts.eq(Some(need_counts_json(counts)?)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn completed_counts_of_result_holders(
                &mut self,
                org: OrgId,
            ) -> BoxFuture<'_, StoreResult<Vec<CountedAssessment>>> {
                Box::pin(async move {
                    // The holders as a subquery: a semi-join in the database, no list of ids.
                    let holders = persons::table
                        .filter(persons::org_id.eq(DbUuid(org.0)))
                        .filter(persons::status.eq("active"))
                        .filter(persons::assessment_count.gt(0))
                        .select(persons::human_id);
                    let rows: Vec<(DbUuid, DbUuid, String, DbTime, Option<DbTime>, Option<String>)> =
                        assessments::table
                            .filter(assessments::human_id.eq_any(holders))
                            .filter(assessments::state.eq("completed"))
                            // No order: the caller sums counts per person, and sorting 5,000
                            // rows with their counts was a tenth of the request on SQLite.
                            .select((
                                assessments::id,
                                assessments::human_id,
                                assessments::state,
                                assessments::started_at,
                                assessments::completed_at,
                                assessments::need_counts,
                            ))
                            .load(self.conn)
                            .await
                            .map_err(db_err)?;
                    rows.into_iter()
                        .map(|(id, human, state, started, completed, counts)| {
                            let a = Assessment::try_from(AssessmentRow {
                                id,
                                human_id: human,
                                state,
                                started_at: started,
                                completed_at: completed,
                                responses: "[]".into(),
                            })?;
                            Ok((a, counts.as_deref().map(parse_need_counts).transpose()?))
                        })
                        .collect()
                })
            }

            fn persons_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
                Box::pin(async move {
                    self.lock_person_row(PersonKey::Human(human)).await?;
                    persons::table
                        .filter(persons::human_id.eq(DbUuid(human.0)))
                        .order(persons::id.asc())
                        .select(PersonRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Person::try_from)
                        .collect()
                })
            }

            fn persons_with_results(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
                Box::pin(async move {
                    persons::table
                        .filter(persons::org_id.eq(DbUuid(org.0)))
                        .filter(persons::status.eq("active"))
                        .filter(persons::assessment_count.gt(0))
                        .order(persons::id.desc())
                        .select(PersonRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Person::try_from)
                        .collect()
                })
            }

            fn result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ResultHolder>>> {
                Box::pin(async move {
                    let rows: Vec<(DbUuid, DbUuid, DbTime, bool, String, Option<String>)> = persons::table
                        .filter(persons::org_id.eq(DbUuid(org.0)))
                        .filter(persons::status.eq("active"))
                        .filter(persons::assessment_count.gt(0))
                        .order(persons::id.desc())
                        .select((
                            persons::id,
                            persons::human_id,
                            persons::member_since,
                            persons::shared_existing_profile,
                            persons::inactive_periods,
                            persons::need_totals,
                        ))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    rows.into_iter()
                        .map(|(id, human, since, shared, gaps, totals)| {
                            Ok(ResultHolder {
                                person_id: PersonId(id.0),
                                human_id: HumanId(human.0),
                                // Active holders only: nothing is archived (D42).
                                visibility: Visibility {
                                    member_since: since.0,
                                    archived_at: None,
                                    inactive_periods: decode_periods(&gaps)?,
                                    shared_existing_profile: shared,
                                },
                                totals: totals.as_deref().map(parse_need_counts).transpose()?,
                            })
                        })
                        .collect()
                })
            }

            fn insert_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(profiles::table)
                        .values(ProfileRow::from(p))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<Option<Profile>>> {
                Box::pin(async move {
                    profiles::table
                        .find(DbUuid(id.0))
                        .filter(profiles::org_id.eq(DbUuid(org.0)))
                        .select(ProfileRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Profile::try_from)
                        .transpose()
                })
            }

            fn list_profiles(
                &mut self,
                org: OrgId,
                before: Option<ProfileId>,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<Profile>>> {
                Box::pin(async move {
                    let mut q = profiles::table.filter(profiles::org_id.eq(DbUuid(org.0))).into_boxed();
                    if let Some(b) = before {
                        q = q.filter(profiles::id.lt(DbUuid(b.0)));
                    }
                    q.order(profiles::id.desc())
                        .limit(i64::from(limit.min(100_000)))
                        .select(ProfileRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Profile::try_from)
                        .collect()
                })
            }

            fn count_profiles(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move {
                    let n: i64 = profiles::table
                        .filter(profiles::org_id.eq(DbUuid(org.0)))
                        .count()
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(u32::try_from(n).unwrap_or(u32::MAX))
                })
            }
        }

        impl<'c> OutboxRepo for DbTx<'c, $conn> {
            fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(outbox_events::table)
                        .values(EventRow {
                            id: DbUuid(e.id.0),
                            org_id: DbUuid(e.org_id.0),
                            event_type: e.event_type.as_str().to_string(),
                            data: e.data.to_string(),
                            created_at: DbTime(e.created_at),
                        })
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>> {
                Box::pin(async move {
                    let rows: Vec<EventRow> = outbox_events::table
                        .filter(outbox_events::org_id.eq(DbUuid(org.0)))
                        .order((outbox_events::created_at.asc(), outbox_events::id.asc()))
                        .select(EventRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    rows.into_iter().map(OutboxEvent::try_from).collect()
                })
            }
        }

        impl<'c> WebhookRepo for DbTx<'c, $conn> {
            fn insert_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(webhook_endpoints::table)
                        .values(self.seal_endpoint(e))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(webhook_endpoints::table.find(DbUuid(e.id.0)))
                        .set(self.seal_endpoint(e))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<Option<Endpoint>>> {
                Box::pin(async move {
                    webhook_endpoints::table
                        .find(DbUuid(id.0))
                        .filter(webhook_endpoints::org_id.eq(DbUuid(org.0)))
                        .select(EndpointRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(|r| self.open_endpoint(r))
                        .transpose()
                })
            }

            fn endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Endpoint>>> {
                Box::pin(async move {
                    webhook_endpoints::table
                        .filter(webhook_endpoints::org_id.eq(DbUuid(org.0)))
                        .order((webhook_endpoints::created_at.asc(), webhook_endpoints::id.asc()))
                        .select(EndpointRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(|r| self.open_endpoint(r))
                        .collect()
                })
            }

            fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    let ids = deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(id.0))).select(deliveries::id);
                    diesel::delete(delivery_attempts::table.filter(delivery_attempts::delivery_id.eq_any(ids)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(id.0))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(
                        webhook_endpoints::table.find(DbUuid(id.0)).filter(webhook_endpoints::org_id.eq(DbUuid(org.0))),
                    )
                    .execute(self.conn)
                    .await
                    .map_err(db_err)?;
                    Ok(())
                })
            }

            fn insert_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(deliveries::table)
                        .values(DeliveryRow::from(d))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(deliveries::table.find(DbUuid(d.id.0)))
                        .set(DeliveryRow::from(d))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_deliveries<'a>(&'a mut self, ds: &'a [Delivery]) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move { self.update_deliveries_impl(ds).await })
            }

            fn insert_attempts<'a>(&'a mut self, attempts: &'a [AttemptRecord]) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    if attempts.is_empty() {
                        return Ok(());
                    }
                    let mut ids: Vec<DbUuid> = attempts.iter().map(|a| DbUuid(a.delivery.0)).collect();
                    ids.sort_by_key(|i| i.0);
                    ids.dedup();
                    // One read of the highest sequence number per delivery of the batch.
                    let seqs: Vec<(DbUuid, Option<i64>)> = delivery_attempts::table
                        .filter(delivery_attempts::delivery_id.eq_any(&ids))
                        .group_by(delivery_attempts::delivery_id)
                        .select((delivery_attempts::delivery_id, diesel::dsl::max(delivery_attempts::seq)))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let mut next: std::collections::HashMap<uuid::Uuid, i64> =
                        seqs.into_iter().map(|(d, m)| (d.0, m.unwrap_or(0))).collect();
                    let rows: Vec<AttemptRow> = attempts
                        .iter()
                        .map(|a| {
                            let seq = next.entry(a.delivery.0).or_insert(0);
                            *seq += 1;
                            AttemptRow {
                                delivery_id: DbUuid(a.delivery.0),
                                seq: *seq,
                                attempted_at: DbTime(a.at),
                                response_status: a.outcome.status.map(i32::from),
                                duration_ms: i64::try_from(a.outcome.duration_ms).unwrap_or(i64::MAX),
                                error: a.outcome.error.clone(),
                                response_body: a.outcome.response_body.clone(),
                            }
                        })
                        .collect();
                    self.insert_attempt_rows(rows).await?;
                    Ok(())
                })
            }

            fn endpoints_by_ids<'a>(&'a mut self, ids: &'a [WebhookId]) -> BoxFuture<'a, StoreResult<Vec<Endpoint>>> {
                Box::pin(async move {
                    let ids: Vec<DbUuid> = ids.iter().map(|i| DbUuid(i.0)).collect();
                    webhook_endpoints::table
                        .filter(webhook_endpoints::id.eq_any(ids))
                        .select(EndpointRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(|r| self.open_endpoint(r))
                        .collect()
                })
            }

            fn deliveries_by_ids<'a>(&'a mut self, ids: &'a [DeliveryId]) -> BoxFuture<'a, StoreResult<Vec<Delivery>>> {
                Box::pin(async move {
                    let ids: Vec<DbUuid> = ids.iter().map(|i| DbUuid(i.0)).collect();
                    self.lock_deliveries(&ids).await?;
                    deliveries::table
                        .filter(deliveries::id.eq_any(ids))
                        .select(DeliveryRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Delivery::try_from)
                        .collect()
                })
            }

            fn purge_webhook_history(
                &mut self,
                before: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<(u64, u64)>> {
                Box::pin(async move {
                    let old: Vec<DbUuid> = deliveries::table
                        .filter(deliveries::created_at.lt(DbTime(before)))
                        .filter(deliveries::claimed_until.is_null())
                        .order(deliveries::created_at.asc())
                        .limit(i64::from(limit))
                        .select(deliveries::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(delivery_attempts::table.filter(delivery_attempts::delivery_id.eq_any(&old)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    let d = diesel::delete(deliveries::table.filter(deliveries::id.eq_any(&old)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    let events: Vec<DbUuid> = outbox_events::table
                        .filter(outbox_events::created_at.lt(DbTime(before)))
                        .order(outbox_events::created_at.asc())
                        .limit(i64::from(limit))
                        .select(outbox_events::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let e = diesel::delete(outbox_events::table.filter(outbox_events::id.eq_any(&events)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok((d as u64, e as u64))
                })
            }

            fn wake_deliveries(&mut self) {
                self.wake = true;
            }

            fn get_delivery(
                &mut self,
                endpoint: WebhookId,
                id: DeliveryId,
            ) -> BoxFuture<'_, StoreResult<Option<Delivery>>> {
                Box::pin(async move {
                    deliveries::table
                        .find(DbUuid(id.0))
                        .filter(deliveries::endpoint_id.eq(DbUuid(endpoint.0)))
                        .select(DeliveryRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Delivery::try_from)
                        .transpose()
                })
            }

            fn attempts_of(
                &mut self,
                delivery: DeliveryId,
            ) -> BoxFuture<'_, StoreResult<Vec<(OffsetDateTime, AttemptOutcome)>>> {
                Box::pin(async move {
                    let rows: Vec<(DbTime, Option<i32>, i64, Option<String>, Option<String>)> =
                        delivery_attempts::table
                            .filter(delivery_attempts::delivery_id.eq(DbUuid(delivery.0)))
                            .order(delivery_attempts::seq.asc())
                            .select((
                                delivery_attempts::attempted_at,
                                delivery_attempts::response_status,
                                delivery_attempts::duration_ms,
                                delivery_attempts::error,
                                delivery_attempts::response_body,
                            ))
                            .load(self.conn)
                            .await
                            .map_err(db_err)?;
                    Ok(rows
                        .into_iter()
                        .map(|(t, st, ms, err, body)| {
                            (
                                t.0,
                                AttemptOutcome {
                                    status: st.and_then(|s| u16::try_from(s).ok()),
                                    duration_ms: u64::try_from(ms).unwrap_or(0),
                                    error: err,
                                    response_body: body,
                                },
                            )
                        })
                        .collect())
                })
            }

            fn list_deliveries(
                &mut self,
                endpoint: WebhookId,
                status: Option<DeliveryStatus>,
                before: Option<DeliveryId>,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<Delivery>>> {
                Box::pin(async move {
                    let mut q = deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(endpoint.0))).into_boxed();
                    if let Some(st) = status {
                        q = q.filter(deliveries::status.eq(st.as_str()));
                    }
                    if let Some(b) = before {
                        q = q.filter(deliveries::id.lt(DbUuid(b.0)));
                    }
                    q.order(deliveries::id.desc())
                        .limit(i64::from(limit))
                        .select(DeliveryRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Delivery::try_from)
                        .collect()
                })
            }

            /// The claimable endpoints (one index probe each), then per endpoint its oldest due
            /// rows within what [`Allowance`] leaves (T60).
            fn claim_deliveries<'a>(&'a mut self, c: &'a ClaimRequest) -> BoxFuture<'a, StoreResult<Vec<Delivery>>> {
                Box::pin(async move {
                    let endpoints: Vec<ClaimableEndpoint> = diesel::sql_query(Self::CLAIMABLE)
                        .bind::<crate::types::sql::Ts, _>(DbTime(c.now))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let mut out = Vec::new();
                    let mut allowance = Allowance::new(c);
                    for e in &endpoints {
                        let k = allowance.of(e);
                        if k == 0 {
                            continue;
                        }
                        let rows: Vec<DeliveryRow> = diesel::sql_query(Self::CLAIM_ROWS)
                            .bind::<crate::types::sql::Ts, _>(DbTime(c.lease_until))
                            .bind::<crate::types::sql::Ts, _>(DbTime(c.now))
                            .bind::<crate::types::sql::Uuid, _>(DbUuid(e.id.0))
                            .bind::<diesel::sql_types::BigInt, _>(i64::from(k))
                            .load(self.conn)
                            .await
                            .map_err(db_err)?;
                        allowance.took(e, rows.len());
                        out.extend(rows);
                    }
                    out.into_iter().map(Delivery::try_from).collect()
                })
            }
        }

        impl<'c> EmailRepo for DbTx<'c, $conn> {
            fn insert_email<'a>(&'a mut self, e: &'a EmailRecord) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(emails::table)
                        .values(EmailRow::from(e))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn due_emails(&mut self, now: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>> {
                Box::pin(async move {
                    emails::table
                        .filter(emails::sent_at.is_null())
                        .filter(emails::next_attempt_at.le(DbTime(now)))
                        .order((emails::created_at.asc(), emails::id.asc()))
                        .limit(i64::from(limit))
                        .select(EmailRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(EmailRecord::try_from)
                        .collect()
                })
            }

            fn claim_email(
                &mut self,
                id: EmailId,
                now: OffsetDateTime,
                lease_until: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    // Conditional update: of concurrent claimers exactly one sees a due row.
                    let n = diesel::update(
                        emails::table
                            .find(DbUuid(id.0))
                            .filter(emails::sent_at.is_null())
                            .filter(emails::next_attempt_at.le(DbTime(now))),
                    )
                    .set(emails::next_attempt_at.eq(DbTime(lease_until)))
                    .execute(self.conn)
                    .await
                    .map_err(db_err)?;
                    Ok(n == 1)
                })
            }

            fn record_email_attempt<'a>(
                &'a mut self,
                id: EmailId,
                result: Result<OffsetDateTime, (&'a str, OffsetDateTime)>,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    let target = emails::table.find(DbUuid(id.0));
                    match result {
                        Ok(at) => {
                            diesel::update(target)
                                .set((emails::sent_at.eq(Some(DbTime(at))), emails::attempts.eq(emails::attempts + 1)))
                                .execute(self.conn)
                                .await
                        }
                        Err((err, next)) => {
                            diesel::update(target)
                                .set((
                                    emails::last_error.eq(Some(err.chars().take(500).collect::<String>())),
                                    emails::next_attempt_at.eq(DbTime(next)),
                                    emails::attempts.eq(emails::attempts + 1),
                                ))
                                .execute(self.conn)
                                .await
                        }
                    }
                    .map_err(db_err)?;
                    Ok(())
                })
            }

            fn list_emails<'a>(
                &'a mut self,
                to: Option<&'a Email>,
                limit: u32,
            ) -> BoxFuture<'a, StoreResult<Vec<EmailRecord>>> {
                Box::pin(async move {
                    let mut q = emails::table.into_boxed();
                    if let Some(t) = to {
                        q = q.filter(emails::to_address.eq(t.as_str().to_string()));
                    }
                    q.order((emails::created_at.desc(), emails::id.desc()))
                        .limit(i64::from(limit))
                        .select(EmailRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(EmailRecord::try_from)
                        .collect()
                })
            }
        }

        impl<'c> IdempotencyRepo for DbTx<'c, $conn> {
            fn idem_get<'a>(
                &'a mut self,
                org: OrgId,
                path: &'a str,
                key: &'a str,
            ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>> {
                Box::pin(async move {
                    self.lock_idem_row(org, path, key).await?;
                    idempotency_keys::table
                        .find((DbUuid(org.0), path, key))
                        .select(IdemRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(|row| self.open_idem(row))
                        .transpose()
                })
            }

            fn idem_insert<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<bool>> {
                Box::pin(async move {
                    let n = diesel::insert_into(idempotency_keys::table)
                        .values(self.idem_row(r))
                        .on_conflict_do_nothing()
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(n == 1)
                })
            }

            fn idem_update<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(idempotency_keys::table.find((DbUuid(r.org_id.0), r.path.as_str(), r.key.as_str())))
                        .set(self.idem_row(r))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn idem_delete<'a>(
                &'a mut self,
                org: OrgId,
                path: &'a str,
                key: &'a str,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::delete(idempotency_keys::table.find((DbUuid(org.0), path, key)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn idem_purge(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    // The creation time of the `limit`-th oldest record bounds the batch: the
                    // table's key is composite, so the batch is a range of `created_at`.
                    let old = idempotency_keys::table.filter(idempotency_keys::created_at.lt(DbTime(before)));
                    let edge: Option<DbTime> = old
                        .order(idempotency_keys::created_at.asc())
                        .offset(i64::from(limit.max(1) - 1))
                        .select(idempotency_keys::created_at)
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    let target = idempotency_keys::table.filter(idempotency_keys::created_at.lt(DbTime(before)));
                    let n = match edge {
                        Some(t) => {
                            diesel::delete(target.filter(idempotency_keys::created_at.le(t))).execute(self.conn).await
                        }
                        None => diesel::delete(target).execute(self.conn).await,
                    }
                    .map_err(db_err)?;
                    Ok(n as u64)
                })
            }
        }

        impl<'c> PrivacyRepo for DbTx<'c, $conn> {
            fn texts_mentioning<'a>(
                &'a mut self,
                org: Option<OrgId>,
                needles: &'a [String],
            ) -> BoxFuture<'a, StoreResult<Vec<StoredText>>> {
                Box::pin(async move {
                    let mut found: Vec<StoredText> = vec![];
                    for needle in needles {
                        let pattern = format!("%{}%", like_escape(needle));
                        let mut q = outbox_events::table
                            .filter(outbox_events::data.like(pattern.clone()).escape('\\'))
                            .select((outbox_events::id, outbox_events::data))
                            .into_boxed();
                        if let Some(o) = org {
                            q = q.filter(outbox_events::org_id.eq(DbUuid(o.0)));
                        }
                        for (id, text) in q.load::<(DbUuid, String)>(self.conn).await.map_err(db_err)? {
                            found.push(StoredText { at: TextRef::Event(EventId(id.0)), text });
                        }
                        let mut q = deliveries::table
                            .filter(deliveries::payload.like(pattern.clone()).escape('\\'))
                            .select((deliveries::id, deliveries::payload))
                            .into_boxed();
                        if let Some(o) = org {
                            q = q.filter(deliveries::org_id.eq(DbUuid(o.0)));
                        }
                        for (id, text) in q.load::<(DbUuid, String)>(self.conn).await.map_err(db_err)? {
                            found.push(StoredText { at: TextRef::Delivery(DeliveryId(id.0)), text });
                        }
                        let mut q = idempotency_keys::table
                            .filter(idempotency_keys::response_body.like(pattern).escape('\\'))
                            .select((
                                idempotency_keys::org_id,
                                idempotency_keys::path,
                                idempotency_keys::key,
                                idempotency_keys::response_body,
                            ))
                            .into_boxed();
                        if let Some(o) = org {
                            q = q.filter(idempotency_keys::org_id.eq(DbUuid(o.0)));
                        }
                        for (o, path, key, text) in
                            q.load::<(DbUuid, String, String, Option<String>)>(self.conn).await.map_err(db_err)?
                        {
                            let at = TextRef::Idempotency { org: OrgId(o.0), path, key };
                            found.push(StoredText { at, text: text.unwrap_or_default() });
                        }
                    }
                    let mut unique: Vec<StoredText> = vec![];
                    for t in found {
                        if !unique.iter().any(|u| u.at == t.at) {
                            unique.push(t);
                        }
                    }
                    Ok(unique)
                })
            }

            fn rewrite_text<'a>(&'a mut self, t: &'a StoredText) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    match &t.at {
                        TextRef::Event(id) => {
                            diesel::update(outbox_events::table.find(DbUuid(id.0)))
                                .set(outbox_events::data.eq(&t.text))
                                .execute(self.conn)
                                .await
                        }
                        TextRef::Delivery(id) => {
                            diesel::update(deliveries::table.find(DbUuid(id.0)))
                                .set(deliveries::payload.eq(&t.text))
                                .execute(self.conn)
                                .await
                        }
                        TextRef::Idempotency { org, path, key } => {
                            diesel::update(idempotency_keys::table.find((DbUuid(org.0), path, key)))
                                .set(idempotency_keys::response_body.eq(Some(&t.text)))
                                .execute(self.conn)
                                .await
                        }
                    }
                    .map_err(db_err)?;
                    Ok(())
                })
            }

            fn delete_emails_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let n = diesel::delete(emails::table.filter(emails::invitation_id.eq(Some(DbUuid(id.0)))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(n as u64)
                })
            }

            fn events_mentioning<'a>(&'a mut self, needle: &'a str) -> BoxFuture<'a, StoreResult<Vec<OutboxEvent>>> {
                Box::pin(async move {
                    let rows: Vec<EventRow> = outbox_events::table
                        .filter(outbox_events::data.like(format!("%{}%", like_escape(needle))).escape('\\'))
                        .order((outbox_events::created_at.asc(), outbox_events::id.asc()))
                        .select(EventRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    rows.into_iter().map(OutboxEvent::try_from).collect()
                })
            }

            fn purge_emails(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let ids: Vec<DbUuid> = emails::table
                        .filter(emails::created_at.lt(DbTime(before)))
                        .order(emails::created_at.asc())
                        .limit(i64::from(limit))
                        .select(emails::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let n = diesel::delete(emails::table.filter(emails::id.eq_any(&ids)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(n as u64)
                })
            }

            fn purge_consent_codes(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let ids: Vec<DbUuid> = consent_codes::table
                        .filter(consent_codes::created_at.lt(DbTime(before)))
                        .order(consent_codes::created_at.asc())
                        .limit(i64::from(limit))
                        .select(consent_codes::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let n = diesel::delete(consent_codes::table.filter(consent_codes::id.eq_any(&ids)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(n as u64)
                })
            }

            fn emails_to_since<'a>(
                &'a mut self,
                to: &'a Email,
                since: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'a, StoreResult<Vec<EmailStamp>>> {
                Box::pin(async move {
                    // emails_to_idx (to_address, created_at).
                    let rows: Vec<(Option<DbUuid>, DbTime)> = emails::table
                        .filter(emails::to_address.eq(to.as_str()))
                        .filter(emails::created_at.ge(DbTime(since)))
                        .order(emails::created_at.desc())
                        .limit(i64::from(limit))
                        .select((emails::invitation_id, emails::created_at))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(rows
                        .into_iter()
                        .map(|(i, t)| EmailStamp { invitation_id: i.map(|u| InvitationId(u.0)), created_at: t.0 })
                        .collect())
                })
            }

            fn delete_emails_to<'a>(&'a mut self, to: &'a Email) -> BoxFuture<'a, StoreResult<u64>> {
                Box::pin(async move {
                    let n = diesel::delete(emails::table.filter(emails::to_address.eq(to.as_str())))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(n as u64)
                })
            }

            fn delete_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let n = diesel::delete(assessments::table.filter(assessments::human_id.eq(DbUuid(human.0))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(n as u64)
                })
            }

            fn delete_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    diesel::delete(humans::table.find(DbUuid(human.0))).execute(self.conn).await.map_err(db_err)?;
                    Ok(())
                })
            }
        }

        impl<'c> SettingsRepo for DbTx<'c, $conn> {
            fn relax_durability(&mut self) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move { self.relax_impl().await })
            }

            fn reseal_secrets(&mut self) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let open = |s: &Arc<dyn SecretBox>, v: &str| {
                        s.open(v).map_err(|m| StoreError::Internal(format!("resealing a secret: {m}")))
                    };
                    let mut n = 0u64;
                    let rows: Vec<(DbUuid, String, Option<String>)> = webhook_endpoints::table
                        .select((webhook_endpoints::id, webhook_endpoints::secret, webhook_endpoints::previous_secret))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    for (id, secret, previous) in rows {
                        let stale = self.sealer.needs_reseal(&secret)
                            || previous.as_deref().is_some_and(|p| self.sealer.needs_reseal(p));
                        if !stale {
                            continue;
                        }
                        let secret = self.sealer.seal(&open(&self.sealer, &secret)?);
                        let previous = match previous {
                            Some(p) => Some(self.sealer.seal(&open(&self.sealer, &p)?)),
                            None => None,
                        };
                        diesel::update(webhook_endpoints::table.find(id))
                            .set((
                                webhook_endpoints::secret.eq(secret),
                                webhook_endpoints::previous_secret.eq(previous),
                            ))
                            .execute(self.conn)
                            .await
                            .map_err(db_err)?;
                        n += 1;
                    }
                    let settings: Vec<(String, String)> = settings::table
                        .select((settings::name, settings::value))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    for (name, value) in settings {
                        if self.sealer.needs_reseal(&value) {
                            let sealed = self.sealer.seal(&open(&self.sealer, &value)?);
                            diesel::update(settings::table.find(&name))
                                .set(settings::value.eq(sealed))
                                .execute(self.conn)
                                .await
                                .map_err(db_err)?;
                            n += 1;
                        }
                    }
                    Ok(n)
                })
            }

            fn setting_get_or_insert<'a>(
                &'a mut self,
                name: &'a str,
                value: &'a str,
            ) -> BoxFuture<'a, StoreResult<String>> {
                Box::pin(async move {
                    diesel::insert_into(settings::table)
                        .values((settings::name.eq(name), settings::value.eq(self.sealer.seal(value))))
                        .on_conflict_do_nothing()
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    let stored: String = settings::table
                        .find(name)
                        .select(settings::value)
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    self.sealer.open(&stored).map_err(|m| StoreError::Internal(format!("setting {name}: {m}")))
                })
            }
        }

        impl<'c> DbTx<'c, $conn> {
            /// The ids of the tags `q.tag` names (one per organization in scope), read before the
            /// list query so that they reach it as values: with the tag behind a join the planner
            /// assumes an average tag and walked 25,000 persons for a page of a tag that 0.1 % of
            /// 1,000,000 carry (94 ms; with the id, 1 ms). `None`: no such tag, so no person
            /// matches. `Some(empty)` when `q` has no tag filter.
            pub(crate) async fn tag_filter(&mut self, q: &PersonQuery) -> StoreResult<Option<Vec<DbUuid>>> {
                let Some(key) = &q.tag_key else { return Ok(Some(vec![])) };
                let mut t = tags::table.filter(tags::name_key.eq(key.clone())).select(tags::id).into_boxed();
                if let Some(org) = q.org_id {
                    t = t.filter(tags::org_id.eq(DbUuid(org.0)));
                }
                let ids: Vec<DbUuid> = t.load(self.conn).await.map_err(db_err)?;
                Ok(if ids.is_empty() { None } else { Some(ids) })
            }

            /// The `GET /persons` query of `q` (with `tag_ids` from [`Self::tag_filter`]): its
            /// filters and keyset cursor, newest first, at most `q.limit` rows. Shared by
            /// [`Tx::list_persons`] and [`crate::DbStore::explain_persons`], so the plan explained
            /// is the plan served.
            pub(crate) fn persons_query(
                q: &PersonQuery,
                tag_ids: Vec<DbUuid>,
            ) -> persons::BoxedQuery<'static, <$conn as diesel_async::AsyncConnectionCore>::Backend> {
                let status = q.status.unwrap_or(PersonStatus::Active).as_str();
                let mut query = persons::table.filter(persons::status.eq(status)).into_boxed();
                if let Some(org) = q.org_id {
                    query = query.filter(persons::org_id.eq(DbUuid(org.0)));
                }
                if let Some(b) = q.before_id {
                    query = query.filter(persons::id.lt(DbUuid(b.0)));
                }
                if let Some(e) = &q.email {
                    query = query.filter(persons::email.eq(e.as_str().to_string()));
                }
                if let Some(x) = &q.external_id {
                    query = query.filter(persons::external_id.eq(x.clone()));
                }
                if let Some(s) = q.assessment_status {
                    query = query.filter(persons::assessment_status.eq(s.as_str()));
                }
                match q.label {
                    None => {}
                    Some(LabelFilter::Candidate) => query = query.filter(persons::label_candidate.eq(true)),
                    Some(LabelFilter::Employee) => query = query.filter(persons::label_employee.eq(true)),
                    Some(LabelFilter::Other) => {
                        query =
                            query.filter(persons::label_candidate.eq(false)).filter(persons::label_employee.eq(false))
                    }
                }
                if let Some(u) = q.updated_after {
                    query = query.filter(persons::updated_at.gt(DbTime(u)));
                }
                if let Some(needle) = &q.q {
                    let pattern = format!("%{}%", like_escape(needle));
                    query = query.filter(persons::search_text.like(pattern).escape('\\'));
                }
                if q.tag_key.is_some() {
                    // The tag's ids as values (see `tag_filter`): the planner then knows how many
                    // persons carry it (a rare tag is read from its index, a common one while
                    // walking the newest persons).
                    let sub =
                        person_tags::table.filter(person_tags::tag_id.eq_any(tag_ids)).select(person_tags::person_id);
                    query = query.filter(persons::id.eq_any(sub));
                }
                query.order(persons::id.desc()).limit(i64::from(q.limit))
            }

            async fn write_person_tags(&mut self, p: &Person) -> StoreResult<()> {
                if p.tags.is_empty() {
                    return Ok(());
                }
                let rows: Vec<_> = p
                    .tags
                    .iter()
                    .map(|t| (person_tags::person_id.eq(DbUuid(p.id.0)), person_tags::tag_id.eq(DbUuid(t.id.0))))
                    .collect();
                for r in rows {
                    diesel::insert_into(person_tags::table)
                        .values(r)
                        .on_conflict_do_nothing()
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                }
                Ok(())
            }
        }
    };
}

impl_tx!(diesel_async::AsyncPgConnection);
impl_tx!(crate::SqliteConn);

impl DbTx<'_, diesel_async::AsyncPgConnection> {
    /// `SELECT ... FOR UPDATE`: serializes use cases that check per-organization limits.
    async fn lock_org_row(&mut self, id: OrgId) -> StoreResult<Option<OrgRow>> {
        organizations::table
            .find(DbUuid(id.0))
            .select(OrgRow::as_select())
            .for_update()
            .get_result(self.conn)
            .await
            .optional()
            .map_err(db_err)
    }

    /// `SELECT ... FOR SHARE` (T65).
    async fn share_org_row(&mut self, id: OrgId) -> StoreResult<Option<OrgRow>> {
        organizations::table
            .find(DbUuid(id.0))
            .select(OrgRow::as_select())
            .for_share()
            .get_result(self.conn)
            .await
            .optional()
            .map_err(db_err)
    }

    /// `max_connections`: no more transactions than connections can be in flight (T65).
    async fn writers_impl(&mut self) -> StoreResult<u32> {
        let known = AtomicU32::load(&self.max_writers, Ordering::Relaxed);
        if known > 0 {
            return Ok(known);
        }
        #[derive(diesel::QueryableByName)]
        struct Writers {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            n: i32,
        }
        let w: Writers = diesel::sql_query("SELECT current_setting('max_connections')::int4 AS n")
            .get_result(self.conn)
            .await
            .map_err(db_err)?;
        let n = u32::try_from(w.n).unwrap_or(u32::MAX).max(1);
        self.max_writers.store(n, Ordering::Relaxed);
        Ok(n)
    }
}

impl DbTx<'_, diesel_async::AsyncPgConnection> {
    /// In a write transaction, `SELECT ... FOR UPDATE` of the person row a use case reads to
    /// update: without it, a concurrent patch and archive of one person both commit and the last
    /// writer silently undoes the other (an archived person back to active, D13 bypassed).
    async fn lock_person_row(&mut self, key: PersonKey) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        let q = persons::table.select(persons::id);
        match key {
            PersonKey::Id(org, id) => {
                q.filter(persons::id.eq(DbUuid(id.0)))
                    .filter(persons::org_id.eq(DbUuid(org.0)))
                    .for_update()
                    .load::<DbUuid>(self.conn)
                    .await
            }
            PersonKey::AnyOrg(id) => {
                // Lookups outside one organization are the human-level use cases' (assessments,
                // which go on to `persons_of_human`): lock every membership of the human, in the
                // id order `PersonKey::Human` uses. Locking this row alone first let two such
                // transactions on two memberships of one human deadlock.
                let human: Option<DbUuid> = persons::table
                    .find(DbUuid(id.0))
                    .select(persons::human_id)
                    .get_result(self.conn)
                    .await
                    .optional()
                    .map_err(db_err)?;
                let Some(human) = human else { return Ok(()) };
                q.filter(persons::human_id.eq(human))
                    .order(persons::id.asc())
                    .for_update()
                    .load::<DbUuid>(self.conn)
                    .await
            }
            PersonKey::Human(h) => {
                q.filter(persons::human_id.eq(DbUuid(h.0)))
                    .order(persons::id.asc())
                    .for_update()
                    .load::<DbUuid>(self.conn)
                    .await
            }
        }
        .map_err(db_err)?;
        Ok(())
    }

    /// A person by email; in a write transaction its row is locked `FOR UPDATE` in the statement
    /// that reads it (T66). Two imports of one new email both find no row; the second's insert
    /// then fails on the unique index and the import runs again as a merge (T70).
    async fn person_by_email_impl(&mut self, org: OrgId, email: &Email) -> StoreResult<Option<PersonRow>> {
        let q = persons::table
            .filter(persons::org_id.eq(DbUuid(org.0)))
            .filter(persons::email.eq(email.as_str()))
            .select(PersonRow::as_select());
        if !self.write {
            return q.get_result(self.conn).await.optional().map_err(db_err);
        }
        q.for_update().get_result(self.conn).await.optional().map_err(db_err)
    }

    /// In a write transaction, `SELECT ... FOR UPDATE` of an invitation a use case may change.
    async fn lock_invitation_row(&mut self, id: InvitationId) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        invitations::table
            .find(DbUuid(id.0))
            .select(invitations::id)
            .for_update()
            .load::<DbUuid>(self.conn)
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// In a write transaction, `SELECT ... FOR UPDATE` of an idempotency record: an abandoned or
    /// expired record is taken over by one request only.
    async fn lock_idem_row(&mut self, org: OrgId, path: &str, key: &str) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        idempotency_keys::table
            .find((DbUuid(org.0), path, key))
            .select(idempotency_keys::org_id)
            .for_update()
            .load::<DbUuid>(self.conn)
            .await
            .map_err(db_err)?;
        Ok(())
    }
}

/// Enabled endpoints with closed breakers that have a claimable delivery, with their oldest due
/// time (one index probe per endpoint, `deliveries_pending_idx`). Params: 1 now.
macro_rules! claimable_endpoints {
    ($p:literal) => {
        concat!(
            "SELECT id, org_id, due FROM (SELECT w.id, w.org_id, (SELECT min(d.next_attempt_at) FROM deliveries d ",
            "WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ",
            $p,
            "1 ",
            "AND (d.claimed_until IS NULL OR d.claimed_until <= ",
            $p,
            "1)) AS due ",
            "FROM webhook_endpoints w WHERE w.enabled AND (w.breaker_open_until IS NULL OR w.breaker_open_until <= ",
            $p,
            "1)) e WHERE due IS NOT NULL ORDER BY due, id"
        )
    };
}

/// One row of [`claimable_endpoints`].
#[derive(diesel::QueryableByName)]
struct ClaimableEndpoint {
    #[diesel(sql_type = crate::types::sql::Uuid)]
    id: DbUuid,
    #[diesel(sql_type = crate::types::sql::Uuid)]
    org_id: DbUuid,
}

/// What is left of the caps while a claim goes through the claimable endpoints, oldest due first
/// (T60): per endpoint the cap less what is in flight, per organization likewise less what this
/// claim took, and the claim's limit.
struct Allowance<'a> {
    c: &'a ClaimRequest,
    org_left: std::collections::HashMap<uuid::Uuid, u32>,
    left: u32,
}

impl<'a> Allowance<'a> {
    fn new(c: &'a ClaimRequest) -> Self {
        Allowance { c, org_left: std::collections::HashMap::new(), left: c.limit }
    }

    /// How many rows of `e` to claim now (0: skip it).
    fn of(&mut self, e: &ClaimableEndpoint) -> u32 {
        let c = self.c;
        let busy_e = c.busy_endpoints.iter().find(|(k, _)| k.0 == e.id.0).map(|(_, v)| *v).unwrap_or(0);
        let org = *self.org_left.entry(e.org_id.0).or_insert_with(|| {
            let busy = c.busy_orgs.iter().find(|(k, _)| k.0 == e.org_id.0).map(|(_, v)| *v).unwrap_or(0);
            c.per_org.saturating_sub(busy)
        });
        c.per_endpoint.saturating_sub(busy_e).min(org).min(self.left)
    }

    /// Records that `n` rows of `e` were claimed.
    fn took(&mut self, e: &ClaimableEndpoint, n: usize) {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        if let Some(o) = self.org_left.get_mut(&e.org_id.0) {
            *o = o.saturating_sub(n);
        }
        self.left = self.left.saturating_sub(n);
    }
}

impl DbTx<'_, diesel_async::AsyncPgConnection> {
    /// Per endpoint its oldest due rows, locked with `FOR UPDATE SKIP LOCKED` in a materialized
    /// CTE (evaluated once; storage-notes pitfall 4), so concurrent instances never claim the same
    /// row (T60). Params: 1 lease end, 2 now, 3 endpoint, 4 how many.
    const CLAIM_ROWS: &'static str = "WITH pick AS MATERIALIZED (SELECT id FROM deliveries WHERE endpoint_id = $3 AND status = 'pending' \
                 AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2) \
                 ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) \
                 UPDATE deliveries SET claimed_until = $1 FROM pick WHERE deliveries.id = pick.id RETURNING deliveries.*";
    /// [`claimable_endpoints`] in this dialect.
    const CLAIMABLE: &'static str = claimable_endpoints!("$");

    /// One `UPDATE … FROM unnest(…)` for the whole batch (one round trip, T60). Values travel as
    /// text arrays (RFC 3339 times, hyphenated ids) and are cast in SQL.
    async fn update_deliveries_impl(&mut self, ds: &[Delivery]) -> StoreResult<()> {
        if ds.is_empty() {
            return Ok(());
        }
        let t = |v: Option<OffsetDateTime>| -> StoreResult<Option<String>> {
            v.map(|x| {
                x.format(&time::format_description::well_known::Rfc3339)
                    .map_err(|e| StoreError::Internal(e.to_string()))
            })
            .transpose()
        };
        let mut ids = Vec::with_capacity(ds.len());
        let (mut status, mut attempts, mut next, mut last, mut code, mut err) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for d in ds {
            ids.push(d.id.0.to_string());
            status.push(d.status.as_str().to_string());
            attempts.push(i64::from(d.attempts));
            next.push(t(d.next_attempt_at)?);
            last.push(t(d.last_attempt_at)?);
            code.push(d.last_response_status.map(i32::from));
            err.push(d.last_error.clone());
        }
        use diesel::sql_types::{Array, BigInt, Integer, Nullable, Text};
        diesel::sql_query(
            "UPDATE deliveries d SET status = v.status, attempts = v.attempts, \
             next_attempt_at = v.next_at::timestamptz, last_attempt_at = v.last_at::timestamptz, \
             last_response_status = v.code, last_error = v.err, claimed_until = NULL \
             FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::int4[], $7::text[]) \
             AS v(id, status, attempts, next_at, last_at, code, err) WHERE d.id = v.id::uuid",
        )
        .bind::<Array<Text>, _>(ids)
        .bind::<Array<Text>, _>(status)
        .bind::<Array<BigInt>, _>(attempts)
        .bind::<Array<Nullable<Text>>, _>(next)
        .bind::<Array<Nullable<Text>>, _>(last)
        .bind::<Array<Nullable<Integer>>, _>(code)
        .bind::<Array<Nullable<Text>>, _>(err)
        .execute(self.conn)
        .await
        .map_err(db_err)?;
        Ok(())
    }

    /// One multi-row INSERT per 1,000 rows (one round trip for a batch of outcomes).
    async fn insert_attempt_rows(&mut self, rows: Vec<AttemptRow>) -> StoreResult<()> {
        for chunk in rows.chunks(1000) {
            diesel::insert_into(delivery_attempts::table)
                .values(chunk.to_vec())
                .execute(self.conn)
                .await
                .map_err(db_err)?;
        }
        Ok(())
    }

    /// `SET LOCAL synchronous_commit = off` (write transactions only).
    async fn relax_impl(&mut self) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        diesel_async::SimpleAsyncConnection::batch_execute(self.conn, "SET LOCAL synchronous_commit = off")
            .await
            .map_err(db_err)
    }

    /// In a write transaction, `SELECT ... FOR UPDATE` of deliveries about to be updated, in id
    /// order (no deadlock between two recorders).
    async fn lock_deliveries(&mut self, ids: &[DbUuid]) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        deliveries::table
            .filter(deliveries::id.eq_any(ids))
            .order(deliveries::id.asc())
            .select(deliveries::id)
            .for_update()
            .load::<DbUuid>(self.conn)
            .await
            .map_err(db_err)?;
        Ok(())
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// Per endpoint one `UPDATE ... RETURNING` of its oldest due rows; writers are serialized
    /// (`BEGIN IMMEDIATE`), so nothing else can claim them (T60). Params as on PostgreSQL.
    const CLAIM_ROWS: &'static str =
        "UPDATE deliveries SET claimed_until = ?1 WHERE id IN (SELECT id FROM deliveries WHERE endpoint_id = ?3 \
                 AND status = 'pending' AND next_attempt_at <= ?2 AND (claimed_until IS NULL OR claimed_until <= ?2) \
                 ORDER BY next_attempt_at, id LIMIT ?4) RETURNING *";
    /// [`claimable_endpoints`] in this dialect.
    const CLAIMABLE: &'static str = claimable_endpoints!("?");

    /// Writers are serialized by `BEGIN IMMEDIATE`: nothing to lock.
    async fn lock_deliveries(&mut self, _ids: &[DbUuid]) -> StoreResult<()> {
        Ok(())
    }

    /// One UPDATE per delivery: in-process statements cost no round trip.
    async fn update_deliveries_impl(&mut self, ds: &[Delivery]) -> StoreResult<()> {
        for d in ds {
            diesel::update(deliveries::table.find(DbUuid(d.id.0)))
                .set(DeliveryRow::from(d))
                .execute(self.conn)
                .await
                .map_err(db_err)?;
        }
        Ok(())
    }

    /// One INSERT per row: diesel-async cannot batch-insert on SQLite (diesel's SQLite batch insert
    /// is specialised for its synchronous connection), and in-process inserts cost no round trip.
    async fn insert_attempt_rows(&mut self, rows: Vec<AttemptRow>) -> StoreResult<()> {
        for r in rows {
            diesel::insert_into(delivery_attempts::table).values(r).execute(self.conn).await.map_err(db_err)?;
        }
        Ok(())
    }

    /// WAL with `synchronous=NORMAL` does not sync on commit already.
    async fn relax_impl(&mut self) -> StoreResult<()> {
        Ok(())
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// Writers are serialized by `BEGIN IMMEDIATE`: nothing to lock.
    async fn lock_person_row(&mut self, _key: PersonKey) -> StoreResult<()> {
        Ok(())
    }

    /// Writers are serialized by `BEGIN IMMEDIATE`: nothing to lock.
    async fn lock_invitation_row(&mut self, _id: InvitationId) -> StoreResult<()> {
        Ok(())
    }

    /// Writers are serialized by `BEGIN IMMEDIATE`: nothing to lock.
    async fn lock_idem_row(&mut self, _org: OrgId, _path: &str, _key: &str) -> StoreResult<()> {
        Ok(())
    }

    /// SQLite write transactions are `BEGIN IMMEDIATE`: the database-wide write lock is already
    /// held, so a plain read suffices.
    async fn lock_org_row(&mut self, id: OrgId) -> StoreResult<Option<OrgRow>> {
        organizations::table
            .find(DbUuid(id.0))
            .select(OrgRow::as_select())
            .get_result(self.conn)
            .await
            .optional()
            .map_err(db_err)
    }

    /// Writers are serialized by `BEGIN IMMEDIATE`: a plain read.
    async fn person_by_email_impl(&mut self, org: OrgId, email: &Email) -> StoreResult<Option<PersonRow>> {
        persons::table
            .filter(persons::org_id.eq(DbUuid(org.0)))
            .filter(persons::email.eq(email.as_str()))
            .select(PersonRow::as_select())
            .get_result(self.conn)
            .await
            .optional()
            .map_err(db_err)
    }

    /// Writers are serialized by `BEGIN IMMEDIATE`: a plain read.
    async fn share_org_row(&mut self, id: OrgId) -> StoreResult<Option<OrgRow>> {
        self.lock_org_row(id).await
    }

    /// One writer at a time.
    async fn writers_impl(&mut self) -> StoreResult<u32> {
        Ok(1)
    }
}
