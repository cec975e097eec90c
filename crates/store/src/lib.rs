//! Talent's store adapter: the [`Store`] port on PostgreSQL (diesel-async, deadpool) or on embedded
//! SQLite (diesel's `SqliteConnection` behind diesel-async's `SyncConnectionWrapper`, bundled
//! libsqlite3, WAL, busy timeout, foreign keys). The backend is chosen at run time from
//! `DATABASE_URL` (D40): `postgres://...` or `sqlite://PATH`.
//!
//! Every use case runs in one transaction ([`Store::write`]); on SQLite writes begin with
//! `BEGIN IMMEDIATE` (storage-notes pitfall 2), on PostgreSQL limits are serialized by locking the
//! organization row. A client that disconnects cannot cancel a transaction half-way and leave a
//! connection with an open transaction: PostgreSQL's run in a task of their own, SQLite's on the
//! writer thread once queued ([`sqlite_group`], T301).

pub mod auth_cache;
pub mod endpoint_cache;
pub mod explain;
mod migrate;
mod notify;
pub mod pipeline;
mod pool;
pub mod schema;
mod sqlite_conn;
mod sqlite_group;
mod sqlite_rt;
mod sqlite_wal;
pub mod testing;
pub mod tx;
pub mod types;
mod worker_pools;

use diesel::sqlite::SqliteConnection;
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, ManagerConfig};
use diesel_async::sync_connection_wrapper::SyncConnectionWrapper;
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};
use pipeline::{Begun, PgPipe};
use pool::{Pool, Recent};
use std::hash::Hash;
use std::sync::Arc;
use std::time::Duration;
use talent_domain::api_key::KeyContext;
use talent_domain::connector::{Ats, Connection};
use talent_domain::errors::StoreError;
use talent_domain::ids::{ApiKeyId, OrgId};
use talent_domain::ports::{BoxFuture, PlainBox, SecretBox, Store, StoreResult, Tx};
use tokio::sync::Notify;
use tx::DbTx;

pub use migrate::{MIGRATION_LOCK, PG_MIGRATIONS, SQLITE_MIGRATIONS};
pub use notify::{AUTH_CHANNEL, PEER_WAKE_SPACING, WAKE_CHANNEL};
pub use sqlite_conn::SQLITE_PRAGMAS;
use sqlite_conn::{sqlite_path, sqlite_setup};
pub use worker_pools::JOBS_POOL;

/// The SQLite connection type used through diesel-async (write statements inline, T74).
pub type SqliteConn = SyncConnectionWrapper<SqliteConnection, sqlite_rt::SqliteRuntime>;

/// Which database a [`DbStore`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// PostgreSQL.
    Postgres,
    /// Embedded SQLite.
    Sqlite,
}

impl Backend {
    /// The backend `url` names: `postgres://` or `postgresql://`, `sqlite://` or `sqlite:`;
    /// `None` for any other scheme (which [`DbStore::connect`] refuses).
    pub fn of_url(url: &str) -> Option<Backend> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            sqlite_path(url).map(|_| Backend::Sqlite)
        }
    }
}

/// A PostgreSQL pool of at most `max_size` connections to `url`, each set up with [`PG_SESSION`].
/// Errors: the pool cannot be built.
fn pg_pool(url: &str, max_size: usize) -> StoreResult<Pool<AsyncPgConnection>> {
    let mut cfg = ManagerConfig::<AsyncPgConnection>::default();
    cfg.custom_setup = Box::new(|u: &str| {
        let u = u.to_string();
        Box::pin(async move {
            let mut c = AsyncPgConnection::establish(&u).await?;
            c.batch_execute(PG_SESSION).await.map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
            Ok(c)
        })
    });
    let mgr = AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(url, cfg);
    Pool::builder(Recent(mgr)).max_size(max_size).build().map_err(internal)
}

#[derive(Clone)]
enum Pools {
    Pg(Pool<AsyncPgConnection>),
    /// Reads, and writes: write transactions take their turn at the write gate ([`sqlite_group`]) and then one of
    /// the two write connections, so queued writers hold no connection that reads need. The write
    /// pool hands out the connection returned last: the writer's, whose page cache holds what the
    /// last commit wrote, not the checkpoint's (in turn, the two would each find the other's
    /// commit and start every transaction with an empty cache: 4-6 % of SQLite's imports).
    Sqlite {
        read: Pool<SqliteConn>,
        write: Pool<SqliteConn>,
    },
}

