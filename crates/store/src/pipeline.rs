//! PostgreSQL statements sent without waiting for each other's answers (pipelining, T266).
//!
//! PostgreSQL spends its time per round trip more than per statement: pgbench sending the ten
//! statements of an import one after another made 1,901-2,124 transactions/s, the same ten in
//! three round trips 2,648-3,017 (16 clients, three rounds, `docs/performance.md`). [`PgPipe`]
//! is the store's PostgreSQL connection inside a transaction: a write whose answer the use case
//! does not read (an insert of a person, an event, a delivery) is queued with [`PgPipe::defer`]
//! and sent together with the next statement that is awaited, or with the commit. Every
//! statement goes through [`PgPipe`]'s [`AsyncConnectionCore`], which sends what is queued
//! first, in order: PostgreSQL runs a connection's statements in the order they arrive, so a
//! read sees every write queued before it, and an error of a queued write is the error of the
//! statement that sent it (the transaction is then aborted and rolled back as before).
//!
//! Order of sending: diesel-async prepares a statement under its statement cache's lock (FIFO)
//! and sends it in the same poll that releases the lock; the futures of one flush are polled in
//! order, so they are sent in order, whether or not one of them must be prepared first. Every
//! statement queued goes that way, `BEGIN` and `COMMIT` included ([`PgPipe::defer_sql`]); a
//! simple-query message, which skips the cache, would be sent ahead of a statement still being
//! prepared.
//!
//! Plans (T269): the store's connections plan every statement with its values (T110), since a
//! generic plan of a lookup chosen while a table is new can read a whole organization on every
//! execution. A queued write is an `INSERT … VALUES` whose plan no value or table size changes;
//! planning it again on each execution, with the foreign-key checks and the active-person
//! trigger it fires, took about a sixth of PostgreSQL's samples during imports (perf), and
//! about 28 % of pgbench's rate on the same pipelined statements. In a transaction
//! begun by [`PgPipe::begin`], the queued writes are sent under `SET LOCAL plan_cache_mode =
//! auto` (PostgreSQL's default: a generic plan once five executions show it costs no more), and
//! the next awaited statement under `force_custom_plan` again; each `SET` only where the mode
//! changes, in the same round trip.

use crate::pool::Recent;
use crate::tx::Prepared;
use deadpool::managed::Object;
use diesel::pg::Pg;
use diesel::query_builder::{AsQuery, QueryFragment, QueryId};
use diesel::QueryResult;
use diesel_async::{AsyncConnectionCore, AsyncPgConnection, SimpleAsyncConnection};
use futures_util::future::{join, join_all, BoxFuture};
use std::future::Future;

/// A statement sent (or to be sent on its first poll): its count of rows.
type Sent<'p> = BoxFuture<'p, QueryResult<usize>>;

/// The transaction's PostgreSQL connection, with the writes queued for the next round trip (see
/// the module's documentation).
pub struct PgPipe<'p> {
    conn: &'p AsyncPgConnection,
    pending: Vec<Sent<'p>>,
    sent: bool,
    /// The plans of the statements the server runs next, where this pipe began the
    /// transaction (`None`: the session's, unchanged).
    plans: Option<Plans>,
    /// The next awaited statement is one whose plan no value or table size changes.
    keep_next: bool,
}

impl<'p> PgPipe<'p> {
    /// `conn`, nothing queued.
    pub fn new(conn: &'p AsyncPgConnection) -> Self {
        PgPipe { conn, pending: Vec::new(), sent: false, plans: None, keep_next: false }
    }

    /// `conn` with a transaction begun: `BEGIN` queued, sent with the first statement (T266), and
    /// the queued writes planned generically (the module's documentation, T269).
    pub fn begin(conn: &'p AsyncPgConnection) -> Self {
        let mut pipe = PgPipe::new(conn);
        pipe.defer_sql("BEGIN".into());
        pipe.plans = Some(Plans::Custom);
        pipe
    }

    /// Marks the next awaited statement as one whose plan no value or table size changes (an
    /// `INSERT … VALUES`, with or without `ON CONFLICT` and `RETURNING`; an `UPDATE` by primary
    /// key; a read of one organization's rows of a table whose only index is its key): it is
    /// planned as the queued writes are.
    pub fn keep_next_plan(&mut self) {
        self.keep_next = true;
    }

    /// The plans of an awaited statement: the queued writes' once, where it was so marked.
    fn plan_awaited(&mut self) {
        let plans = if std::mem::take(&mut self.keep_next) { Plans::Cached } else { Plans::Custom };
        self.plan(plans);
    }

