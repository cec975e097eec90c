//! SQLite write transactions, queued and committed in groups (T62, T75).
//!
//! SQLite admits one writer at a time, and its busy handler is not fair: a waiting connection
//! sleeps and retries while others take the lock. Write transactions of one process therefore
//! queue here, in FIFO order, and `BEGIN IMMEDIATE` finds the database free (the busy timeout
//! stays for other processes on the same file).
//!
//! **Group commit** (T75). A writer puts its transaction body (a [`Job`]) in the queue and waits
//! for its answer. The writer thread (T295, [`lead`]) runs the queued jobs (up to [`MAX_GROUP`],
//! see [`run_group`]) in one SQLite transaction. After `COMMIT` each owner gets its job's result;
//! when `BEGIN`, a statement of the group's own or `COMMIT` fails, the whole group is rolled back
//! and every job that had succeeded gets that error, so no client is told "done" about a write
//! that was not committed. The effect is the one of running the jobs one after another (each sees
//! the writes of those before it); what is saved is a `BEGIN`/`COMMIT` and a WAL write of every
//! page the jobs share (index pages, the counters) per job.
//!
//! **A failed job leaves nothing behind** (T297). Until T297 each job of a group ran inside its own
//! `SAVEPOINT`, so that one that failed or panicked was rolled back alone. A savepoint makes SQLite
//! copy every page a job changes first into its statement journal, in 1 KiB pieces each allocated
//! and freed: 18 % of the writer's time under an import load, although jobs that fail after
//! writing are rare (use cases check before they write). Jobs now run bare, and SQLite's count of
//! changed rows (`total_changes()`) is read before each: a job that fails with the count where it
//! was wrote nothing, and the group goes on. One that fails (or panics) after writing *taints* the
//! group: it is rolled back, and its jobs (the failed one too) are queued again at the front, in
//! their order, each now to run inside a savepoint of its own, from a clone of its body made when
//! it was queued ([`Pending`]; the store's port asks for `Clone` bodies). A panicked body is not
//! run again: its owner is told it panicked. Every job that has run again is guarded, so a group is
//! run again at most once per job that taints it. A job that starts a group with nobody queued
//! behind it runs alone, needing neither: its failure rolls back the whole transaction.
//!
//! **One writer thread** (T295). Until T295 the owner of a queued job that got the write turn led
//! the group on its own task, on an HTTP worker; the turn then passed to the next waiting owner,
//! whose worker, busy with other requests, polled it late, and the worker that led could serve
//! none of its connections meanwhile. The groups now run on a thread of their own
//! (`sqlite-writer`, with a single-threaded tokio runtime), started by the first write and
//! ended when the last store of the database is dropped; it goes from one group to the next
//! without a hand-over, and the HTTP workers only queue jobs and wait for answers.
//!
//! Priority writers (the delivery engine, T60) queue at the front; the group in progress takes a
//! priority job next and commits right after it, so the engine's claims and outcomes wait for
//! one ordinary job at most, not for a group of 64.
//!
//! **Checkpoints off the write turn** (T263). SQLite's automatic checkpoint runs inside the
//! `COMMIT` that takes the write-ahead log past 1,000 pages: it copies the log's pages into the
//! database file and calls `fsync` twice, all while the write turn is held (8-9 % of the
//! process's CPU under an import load, and the `fsync`s' wait on top). Talent's connections turn
//! it off (`wal_autocheckpoint = 0`, [`crate::sqlite_conn`]); instead, once committed groups
//! have held the write turn for [`CHECKPOINT_AFTER`] since the last checkpoint began (a measure
//! of the log they wrote that counts a batch of 1,000 persons as fully as 1,000 imports), the
//! writer, after giving up the turn, starts a checkpoint on another connection of the
//! write pool, on tokio's blocking pool ([`checkpoint`]: the bulk of the copy and the `fsync`s
//! beside the writer, the rest with the turn). One runs at a time; the log starts again from
//! its beginning once a checkpoint has copied all of it (SQLite does that at the next write when
//! no reader still uses it). The last connection to close checkpoints what is left. Measured
//! under 32 clients importing (T263): imports per second the same, their p99 latency 16-19 ms
//! instead of 20-48 ms, the log at most 20-25 MB.

use crate::pool::Pool;
use crate::tx::{db_err, AfterCommit, DbTx};
use crate::{sqlite_rt, Health, SqliteConn};
use diesel_async::SimpleAsyncConnection;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use talent_domain::errors::StoreError;
use talent_domain::ports::{BoxFuture, Tx};
use tokio::sync::{oneshot, MutexGuard};

