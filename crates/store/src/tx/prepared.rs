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

/// `Q`, whose SQL text is **one and the same for every value of its type**: a select of fixed
/// columns by equalities, an `INSERT` of one row whose columns are all bound (no `Option`
/// written as `DEFAULT`), an upsert of one row. diesel then finds it in the connection's cache
/// by its type alone, and neither walks it to ask whether it may be cached nor writes its SQL
/// text to look it up, as it does on every execution of a statement without a static type id,
/// or whose parts (a `SelectBy`, an upsert) do not declare one. Under an import load, diesel's
/// lookup took 7.3 % of SQLite's single writer before and 3.9 % after, the binding of the values
/// being what is left (T305).
///
/// Wrapping a statement whose text can differ between two values of its type (an `IN` list, an
/// `INSERT` of several rows, an optional filter) would run the first text seen for every value:
/// use [`Prepared`] for those. Nor an `UPDATE` run on SQLite's connection itself
/// ([`super::DbTx::run_owned`]): diesel's synchronous connection hands the statement to its cache
/// by reference, `&T` does not forward `is_safe_to_cache_prepared`, and walking an `UPDATE` says
/// it may not be cached, so it is parsed on every execution (T324); run it through diesel-async
/// ([`super::DbTx::exec`] with [`Prepared`]). The store's conformance suite runs every wrapped
/// statement on both backends, and a debug build ([`Fixed::new`]) checks each statement's text
/// against the first one seen for its type.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fixed<Q>(Q);

impl<Q: QueryFragment<diesel::sqlite::Sqlite> + 'static> Fixed<Q> {
    /// Wraps `q`; a debug build checks that its SQL text is the one seen first for its type.
    pub(crate) fn new(q: Q) -> Fixed<Q> {
        #[cfg(debug_assertions)]
        same_text(&q);
        Fixed(q)
    }
}

/// Panics when `q`'s SQL text differs from the first seen for its type (debug builds: the
/// tests'), naming both texts.
#[cfg(debug_assertions)]
fn same_text<Q: QueryFragment<diesel::sqlite::Sqlite> + 'static>(q: &Q) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashMap<std::any::TypeId, String>>> = OnceLock::new();
    let full = diesel::debug_query::<diesel::sqlite::Sqlite, _>(q).to_string();
    let text = full.split(" -- binds: ").next().unwrap_or_default().to_string();
    let mut seen = SEEN.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let first = seen.entry(std::any::TypeId::of::<Q>()).or_insert_with(|| text.clone());
    assert_eq!(*first, text, "a statement wrapped in Fixed has more than one SQL text");
}

impl<Q: 'static> QueryId for Fixed<Q> {
    type QueryId = Fixed<Q>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<Q: Query> Query for Fixed<Q> {
    type SqlType = Q::SqlType;
}

impl<Q: QueryFragment<DB> + 'static, DB: Backend> QueryFragment<DB> for Fixed<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q, Conn> diesel::RunQueryDsl<Conn> for Fixed<Q> {}

#[cfg(test)]
mod tests {
    use super::Fixed;
    use crate::schema::humans;
    use crate::types::DbUuid;
    use diesel::prelude::*;

    #[test]
    fn a_statement_with_one_text_is_fixed_whatever_its_values() {
        let by_email = |e: &str| Fixed::new(humans::table.filter(humans::email.eq(e.to_string())).select(humans::id));
        let _ = by_email("a@example.com");
        let _ = by_email("a.much.longer.address@example.com");
    }

    #[test]
    #[should_panic(expected = "more than one SQL text")]
    fn a_statement_whose_text_grows_with_its_values_is_refused_in_tests() {
        let by_ids = |n: usize| {
            let ids: Vec<DbUuid> = (0..n).map(|_| DbUuid(uuid::Uuid::nil())).collect();
            Fixed::new(humans::table.filter(humans::id.eq_any(ids)).select(humans::email))
        };
        let _ = by_ids(1);
        let _ = by_ids(2);
    }
}
