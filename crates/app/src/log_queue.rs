//! The queue of the log's verbose lines (`INFO` and more: the access log), written to the output
//! by a thread of its own that gathers them instead of being woken for each (T308).
//!
//! A line is handed over without a system call and without an allocation: the request's thread
//! copies it to the end of a shared buffer and goes on. The writing thread waits for the buffer
//! only while the log is idle, so the first line after a pause is written at once; once it has
//! found lines, it takes the whole buffer (swapping in one it has written out), writes it, and
//! sleeps [`GATHER`] before it looks again: the lines of busy traffic are written in batches
//! without anyone waking it.
//!
//! Until T308 this was `tracing_appender`'s non-blocking writer, which sends each line through a
//! channel as a `Vec` of its own. Its thread waits on the channel after every drain, so under
//! load each few lines woke it again (a `futex` call on the request's thread), and it freed the
//! lines the request threads had allocated, which takes the lock of their allocator's arena:
//! the two workers then met the log thread on those locks (24,000 `futex` calls in 4 s of `GET
//! /api/v1/me` at 100,000 requests per s).
//!
//! When the output is slower than the traffic and the buffer is full, a line is dropped and
//! counted ([`LineQueue::dropped`]): a request never waits for the log.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Bytes of lines the buffer holds before it drops them: 8 MiB, about 80,000 access-log lines.
pub(crate) const BYTES: usize = 8 << 20;

/// How long the writing thread lets lines gather after it found some: the most an access-log line
/// waits under load.
pub(crate) const GATHER: Duration = Duration::from_millis(10);

/// The size of a write to a pipe that POSIX guarantees atomic (Linux's `PIPE_BUF`): the thread
/// writes whole lines in pieces of at most this size, so that the other log thread (warnings and
/// errors) never writes inside one of its lines.
pub(crate) const PIPE_BUF: usize = 4096;

/// The most capacity a written buffer keeps for the next swap: 1 MiB, about 100 ms of a busy
/// service's lines; a larger one (after a burst, or while the output was slow) is let go.
const KEPT: usize = 1 << 20;

/// How long dropping the [`Drain`] waits for the queued lines to be written.
const FLUSH_WAIT: Duration = Duration::from_secs(1);

/// What the request threads and the writing thread share.
struct Shared {
    state: Mutex<State>,
    /// Signalled when a line arrives while the writing thread waits ([`State::idle`]), or at
    /// the end.
    arrived: Condvar,
    /// Signalled when the writing thread has written everything and ended.
    ended: Condvar,
    capacity: usize,
    dropped: Arc<AtomicU64>,
}

struct State {
    /// Whole lines, one after the other.
    lines: Vec<u8>,
    /// The writing thread waits on [`Shared::arrived`].
    idle: bool,
    /// Asked to end ([`Drain`] dropped).
    end: bool,
    /// The writing thread has ended.
    done: bool,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        // A thread that panicked while holding the lock left whole lines behind: go on.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues `line` (whole), or drops and counts it when the buffer is full or the writing
    /// thread has ended; wakes the writing thread when it waits.
    fn push(&self, line: &[u8]) {
        let mut s = self.state();
        if s.done || s.lines.len() + line.len() > self.capacity {
            drop(s);
            self.dropped.fetch_add(1, Ordering::Relaxed);
        } else {
            s.lines.extend_from_slice(line);
            if s.idle {
                s.idle = false;
                self.arrived.notify_one();
            }
        }
    }
}

/// The sending side, a `tracing_subscriber` writer ([`Line`]): each event's line is one `write`
/// (as the `fmt` layer writes an event), queued whole.
pub(crate) struct LineQueue(Arc<Shared>);

impl LineQueue {
    /// The count of lines dropped so far because the buffer was full.
    pub(crate) fn dropped(&self) -> Arc<AtomicU64> {
        self.0.dropped.clone()
    }
}

