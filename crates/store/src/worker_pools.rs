//! PostgreSQL connections of each HTTP worker thread (T283).
//!
//! A PostgreSQL connection of diesel-async is a client handle and a task that drives its socket,
//! spawned on the runtime of whichever task opened it. With one pool for the whole process, the
//! connection a request took was most often driven by another thread: the service's own runtime
//! (where start-up and background jobs opened connections) or the other HTTP worker. Every
//! statement then crossed threads twice (the request to the driving task, the answer back), each
//! crossing a wake-up of a sleeping thread: under 32 clients importing, about ten context switches
//! per import, and the service's CPU per import 30 % higher than with the connections driven on
//! the thread that uses them.
//!
//! So the store's request pool can be divided among the HTTP workers
//! ([`crate::DbStore::divide_among_workers`]): each worker thread, as it starts, adopts a pool of
//! its share of the connections ([`crate::DbStore::adopt_current_thread`]), which it opens
//! itself, so that their driving tasks run on it; every transaction begun on that thread takes
//! its connection there. Other threads (the runtime of the background jobs, the admin listener's
//! worker) keep the shared pool, which the division shrinks to [`JOBS_POOL`] connections.
//! SQLite's connections run their statements on the calling thread already: nothing changes
//! there.

use crate::pool::Pool;
use diesel_async::AsyncPgConnection;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread::ThreadId;
use talent_domain::errors::StoreError;

/// The most threads given a pool of their own (a worker restarted after a panic is a new
/// thread); the threads after them use the shared pool.
pub(crate) const MAX_WORKERS: usize = 64;

/// Connections of the shared pool once the request pool is divided among the workers: for the
/// background jobs (the email job, the sweeps, the sequencer, the ATS polls), each of which runs
/// one transaction at a time, and the admin listener.
pub const JOBS_POOL: usize = 4;

/// The worker threads' pools of one store.
#[derive(Default)]
pub(crate) struct WorkerPools {
    /// Connections of each worker's pool; 0 until the request pool is divided.
    share: AtomicUsize,
    /// The pools by thread.
    pools: Mutex<Vec<(ThreadId, Pool<AsyncPgConnection>)>>,
}

impl WorkerPools {
    fn pools(&self) -> std::sync::MutexGuard<'_, Vec<(ThreadId, Pool<AsyncPgConnection>)>> {
        self.pools.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Divides `max_size` connections among `workers` threads: each gets `max_size / workers`
    /// rounded up (at least one). Returns the share.
    pub(crate) fn divide(&self, max_size: usize, workers: usize) -> usize {
        let share = max_size.div_ceil(workers.max(1)).max(1);
        self.share.store(share, Ordering::Release);
        share
    }

    /// The calling thread's pool, if it adopted one.
    pub(crate) fn of_this_thread(&self) -> Option<Pool<AsyncPgConnection>> {
        if self.share.load(Ordering::Acquire) == 0 {
            return None;
        }
        let me = std::thread::current().id();
        self.pools().iter().find(|(t, _)| *t == me).map(|(_, p)| p.clone())
    }

    /// Gives the calling thread a pool made by `make` with the share's size, unless it has one,
    /// the pool was not divided, or [`MAX_WORKERS`] threads have theirs. Returns whether the
    /// thread has a pool of its own now. Errors: `make`'s.
    pub(crate) fn adopt(
        &self,
        make: impl FnOnce(usize) -> Result<Pool<AsyncPgConnection>, StoreError>,
    ) -> Result<bool, StoreError> {
        let share = self.share.load(Ordering::Acquire);
        if share == 0 {
            return Ok(false);
        }
        let me = std::thread::current().id();
        let mut pools = self.pools();
        if pools.iter().any(|(t, _)| *t == me) {
            return Ok(true);
        }
        if pools.len() >= MAX_WORKERS {
            return Ok(false);
        }
        pools.push((me, make(share)?));
        Ok(true)
    }

    /// The state of every worker's pool.
    pub(crate) fn statuses(&self) -> Vec<deadpool::Status> {
        self.pools().iter().map(|(_, p)| p.status()).collect()
    }
}