/// The store: a connection pool of one backend.
#[derive(Clone)]
pub struct DbStore {
    pools: Pools,
    url: String,
    /// Woken after a transaction that made deliveries due commits (see [`DbStore::delivery_wakeups`]).
    wake: Arc<Notify>,
    /// PostgreSQL: woken with [`DbStore::wake`] after such a commit, for the task that tells the
    /// other instances (`NOTIFY`, coalesced: [`PEER_WAKE_SPACING`], T294).
    peers: Arc<Notify>,
    /// SQLite: the in-process queue of write transactions (shared by every pool of this store).
    gate: Arc<sqlite_group::WriteQueue>,
    /// This store's writes queue ahead of the others on SQLite ([`DbStore::with_own_pool`]).
    priority: bool,
    /// API key contexts for authentication (T63) and the connections of ATS calls (T254), shared
    /// by every pool of this store.
    auth: Arc<auth_cache::Caches>,
    /// Seals secrets at rest ([`DbStore::set_secret_box`]).
    sealer: Arc<dyn SecretBox>,
    /// PostgreSQL's `max_connections` once read ([`DbTx::max_writers`]).
    max_writers: Arc<std::sync::atomic::AtomicU32>,
    /// The transaction id below which every committed event is numbered ([`DbTx::event_floor`]),
    /// shared by [`DbStore::with_own_pool`].
    event_floor: Arc<std::sync::atomic::AtomicU64>,
    /// This instance's name in its `NOTIFY` payloads (a UUID, shared by [`DbStore::with_own_pool`]):
    /// its own listener skips them, since the commit already woke the engine and emptied the
    /// cache in this process.
    instance: Arc<str>,
    /// Whether the database is reachable, shared by [`DbStore::with_own_pool`] (T87).
    health: Arc<Health>,
    /// PostgreSQL: the pools of the HTTP worker threads, once the request pool is divided among
    /// them ([`DbStore::divide_among_workers`], T283).
    workers: Arc<worker_pools::WorkerPools>,
}

/// Counters of the SQLite write queue ([`DbStore::write_stats`], T75).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteStats {
    /// Write transactions waiting for the write turn now.
    pub queued: usize,
    /// Groups run since the store was built (each one SQLite transaction).
    pub groups: u64,
    /// Write transactions run in those groups: `jobs / groups` is the mean group size.
    pub jobs: u64,
    /// How long the write turn has been held (a connection taken, the groups run), in total: its
    /// growth over a period, divided by the period, is how busy SQLite's single writer was (T238).
    pub held: Duration,
    /// Checkpoints of the write-ahead log run beside the writer since the store was built (T263).
    pub checkpoints: u64,
    /// Groups rolled back because one of their bodies failed after it had written, their other
    /// bodies run again each in a savepoint (T297).
    pub rerun: u64,
}

fn internal(e: impl std::fmt::Display) -> StoreError {
    StoreError::Internal(e.to_string())
}

/// Chooses one of the store's caches ([`DbStore::cached`]).
type Pick<K, V> = fn(&auth_cache::Caches) -> &auth_cache::TtlCache<K, V>;
/// Reads one entry of a cache from the database ([`DbStore::fill`]).
type Reader<K, V> = fn(&DbStore, K) -> BoxFuture<'static, StoreResult<Option<V>>>;

/// Whether the database answered the last connection checkout (T87). A checkout that fails
/// (refused, timed out, the server going away) is [`StoreError::Unavailable`]; the first one of an
/// outage logs one warning, the first success after it one line saying so, so that an outage
/// under load logs two lines rather than one per request.
#[derive(Default)]
pub struct Health {
    down: std::sync::atomic::AtomicBool,
}

impl Health {
    /// Records a failed checkout; returns the error to give the caller.
    pub fn failed(&self, e: impl std::fmt::Display) -> StoreError {
        metrics::counter!("talent_db_errors_total", "kind" => "unavailable").increment(1);
        if !self.down.swap(true, std::sync::atomic::Ordering::AcqRel) {
            tracing::warn!(error = %e, "database unavailable; answering 503 until it is back");
        }
        StoreError::Unavailable(e.to_string())
    }

    /// Records a successful checkout.
    pub fn ok(&self) {
        use std::sync::atomic::Ordering;
        if self.down.load(Ordering::Relaxed) && self.down.swap(false, Ordering::AcqRel) {
            tracing::warn!("database available again");
        }
    }
}