/// The writer of one event's line: the queue borrowed, not its `Arc` cloned. A clone per line
/// and its drop were two atomic updates of one reference count shared by every worker thread,
/// whose cache line went from core to core on each request (0.7 % of a `GET /api/v1/me`, T317).
pub(crate) struct Line<'a>(&'a Shared);

impl Write for Line<'_> {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        self.0.push(line);
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LineQueue {
    type Writer = Line<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        Line(&self.0)
    }
}

/// The writing thread's handle: dropping it writes every line queued before (waiting at most
/// [`FLUSH_WAIT`] for a slow output) and ends the thread.
pub(crate) struct Drain(Arc<Shared>);

impl Drop for Drain {
    fn drop(&mut self) {
        let mut s = self.0.state();
        s.end = true;
        self.0.arrived.notify_one();
        let _ = self.0.ended.wait_timeout_while(s, FLUSH_WAIT, |s| !s.done);
    }
}

/// Starts the writing thread (`log-lines`) over `out`, with a buffer of `capacity` bytes. Errors:
/// the thread could not be started.
pub(crate) fn start<W: Write + Send + 'static>(out: W, capacity: usize) -> std::io::Result<(LineQueue, Drain)> {
    let shared = Arc::new(Shared {
        state: Mutex::new(State { lines: Vec::new(), idle: false, end: false, done: false }),
        arrived: Condvar::new(),
        ended: Condvar::new(),
        capacity,
        dropped: Arc::default(),
    });
    let mine = shared.clone();
    std::thread::Builder::new().name("log-lines".into()).spawn(move || {
        write_lines(&mine, out);
        mine.state().done = true;
        mine.ended.notify_all();
    })?;
    Ok((LineQueue(shared.clone()), Drain(shared)))
}

/// The writing thread's loop (see the module doc): ends once asked to and everything queued is
/// written. A failed write is not retried: the log has nowhere else to report it.
fn write_lines<W: Write>(shared: &Shared, mut out: W) {
    let mut taken = Vec::new();
    loop {
        let end = {
            let mut s = shared.state();
            if s.lines.is_empty() && !s.end {
                // Idle: wait for a line.
                s.idle = true;
                s = shared.arrived.wait_while(s, |s| s.lines.is_empty() && !s.end).unwrap_or_else(|e| e.into_inner());
                s.idle = false;
            }
            std::mem::swap(&mut s.lines, &mut taken);
            s.end
        };
        write_pieces(&mut out, &taken);
        taken.clear();
        if taken.capacity() > KEPT {
            // After a burst, the buffer handed back to the request threads is a small one again.
            taken = Vec::new();
        }
        if end {
            return;
        }
        // Busy: let lines gather.
        std::thread::sleep(GATHER);
    }
}

