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
use talent_domain::api_key::{ApiKey, KeyContext};
use talent_domain::errors::StoreError;
use talent_domain::events::{EventType, OutboxEvent, SequencedEvent};
use talent_domain::ids::*;
use talent_domain::invitation::{Invitation, InvitationStatus};
use talent_domain::organization::{Organization, User};
use talent_domain::person::{JoinedVia, Person, ResultHolder, Team, Visibility};
use talent_domain::ports::*;
use talent_domain::results::{Assessment, Profile};
use talent_domain::values::*;
use talent_domain::webhook::{AttemptOutcome, Delivery, DeliveryStatus, Endpoint};
use time::OffsetDateTime;

/// Maps diesel's errors onto the port's: unique violations become `UniqueViolation`; a lost
/// connection or a server that is going away, starting up or (SQLite) locked beyond the busy
/// timeout becomes `Unavailable` (answered 503, T87); anything else `Internal`.
pub fn db_err(e: DieselError) -> StoreError {
    let err = classify(e);
    let kind = match &err {
        StoreError::UniqueViolation => "unique_violation",
        StoreError::Unavailable(_) => "unavailable",
        StoreError::Internal(_) => "internal",
    };
    metrics::counter!("talent_db_errors_total", "kind" => kind).increment(1);
    err
}

/// [`db_err`] without counting.
fn classify(e: DieselError) -> StoreError {
    match e {
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => StoreError::UniqueViolation,
        DieselError::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
            StoreError::Unavailable(info.message().to_string())
        }
        DieselError::DatabaseError(_, info) if is_outage(info.message()) => {
            StoreError::Unavailable(info.message().to_string())
        }
        DieselError::BrokenTransactionManager => StoreError::Unavailable(e.to_string()),
        // tokio-postgres reports a connection the server dropped as "connection closed", which
        // diesel-async may wrap outside `DatabaseError`: an outage all the same (503, not 500).
        other => {
            let m = other.to_string();
            if is_outage(&m) {
                StoreError::Unavailable(m)
            } else {
                StoreError::Internal(m)
            }
        }
    }
}