/// Per-connection PostgreSQL settings (T110). Every statement is planned with its parameters:
/// PostgreSQL otherwise switches a prepared statement to a generic plan after five executions
/// and keeps it for the connection's life, and a generic plan chosen while a table is new (no
/// statistics yet) picks any index that starts with `org_id` for `org_id = $1 AND email = $2`,
/// which then reads the organization's whole pool on every import (measured: 1.3 billion index
/// tuples read for 80,000 imports, throughput falling from 1,490 to 280 imports/s with
/// autovacuum off). Custom plans also suit a multi-tenant table where one organization has a
/// million persons and the next ten. Inside the store's write transactions the inserts, and the
/// few statements whose plan no value or table size changes, keep their plans
/// ([`pipeline`]'s `Plans`, T269).
const PG_SESSION: &str = "SET plan_cache_mode = force_custom_plan";

/// Error of a transaction body: the use case's own error or diesel's (begin/commit).
enum TxError<E> {
    App(E),
    Db(diesel::result::Error),
}

impl<E> From<diesel::result::Error> for TxError<E> {
    fn from(e: diesel::result::Error) -> Self {
        TxError::Db(e)
    }
}

impl<E: From<StoreError>> TxError<E> {
    fn into_app(self) -> E {
        match self {
            TxError::App(e) => e,
            TxError::Db(e) => E::from(tx::db_err(e)),
        }
    }
}

impl DbStore {
    /// Connects to `url` with a pool of at most `max_size` connections. Errors: an unsupported URL
    /// scheme, or the pool cannot be built. Connections are opened lazily.
    pub fn connect(url: &str, max_size: usize) -> StoreResult<Self> {
        let pools = if Backend::of_url(url) == Some(Backend::Postgres) {
            Pools::Pg(pg_pool(url, max_size)?)
        } else if let Some(path) = sqlite_path(url) {
            sqlite_wal::install();
            let manager = || {
                let mut cfg = ManagerConfig::<SqliteConn>::default();
                cfg.custom_setup = Box::new(|u: &str| {
                    let u = u.to_string();
                    Box::pin(async move {
                        let mut c = SqliteConn::establish(&u).await?;
                        sqlite_setup(&mut c).await.map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                        Ok(c)
                    })
                });
                Recent(AsyncDieselConnectionManager::<SqliteConn>::new_with_config(path, cfg))
            };
            Pools::Sqlite {
                read: Pool::builder(manager()).max_size(max_size).build().map_err(internal)?,
                write: Pool::builder(manager())
                    .max_size(2)
                    .queue_mode(deadpool::managed::QueueMode::Lifo)
                    .build()
                    .map_err(internal)?,
            }
        } else {
            return Err(StoreError::Internal(
                "DATABASE_URL must start with postgres://, postgresql:// or sqlite://".into(),
            ));
        };
        Ok(DbStore {
            pools,
            url: url.to_string(),
            wake: Arc::new(Notify::new()),
            peers: Arc::new(Notify::new()),
            gate: Arc::default(),
            priority: false,
            auth: Arc::default(),
            sealer: Arc::new(PlainBox),
            max_writers: Arc::default(),
            event_floor: Arc::default(),
            instance: uuid::Uuid::new_v4().to_string().into(),
            health: Arc::default(),
            workers: Arc::default(),
        })
    }

    /// Divides the request pool among `workers` HTTP worker threads (T283; PostgreSQL, nothing
    /// on SQLite): each thread that then calls [`DbStore::adopt_current_thread`] gets a pool of
    /// `max_size / workers` connections (rounded up), opened and driven on that thread, for the
    /// transactions begun there; the shared pool, which every other thread keeps using, shrinks
    /// to [`JOBS_POOL`] connections (or `max_size`, if smaller). Call once, before the workers
    /// start. Returns each worker's share (`None` on SQLite).
    pub fn divide_among_workers(&self, workers: usize) -> Option<usize> {
        let Pools::Pg(shared) = &self.pools else { return None };
        let max = shared.status().max_size;
        let share = self.workers.divide(max, workers);
        shared.resize(JOBS_POOL.min(max));
        Some(share)
    }

