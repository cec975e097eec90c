//! The fake store: every row in one [`FakeState`]; a write transaction works on a copy, holds the
//! write turn, and replaces the state on commit, so a failed use case leaves nothing behind and
//! two writes never undo each other, like a database's transactions.
//!
//! One file per aggregate port implements it for [`FakeTx`] (`org.rs`, `person.rs`, ...); the
//! helpers below serve the lookups, filters and updates they all make.

/// Implements `insert_*` (appends the row) and `update_*` (overwrites the row with the same id)
/// for a table of [`FakeState`].
macro_rules! insert_and_update {
    ($insert:ident, $update:ident, $table:ident: $row:ty) => {
        fn $insert<'a>(&'a mut self, row: &'a $row) -> BoxFuture<'a, StoreResult<()>> {
            self.s.$table.push(row.clone());
            ok(())
        }
        fn $update<'a>(&'a mut self, row: &'a $row) -> BoxFuture<'a, StoreResult<()>> {
            replace(&mut self.s.$table, row, |x| x.id == row.id);
            ok(())
        }
    };
}

mod assessment;
mod connector;
mod email;
mod idempotency;
mod invitation;
mod org;
mod outbox;
mod person;
mod privacy;
mod session;
mod settings;
mod webhook;

use crate::api_key::ApiKey;
use crate::errors::StoreError;
use crate::events::OutboxEvent;
use crate::ids::*;
use crate::organization::{Organization, User};
use crate::person::{Person, Team};
use crate::ports::*;
use crate::results::{Assessment, Profile};
use crate::values::*;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use time::OffsetDateTime;

/// All rows of the fake store.
#[derive(Clone, Default, Debug)]
pub struct FakeState {
    /// Organizations.
    pub orgs: Vec<Organization>,
    pub users: Vec<User>,
    pub keys: Vec<ApiKey>,
    /// Humans (id, email).
    pub humans: Vec<(HumanId, String)>,
    pub persons: Vec<Person>,
    /// Tag catalogue.
    pub tags: Vec<(OrgId, Tag)>,
    pub teams: Vec<Team>,
    /// Team members.
    pub team_members: Vec<(TeamId, PersonId)>,
    /// Outbox.
    pub events: Vec<OutboxEvent>,
    /// Feed sequences of numbered events (D48).
    pub event_sequences: Vec<(EventId, u64)>,
    /// The sequencer's counters: the last number given in each organization (D56).
    pub last_sequence: std::collections::HashMap<OrgId, u64>,
    /// Idempotency records.
    pub idem: Vec<IdempotencyRecord>,
    pub settings: Vec<(String, String)>,
    pub assessments: Vec<Assessment>,
    /// Stored need counts of completed assessments.
    pub need_counts: Vec<(AssessmentId, crate::assessment::NeedCounts)>,
    pub profiles: Vec<Profile>,
    pub invitations: Vec<crate::invitation::Invitation>,
    /// Email outbox.
    pub emails: Vec<EmailRecord>,
    /// One-time codes (D43).
    pub consent_codes: Vec<crate::consent::ConsentCode>,
    /// Webhook endpoints.
    pub endpoints: Vec<crate::webhook::Endpoint>,
    /// Deliveries with their claim.
    pub deliveries: Vec<(crate::webhook::Delivery, Option<OffsetDateTime>)>,
    pub attempts: Vec<(DeliveryId, OffsetDateTime, crate::webhook::AttemptOutcome)>,
    /// The dashboard's sign-in links (issue 18).
    pub sign_in_links: Vec<crate::dashboard::SignInLink>,
    /// The dashboard's sessions (issue 18).
    pub sessions: Vec<crate::dashboard::Session>,
    /// ATS connections (D63).
    pub connections: Vec<crate::connector::Connection>,
    /// Errors ATSs reported (D75).
    pub connection_errors: Vec<crate::connector::ConnectionError>,
    /// ATS orders (D67).
    pub orders: Vec<crate::connector::Order>,
    /// Openings of report links (D68).
    pub report_openings: Vec<crate::connector::ReportOpening>,
}

/// The fake store.
#[derive(Clone, Default)]
pub struct FakeStore {
    /// Committed state.
    pub state: Arc<Mutex<FakeState>>,
    /// Runs when a write transaction begins, before its closure: stands for the wait for a
    /// connection or a lock (tests move a clock in it).
    pub on_begin: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Held by the write transaction in progress: write transactions run one at a time, as the
    /// databases' locks make them (without it two concurrent writes would each commit their own
    /// copy and the later would undo the earlier).
    writing: Arc<std::sync::atomic::AtomicBool>,
}

