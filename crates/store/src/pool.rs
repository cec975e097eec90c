//! The connection pools' manager: diesel-async's, except that its liveness check (a `SELECT 1`
//! round trip at every checkout) is skipped for a connection checked out less than [`FRESH`] ago
//! (T66). Under load every checkout found a connection used a few milliseconds earlier, and the
//! check was one statement in every fifteen an import sent to PostgreSQL. A connection that broke
//! during its last use is still never handed out (`is_broken`), and one idle for longer is checked
//! as before, so a database restart costs at most the requests already under way.

use deadpool::managed::{Manager, Metrics, RecycleResult};
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, PoolError, PoolableConnection};
use diesel_async::AsyncPgConnection;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// A checkout within this long of the previous one skips the liveness check.
pub const FRESH: Duration = Duration::from_secs(1);

/// A pool of `C` managed by [`Recent`].
pub type Pool<C> = deadpool::managed::Pool<Recent<C>>;

/// diesel-async's connection manager with the liveness check skipped for recently used
/// connections (see the module doc).
pub struct Recent<C>(pub AsyncDieselConnectionManager<C>);

impl<C> Manager for Recent<C>
where
    C: PoolableConnection + Send + 'static,
    AsyncDieselConnectionManager<C>: Manager<Type = C, Error = PoolError>,
{
    type Type = C;
    type Error = PoolError;

    async fn create(&self) -> Result<C, PoolError> {
        self.0.create().await
    }

    async fn recycle(&self, conn: &mut C, metrics: &Metrics) -> RecycleResult<PoolError> {
        if metrics.last_used() < FRESH && !conn.is_broken() && !std::thread::panicking() {
            return Ok(());
        }
        self.0.recycle(conn, metrics).await
    }
}

/// PostgreSQL's connection pools (T243): a shared pool, and optionally one pool per thread that
/// serves requests (the HTTP workers, each a current-thread runtime).
///
/// tokio-postgres drives each connection from a task spawned where the connection was opened;
/// every statement is handed to that task and every answer handed back. When the task runs on
/// another thread than the transaction (a connection opened by a background job on the
/// multi-thread runtime, or by another worker), each round trip wakes two threads instead of
/// one: measured on an import (ten round trips), 650-690 µs of the service's CPU against
/// 520-530 µs with the worker's own connections. So a worker that has [`PgPools::take`]n a pool
/// opens and uses its own connections; when all of them are busy it borrows from another
/// worker's pool that can serve at once (an idle connection, or room for one), and only when
/// none can does it wait for its own. Every other thread (start-up, background jobs, a worker
/// beyond the pools made) uses the shared pool.
#[derive(Clone)]
pub struct PgPools {
    shared: Pool<AsyncPgConnection>,
    threads: Arc<ThreadPools>,
}

/// The per-thread pools of one [`PgPools`], and which of them no thread holds.
struct ThreadPools {
    /// Tells this set's entries apart in a thread's [`TAKEN`].
    id: usize,
    pools: Vec<Pool<AsyncPgConnection>>,
    free: Mutex<Vec<usize>>,
}

/// A thread's hold on pool `index` of the [`ThreadPools`] `id`; given back when the thread ends
/// (a worker that actix restarts after a panic takes it again).
struct Taken {
    id: usize,
    index: usize,
    owner: Weak<ThreadPools>,
}

impl Drop for Taken {
    fn drop(&mut self) {
        if let Some(owner) = self.owner.upgrade() {
            owner.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(self.index);
        }
    }
}

thread_local! {
    /// The thread pools this thread holds, one per [`PgPools`] it took one of.
    static TAKEN: RefCell<Vec<Taken>> = const { RefCell::new(Vec::new()) };
}

/// Tells [`ThreadPools`] apart.
static NEXT_ID: AtomicUsize = AtomicUsize::new(0);

impl PgPools {
    /// `shared` only: every thread uses it.
    pub fn new(shared: Pool<AsyncPgConnection>) -> Self {
        PgPools { shared, threads: Self::set(Vec::new()) }
    }

    /// `shared`, and `threads` pools for threads to [`PgPools::take`].
    pub fn with_threads(shared: Pool<AsyncPgConnection>, threads: Vec<Pool<AsyncPgConnection>>) -> Self {
        PgPools { shared, threads: Self::set(threads) }
    }

    fn set(pools: Vec<Pool<AsyncPgConnection>>) -> Arc<ThreadPools> {
        let free = Mutex::new((0..pools.len()).rev().collect());
        Arc::new(ThreadPools { id: NEXT_ID.fetch_add(1, Ordering::Relaxed), pools, free })
    }

    /// Gives the calling thread a pool of its own, if one is free; whether it has one now.
    pub fn take(&self) -> bool {
        let set = &self.threads;
        TAKEN.with(|t| {
            let mut t = t.borrow_mut();
            if t.iter().any(|x| x.id == set.id) {
                return true;
            }
            let Some(index) = set.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop() else {
                return false;
            };
            t.push(Taken { id: set.id, index, owner: Arc::downgrade(set) });
            true
        })
    }

    /// The pool for a transaction on the calling thread (see the type's documentation).
    pub fn pick(&self) -> &Pool<AsyncPgConnection> {
        let set = &self.threads;
        let own = TAKEN.with(|t| t.borrow().iter().find(|x| x.id == set.id).map(|x| x.index));
        let Some(own) = own.and_then(|i| set.pools.get(i)) else { return &self.shared };
        let ready = |p: &Pool<AsyncPgConnection>| {
            let s = p.status();
            s.available > 0 || s.size < s.max_size
        };
        if ready(own) {
            return own;
        }
        set.pools.iter().find(|p| ready(p)).unwrap_or(own)
    }

    /// Every pool: the shared one first.
    pub fn all(&self) -> impl Iterator<Item = &Pool<AsyncPgConnection>> {
        std::iter::once(&self.shared).chain(self.threads.pools.iter())
    }
}