    /// Gives the calling thread (an HTTP worker, as it starts) its share of the request pool
    /// ([`DbStore::divide_among_workers`]); a thread that has one keeps it. Returns whether the
    /// thread has a pool of its own: `false` on SQLite, before the division, and past 64
    /// threads. Errors: the pool cannot be built.
    pub fn adopt_current_thread(&self) -> StoreResult<bool> {
        if !matches!(self.pools, Pools::Pg(_)) {
            return Ok(false);
        }
        self.workers.adopt(|share| pg_pool(&self.url, share))
    }

    /// The pools a transaction begun on this thread takes its connection from: the thread's own
    /// (T283) or the shared ones.
    fn pools_here(&self) -> Pools {
        match self.workers.of_this_thread() {
            Some(own) => Pools::Pg(own),
            None => self.pools.clone(),
        }
    }

    /// The outbox's and the email queue's [`tx::ops::Backlog`] at `now` (issue 17's gauges), on a
    /// read connection. Errors: the database's.
    pub async fn backlog(&self, now: time::OffsetDateTime) -> StoreResult<tx::ops::Backlog> {
        match &self.pools {
            Pools::Pg(pool) => {
                let c = pool.get().await.map_err(|e| self.health.failed(e))?;
                let mut pipe = PgPipe::new(&c);
                DbTx::new(&mut pipe, false).backlog(now).await
            }
            Pools::Sqlite { read, .. } => {
                let mut c = read.get().await.map_err(|e| self.health.failed(e))?;
                DbTx::new(&mut *c, false).backlog(now).await
            }
        }
    }

