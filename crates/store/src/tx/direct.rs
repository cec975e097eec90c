//! Statements that own their binds, run on SQLite's own connection (T249).
//!
//! diesel-async's wrapper of a synchronous connection hands every statement to the connection as
//! text: it writes the statement's SQL and copies its binds on each execution, the connection
//! finds its prepared statement by that text (hashing it), and loaded rows are copied into owned
//! rows before they are decoded. On SQLite all of that happens inside the single write turn.
//! [`DbTx::first_owned`] (and [`DbTx::first_fixed`]), [`DbTx::load_all_owned`] and
//! [`DbTx::run_owned`] run a statement whose binds it owns (`'static`) on the wrapped connection
//! itself through the wrapper's
//! `spawn_blocking` (on the polling thread inside a write group, `sqlite_rt`): diesel's
//! synchronous API finds a statement with a static type by its type, writes no SQL, and decodes
//! rows in place. On PostgreSQL the first two are [`DbTx::load_one`] and [`DbTx::load_all`];
//! `run_owned` queues its write on the transaction's pipe, sent with the next statement
//! ([`crate::pipeline`], T266).

use super::{db_err, DbTx, StoreResult};
use crate::pipeline::PgPipe;
use crate::tx::prepared::Fixed;
use diesel::pg::Pg;
use diesel::query_builder::{QueryFragment, QueryId};
use diesel::sqlite::SqliteConnection;
use diesel::OptionalExtension;
use std::future::Future;

impl<'c> DbTx<'c, crate::SqliteConn> {
    /// The row `q` selects, if any, converted by `f` (as [`DbTx::load_one`]).
    pub(crate) fn first_owned<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Option<T>>> + Send + use<'a, 'c, R, T, Q, F>
    where
        Q: diesel::query_dsl::LoadQuery<'static, SqliteConnection, R> + Send + 'static,
        R: Send + 'static,
        T: 'a,
        F: FnOnce(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        let run = self.conn.spawn_blocking(move |c| diesel::RunQueryDsl::get_result(q, c).optional());
        async move {
            let row = run.await.map_err(db_err)?;
            row.map(|r| f(self, r)).transpose()
        }
    }

    /// [`DbTx::first_owned`] of `q` as a [`Fixed`] statement: for a select by key whose SQL text
    /// is one for every value (see [`Fixed`]), named the same on both backends so that a
    /// repository shared by them can call it (T328). A read by key on SQLite ([`crate::DbStore`]'s
    /// `read_by_key`) then neither writes the statement's SQL nor copies its row: 36,000 and
    /// 19,000 instructions of a `GET /persons/{id}`.
    pub(crate) fn first_fixed<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Option<T>>> + Send + use<'a, 'c, R, T, Q, F>
    where
        Q: QueryFragment<diesel::sqlite::Sqlite> + 'static,
        Fixed<Q>: diesel::query_dsl::LoadQuery<'static, SqliteConnection, R> + Send + 'static,
        R: Send + 'static,
        T: 'a,
        F: FnOnce(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        self.first_owned(Fixed::new(q), f)
    }

    /// The rows `q` selects, each converted by `f` (as [`DbTx::load_all`]).
    pub(crate) fn load_all_owned<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Vec<T>>> + Send + use<'a, 'c, R, T, Q, F>
    where
        Q: diesel::query_dsl::LoadQuery<'static, SqliteConnection, R> + Send + 'static,
        R: Send + 'static,
        T: 'a,
        F: Fn(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        let run = self.conn.spawn_blocking(move |c| diesel::RunQueryDsl::load(q, c));
        async move {
            let rows: Vec<R> = run.await.map_err(db_err)?;
            rows.into_iter().map(|r| f(self, r)).collect()
        }
    }

    /// Runs an INSERT, UPDATE or DELETE (as [`DbTx::run`]).
    pub(crate) fn run_owned<'a, Q>(&'a mut self, q: Q) -> impl Future<Output = StoreResult<()>> + Send + 'a
    where
        Q: diesel::query_dsl::methods::ExecuteDsl<SqliteConnection> + Send + 'static,
    {
        let run = self.conn.spawn_blocking(move |c| diesel::query_dsl::methods::ExecuteDsl::execute(q, c));
        async move { run.await.map(|_| ()).map_err(db_err) }
    }

    /// Nothing: SQLite keeps every prepared statement's plan (PostgreSQL's, T269).
    pub(crate) fn keep_next_plan(&mut self) {}
}

impl<'c, 'p> DbTx<'c, PgPipe<'p>> {
    /// [`DbTx::load_one`] (SQLite's runs on the connection itself).
    pub(crate) fn first_owned<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Option<T>>> + Send + use<'a, 'c, 'p, R, T, Q, F>
    where
        Q: diesel_async::methods::LoadQuery<'a, PgPipe<'p>, R> + Send + 'a,
        R: Send + 'static,
        T: 'a,
        F: FnOnce(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        self.load_one(q, f)
    }

    /// [`DbTx::load_one`] (SQLite's runs on the connection itself, as a [`Fixed`] statement).
    pub(crate) fn first_fixed<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Option<T>>> + Send + use<'a, 'c, 'p, R, T, Q, F>
    where
        Q: diesel_async::methods::LoadQuery<'a, PgPipe<'p>, R> + Send + 'a,
        R: Send + 'static,
        T: 'a,
        F: FnOnce(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        self.load_one(q, f)
    }

    /// [`DbTx::load_all`] (SQLite's runs on the connection itself).
    pub(crate) fn load_all_owned<'a, R, T, Q, F>(
        &'a mut self,
        q: Q,
        f: F,
    ) -> impl Future<Output = StoreResult<Vec<T>>> + Send + use<'a, 'c, 'p, R, T, Q, F>
    where
        Q: diesel_async::methods::LoadQuery<'a, PgPipe<'p>, R> + Send + 'a,
        R: Send + 'static,
        T: 'a,
        F: Fn(&Self, R) -> StoreResult<T> + Send + 'a,
    {
        self.load_all(q, f)
    }

    /// The next statement's plan depends on no value or table size (an `INSERT … VALUES`, with
    /// `ON CONFLICT` or `RETURNING`; an `UPDATE` by primary key): its plan is kept as the queued
    /// writes' are ([`PgPipe::keep_next_plan`] says which, T269).
    pub(crate) fn keep_next_plan(&mut self) {
        self.conn.keep_next_plan();
    }

    /// Queues `q` on the pipe ([`PgPipe::defer`], T266): it is sent with the transaction's next
    /// statement or its commit, and its error, if any, is reported there (SQLite's runs at once,
    /// on the connection itself).
    pub(crate) fn run_owned<Q>(&mut self, q: Q) -> impl Future<Output = StoreResult<()>> + Send + use<Q>
    where
        Q: QueryFragment<Pg> + QueryId + Send + 'p,
    {
        self.conn.defer(q);
        std::future::ready(Ok(()))
    }
}
