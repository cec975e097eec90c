//! [`OutboxRepo`]: the event outbox (D31): events are written in the use case's transaction.

use crate::events::{OutboxEvent, SequencedEvent};
use crate::ids::{EventId, OrgId};
use crate::ports::{BoxFuture, FeedQuery, StoreResult};

/// The event outbox (D31): events are written in the use case's transaction. Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL events
/// are plain inserts: nothing is locked; [`OutboxRepo::sequence_events`] locks the one counter
/// row, which makes sequencers take turns.
pub trait OutboxRepo: Send {
    /// Inserts an event into the outbox, nothing more: use cases append events with
    /// [`crate::outbox::append`], which also fans them out (D31, T96). A store whose write
    /// transactions commit in the order they run (SQLite) may number the event here, with its
    /// organization's next feed sequence (T316); one whose transactions commit side by side
    /// (PostgreSQL) leaves it to [`OutboxRepo::sequence_events`]. Either way the numbers of one
    /// commit are above those of every earlier commit.
    fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>>;
    /// Events of an organization, oldest first (diagnostics and tests).
    fn list_events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>>;
    /// Whether some committed event has no feed sequence yet: the cheap read before the
    /// sequencer's write (D48, T106).
    fn has_unsequenced_events(&mut self) -> BoxFuture<'_, StoreResult<bool>>;
    /// The sequencer (D48, T106): gives at most `limit` committed events without a sequence the
    /// next numbers of the service-wide counter, in the order (`created_at`, id), and advances the
    /// counter; returns how many it numbered. Numbers are never reused (the counter survives
    /// retention) and have no holes when the transaction commits.
    ///
    /// # Locking
    /// Locks the counter row (PostgreSQL `FOR UPDATE`) first, so sequencers run one after the
    /// other: the numbers of one commit are all above those of every earlier commit, and a reader
    /// that sees a number sees every smaller one.
    fn sequence_events(&mut self, limit: u32) -> BoxFuture<'_, StoreResult<u32>>;
    /// The feed sequence of each of `ids` that exists and is numbered (D56, D57: the `sequence` a
    /// delivery is sent with), in no particular order; an id without a number yet, or of an event
    /// no longer kept, is left out.
    fn event_sequences<'a>(&'a mut self, ids: &'a [EventId]) -> BoxFuture<'a, StoreResult<Vec<(EventId, u64)>>>;
    /// The organization's numbered events with a sequence above `q.after`, ascending, of the types
    /// `q.types` (every type when empty), at most `q.limit` (D48).
    fn list_feed<'a>(&'a mut self, q: &'a FeedQuery) -> BoxFuture<'a, StoreResult<Vec<SequencedEvent>>>;
}
