//! `EXPLAIN` of the store's own queries, for benchmarks and operators: the plan the database
//! chooses for exactly the SQL and parameters a use case sends ([`crate::DbStore::explain_persons`]).

use crate::pipeline::PgPipe;
use crate::tx::person_rows::PersonRow;
use crate::tx::{db_err, DbTx};
use crate::{internal, DbStore, Pools, SqliteConn};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sqlite::Sqlite;
use diesel_async::RunQueryDsl;
use talent_domain::ports::{PersonQuery, StoreResult};

/// A wrapper query that prefixes `$prefix` to the query it wraps, on backend `$db`.
macro_rules! explain_query {
    ($(#[$doc:meta])* $name:ident, $db:ty, $prefix:literal, $rows:ty) => {
        $(#[$doc])*
        #[derive(QueryId)]
        pub struct $name<Q>(pub Q);

        impl<Q: QueryFragment<$db>> QueryFragment<$db> for $name<Q> {
            fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, $db>) -> QueryResult<()> {
                out.push_sql($prefix);
                self.0.walk_ast(out.reborrow())
            }
        }

        impl<Q> Query for $name<Q> {
            type SqlType = $rows;
        }
    };
}

explain_query!(
    /// `EXPLAIN (ANALYZE, BUFFERS) <query>` on PostgreSQL: one text row per plan line. The query
    /// runs (ANALYZE), so use it on reads only.
    ExplainAnalyze,
    Pg,
    "EXPLAIN (ANALYZE, BUFFERS) ",
    diesel::sql_types::Text
);

explain_query!(
    /// `EXPLAIN QUERY PLAN <query>` on SQLite: rows of (id, parent, unused, detail).
    ExplainQueryPlan,
    Sqlite,
    "EXPLAIN QUERY PLAN ",
    (diesel::sql_types::Integer, diesel::sql_types::Integer, diesel::sql_types::Integer, diesel::sql_types::Text)
);

impl DbStore {
    /// The plan of `GET /api/v1/persons` for `q` (the SQL
    /// [`talent_domain::ports::PersonRepo::list_persons`] sends, with its parameters): on PostgreSQL `EXPLAIN (ANALYZE, BUFFERS)` (the query runs), on SQLite
    /// `EXPLAIN QUERY PLAN`; one string per line. For `make bench` and operators (issue 11).
    /// Errors: the database's.
    pub async fn explain_persons(&self, q: PersonQuery) -> StoreResult<Vec<String>> {
        match &self.pools {
            Pools::Pg(pool) => {
                let mut c = pool.get().await.map_err(internal)?;
                let Some(tags) = DbTx::new(&mut PgPipe::new(&c), false).tag_filter(&q).await? else {
                    return Ok(vec!["(no such tag: nothing to plan)".into()]);
                };
                let query = DbTx::<PgPipe>::persons_query(&q, tags).select(PersonRow::as_select());
                ExplainAnalyze(query).load::<String>(&mut *c).await.map_err(db_err)
            }
            Pools::Sqlite { read, .. } => {
                let mut c = read.get().await.map_err(internal)?;
                let Some(tags) = DbTx::new(&mut *c, false).tag_filter(&q).await? else {
                    return Ok(vec!["(no such tag: nothing to plan)".into()]);
                };
                let query = DbTx::<SqliteConn>::persons_query(&q, tags).select(PersonRow::as_select());
                let rows: Vec<(i32, i32, i32, String)> = ExplainQueryPlan(query).load(&mut *c).await.map_err(db_err)?;
                Ok(rows.into_iter().map(|(_, _, _, d)| d).collect())
            }
        }
    }
}
