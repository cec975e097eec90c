//! SQLite write transactions, queued and committed in groups (T62, T75).
//!
//! SQLite admits one writer at a time, and its busy handler is not fair: a waiting connection
//! sleeps and retries while others take the lock. Write transactions of one process therefore
//! queue here, in FIFO order, and `BEGIN IMMEDIATE` finds the database free (the busy timeout
//! stays for other processes on the same file).
//!
//! **Group commit** (T75). A writer puts its transaction body (a [`Job`]) in the queue and waits
//! for either its answer or the write turn. Whoever gets the turn runs the queued jobs (up to
//! [`MAX_GROUP`], see [`run_group`]) in one SQLite transaction, each inside its own `SAVEPOINT`:
//! a job that fails or panics is rolled back to its savepoint and the others keep their writes. After `COMMIT` each
//! owner gets its job's result; when `BEGIN`, a savepoint statement or `COMMIT` fails, the whole
//! group is rolled back and every job that had succeeded gets that error, so no client is told
//! "done" about a write that was not committed. The effect is the one of running the jobs one
//! after another (each sees the writes of those before it); what is saved is a `BEGIN`/`COMMIT`
//! and a WAL write of every page the jobs share (index pages, the counters) per job, and the hand
//! of the write turn from task to task, which on a busy machine left the database idle between
//! transactions. A job that starts a group with nobody queued behind it runs alone, without a
//! savepoint, exactly as before.
//!
//! Priority writers (the delivery engine, T60) queue at the front and skip the turnstile; the group
//! in progress takes a priority job next and commits right after it, so the engine's claims and
//! outcomes wait for one ordinary job at most, not for a group of 64.
//!
//! **Checkpoints off the write turn** (T263). SQLite's automatic checkpoint runs inside the
//! `COMMIT` that takes the write-ahead log past 1,000 pages: it copies the log's pages into the
//! database file and calls `fsync` twice, all while the write turn is held (8-9 % of the
//! process's CPU under an import load, and the `fsync`s' wait on top). Talent's connections turn
//! it off (`wal_autocheckpoint = 0`, [`crate::sqlite_conn`]); instead, once committed groups
//! have held the write turn for [`CHECKPOINT_AFTER`] since the last checkpoint began (a measure
//! of the log they wrote that counts a batch of 1,000 persons as fully as 1,000 imports), the
//! group's leader, after handing on the turn, starts a checkpoint on another connection of the
//! write pool, on tokio's blocking pool ([`checkpoint`]: the bulk of the copy and the `fsync`s
//! beside the writers, the rest with the turn). One runs at a time; the log starts again from
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
}

/// A job that has run: its outcome, held until the group's transaction has ended.
pub(crate) trait Ran: Send {
    /// Whether the body succeeded (its writes are to be kept).
    fn ok(&self) -> bool;
    /// Answers the owner: the body's result if the group committed (or the body failed), else
    /// `ended`'s error.
    fn answer(self: Box<Self>, ended: Result<(), StoreError>);
}

/// [`Job`] of a body `f` whose owner waits on `reply`.
pub(crate) struct Pending<F, R, E> {
    f: F,
    reply: oneshot::Sender<Result<R, E>>,
}

impl<F, R, E> Pending<F, R, E> {
    /// The job of `f` and the receiver of its answer. A receiver whose sender is dropped unanswered
    /// means the body panicked.
    pub(crate) fn new(f: F) -> (Box<Self>, oneshot::Receiver<Result<R, E>>) {
        let (reply, rx) = oneshot::channel();
        (Box::new(Pending { f, reply }), rx)
    }
}

struct Outcome<R, E> {
    out: Result<R, E>,
    reply: oneshot::Sender<Result<R, E>>,
}

impl<F, R, E> Job for Pending<F, R, E>
where
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
    R: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    fn run<'c>(self: Box<Self>, tx: &'c mut dyn Tx) -> BoxFuture<'c, Box<dyn Ran>> {
        let Pending { f, reply } = *self;
        Box::pin(async move {
            let out = f(tx).await;
            Box::new(Outcome { out, reply }) as Box<dyn Ran>
        })
    }

    fn fail(self: Box<Self>, error: StoreError) {
        let _ = self.reply.send(Err(E::from(error)));
    }
}