    /// The connection pools' state: (most connections, open, idle, tasks waiting for one), over
    /// both of SQLite's pools (issue 17).
    pub fn pool_status(&self) -> (usize, usize, usize, usize) {
        let of = |s: deadpool::Status| (s.max_size, s.size, s.available, s.waiting);
        match &self.pools {
            Pools::Pg(pool) => self
                .workers
                .statuses()
                .into_iter()
                .map(of)
                .fold(of(pool.status()), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)),
            Pools::Sqlite { read, write } => {
                let (a, b) = (of(read.status()), of(write.status()));
                (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)
            }
        }
    }

    /// The database URL this store connects to (as given to [`DbStore::connect`]).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The backend.
    pub fn backend(&self) -> Backend {
        match self.pools {
            Pools::Pg(_) => Backend::Postgres,
            Pools::Sqlite { .. } => Backend::Sqlite,
        }
    }

    /// A store on the same database with a pool of its own of `max_size` connections, sharing this
    /// store's wake-up signal and SQLite write queue, in which its writes go ahead of this store's:
    /// for the delivery engine, so that its claims and outcomes never queue behind a burst of API
    /// requests, for a connection or (SQLite) for the write lock (T60). Errors: as
    /// [`DbStore::connect`].
    pub fn with_own_pool(&self, max_size: usize) -> StoreResult<DbStore> {
        let mut other = DbStore::connect(&self.url, max_size)?;
        other.wake = self.wake.clone();
        other.peers = self.peers.clone();
        other.gate = self.gate.clone();
        other.auth = self.auth.clone();
        other.sealer = self.sealer.clone();
        other.instance = self.instance.clone();
        other.health = self.health.clone();
        other.event_floor = self.event_floor.clone();
        other.priority = true;
        Ok(other)
    }

    /// PostgreSQL: the transaction id below which every committed event has its sequence, as this
    /// process last learned it from its sequencer (0 until then, and on SQLite), T293.
    pub fn event_floor(&self) -> u64 {
        self.event_floor.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The SQLite write queue's counters (T75; all zero on PostgreSQL, whose transactions run side
    /// by side): for tests, the bench and operators.
    pub fn write_stats(&self) -> WriteStats {
        self.gate.stats()
    }

    /// How often imports found their organization's webhook endpoints in this store's cache
    /// (T272), since the store was built: for tests and the bench.
    pub fn endpoint_cache_stats(&self) -> endpoint_cache::EndpointCacheStats {
        self.gate.endpoints.stats()
    }

    /// Seals webhook signing secrets and server secrets with `sealer` from now on (issue 12; the
    /// app's AEAD keyed by `TALENT_SECRET_KEY`). Call before [`DbStore::with_own_pool`], whose
    /// store shares it. Without it secrets are stored as they are.
    pub fn set_secret_box(&mut self, sealer: Arc<dyn SecretBox>) {
        self.gate.set_sealer(sealer.clone());
        self.sealer = sealer;
    }

    /// Reads `key` from the database with `read` and stores what it found in the cache `pick`
    /// chooses, unless nothing was found or the cache was invalidated meanwhile.
    async fn fill<K, V>(&self, pick: Pick<K, V>, key: K, read: Reader<K, V>) -> StoreResult<Option<Arc<V>>>
    where
        K: Hash + Eq + Clone,
    {
        let cache = pick(&self.auth);
        let (gen, started) = (cache.generation(), std::time::Instant::now());
        let found = read(self, key.clone()).await?.map(Arc::new);
        if let Some(v) = &found {
            cache.put(&key, v, gen, started);
        }
        Ok(found)
    }

    /// `key` from the cache `pick` chooses when fresh; otherwise one read ([`DbStore::fill`]).
    /// Concurrent misses of one key share one read; an entry past half its TTL is read again in
    /// the background while every caller is served the entry (no herd, see
    /// [`auth_cache::TtlCache`]). The cache is looked up before any future is made: a hit, every
    /// authenticated request but the first of a key, allocates only its answer's future (24
    /// bytes), not one that could run a read (376 bytes, T321).
    fn cached<'s, K, Q, V>(
        &'s self,
        pick: Pick<K, V>,
        key: &Q,
        read: Reader<K, V>,
    ) -> BoxFuture<'s, StoreResult<Option<Arc<V>>>>
    where
        K: Hash + Eq + Clone + Send + Sync + std::borrow::Borrow<Q> + 'static,
        Q: ?Sized + Hash + Eq + ToOwned<Owned = K>,
        V: Send + Sync + 'static,
    {
        let cache = pick(&self.auth);
        match cache.lookup(key) {
            auth_cache::Lookup::Fresh(v) => Box::pin(std::future::ready(Ok(Some(v)))),
            // The entry is still within its TTL: it is served now, and read again by a task of its
            // own, so that no caller waits for the refresh (under a saturated CPU a read can take
            // 100 ms and more; a failed refresh only lets the entry expire).
            auth_cache::Lookup::Refresh(v) => {
                let (store, key) = (self.clone(), key.to_owned());
                tokio::spawn(async move {
                    if let Err(e) = store.fill(pick, key, read).await {
                        tracing::debug!(error = %e, "authentication cache refresh failed");
                    }
                });
                Box::pin(std::future::ready(Ok(Some(v))))
            }
            auth_cache::Lookup::Miss => {
                let key = key.to_owned();
                Box::pin(async move {
                    let flight = cache.flight::<K>(&key);
                    let found = flight.get_or_init(|| self.fill(pick, key.clone(), read)).await.clone();
                    cache.land::<K>(&key, &flight);
                    found
                })
            }
        }
    }

    /// Sets how long the authentication cache serves an entry (T63; `TALENT_AUTH_CACHE_MS`,
    /// [`Duration::ZERO`] turns it off). Call before [`DbStore::with_own_pool`], whose store shares
    /// the cache.
    pub fn set_auth_cache_ttl(&mut self, ttl: Duration) {
        self.auth = Arc::new(auth_cache::Caches::new(ttl));
    }
}