/// The most jobs one group commits: a bound on how long the first job of a group waits for the
/// last (a few milliseconds of imports) and on the WAL a group writes.
pub(crate) const MAX_GROUP: usize = 64;

/// Write-turn time of committed groups between two checkpoints, in microseconds (see the module
/// doc): 600-700 imports on the machines of the bench, 10-15 MiB of log (an import writes five to
/// six pages of it). Checkpoints after every 100 imports cost 20 % more CPU per import.
pub(crate) const CHECKPOINT_AFTER: u64 = 100_000;

/// A queued write transaction body, its result type erased.
pub(crate) trait Job: Send {
    /// Runs the body in `tx`; what it returns answers the owner once the group has ended.
    fn run<'c>(self: Box<Self>, tx: &'c mut dyn Tx) -> BoxFuture<'c, Box<dyn Ran>>;
    /// Answers the owner with `error` without running the body.
    fn fail(self: Box<Self>, error: StoreError);
    /// Whether the body runs inside a savepoint of its own in a group: it ran before, in a
    /// group that was rolled back (see the module doc).
    fn guarded(&self) -> bool;
}

/// A job that has run: its outcome, held until the group's transaction has ended.
pub(crate) trait Ran: Send {
    /// Whether the body succeeded (its writes are to be kept).
    fn ok(&self) -> bool;
    /// Answers the owner: the body's result if the group committed (or the body failed), else
    /// `ended`'s error.
    fn answer(self: Box<Self>, ended: Result<(), StoreError>);
    /// The job again, its outcome dropped, to run guarded in a later group: its group was rolled
    /// back because another body failed after writing.
    fn again(self: Box<Self>) -> Box<dyn Job>;
}

/// [`Job`] of a body `f` whose owner waits on `reply`; `spare` is the clone run when the body's
/// group is rolled back and its jobs run again.
pub(crate) struct Pending<F, R, E> {
    f: F,
    spare: F,
    guarded: bool,
    reply: oneshot::Sender<Result<R, E>>,
}

impl<F: Clone, R, E> Pending<F, R, E> {
    /// The job of `f` (cloned once, here, on the owner's thread) and the receiver of its answer.
    /// A receiver whose sender is dropped unanswered means the body panicked.
    pub(crate) fn new(f: F) -> (Box<Self>, oneshot::Receiver<Result<R, E>>) {
        let (reply, rx) = oneshot::channel();
        (Box::new(Pending { spare: f.clone(), f, guarded: false, reply }), rx)
    }
}

struct Outcome<F, R, E> {
    out: Result<R, E>,
    spare: F,
    reply: oneshot::Sender<Result<R, E>>,
}

impl<F, R, E> Job for Pending<F, R, E>
where
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Clone + Send + 'static,
    R: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    fn run<'c>(self: Box<Self>, tx: &'c mut dyn Tx) -> BoxFuture<'c, Box<dyn Ran>> {
        let Pending { f, spare, reply, .. } = *self;
        Box::pin(async move {
            let out = f(tx).await;
            Box::new(Outcome { out, spare, reply }) as Box<dyn Ran>
        })
    }

    fn fail(self: Box<Self>, error: StoreError) {
        let _ = self.reply.send(Err(E::from(error)));
    }

    fn guarded(&self) -> bool {
        self.guarded
    }
}

impl<F, R, E> Ran for Outcome<F, R, E>
where
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Clone + Send + 'static,
    R: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    fn ok(&self) -> bool {
        self.out.is_ok()
    }

    fn answer(self: Box<Self>, ended: Result<(), StoreError>) {
        let out = match (self.out, ended) {
            (Ok(_), Err(e)) => Err(E::from(e)),
            (out, _) => out,
        };
        // A dropped receiver means the owner stopped waiting (its client went away, or its
        // runtime ended): the job has run and committed all the same (T301).
        let _ = self.reply.send(out);
    }

    fn again(self: Box<Self>) -> Box<dyn Job> {
        // A clone kept for the next time: a guarded job's group may be rolled back again by
        // another body (rare: a clone on the writer's thread then).
        let Outcome { spare, reply, .. } = *self;
        Box::new(Pending { f: spare.clone(), spare, guarded: true, reply })
    }
}

