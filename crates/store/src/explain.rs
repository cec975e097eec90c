//! `EXPLAIN` of the store's own queries, for benchmarks and operators: the plan the database
//! chooses for exactly the SQL and parameters a use case sends ([`crate::DbStore::explain_persons`]).

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sqlite::Sqlite;
use diesel::QueryResult;

/// `EXPLAIN (ANALYZE, BUFFERS) <query>` on PostgreSQL: one text row per plan line. The query
/// runs (ANALYZE), so use it on reads only.
#[derive(QueryId)]
pub struct ExplainAnalyze<Q>(pub Q);

impl<Q: QueryFragment<Pg>> QueryFragment<Pg> for ExplainAnalyze<Q> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("EXPLAIN (ANALYZE, BUFFERS) ");
        self.0.walk_ast(out.reborrow())
    }
}

impl<Q> Query for ExplainAnalyze<Q> {
    type SqlType = diesel::sql_types::Text;
}

/// `EXPLAIN QUERY PLAN <query>` on SQLite: rows of (id, parent, unused, detail).
#[derive(QueryId)]
pub struct ExplainQueryPlan<Q>(pub Q);

impl<Q: QueryFragment<Sqlite>> QueryFragment<Sqlite> for ExplainQueryPlan<Q> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        out.push_sql("EXPLAIN QUERY PLAN ");
        self.0.walk_ast(out.reborrow())
    }
}

impl<Q> Query for ExplainQueryPlan<Q> {
    type SqlType =
        (diesel::sql_types::Integer, diesel::sql_types::Integer, diesel::sql_types::Integer, diesel::sql_types::Text);
}