/// The write turn of a [`FakeStore`], given back on drop (also when the transaction panics or
/// its future is dropped).
struct WriteTurn<'a>(&'a std::sync::atomic::AtomicBool);

impl WriteTurn<'_> {
    /// Waits (yielding to the executor) until no other write transaction runs.
    async fn take(flag: &std::sync::atomic::AtomicBool) -> WriteTurn<'_> {
        std::future::poll_fn(|cx| {
            if flag.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_ok() {
                std::task::Poll::Ready(())
            } else {
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await;
        WriteTurn(flag)
    }
}

impl Drop for WriteTurn<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl FakeStore {
    /// A copy of the committed state.
    pub fn snapshot(&self) -> FakeState {
        self.state.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// A transaction of the fake store: a working copy.
pub struct FakeTx {
    s: FakeState,
}

/// A ready answer.
fn ok<'a, T: Send + 'a>(v: T) -> BoxFuture<'a, StoreResult<T>> {
    Box::pin(std::future::ready(Ok(v)))
}

/// A copy of the first row that `pred` accepts.
fn first<T: Clone>(rows: &[T], pred: impl Fn(&T) -> bool) -> Option<T> {
    rows.iter().find(|r| pred(r)).cloned()
}

/// Copies of the rows that `pred` accepts, in stored order.
fn all<T: Clone>(rows: &[T], pred: impl Fn(&T) -> bool) -> Vec<T> {
    rows.iter().filter(|r| pred(r)).cloned().collect()
}

/// Overwrites with `new` every row that `same` accepts (an update by key).
fn replace<T: Clone>(rows: &mut [T], new: &T, same: impl Fn(&T) -> bool) {
    for r in rows.iter_mut().filter(|r| same(r)) {
        *r = new.clone();
    }
}

/// Appends `new` unless a row that `clash` accepts exists (a unique index): then
/// `UniqueViolation`.
fn insert_unique<'a, T: Clone>(
    rows: &mut Vec<T>,
    new: &T,
    clash: impl Fn(&T) -> bool,
) -> BoxFuture<'a, StoreResult<()>> {
    if rows.iter().any(clash) {
        return Box::pin(std::future::ready(Err(StoreError::UniqueViolation)));
    }
    rows.push(new.clone());
    ok(())
}

/// Deletes the rows that `pred` accepts; returns how many went.
fn remove<T>(rows: &mut Vec<T>, pred: impl Fn(&T) -> bool) -> u64 {
    let before = rows.len();
    rows.retain(|r| !pred(r));
    (before - rows.len()) as u64
}

/// Deletes the first `limit` rows (in stored order) that `pred` accepts; returns how many went.
fn remove_up_to<T>(rows: &mut Vec<T>, limit: u32, pred: impl Fn(&T) -> bool) -> u64 {
    let mut n = 0u64;
    rows.retain(|r| {
        let go = n < u64::from(limit) && pred(r);
        if go {
            n += 1;
        }
        !go
    });
    n
}

/// The first `limit` rows of `v` by `key`, descending (newest first for ids from UUIDv7).
fn newest<T, K: Ord>(mut v: Vec<T>, key: impl Fn(&T) -> K, limit: u32) -> Vec<T> {
    v.sort_by_key(|x| std::cmp::Reverse(key(x)));
    v.truncate(limit as usize);
    v
}

impl Store for FakeStore {
    fn write<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        Box::pin(async move {
            if let Some(hook) = &self.on_begin {
                hook();
            }
            let _turn = WriteTurn::take(&self.writing).await;
            let snapshot = self.snapshot();
            let mut tx = FakeTx { s: snapshot };
            let r = unwound(f(&mut tx)).await?;
            let mut guard = self.state.lock().map_err(|_| StoreError::Internal("poisoned".into()))?;
            *guard = tx.s;
            Ok(r)
        })
    }
    fn read<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        Box::pin(async move {
            let mut tx = FakeTx { s: self.snapshot() };
            unwound(f(&mut tx)).await
        })
    }
    fn ready(&self) -> BoxFuture<'_, StoreResult<()>> {
        ok(())
    }
}

/// Runs a transaction's future; a panic in it becomes `StoreError::Internal`, as the stores
/// report it (T74), and the transaction's working copy is dropped (nothing is written).
async fn unwound<'c, R, E: From<StoreError>>(mut fut: BoxFuture<'c, Result<R, E>>) -> Result<R, E> {
    std::future::poll_fn(move |cx| {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(_) => std::task::Poll::Ready(Err(StoreError::Internal("the transaction panicked".into()).into())),
        }
    })
    .await
}