/// Writes `lines` (whole lines) in pieces of at most [`PIPE_BUF`] bytes that end at a line's end;
/// a line longer than that is a piece of its own.
fn write_pieces<W: Write>(out: &mut W, mut lines: &[u8]) {
    while !lines.is_empty() {
        let cut = if lines.len() <= PIPE_BUF {
            lines.len()
        } else {
            match lines[..PIPE_BUF].iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => lines.iter().position(|&b| b == b'\n').map_or(lines.len(), |i| i + 1),
            }
        };
        let (piece, rest) = lines.split_at(cut);
        let _ = out.write_all(piece);
        lines = rest;
    }
    let _ = out.flush();
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{start, GATHER};
    use std::io::Write;
    use std::sync::atomic::Ordering;
    use std::sync::{Arc, Condvar, Mutex};
    use std::time::{Duration, Instant};
    use tracing_subscriber::fmt::MakeWriter;

    /// An output that records each `write` it gets, and blocks while `held`.
    #[derive(Clone, Default)]
    struct Out {
        writes: Arc<Mutex<Vec<Vec<u8>>>>,
        held: Arc<(Mutex<bool>, Condvar)>,
    }

    impl Out {
        fn hold(&self, on: bool) {
            *self.held.0.lock().unwrap() = on;
            self.held.1.notify_all();
        }
        fn text(&self) -> String {
            String::from_utf8(self.writes.lock().unwrap().concat()).unwrap()
        }
    }

    impl Write for Out {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            let mut held = self.held.0.lock().unwrap();
            while *held {
                held = self.held.1.wait(held).unwrap();
            }
            self.writes.lock().unwrap().push(b.to_vec());
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn line(i: usize) -> String {
        format!("{i:06} {}\n", "x".repeat(i % 300))
    }

    #[test]
    fn every_line_is_written_whole_in_order_and_no_write_is_larger_than_a_pipe_takes_at_once() {
        let out = Out::default();
        let (q, drain) = start(out.clone(), 1 << 20).unwrap();
        let expected: String = (0..3000).map(line).collect();
        for i in 0..3000 {
            // Lines arrive in bursts and in pauses, so both the idle wait and the gathering run.
            if i % 500 == 0 {
                std::thread::sleep(GATHER * 3);
            }
            q.make_writer().write_all(line(i).as_bytes()).unwrap();
            if i % 100 == 0 {
                std::thread::yield_now();
            }
        }
        drop(drain);
        assert_eq!(out.text(), expected);
        assert_eq!(q.dropped().load(Ordering::Relaxed), 0);
        let writes = out.writes.lock().unwrap();
        assert!(writes.iter().all(|w| w.len() <= 4096 && w.ends_with(b"\n")));
        assert!(writes.len() < 3000 / 10, "lines are written in batches: {} writes", writes.len());
    }

    #[test]
    fn a_full_buffer_drops_and_counts_lines_and_never_blocks_the_caller() {
        let out = Out::default();
        out.hold(true);
        let (q, drain) = start(out.clone(), 4096).unwrap();
        let long = |i: usize| format!("{i:06} {}\n", "x".repeat(500));
        let started = Instant::now();
        for i in 0..200 {
            q.make_writer().write_all(long(i).as_bytes()).unwrap();
        }
        assert!(started.elapsed() < Duration::from_secs(5), "a write waited for the output");
        let dropped = q.dropped().load(Ordering::Relaxed);
        // Kept: what the thread took before its write blocked (at most a full buffer, 8 lines of
        // 508 bytes) and a full buffer after it.
        assert!(dropped >= 200 - 16, "dropped {dropped}");
        out.hold(false);
        drop(drain);
        let written = out.text().lines().count() as u64;
        assert_eq!(written + dropped, 200, "every line is written or counted as dropped");
        assert!(out.text().starts_with(&long(0)), "the first lines are kept, the later ones dropped");
    }

    #[test]
    fn a_lone_line_after_a_pause_is_written_at_once() {
        let out = Out::default();
        let (q, _drain) = start(out.clone(), 4096).unwrap();
        for i in 0..3 {
            std::thread::sleep(GATHER * 5);
            q.make_writer().write_all(line(i).as_bytes()).unwrap();
            let t = Instant::now();
            while out.text().lines().count() < i + 1 {
                assert!(t.elapsed() < Duration::from_secs(5), "line {i} was not written");
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    #[test]
    fn dropping_the_drain_writes_what_is_queued_and_ends_the_thread() {
        let out = Out::default();
        let (q, drain) = start(out.clone(), 1 << 20).unwrap();
        for i in 0..50 {
            q.make_writer().write_all(line(i).as_bytes()).unwrap();
        }
        drop(drain);
        assert_eq!(out.text().lines().count(), 50);
        // The thread has ended: a line is now counted as dropped.
        let t = Instant::now();
        while q.dropped().load(Ordering::Relaxed) == 0 {
            q.make_writer().write_all(line(99).as_bytes()).unwrap();
            assert!(t.elapsed() < Duration::from_secs(5), "the thread did not end");
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