/// The queue of write transactions and the write turn, shared by every pool of one store.
#[derive(Default)]
pub(crate) struct WriteGate {
    /// Queued jobs, each with whether it is a priority writer's.
    queue: Mutex<VecDeque<(Box<dyn Job>, bool)>>,
    /// Groups run, and jobs in them (see [`crate::WriteStats`]).
    groups: AtomicU64,
    jobs: AtomicU64,
    /// Microseconds the write turn has been held by the writer (see [`crate::WriteStats`]).
    held_micros: AtomicU64,
    /// Write-turn microseconds of committed groups since the last checkpoint began; whether one
    /// runs; checkpoints done.
    since_checkpoint: AtomicU64,
    checkpointing: AtomicBool,
    checkpoints: AtomicU64,
    /// The write turn: held by the writer for each group, and by a checkpoint's second pass.
    turn: tokio::sync::Mutex<()>,
    /// Tells the writer that a job was queued, or that its queue has closed.
    arrived: tokio::sync::Notify,
    /// Set when the last store of the queue is dropped: the writer ends.
    closed: AtomicBool,
    /// Groups rolled back because a body failed after writing, their jobs run again.
    rerun: AtomicU64,
    /// The store's [`talent_domain::ports::SecretBox`], once set.
    sealer: std::sync::OnceLock<std::sync::Arc<dyn talent_domain::ports::SecretBox>>,
    /// The store's endpoints by organization (T272), on PostgreSQL too.
    pub(crate) endpoints: std::sync::Arc<crate::endpoint_cache::EndpointCache>,
}

impl WriteGate {
    /// Sets the sealer the group's transactions use (once; later calls keep the first).
    pub(crate) fn set_sealer(&self, sealer: std::sync::Arc<dyn talent_domain::ports::SecretBox>) {
        let _ = self.sealer.set(sealer);
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, VecDeque<(Box<dyn Job>, bool)>> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues `job` (at the front for a priority writer) and tells the writer.
    pub(crate) fn push(&self, job: Box<dyn Job>, priority: bool) {
        {
            let mut q = self.queue();
            if priority {
                q.push_front((job, priority));
            } else {
                q.push_back((job, priority));
            }
        }
        self.arrived.notify_one();
    }

    /// Queues `jobs` (each with whether it is a priority writer's) again at the front, in their
    /// order, ahead of every other job (see [`run_group`]).
    fn requeue(&self, jobs: Vec<(Box<dyn Job>, bool)>) {
        let mut q = self.queue();
        for job in jobs.into_iter().rev() {
            q.push_front(job);
        }
    }

    /// The write turn (see [`WriteGate::turn`]).
    async fn enter(&self) -> MutexGuard<'_, ()> {
        self.turn.lock().await
    }

    /// Whether a job is waiting.
    pub(crate) fn has_queued(&self) -> bool {
        !self.queue().is_empty()
    }

    /// The next job (a priority writer's first), and whether the queue is empty after it.
    fn next(&self) -> Option<(Box<dyn Job>, bool, bool)> {
        let mut q = self.queue();
        let (job, priority) = q.pop_front()?;
        Some((job, priority, q.is_empty()))
    }

    /// Answers the next [`MAX_GROUP`] queued jobs with `error` without running them.
    pub(crate) fn fail_queued(&self, error: &StoreError) {
        let failed: Vec<_> = {
            let mut q = self.queue();
            let n = q.len().min(MAX_GROUP);
            q.drain(..n).collect()
        };
        for (job, _) in failed {
            job.fail(error.clone());
        }
    }

    /// The queue's counters now ([`crate::WriteStats`]).
    pub(crate) fn stats(&self) -> crate::WriteStats {
        crate::WriteStats {
            queued: self.queue().len(),
            groups: self.groups.load(Ordering::Relaxed),
            jobs: self.jobs.load(Ordering::Relaxed),
            held: std::time::Duration::from_micros(self.held_micros.load(Ordering::Relaxed)),
            checkpoints: self.checkpoints.load(Ordering::Relaxed),
            rerun: self.rerun.load(Ordering::Relaxed),
        }
    }

    /// Counts a committed group that held the turn `micros`; true when a checkpoint is due and
    /// the caller is to run it (it is then marked running, and the count starts again).
    fn checkpoint_due(&self, micros: u64) -> bool {
        let since = self.since_checkpoint.fetch_add(micros, Ordering::Relaxed).saturating_add(micros);
        if since < CHECKPOINT_AFTER
            || self.checkpointing.compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed).is_err()
        {
            return false;
        }
        self.since_checkpoint.store(0, Ordering::Relaxed);
        true
    }
}

