//! The [`Tx`] port implemented once, expanded per backend by `impl_tx!` (the same query code runs
//! on PostgreSQL and SQLite; anything that exists on one backend only fails to compile here).
//! Backend-specific pieces (row locks, batch statements) are inherent methods of each connection's
//! `DbTx`, in the file of the aggregate they serve; each aggregate's rows are beside its
//! repository (`*_rows.rs`). This file keeps the error mapping and the helpers every repository
//! uses ([`DbTx::exec`], [`DbTx::run`], [`DbTx::load_one`], [`DbTx::load_all`], [`DbTx::lock_rows`]);
//! `direct.rs` has their variants for statements that own their binds, which SQLite runs on its
//! connection itself (the import's and the order's, T249).

use crate::endpoint_cache::{EndpointCache, EndpointsVersion};
use crate::pipeline::PgPipe;
use crate::schema::*;
use crate::types::{DbTime, DbUuid};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::methods::{ExecuteDsl, LoadQuery};
use diesel_async::{AsyncConnectionCore, RunQueryDsl};
use std::future::Future;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
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
use talent_domain::webhook::{AttemptOutcome, Delivery, DeliveryStatus, Endpoint, EndpointKind};
use time::OffsetDateTime;

/// Maps diesel's errors onto the port's: unique violations become `UniqueViolation`; a lost
/// connection or a server that is going away, starting up or (SQLite) locked beyond the busy
/// timeout becomes `Unavailable` (answered 503, T87), and so does a transaction PostgreSQL
/// aborted to resolve contention (a deadlock, a serialization failure: T274), logged as a
/// warning; anything else `Internal`.
pub fn db_err(e: DieselError) -> StoreError {
    if is_contention(&e) {
        metrics::counter!("talent_db_errors_total", "kind" => "contention").increment(1);
        tracing::warn!(error = %e, "the database aborted a transaction to resolve contention; answered 503");
        return StoreError::Unavailable(e.to_string());
    }
    let err = classify(e);
    let kind = match &err {
        StoreError::UniqueViolation => "unique_violation",
        StoreError::Unavailable(_) => "unavailable",
        StoreError::Internal(_) => "internal",
    };
    metrics::counter!("talent_db_errors_total", "kind" => kind).increment(1);
    err
}