    /// Queues the `SET LOCAL` that makes the statements after it planned as `plans`, where the
    /// transaction is this pipe's and they are planned otherwise now.
    fn plan(&mut self, plans: Plans) {
        if self.plans.is_some_and(|now| now != plans) {
            self.plans = Some(plans);
            let sql = match plans {
                Plans::Custom => "SET LOCAL plan_cache_mode = force_custom_plan",
                Plans::Cached => "SET LOCAL plan_cache_mode = auto",
            };
            let mut c = self.conn;
            self.pending.push(AsyncConnectionCore::execute_returning_count(&mut c, Prepared(diesel::sql_query(sql))));
        }
    }

    /// Queues `q` (an INSERT, UPDATE or DELETE whose count nobody reads): it is sent with the
    /// next awaited statement or [`PgPipe::flush`]; its error, if any, becomes that one's. It
    /// runs under the queued writes' plans (the module's documentation): only a statement whose
    /// plan no value or table size changes belongs here (an `INSERT … VALUES`, a write by
    /// primary key).
    pub fn defer<Q>(&mut self, q: Q)
    where
        Q: QueryFragment<Pg> + QueryId + Send + 'p,
    {
        self.plan(Plans::Cached);
        let mut c = self.conn;
        self.pending.push(AsyncConnectionCore::execute_returning_count(&mut c, q));
    }

    /// Queues `sql`, a statement without parameters whose text takes a bounded number of forms
    /// (`BEGIN`, `COMMIT`, a `NOTIFY` of this instance), kept prepared by its text like every
    /// other statement. Not by the simple-query protocol: such a message does not wait for
    /// the statement cache, so it could overtake a statement queued before it that is still
    /// being prepared (a `COMMIT` sent before the transaction's last insert).
    pub fn defer_sql(&mut self, sql: String) {
        let mut c = self.conn;
        self.pending.push(AsyncConnectionCore::execute_returning_count(&mut c, Prepared(diesel::sql_query(sql))));
    }

    /// Whether anything was handed to the connection (a transaction whose `BEGIN` was never sent
    /// has nothing to roll back).
    pub fn has_sent(&self) -> bool {
        self.sent
    }

    /// Sends what is queued and waits for every answer (one round trip). Errors: the first
    /// queued statement's that failed ([`in_order`]).
    pub fn flush(&mut self) -> impl Future<Output = QueryResult<()>> + Send + 'p {
        let pending = std::mem::take(&mut self.pending);
        self.sent |= !pending.is_empty();
        async move {
            if !pending.is_empty() {
                in_order(pending).await?;
            }
            Ok(())
        }
    }

    /// `next` sent after what is queued, in the same round trip.
    fn after<T: Send + 'p>(&mut self, next: BoxFuture<'p, QueryResult<T>>) -> BoxFuture<'p, QueryResult<T>> {
        self.sent = true;
        if self.pending.is_empty() {
            return next;
        }
        let pending = std::mem::take(&mut self.pending);
        Box::pin(async move {
            let (queued, next) = join(in_order(pending), next).await;
            queued.and(next)
        })
    }
}

/// Waits for every one of `sent` and returns the error of the first, in the order they were
/// sent, that failed. Once a statement of a transaction fails, PostgreSQL answers each later
/// one "current transaction is aborted": the error that says what happened (a unique
/// violation the use case retries, a lost connection) is the earliest one. Waiting for the
/// first error to come in instead (`try_join_all`) could return a later statement's, whose
/// answer the connection's task may deliver between two polls of the earlier one: seen as a
/// 500 among eight concurrent imports of one new address, where the retried unique violation
/// was expected. Waiting for all costs nothing: the server has answered the later statements
/// once it has answered the last one.
pub(crate) async fn in_order<T>(
    sent: impl IntoIterator<Item = impl Future<Output = QueryResult<T>>>,
) -> QueryResult<Vec<T>> {
    join_all(sent).await.into_iter().collect()
}

impl SimpleAsyncConnection for PgPipe<'_> {
    async fn batch_execute(&mut self, query: &str) -> QueryResult<()> {
        self.plan(Plans::Custom);
        self.flush().await?;
        self.sent = true;
        let mut c = self.conn;
        SimpleAsyncConnection::batch_execute(&mut c, query).await
    }
}

impl<'p> AsyncConnectionCore for PgPipe<'p> {
    type ExecuteFuture<'conn, 'query> = BoxFuture<'p, QueryResult<usize>>;
    type LoadFuture<'conn, 'query> = BoxFuture<'p, QueryResult<Self::Stream<'conn, 'query>>>;
    type Stream<'conn, 'query> = <&'p AsyncPgConnection as AsyncConnectionCore>::Stream<'conn, 'query>;
    type Row<'conn, 'query> = <&'p AsyncPgConnection as AsyncConnectionCore>::Row<'conn, 'query>;
    type Backend = Pg;