impl<R: Send, E: From<StoreError> + Send> Ran for Outcome<R, E> {
    fn ok(&self) -> bool {
        self.out.is_ok()
    }

    fn answer(self: Box<Self>, ended: Result<(), StoreError>) {
        let out = match (self.out, ended) {
            (Ok(_), Err(e)) => Err(E::from(e)),
            (out, _) => out,
        };
        // The owner's task never gives up waiting (writes run in their own task); a dropped
        // receiver only means that task ended with its runtime.
        let _ = self.reply.send(out);
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
    /// Microseconds the write turn has been held by a group's leader (see [`crate::WriteStats`]).
    held_micros: AtomicU64,
    /// Write-turn microseconds of committed groups since the last checkpoint began; whether one
    /// runs; checkpoints done.
    since_checkpoint: AtomicU64,
    checkpointing: AtomicBool,
    checkpoints: AtomicU64,
    turnstile: tokio::sync::Mutex<()>,
    gate: tokio::sync::Mutex<()>,
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

    /// Queues `job` (at the front for a priority writer).
    pub(crate) fn push(&self, job: Box<dyn Job>, priority: bool) {
        let mut q = self.queue();
        if priority {
            q.push_front((job, priority));
        } else {
            q.push_back((job, priority));
        }
    }

    /// The write turn: ordinary writers take the turnstile, then the gate; a priority writer
    /// takes the gate only.
    pub(crate) async fn enter(&self, priority: bool) -> MutexGuard<'_, ()> {
        if priority {
            return self.gate.lock().await;
        }
        let _queue = self.turnstile.lock().await;
        self.gate.lock().await
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
fn checkpoint(gate: Arc<WriteGate>, pool: Pool<SqliteConn>) {
    let running = Checkpointing(gate);
    tokio::spawn(async move {
        let gate = &running.0;
        let done = async {
            let mut c = pool.get().await.map_err(|e| e.to_string())?;
            c.batch_execute("PRAGMA wal_checkpoint(PASSIVE)").await.map_err(|e| e.to_string())?;
            let turn = gate.enter(true).await;
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
/// job that found the queue empty behind it, which runs without a savepoint. Call inside
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
    for taken in 1..=MAX_GROUP {
        let (job, priority, _) = next;
        gate.jobs.fetch_add(1, Ordering::Relaxed);
        if !solo {
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
        }
        if !solo {
            let end = if ok { "RELEASE job" } else { "ROLLBACK TO job; RELEASE job" };
            if let Err(e) = conn.batch_execute(end).await {
                broken = Some(db_err(e));
                break;
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

/// One write transaction body `f` through `gate` (see the module doc): queues it, then until it is
/// answered waits for its answer or for the write turn, and with the turn leads a group on a
/// connection of `pool`. `committed` gets what each committed group asks of the process
/// ([`AfterCommit`]) before that group's jobs are answered.
pub(crate) async fn write<R, E, F>(
    gate: &Arc<WriteGate>,
    pool: &Pool<SqliteConn>,
    health: &Health,
    priority: bool,
    f: F,
    committed: impl Fn(AfterCommit),
) -> Result<R, E>
where
    F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
    R: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    let (job, mut answer) = Pending::new(f);
    gate.push(job, priority);
    // A group may end before this job (a priority job or the size bound ends it): wait again.
    loop {
        let turn = tokio::select! {
            biased;
            done = &mut answer => return answered(done),
            turn = gate.enter(priority) => turn,
        };
        if !gate.has_queued() {
            // This job was taken by the group before: it is being answered.
            drop(turn);
            return answered(answer.await);
        }
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
        let ended = sqlite_rt::inline(run_group(&mut conn, gate)).await;
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
            checkpoint(gate.clone(), pool.clone());
        }
        committed(ended.flags);
        for ran in ended.ran {
            ran.answer(ended.result.clone());
        }
    }
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