/// Whether PostgreSQL aborted the transaction to let others go on (T274): a deadlock (SQLSTATE
/// 40P01, which diesel reports by its message only) or a serialization failure (40001). Nothing
/// of it was committed and the same request sent again runs anew, so the client is told to
/// retry (503 with `Retry-After`), not that the service failed.
fn is_contention(e: &DieselError) -> bool {
    match e {
        DieselError::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => true,
        DieselError::DatabaseError(_, info) => info.message().starts_with("deadlock detected"),
        _ => false,
    }
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
    const SIGNS: [&str; 12] = [
        "terminating connection",
        // tokio-postgres's I/O error: the socket failed in the middle of an exchange (seen when
        // PostgreSQL stopped under `make chaos`).
        "error communicating with the server",
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

/// The error of a stored value that does not parse back.
pub(crate) fn corrupt(what: &str) -> StoreError {
    StoreError::Internal(format!("corrupt row: {what}"))
}

/// Stored accommodations (T218; JSON text) read back; `what` names the column when they do not
/// parse (corrupt data).
pub(crate) fn stored_accommodations(v: Option<String>, what: &str) -> Result<Option<Accommodations>, StoreError> {
    v.map(|a| {
        serde_json::from_str(&a).ok().and_then(|j| Accommodations::from_json(&j).ok()).ok_or_else(|| corrupt(what))
    })
    .transpose()
}

/// What a committed transaction asks of this process ([`DbTx::after_commit`]): wake the delivery
/// engines (T60), empty the authentication caches (T63), forget cached connections whose
/// activity it stamped (T254), keep the endpoints it listed (T272).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AfterCommit {
    /// [`DbTx::wake`].
    pub wake: bool,
    /// [`DbTx::auth_changed`].
    pub auth_changed: bool,
    /// [`DbTx::touched`].
    pub touched: Vec<ConnectionId>,
    /// [`DbTx::learned`].
    pub learned: Vec<Learned>,
    /// [`DbTx::numbered_below`].
    pub numbered_below: Option<u64>,
}

/// Endpoints a transaction listed at a known [`EndpointsVersion`], for the store's
/// [`EndpointCache`] once it commits (T272).
pub type Learned = (OrgId, EndpointsVersion, Arc<Vec<Endpoint>>);

impl AfterCommit {
    /// Adds what another committed job of the same group asks.
    pub fn merge(&mut self, other: AfterCommit) {
        self.wake |= other.wake;
        self.auth_changed |= other.auth_changed;
        self.touched.extend(other.touched);
        self.learned.extend(other.learned);
    }
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
    /// Set by writes that change what authentication reads (an organization, a key's revocation,
    /// a connection): the authentication caches are emptied after commit (T63, T254).
    pub auth_changed: bool,
    /// The connections whose activity stamp this transaction wrote (`touch_connection`): their
    /// cached entries are forgotten after commit (T254).
    pub touched: Vec<ConnectionId>,
    /// PostgreSQL's `max_connections` once read (0: not yet), shared by the store's transactions:
    /// it changes only with a server restart, so it is read once, not per import (T65, T66).
    pub max_writers: Arc<AtomicU32>,
    /// Seals webhook signing secrets and server secrets on write, opens them on read (issue 12).
    pub sealer: Arc<dyn SecretBox>,
    /// The webhook endpoints of an organization as this transaction last listed them: a use case
    /// that appends several events fans them out after one read (T203). Emptied by every write
    /// of an endpoint in this transaction.
    pub(crate) endpoints_of: Option<(OrgId, Vec<Endpoint>)>,
    /// The store's endpoints of organizations by their endpoints version (T272); `None` for a
    /// transaction made without [`DbTx::cached`] (its fan-outs read the endpoints).
    pub(crate) endpoint_cache: Option<Arc<EndpointCache>>,
    /// Endpoints this transaction listed at a version that did not move while it read them: the
    /// store's cache learns them after the commit.
    pub learned: Vec<Learned>,
    /// PostgreSQL: a transaction id below which every committed event has its sequence, shared by
    /// the store's transactions (0: not known yet, so from the first). The sequencer reads the
    /// events not numbered yet from there ([`DbTx::numbered_below`], T293).
    pub event_floor: Arc<AtomicU64>,
    /// Set by a sequencer that numbered every event it saw: the oldest transaction still running
    /// before it looked. Once this transaction commits, every event written by an older one has
    /// its number, and the store's [`DbTx::event_floor`] moves up to it.
    pub numbered_below: Option<u64>,
}

impl<'c, C> DbTx<'c, C> {
    /// A transaction handle on `conn`; `write` as [`DbTx::write`]; secrets stored as they are
    /// until [`DbTx::sealed`].
    pub fn new(conn: &'c mut C, write: bool) -> Self {
        DbTx {
            conn,
            write,
            wake: false,
            auth_changed: false,
            touched: Vec::new(),
            max_writers: Arc::default(),
            sealer: Arc::new(PlainBox),
            endpoints_of: None,
            endpoint_cache: None,
            learned: Vec::new(),
            event_floor: Arc::default(),
            numbered_below: None,
        }
    }

    /// What this transaction asks of the process once it commits.
    pub fn after_commit(&self) -> AfterCommit {
        AfterCommit {
            wake: self.wake,
            auth_changed: self.auth_changed,
            touched: self.touched.clone(),
            learned: self.learned.clone(),
            numbered_below: self.numbered_below,
        }
    }

    /// This handle with the store's `cache` of endpoints ([`DbTx::endpoint_cache`]).
    pub fn cached(mut self, cache: Arc<EndpointCache>) -> Self {
        self.endpoint_cache = Some(cache);
        self
    }

    /// This handle with the store's `floor` ([`DbTx::event_floor`]).
    pub fn floored(mut self, floor: Arc<AtomicU64>) -> Self {
        self.event_floor = floor;
        self
    }

    /// This handle with `sealer` ([`DbTx::sealer`]).
    pub fn sealed(mut self, sealer: Arc<dyn SecretBox>) -> Self {
        self.sealer = sealer;
        self
    }

    /// `text` as stored: every live link token sealed (D52, T129).
    pub(crate) fn conceal(&self, text: &str) -> String {
        talent_domain::at_rest::conceal_links(text, &*self.sealer)
    }

    /// A stored text as it was given ([`DbTx::conceal`] undone).
    pub(crate) fn reveal(&self, text: &str) -> String {
        talent_domain::at_rest::reveal_links(text, &*self.sealer)
    }

    /// As [`DbTx::new`], sharing `max_writers` ([`DbTx::max_writers`]) with the store.
    pub fn with_writers(conn: &'c mut C, write: bool, max_writers: Arc<AtomicU32>) -> Self {
        DbTx { max_writers, ..DbTx::new(conn, write) }
    }
}

// The shapes every repository repeats, written once (generic over the backend's connection). They
// return `impl Future + Send` rather than being `async fn`s: the ports' boxed futures must be
// `Send`, which the compiler cannot show at the call sites for a generic `async fn` holding a
// query that borrows (`&str`) ("implementation of `Send` is not general enough").
#[allow(clippy::manual_async_fn)] // the declared `Send` is the point
impl<'c, C: AsyncConnectionCore + Send> DbTx<'c, C> {
    /// Runs an INSERT, UPDATE or DELETE; how many rows it touched.
    pub(crate) fn exec<'a, Q>(&'a mut self, q: Q) -> impl Future<Output = StoreResult<usize>> + Send + 'a
    where
        Q: ExecuteDsl<C> + 'a,
    {
        let run = q.execute(self.conn);
        async move { run.await.map_err(db_err) }
    }

    /// [`DbTx::exec`] where the count does not matter.
    pub(crate) fn run<'a, Q>(&'a mut self, q: Q) -> impl Future<Output = StoreResult<()>> + Send + 'a
    where
        Q: ExecuteDsl<C> + 'a,
    {
        let run = q.execute(self.conn);
        async move { run.await.map(|_| ()).map_err(db_err) }
    }

    /// Runs `q` (a `SELECT id ... FOR UPDATE` or the like) in a write transaction, so that its rows
    /// stay locked until the transaction ends; a read transaction locks nothing.
    pub(crate) fn lock_rows<'a, Q>(
        &'a mut self,
        q: Q,
    ) -> impl Future<Output = StoreResult<()>> + Send + use<'a, 'c, C, Q>
    where
        Q: LoadQuery<'a, C, DbUuid> + Send + 'a,
    {
        async move {
            if self.write {
                let _: Vec<DbUuid> = q.load(self.conn).await.map_err(db_err)?;
            }
            Ok(())
        }
    }

    /// The row `q` selects if there is one, converted by `f` (given this transaction, whose
    /// sealer opens what is stored sealed; [`conv`] for a plain conversion).
    pub(crate) fn load_one<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Option<T>>> + Send + use<'a, 'c, C, R, T, Q, F>
    where
        Q: LoadQuery<'a, C, R> + Send + 'a,
        R: Send + 'static,
        T: 'a,
        F: FnOnce(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        async move {
            let row = q.get_result(self.conn).await.optional().map_err(db_err)?;
            row.map(|r| f(self, r)).transpose()
        }
    }

    /// The rows `q` selects, each converted by `f` (as in [`DbTx::load_one`]).
    pub(crate) fn load_all<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Vec<T>>> + Send + use<'a, 'c, C, R, T, Q, F>
    where
        Q: LoadQuery<'a, C, R> + Send + 'a,
        R: Send + 'static,
        T: 'a,
        F: Fn(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        async move {
            let rows: Vec<R> = q.load(self.conn).await.map_err(db_err)?;
            rows.into_iter().map(|r| f(self, r)).collect()
        }
    }
}