impl Store for DbStore {
    fn write<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Clone + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (pools, wake, gate, priority) = (self.pools_here(), self.wake.clone(), self.gate.clone(), self.priority);
        let peers = self.peers.clone();
        let (auth, health, learner) = (self.auth.clone(), self.health.clone(), self.gate.endpoints.clone());
        let floor = self.event_floor.clone();
        // After a commit, before the caller is answered: an answered revocation is in force here.
        let committed = move |after: tx::AfterCommit| {
            if after.wake {
                wake.notify_one();
                peers.notify_one();
            }
            if let Some(below) = after.numbered_below {
                floor.fetch_max(below, std::sync::atomic::Ordering::Relaxed);
            }
            auth.committed(after.auth_changed, &after.touched);
            for (org, version, list) in after.learned {
                learner.learn(org, version, list);
            }
        };
        let started = std::time::Instant::now();
        let timed = move |r: Result<R, E>| {
            metrics::histogram!("talent_db_transaction_duration_seconds", "kind" => "write")
                .record(started.elapsed().as_secs_f64());
            r
        };
        let pool = match pools {
            // Queued straight from the caller's task (T301): the writer thread runs the job
            // whether or not the caller still waits for its answer, so no task of its own is
            // needed to finish it (that task, sized for PostgreSQL's transaction, cost an
            // allocation and copies of about 7 KiB per import).
            Pools::Sqlite { write, .. } => {
                return Box::pin(async move {
                    timed(sqlite_group::write(&gate, &write, &health, priority, f, committed).await)
                });
            }
            Pools::Pg(pool) => pool,
        };
        let (max_writers, instance, sealer) = (self.max_writers.clone(), self.instance.clone(), self.sealer.clone());
        let (endpoints, floor_here) = (self.gate.endpoints.clone(), self.event_floor.clone());
        // PostgreSQL's transaction runs in a task of its own, so that a caller that stops waiting
        // (its client gone) never leaves it half-way.
        let task = tokio::spawn(tracing::Instrument::in_current_span(async move {
            let pooled = pool.get().await.map_err(|e| E::from(health.failed(e)))?;
            health.ok();
            // `BEGIN` goes with the first statement and `COMMIT` with the last writes
            // (T266); a transaction that fails is rolled back, and one that cannot be
            // (or a use case that panics) takes its connection out of the pool.
            let begun = Begun::new(pooled);
            let (out, sent) = {
                let mut pipe = PgPipe::begin(begun.conn());
                let mut tx = DbTx::with_writers(&mut pipe, true, max_writers)
                    .sealed(sealer)
                    .cached(endpoints)
                    .floored(floor_here);
                match f(&mut tx).await {
                    Ok(r) => {
                        let flags = tx.after_commit();
                        // Delivered to every listener when (and only if) this
                        // transaction commits. (Delivery wake-ups go to the other
                        // instances after the commit, coalesced: `peers`.)
                        if flags.auth_changed {
                            pipe.defer_sql(format!("NOTIFY {AUTH_CHANNEL}, '{instance}'"));
                        }
                        pipe.defer_sql("COMMIT".into());
                        let done = pipe.flush().await;
                        (done.map(|()| (r, flags)).map_err(|e| E::from(tx::db_err(e))), true)
                    }
                    // Failed before its first statement: nothing was begun.
                    Err(e) => (Err(e), pipe.has_sent()),
                }
            };
            match out {
                Ok((r, flags)) => {
                    begun.ended();
                    committed(flags);
                    Ok(r)
                }
                Err(e) if !sent => {
                    begun.ended();
                    Err(e)
                }
                Err(e) => {
                    begun.rollback().await;
                    Err(e)
                }
            }
        }));
        Box::pin(async move { timed(task.await.map_err(|e| E::from(internal(e)))?) })
    }

    fn read<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (pools, sealer, health) = (self.pools_here(), self.sealer.clone(), self.health.clone());
        let floor = self.event_floor.clone();
        let task = tokio::spawn(tracing::Instrument::in_current_span(async move {
            match pools {
                Pools::Pg(pool) => {
                    let conn = pool.get().await.map_err(|e| E::from(health.failed(e)))?;
                    health.ok();
                    let mut pipe = PgPipe::new(&conn);
                    let mut tx = DbTx::new(&mut pipe, false).sealed(sealer).floored(floor);
                    let r = f(&mut tx).await;
                    // A write in a read (each statement its own transaction) is sent too.
                    pipe.flush().await.map_err(|e| E::from(tx::db_err(e)))?;
                    r
                }
                Pools::Sqlite { read, .. } => {
                    let mut conn = read.get().await.map_err(|e| E::from(health.failed(e)))?;
                    health.ok();
                    let mut tx = DbTx::new(&mut *conn, false).sealed(sealer);
                    f(&mut tx).await
                }
            }
        }));
        let started = std::time::Instant::now();
        Box::pin(async move {
            let r = task.await.map_err(|e| E::from(internal(e)))?;
            metrics::histogram!("talent_db_transaction_duration_seconds", "kind" => "read")
                .record(started.elapsed().as_secs_f64());
            r
        })
    }

    /// On SQLite in the caller's task, its statements on the calling thread (T327): a read by key
    /// takes microseconds, less than the blocking pool's hop there and back per statement that
    /// [`Store::read`] makes so that a long read never holds up an HTTP worker. Readers of a
    /// database in WAL mode wait for no writer. On PostgreSQL, [`Store::read`].
    fn read_by_key<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let read = match &self.pools {
            Pools::Sqlite { read, .. } => read.clone(),
            Pools::Pg(_) => return self.read(f),
        };
        let (sealer, health) = (self.sealer.clone(), self.health.clone());
        Box::pin(async move {
            let started = std::time::Instant::now();
            let mut conn = read.get().await.map_err(|e| E::from(health.failed(e)))?;
            health.ok();
            let mut tx = DbTx::new(&mut *conn, false).sealed(sealer);
            let r = sqlite_rt::inline(f(&mut tx)).await;
            metrics::histogram!("talent_db_transaction_duration_seconds", "kind" => "read")
                .record(started.elapsed().as_secs_f64());
            r
        })
    }

    /// Served from the [`auth_cache::AuthCache`] when fresh (T63); otherwise one read, stored if
    /// the key exists and nothing invalidated the cache meanwhile ([`DbStore::cached`]).
    fn key_context<'s>(&'s self, prefix: &'s str) -> BoxFuture<'s, StoreResult<Option<Arc<KeyContext>>>> {
        fn read(store: &DbStore, prefix: String) -> BoxFuture<'static, StoreResult<Option<KeyContext>>> {
            let store = store.clone();
            Box::pin(
                async move { store.read(move |tx| Box::pin(async move { tx.find_key_context(&prefix).await })).await },
            )
        }
        self.cached(|c| &c.keys, prefix, read)
    }

    /// Served from the [`auth_cache::ConnectionCache`] when fresh (T254), as
    /// [`Store::key_context`]; otherwise [`talent_domain::connector::call_connection`] in one read.
    fn call_connection(
        &self,
        key: ApiKeyId,
        org: OrgId,
        ats: Ats,
    ) -> BoxFuture<'_, StoreResult<Option<Arc<Connection>>>> {
        fn read(
            store: &DbStore,
            (key, org, ats): (ApiKeyId, OrgId, Ats),
        ) -> BoxFuture<'static, StoreResult<Option<Connection>>> {
            let store = store.clone();
            Box::pin(async move {
                store
                    .read(move |tx| {
                        Box::pin(async move { talent_domain::connector::call_connection(tx, key, org, ats).await })
                    })
                    .await
            })
        }
        self.cached(|c| &c.connections, &(key, org, ats), read)
    }

    fn ready(&self) -> BoxFuture<'_, StoreResult<()>> {
        Box::pin(async move {
            match &self.pools {
                Pools::Pg(pool) => {
                    let mut c = pool.get().await.map_err(|e| self.health.failed(e))?;
                    c.batch_execute("SELECT 1").await.map_err(tx::db_err)?;
                }
                Pools::Sqlite { read, .. } => {
                    let mut c = read.get().await.map_err(|e| self.health.failed(e))?;
                    c.batch_execute("SELECT 1").await.map_err(tx::db_err)?;
                }
            }
            match self.pending_migrations().await? {
                0 => Ok(()),
                n => Err(StoreError::Internal(format!("{n} migrations pending"))),
            }
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// A connection's `cache_size` (its page cache, in KiB when negative).
    async fn cache_size(c: &mut SqliteConn) -> i64 {
        #[derive(diesel::QueryableByName)]
        struct Row {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            cache_size: i64,
        }
        let rows: Vec<Row> = diesel_async::RunQueryDsl::load(diesel::sql_query("PRAGMA cache_size"), c).await.unwrap();
        rows[0].cache_size
    }

    /// The SQLite write pool hands out the connection returned last, so that the writer keeps the
    /// warm page cache of its own last commit while the checkpoint's connection waits.
    #[tokio::test]
    async fn the_sqlite_write_pool_hands_out_the_connection_returned_last() {
        let path = std::env::temp_dir().join(format!("talent-lifo-{}.db", uuid::Uuid::new_v4()));
        let store = DbStore::connect(&format!("sqlite://{}", path.display()), 2).unwrap();
        let Pools::Sqlite { write, .. } = &store.pools else { unreachable!("a SQLite store") };
        let mut first = write.get().await.unwrap();
        let mut last = write.get().await.unwrap();
        first.batch_execute("PRAGMA cache_size = -1111").await.unwrap();
        last.batch_execute("PRAGMA cache_size = -2222").await.unwrap();
        drop(first);
        drop(last);
        for _ in 0..3 {
            let mut c = write.get().await.unwrap();
            assert_eq!(cache_size(&mut c).await, -2222, "the connection returned last");
        }
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
