#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The bundled SQLite is built with the options the store relies on (`.cargo/config.toml`'s
//! `LIBSQLITE3_FLAGS`): the query planner stability guarantee, without which every statement with
//! a bound `LIMIT` is prepared again on each execution; a statement journal that always stays in
//! memory (T250, T264), without which the store sets `temp_store = MEMORY` instead; and no memory
//! statistics, without which SQLite's allocator takes a lock for each of the journal's pieces;
//! multi-thread mode, without which every call on a connection takes the connection's mutex.
//! All would only make the service slower, never wrong, so nothing else would notice them gone.
//! (A build whose journal spills past 128 KiB is wrong, and the store guards against it: the
//! conformance test `a_grouped_transaction_whose_savepoint_journal_spills_commits_t264`.)

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
fn the_bundled_sqlite_has_the_planner_guarantee_and_a_statement_journal_in_memory_t250() {
    let mut conn = SqliteConnection::establish(":memory:").expect("open");
    assert!(used(&mut conn, "ENABLE_QPSG"), "built with SQLITE_ENABLE_QPSG");
    assert!(used(&mut conn, "STMTJRNL_SPILL=-1"), "built with SQLITE_STMTJRNL_SPILL=-1");
    assert!(used(&mut conn, "DEFAULT_MEMSTATUS=0"), "built with SQLITE_DEFAULT_MEMSTATUS=0");
}

/// T296: multi-thread mode (no mutex around each call on a connection, which the store never
/// shares between threads at once) and no shared cache.
#[test]
fn the_bundled_sqlite_is_in_multi_thread_mode_without_a_shared_cache_t296() {
    let mut conn = SqliteConnection::establish(":memory:").expect("open");
    assert!(used(&mut conn, "THREADSAFE=2"), "built with SQLITE_THREADSAFE=2");
    assert!(used(&mut conn, "OMIT_SHARED_CACHE"), "built with SQLITE_OMIT_SHARED_CACHE");
}