/// The SQL dialect of a transaction handle: its connection's backend (for the query builders a
/// repository shares with [`crate::DbStore::explain_persons`]).
pub(crate) trait Dialect {
    /// `diesel::pg::Pg` or `diesel::sqlite::Sqlite`.
    type Backend: diesel::backend::Backend;
}

impl<C: AsyncConnectionCore> Dialect for DbTx<'_, C> {
    type Backend = C::Backend;
}

/// The active persons of an organization from its counter rows (T69: one per shard).
pub(crate) fn active_of_shards(shards: &[i64]) -> u32 {
    let n = shards.iter().fold(0i64, |a, b| a.saturating_add(*b));
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The plain conversion of a row into its entity, for [`DbTx::load_one`] and [`DbTx::load_all`].
pub(crate) fn conv<X, R, T: TryFrom<R, Error = StoreError>>(_: &X, r: R) -> StoreResult<T> {
    T::try_from(r)
}

/// Deletes the oldest rows of `$table` whose `$at` is before `$before`, at most `$limit` of them
/// (a retention batch: their ids first, then one DELETE); evaluates to how many went.
macro_rules! purge_oldest {
    ($tx:expr, $table:ident, $at:ident, $before:expr, $limit:expr) => {{
        let oldest = $table::table.filter($table::$at.lt(DbTime($before))).order($table::$at.asc());
        let ids = $tx.load_all(oldest.limit(i64::from($limit)).select($table::id), |_, id: DbUuid| Ok(id)).await?;
        $tx.exec(diesel::delete($table::table.filter($table::id.eq_any(&ids)))).await
    }};
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

/// The endpoints version of organization `$org` ([`EndpointsVersion`], T272) as a scalar subquery
/// that a query of the organization's row selects beside it: one index probe, no statement of
/// its own.
macro_rules! endpoints_version {
    ($org:expr) => {
        webhook_endpoint_versions::table
            .filter(webhook_endpoint_versions::org_id.eq(DbUuid($org.0)))
            .select(webhook_endpoint_versions::version)
            .single_value()
    };
}

// The ports, one file per aggregate (issue 14 point 2), each with its rows beside it
// (`*_rows.rs`: the row structs and their conversions); declared last, after the helpers above
// that their bodies use.
mod assessment_repo;
pub mod assessment_rows;
mod connector_repo;
pub mod connector_rows;
mod direct;
pub mod email_idna;
mod email_repo;
pub mod email_rows;
mod idempotency_repo;
pub mod idempotency_rows;
mod invitation_repo;
pub mod invitation_rows;
pub mod ops;
mod org_repo;
pub mod org_rows;
mod outbox_repo;
pub mod outbox_rows;
mod person_repo;
pub mod person_rows;
mod prepared;
pub(crate) use prepared::{Fixed, Prepared};
mod privacy_repo;
mod session_repo;
pub mod session_rows;
mod settings_repo;
mod webhook_repo;
pub mod webhook_rows;
use assessment_rows::*;
use connector_rows::*;
use email_rows::*;
use idempotency_rows::*;
use invitation_rows::*;
use org_rows::*;
use outbox_rows::*;
use person_repo::PersonKey;
use person_rows::*;
use session_rows::*;
use webhook_rows::*;

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
            db(DatabaseErrorKind::Unknown, "error communicating with the server"),
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

    /// T274: a transaction the database aborted to resolve contention is retried by the client
    /// (503), not reported as the service's failure; what the real server says is tested in
    /// `tests/pipeline.rs`.
    #[test]
    fn deadlocks_and_serialization_failures_are_temporary() {
        for e in [
            db(DatabaseErrorKind::Unknown, "deadlock detected"),
            db(DatabaseErrorKind::SerializationFailure, "could not serialize access due to concurrent update"),
        ] {
            assert!(matches!(db_err(e), StoreError::Unavailable(_)));
        }
        assert!(matches!(
            db_err(db(DatabaseErrorKind::Unknown, "a deadlock detected in a name")),
            StoreError::Internal(_)
        ));
    }
}
