#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The bundled SQLite is built with the options the store relies on (`.cargo/config.toml`'s
//! `LIBSQLITE3_FLAGS`): the query planner stability guarantee, without which every statement with
//! a bound `LIMIT` is prepared again on each execution, and a statement journal that stays in
//! memory up to 1 MiB (T250), without which each grouped write's savepoint copies its pages to a
//! temporary file once it passes 64 KiB. Both would only make the service slower, never wrong, so
//! nothing else would notice them gone.

use diesel::sql_types::Integer;
use diesel::{Connection, QueryableByName, RunQueryDsl, SqliteConnection};

#[derive(QueryableByName)]
struct Used {
    #[diesel(sql_type = Integer)]
    used: i32,
}

fn used(conn: &mut SqliteConnection, option: &str) -> bool {
    diesel::sql_query("SELECT sqlite_compileoption_used(?) AS used")
        .bind::<diesel::sql_types::Text, _>(option)
        .get_result::<Used>(conn)
        .expect("sqlite_compileoption_used")
        .used
        == 1
}

#[test]
fn the_bundled_sqlite_has_the_planner_guarantee_and_a_statement_journal_of_a_mebibyte_t250() {
    let mut conn = SqliteConnection::establish(":memory:").expect("open");
    assert!(used(&mut conn, "ENABLE_QPSG"), "built with SQLITE_ENABLE_QPSG");
    assert!(used(&mut conn, "STMTJRNL_SPILL=1048576"), "built with SQLITE_STMTJRNL_SPILL=1048576");
}