/// A running checkpoint: marked ended in its gate when dropped, also when its task is.
struct Checkpointing(Arc<WriteGate>);

impl Drop for Checkpointing {
    fn drop(&mut self) {
        self.0.checkpointing.store(false, Ordering::Release);
    }
}

/// Runs a checkpoint on a connection of `pool`, in a task of its own (see the module doc), in two
/// passes: the first, beside the writers, copies what the log holds into the database and
/// `fsync`s it; the second, with the write turn (a priority writer's: it waits for one group at
/// most), copies what was committed meanwhile, so that the whole log is copied and the next
/// write starts it again from its beginning. Without that second pass the log is never wholly
/// copied while writes go on, and it grew by 22 KB an import (1.2 GB in 10 s of imports).
/// A failure (the database busy with another process's checkpoint, no connection to be had)
/// leaves the pages to the next checkpoint.
fn checkpoint(gate: Arc<WriteGate>, pool: Pool<SqliteConn>, on: &tokio::runtime::Handle) {
    let running = Checkpointing(gate);
    on.spawn(async move {
        let gate = &running.0;
        let done = async {
            let mut c = pool.get().await.map_err(|e| e.to_string())?;
            c.batch_execute("PRAGMA wal_checkpoint(PASSIVE)").await.map_err(|e| e.to_string())?;
            let turn = gate.enter().await;
            let held = std::time::Instant::now();
            let last = c.batch_execute("PRAGMA wal_checkpoint(PASSIVE)").await.map_err(|e| e.to_string());
            gate.held_micros.fetch_add(micros(held), Ordering::Relaxed);
            drop(turn);
            last
        };
        match done.await {
            Ok(()) => {
                gate.checkpoints.fetch_add(1, Ordering::Relaxed);
            }
            Err(error) => tracing::debug!(%error, "SQLite checkpoint not run"),
        }
        drop(running);
    });
}

/// How a group ended.
pub(crate) struct Ended {
    /// The jobs that ran, to be answered with `result`.
    pub ran: Vec<Box<dyn Ran>>,
    /// `Ok` when the group committed (or had nothing to keep and was rolled back).
    pub result: Result<(), StoreError>,
    /// What the committed jobs ask of the process once the group commits.
    pub flags: AfterCommit,
    /// The connection may still be inside the transaction (its `ROLLBACK` failed): never reuse it.
    pub open: bool,
}