/// Whether a database error message says the server cannot serve now rather than that the
/// statement is wrong (T87): PostgreSQL's SQLSTATE class 57P (admin shutdown, crash shutdown,
/// cannot connect now) and 08 (connection exceptions), whose SQLSTATE diesel does not expose, and
/// SQLite's `SQLITE_BUSY` after the busy timeout.
pub fn is_outage(message: &str) -> bool {
    const SIGNS: [&str; 11] = [
        "terminating connection",
        "connection closed",
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
    /// Set by [`WebhookRepo::wake_deliveries`] (and fan-out): wake the delivery engines after commit.
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

    /// The row of an idempotency record; a response that carries a signing secret is sealed, the
    /// link tokens of any other are (D52).
    fn idem_row(&self, r: &IdempotencyRecord) -> IdemRow {
        let mut row = IdemRow::from(r);
        row.response_body = row.response_body.map(|b| {
            if talent_domain::usecases::idempotency::response_carries_secret(&r.path) {
                self.sealer.seal(&b)
            } else {
                self.conceal(&b)
            }
        });
        row
    }

    fn open_idem(&self, row: IdemRow) -> StoreResult<IdempotencyRecord> {
        let mut r = IdempotencyRecord::try_from(row)?;
        if let IdempotencyState::Done { body, .. } = &mut r.state {
            if is_sealed(body) {
                *body = self.sealer.open(body).map_err(|m| StoreError::Internal(format!("stored response: {m}")))?;
            } else {
                *body = self.reveal(body);
            }
        }
        Ok(r)
    }

    /// `text` as stored: every live link token sealed (D52, T129).
    pub(crate) fn conceal(&self, text: &str) -> String {
        talent_domain::at_rest::conceal_links(text, &*self.sealer)
    }

    /// A stored text as it was given ([`DbTx::conceal`] undone).
    pub(crate) fn reveal(&self, text: &str) -> String {
        talent_domain::at_rest::reveal_links(text, &*self.sealer)
    }

    /// The row of an outbox event, its links' tokens sealed (D52).
    fn event_row(&self, e: &OutboxEvent) -> EventRow {
        EventRow {
            id: DbUuid(e.id.0),
            org_id: DbUuid(e.org_id.0),
            event_type: e.event_type.as_str().to_string(),
            data: self.conceal(&e.data.to_string()),
            created_at: DbTime(e.created_at),
            request_id: e.request_id.clone(),
        }
    }

    /// The event of a stored row, its links opened.
    fn open_event(&self, mut r: EventRow) -> StoreResult<OutboxEvent> {
        r.data = self.reveal(&r.data);
        OutboxEvent::try_from(r)
    }

    /// The row of a delivery, the links' tokens of its payload sealed (D52).
    fn delivery_row(&self, d: &Delivery) -> DeliveryRow {
        let mut r = DeliveryRow::from(d);
        r.payload = self.conceal(&r.payload);
        r
    }

    /// The delivery of a stored row, its payload's links opened: the exact body that is signed.
    fn open_delivery(&self, mut r: DeliveryRow) -> StoreResult<Delivery> {
        r.payload = self.reveal(&r.payload);
        Delivery::try_from(r)
    }

    /// The row of an email of the outbox: its body and link sealed whole (D52), since they may
    /// carry a sign-in link, an invitation link or a one-time code.
    fn email_row(&self, e: &EmailRecord) -> EmailRow {
        let mut r = EmailRow::from(e);
        r.body = self.sealer.seal(&r.body);
        r.invitation_url = r.invitation_url.map(|u| self.sealer.seal(&u));
        r
    }

    /// The email of a stored row, opened. A copy sealed under a key that is no longer configured
    /// reads as a note saying so (it is a record of what was sent, and expires with retention).
    fn open_email(&self, mut r: EmailRow) -> StoreResult<EmailRecord> {
        const RETIRED: &str = "(this stored copy is sealed under a key that is no longer configured)";
        r.body = self.sealer.open(&r.body).unwrap_or_else(|_| RETIRED.to_string());
        r.invitation_url = r.invitation_url.map(|u| self.sealer.open(&u).unwrap_or_else(|_| RETIRED.to_string()));
        EmailRecord::try_from(r)
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

    /// In a write transaction, `SELECT ... FOR NO KEY UPDATE` of endpoints about to be updated
    /// (new deliveries' foreign-key checks, `FOR KEY SHARE`, do not wait for it), or `FOR UPDATE`
    /// of endpoints about to be deleted, in id order (T104).
    async fn lock_endpoint_rows(&mut self, ids: &[DbUuid], delete: bool) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        let q = webhook_endpoints::table
            .filter(webhook_endpoints::id.eq_any(ids))
            .order(webhook_endpoints::id.asc())
            .select(webhook_endpoints::id);
        let r = if delete {
            q.for_update().load::<DbUuid>(self.conn).await
        } else {
            q.for_no_key_update().load::<DbUuid>(self.conn).await
        };
        r.map_err(db_err)?;
        Ok(())
    }

    /// The sequencer's counter, locked (`FOR UPDATE`) until the transaction ends (T106).
    async fn lock_event_counter(&mut self) -> StoreResult<i64> {
        event_sequence::table
            .find(1)
            .select(event_sequence::last)
            .for_update()
            .get_result(self.conn)
            .await
            .map_err(db_err)
    }

    /// Gives each of `ids` its sequence of `seqs` (D56: numbers per organization): one statement.
    async fn number_events(&mut self, ids: &[DbUuid], seqs: &[i64]) -> StoreResult<()> {
        use diesel::sql_types::{Array, BigInt, Text};
        let texts: Vec<String> = ids.iter().map(|i| i.0.to_string()).collect();
        let seqs: Vec<i64> = seqs.to_vec();
        diesel::sql_query(
            "UPDATE outbox_events e SET sequence = v.seq FROM unnest($1::text[], $2::int8[]) AS v(id, seq) \
             WHERE e.id = v.id::uuid",
        )
        .bind::<Array<Text>, _>(texts)
        .bind::<Array<BigInt>, _>(seqs)
        .execute(self.conn)
        .await
        .map_err(db_err)?;
        Ok(())
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

    /// Writers hold the database's write lock: nothing to lock per row.
    async fn lock_endpoint_rows(&mut self, _ids: &[DbUuid], _delete: bool) -> StoreResult<()> {
        Ok(())
    }

    /// The sequencer's counter; writers hold the database's write lock, so reading is locking.
    async fn lock_event_counter(&mut self) -> StoreResult<i64> {
        event_sequence::table.find(1).select(event_sequence::last).get_result(self.conn).await.map_err(db_err)
    }

    /// Gives each of `ids` its sequence of `seqs` (D56): one in-process statement each.
    async fn number_events(&mut self, ids: &[DbUuid], seqs: &[i64]) -> StoreResult<()> {
        for (id, seq) in ids.iter().zip(seqs) {
            diesel::update(outbox_events::table.find(*id))
                .set(outbox_events::sequence.eq(*seq))
                .execute(self.conn)
                .await
                .map_err(db_err)?;
        }
        Ok(())
    }

    /// One UPDATE per delivery: in-process statements cost no round trip.
    async fn update_deliveries_impl(&mut self, ds: &[Delivery]) -> StoreResult<()> {
        for d in ds {
            diesel::update(deliveries::table.find(DbUuid(d.id.0)))
                .set(self.delivery_row(d))
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

// The ports, one file per aggregate (issue 14 point 2); declared last, after the macros and
// helpers above that their bodies use.
mod assessment_repo;
pub mod email_idna;
mod email_repo;
mod idempotency_repo;
mod invitation_repo;
pub mod ops;
mod org_repo;
mod outbox_repo;
mod person_repo;
mod privacy_repo;
mod session_repo;
mod settings_repo;
mod webhook_repo;

#[cfg(test)]
mod outage_tests {
    use super::*;

    fn db(kind: DatabaseErrorKind, msg: &str) -> DieselError {
        DieselError::DatabaseError(kind, Box::new(msg.to_string()))
    }

    /// T87: a lost connection is an outage (503), whatever variant reports it; a wrong statement is not.
    #[test]
    fn lost_connections_are_outages_and_wrong_statements_are_not() {
        for e in [
            db(DatabaseErrorKind::Unknown, "connection closed"),
            db(DatabaseErrorKind::Unknown, "FATAL: terminating connection due to administrator command"),
            db(DatabaseErrorKind::ClosedConnection, "anything"),
            DieselError::BrokenTransactionManager,
        ] {
            assert!(matches!(classify(e), StoreError::Unavailable(_)));
        }
        assert!(matches!(
            classify(db(DatabaseErrorKind::Unknown, "syntax error at or near \"SELEC\"")),
            StoreError::Internal(_)
        ));
        assert!(matches!(classify(DieselError::NotFound), StoreError::Internal(_)));
        assert!(matches!(classify(db(DatabaseErrorKind::UniqueViolation, "dup")), StoreError::UniqueViolation));
    }
}