    fn load<'conn, 'query, T>(&'conn mut self, source: T) -> Self::LoadFuture<'conn, 'query>
    where
        T: AsQuery + 'query,
        T::Query: QueryFragment<Self::Backend> + QueryId + 'query,
    {
        self.plan_awaited();
        let mut c = self.conn;
        let next = AsyncConnectionCore::load(&mut c, source);
        self.after(next)
    }

    fn execute_returning_count<'conn, 'query, T>(&'conn mut self, source: T) -> Self::ExecuteFuture<'conn, 'query>
    where
        T: QueryFragment<Self::Backend> + QueryId + 'query,
    {
        self.plan_awaited();
        let mut c = self.conn;
        let next = AsyncConnectionCore::execute_returning_count(&mut c, source);
        self.after(next)
    }
}

/// How PostgreSQL plans a transaction's next statements (the module's documentation, T269).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Plans {
    /// Planned with their values on every execution (the session's setting, T110).
    Custom,
    /// Kept in the statement's plan cache (`auto`): the queued writes.
    Cached,
}

/// A pooled PostgreSQL connection whose transaction the store begins itself, by a `BEGIN` sent
/// with the transaction's first statement (T266), so that diesel's transaction manager does not
/// know of it. The connection goes back to the pool only once the transaction has ended
/// ([`Begun::committed`], or a [`Begun::rollback`] that the server answered); dropped otherwise
/// (a use case that panicked, a rollback on a lost connection) it is taken out of the pool and
/// closed, which ends the transaction on the server.
pub(crate) struct Begun {
    conn: Option<Object<Recent<AsyncPgConnection>>>,
    open: bool,
}

impl Begun {
    /// `conn`, its transaction about to begin.
    pub(crate) fn new(conn: Object<Recent<AsyncPgConnection>>) -> Self {
        Begun { conn: Some(conn), open: true }
    }

    /// The connection, for the transaction's [`PgPipe`].
    pub(crate) fn conn(&self) -> &AsyncPgConnection {
        // `conn` is `None` only inside `drop`.
        self.conn.as_deref().unwrap_or_else(|| unreachable!("a transaction's connection is taken only on drop"))
    }

    /// The transaction ended (its `COMMIT` succeeded, or its `BEGIN` was never sent): the
    /// connection goes back to the pool.
    pub(crate) fn ended(mut self) {
        self.open = false;
    }

    /// Rolls the transaction back (a `ROLLBACK` outside a transaction, when `BEGIN` was never
    /// sent, is only a warning); the connection goes back to the pool if the server answered.
    pub(crate) async fn rollback(mut self) {
        let mut c = self.conn();
        if SimpleAsyncConnection::batch_execute(&mut c, "ROLLBACK").await.is_ok() {
            self.open = false;
        }
    }
}

impl Drop for Begun {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take().filter(|_| self.open) {
            drop(Object::take(conn));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::in_order;
    use diesel::result::{DatabaseErrorKind, Error};
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// A statement's answer that arrives after `polls` polls.
    struct Answer {
        polls: u32,
        result: Option<diesel::QueryResult<usize>>,
    }

    impl Future for Answer {
        type Output = diesel::QueryResult<usize>;
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            if self.polls > 0 {
                self.polls -= 1;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            Poll::Ready(self.result.take().unwrap_or(Ok(0)))
        }
    }

    fn failed(message: &str) -> Error {
        Error::DatabaseError(DatabaseErrorKind::Unknown, Box::new(message.to_string()))
    }

    fn message(e: Error) -> String {
        match e {
            Error::DatabaseError(_, info) => info.message().to_string(),
            other => other.to_string(),
        }
    }

    #[tokio::test]
    async fn the_first_statement_s_error_wins_although_a_later_one_s_comes_in_first() {
        let answers = vec![
            Answer { polls: 0, result: Some(Ok(1)) },
            Answer { polls: 2, result: Some(Err(failed("duplicate key"))) },
            Answer { polls: 0, result: Some(Err(failed("current transaction is aborted"))) },
        ];
        let got = in_order(answers).await;
        assert_eq!(message(got.expect_err("a statement failed")), "duplicate key");
    }

    #[tokio::test]
    async fn every_answer_in_order_when_none_failed() {
        let answers = (0..4u32).map(|i| Answer { polls: 3 - i, result: Some(Ok(i as usize)) });
        assert_eq!(in_order(answers).await.ok(), Some(vec![0, 1, 2, 3]));
    }
}