/// Runs the queued jobs as one transaction on `conn` (see the module doc): they are taken one at a
/// time, so a job queued while the group runs joins it, up to [`MAX_GROUP`]. A priority writer's
/// job ends its group (it is answered at the next `COMMIT`, not after a whole group); so does a
/// job that found the queue empty behind it, which runs alone. A job that fails after it has
/// written (SQLite's count of changed rows moved) rolls the group back, and the group's jobs
/// are queued again at the front, each to run in a savepoint of its own (T297). Call inside
/// [`crate::sqlite_rt::inline`] while holding the write turn.
pub(crate) async fn run_group(conn: &mut SqliteConn, gate: &WriteGate) -> Ended {
    use futures_util::FutureExt;
    let mut ended = Ended { ran: Vec::new(), result: Ok(()), flags: AfterCommit::default(), open: false };
    let Some(mut next) = gate.next() else { return ended };
    if let Err(e) = conn.batch_execute("BEGIN IMMEDIATE").await {
        next.0.fail(db_err(e));
        return ended;
    }
    gate.groups.fetch_add(1, Ordering::Relaxed);
    let solo = next.2;
    let mut broken: Option<StoreError> = None;
    let mut tainted = false;
    // Whether each job in `ended.ran` is a priority writer's: kept when the group runs again.
    let mut priorities = Vec::new();
    for taken in 1..=MAX_GROUP {
        let (job, priority, _) = next;
        gate.jobs.fetch_add(1, Ordering::Relaxed);
        // Alone in its group a job needs neither: its failure rolls back the whole transaction.
        let guarded = !solo && job.guarded();
        let before = if solo || guarded {
            None
        } else {
            match total_changes(conn).await {
                Ok(n) => Some(n),
                Err(e) => {
                    job.fail(e.clone());
                    broken = Some(e);
                    break;
                }
            }
        };
        if guarded {
            if let Err(e) = conn.batch_execute("SAVEPOINT job").await {
                let e = db_err(e);
                job.fail(e.clone());
                broken = Some(e);
                break;
            }
        }
        let (out, job_flags) = {
            let mut tx = DbTx::new(&mut *conn, true).cached(gate.endpoints.clone());
            if let Some(s) = gate.sealer.get() {
                tx = tx.sealed(s.clone());
            }
            let out = std::panic::AssertUnwindSafe(job.run(&mut tx)).catch_unwind().await;
            (out, tx.after_commit())
        };
        // A panicked body dropped its reply unanswered: its owner reports the panic.
        let ok = matches!(&out, Ok(r) if r.ok());
        if ok {
            ended.flags.merge(job_flags);
        }
        if let Ok(r) = out {
            ended.ran.push(r);
            priorities.push(priority);
        }
        if guarded {
            let end = if ok { "RELEASE job" } else { "ROLLBACK TO job; RELEASE job" };
            if let Err(e) = conn.batch_execute(end).await {
                broken = Some(db_err(e));
                break;
            }
        } else if let (false, Some(before)) = (ok, before) {
            // A failed body that changed no row leaves nothing to undo (SQLite undoes a failed
            // statement itself); one that did taints the group.
            match total_changes(conn).await {
                Ok(after) if after == before => {}
                Ok(_) => {
                    tainted = true;
                    break;
                }
                Err(e) => {
                    broken = Some(e);
                    break;
                }
            }
        }
        if solo || priority || taken == MAX_GROUP {
            break;
        }
        match gate.next() {
            Some(n) => next = n,
            None => break,
        }
    }
    if tainted && broken.is_none() {
        // Nothing of the group is kept: its jobs run again (the one that failed too, since its
        // failure may have come from the jobs before it), each in a savepoint.
        ended.open = conn.batch_execute("ROLLBACK").await.is_err();
        ended.flags = AfterCommit::default();
        gate.rerun.fetch_add(1, Ordering::Relaxed);
        gate.requeue(ended.ran.drain(..).map(|r| r.again()).zip(priorities).collect());
        return ended;
    }
    let keep = broken.is_none() && ended.ran.iter().any(|r| r.ok());
    ended.result = match (broken, keep) {
        (Some(e), _) => Err(e),
        (None, true) => conn.batch_execute("COMMIT").await.map_err(db_err),
        (None, false) => Ok(()),
    };
    if ended.result.is_err() || !keep {
        ended.open = conn.batch_execute("ROLLBACK").await.is_err();
    }
    if ended.result.is_err() {
        ended.flags = AfterCommit::default();
    }
    ended
}

mod sql {
    diesel::define_sql_function! {
    /// SQLite's count of the rows the connection has inserted, updated or deleted since it was
    /// opened, those of triggers included (<https://www.sqlite.org/c3ref/total_changes.html>).
    fn total_changes() -> diesel::sql_types::BigInt;
    }
}

/// [`sql::total_changes`] on `conn`: one cached statement.
async fn total_changes(conn: &mut SqliteConn) -> Result<i64, StoreError> {
    use diesel_async::RunQueryDsl;
    diesel::select(sql::total_changes()).get_result::<i64>(conn).await.map_err(db_err)
}

/// What a committed group asks of the process ([`AfterCommit`]), run by the writer before the
/// group's jobs are answered.
pub(crate) type Committed = Arc<dyn Fn(AfterCommit) + Send + Sync>;

/// A store's handle on its [`WriteGate`] and on the writer thread that runs the gate's groups
/// (T295). Every store of one database shares one (`DbStore::with_own_pool`); when the last is
/// dropped the writer ends, its connections closed, before the drop returns.
#[derive(Default)]
pub(crate) struct WriteQueue {
    gate: Arc<WriteGate>,
    /// Started by the first write (see [`WriteQueue::start`]).
    writer: std::sync::OnceLock<std::thread::JoinHandle<()>>,
    starting: Mutex<()>,
}

impl std::ops::Deref for WriteQueue {
    type Target = WriteGate;

    fn deref(&self) -> &WriteGate {
        &self.gate
    }
}

impl Drop for WriteQueue {
    fn drop(&mut self) {
        self.gate.closed.store(true, Ordering::Release);
        self.gate.arrived.notify_one();
        if let Some(writer) = self.writer.take() {
            // A job's body that held the last store and was dropped by the writer itself.
            if writer.thread().id() != std::thread::current().id() {
                let _ = writer.join();
            }
        }
    }
}

