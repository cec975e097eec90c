//! Statements kept prepared although diesel would not keep them (T234).
//!
//! diesel keeps a connection's prepared statements in a cache keyed by the statement's type or,
//! for statements without a static type id, by its SQL text and bind types; but it declines to
//! cache some statements at all: every `UPDATE`, every `ON CONFLICT … DO UPDATE`, every SQL
//! fragment. Such a statement is parsed and planned by the database on every execution, and on
//! PostgreSQL costs a second round trip (prepare, then execute). Measured in paired runs, keeping
//! the import's one such statement prepared bought 8 % of SQLite's import rate (its single
//! writer parses it no more) and nothing measurable on PostgreSQL.
//!
//! [`Prepared`] marks a statement whose SQL text takes a bounded number of forms (an update of
//! one row by its key with a fixed set of columns, say), so that caching it by its text is safe:
//! it is then prepared once per connection. Do not wrap statements whose text grows with their
//! input (an `IN` list on SQLite) or embeds values.

use diesel::backend::Backend;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::QueryResult;

/// `Q`, cached by its SQL text on each connection (see the module's documentation).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prepared<Q>(pub Q);

impl<Q> QueryId for Prepared<Q> {
    type QueryId = ();
    // Keyed by its SQL text: the text of `Q` may differ between values of one type.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for Prepared<Q> {
    type SqlType = Q::SqlType;
}

impl<Q: QueryFragment<DB>, DB: Backend> QueryFragment<DB> for Prepared<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}