impl WriteQueue {
    /// Starts the writer thread unless it runs: it takes connections from `pool`, reports
    /// checkouts to `health` and runs `committed` after each committed group (moved in only when
    /// the thread starts, so that later writes allocate nothing for it). The thread's runtime has
    /// one worker of its own beside it, on which checkpoints run: they go on for as long as the
    /// writer does, whatever runtime the first write came from. Errors: the thread or its
    /// runtime cannot be made (`Internal`).
    fn start<C>(&self, pool: &Pool<SqliteConn>, health: &Arc<Health>, committed: C) -> Result<(), StoreError>
    where
        C: Fn(AfterCommit) + Send + Sync + 'static,
    {
        if self.writer.get().is_some() {
            return Ok(());
        }
        let _one = self.starting.lock().unwrap_or_else(|p| p.into_inner());
        if self.writer.get().is_some() {
            return Ok(());
        }
        let (gate, pool, health) = (self.gate.clone(), pool.clone(), health.clone());
        let committed: Committed = Arc::new(committed);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("sqlite-checkpoint")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Internal(format!("the SQLite writer's runtime: {e}")))?;
        let writer = std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || runtime.block_on(lead(gate, pool, health, committed)))
            .map_err(|e| StoreError::Internal(format!("the SQLite writer's thread: {e}")))?;
        let _ = self.writer.set(writer);
        Ok(())
    }
}

/// The writer (T295): while the queue holds jobs, runs them in groups ([`run_group`]) on a
/// connection of `pool` with the write turn held, then runs `committed` and answers the group's
/// jobs; when the queue is empty, waits for a job. Ends once the queue is closed. A failed
/// checkout answers the queued jobs with the failure (503), as many as a group holds.
/// Checkpoints run on the writer's runtime, off its thread ([`WriteQueue::start`]).
async fn lead(gate: Arc<WriteGate>, pool: Pool<SqliteConn>, health: Arc<Health>, committed: Committed) {
    let checkpoints = tokio::runtime::Handle::current();
    while !gate.closed.load(Ordering::Acquire) {
        if !gate.has_queued() {
            gate.arrived.notified().await;
            continue;
        }
        let turn = gate.enter().await;
        let held = std::time::Instant::now();
        let mut conn = match pool.get().await {
            Ok(c) => {
                health.ok();
                c
            }
            Err(e) => {
                gate.fail_queued(&health.failed(e));
                gate.held_micros.fetch_add(micros(held), Ordering::Relaxed);
                continue;
            }
        };
        let ended = sqlite_rt::inline(run_group(&mut conn, &gate)).await;
        if ended.open {
            // A transaction that could not be ended: never back in the pool.
            let _ = deadpool::managed::Object::take(conn);
        } else {
            drop(conn);
        }
        let held = micros(held);
        gate.held_micros.fetch_add(held, Ordering::Relaxed);
        drop(turn);
        let wrote = ended.result.is_ok() && ended.ran.iter().any(|r| r.ok());
        if wrote && gate.checkpoint_due(held) {
            checkpoint(gate.clone(), pool.clone(), &checkpoints);
        }
        committed(ended.flags);
        for ran in ended.ran {
            ran.answer(ended.result.clone());
        }
    }
}

/// One write transaction body `f` through `queue` (see the module doc): queues it (at the front
/// for a `priority` writer) and waits for its answer, which the writer gives once the body's
/// group has ended. The first write starts the writer with `pool`, `health` and `committed`
/// ([`WriteQueue::start`]).
pub(crate) async fn write<R, E, F>(
    queue: &WriteQueue,
    pool: &Pool<SqliteConn>,
    health: &Arc<Health>,
    priority: bool,
    f: F,
    committed: impl Fn(AfterCommit) + Send + Sync + 'static,
) -> Result<R, E>
where
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Clone + Send + 'static,
    R: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    queue.start(pool, health, committed)?;
    let (job, answer) = Pending::new(f);
    queue.push(job, priority);
    answered(answer.await)
}

/// Microseconds since `since`, saturated.
fn micros(since: std::time::Instant) -> u64 {
    u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// The owner's side of a queued write: its answer, or (the reply dropped unanswered) the report
/// that its body panicked and was rolled back.
fn answered<R, E: From<StoreError>>(done: Result<Result<R, E>, oneshot::error::RecvError>) -> Result<R, E> {
    done.unwrap_or_else(|_| Err(E::from(StoreError::Internal("a write transaction panicked".into()))))
}
