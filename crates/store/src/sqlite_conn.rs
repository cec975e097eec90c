//! How a new SQLite connection is set up: WAL, a busy timeout, foreign keys, no automatic
//! checkpoint (the write queue runs them beside the writer, [`crate::sqlite_group`]), and where
//! its savepoints journal (storage-notes pitfall 3).

use super::*;

/// SQLite file path of a `sqlite://PATH` (or `sqlite:PATH`) URL.
pub(crate) fn sqlite_path(url: &str) -> Option<&str> {
    url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))
}

/// Per-connection SQLite settings (storage-notes pitfall 3). A grouped transaction's savepoints
/// (T75) copy every page they touch to the statement journal first; the bundled SQLite keeps that
/// journal in memory whatever its size (`SQLITE_STMTJRNL_SPILL=-1` in `.cargo/config.toml`, T250,
/// T264), so `temp_store` stays the default (large sorts and temporary tables may use files).
pub const SQLITE_PRAGMAS: &str =
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000; \
     PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0;";

/// Whether this process's SQLite library needs `temp_store = MEMORY` ([`journal_to_memory`]): a
/// property of the library, read on the first connection and kept.
static JOURNAL_TO_MEMORY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Sets up a new SQLite connection: [`SQLITE_PRAGMAS`], and `temp_store = MEMORY` when the library
/// was built with a statement journal that spills to a file (a build outside this workspace,
/// without `.cargo/config.toml`; see [`journal_to_memory`]).
pub(crate) async fn sqlite_setup(c: &mut SqliteConn) -> diesel::QueryResult<()> {
    #[derive(diesel::QueryableByName)]
    struct CompileOption {
        #[diesel(sql_type = diesel::sql_types::Text)]
        compile_options: String,
    }
    c.batch_execute(SQLITE_PRAGMAS).await?;
    let to_memory = match JOURNAL_TO_MEMORY.get() {
        Some(known) => *known,
        None => {
            let q = "SELECT compile_options FROM pragma_compile_options WHERE compile_options LIKE 'STMTJRNL_SPILL=%'";
            let found: Vec<CompileOption> = diesel_async::RunQueryDsl::load(diesel::sql_query(q), c).await?;
            *JOURNAL_TO_MEMORY.get_or_init(|| journal_to_memory(found.first().map(|o| o.compile_options.as_str())))
        }
    };
    if to_memory {
        c.batch_execute("PRAGMA temp_store = MEMORY").await?;
    }
    Ok(())
}

/// Whether a connection must keep its temporary files in memory, given SQLite's compile option
/// `STMTJRNL_SPILL=n` (`None`: not reported): unless `n` is negative (the journal always in
/// memory, this workspace's build), a savepoint's journal would go to a temporary file past `n`
/// bytes. Slowly: past SQLite's default 64 KiB, or 124 KiB, most imports' journals did (30 pages
/// and more; a third fewer imports per second). Or not at all (T264): SQLite keeps the journal
/// in memory in pieces of `n` bytes and, past `n`, writes each piece to the file in one call of
/// its file layer, which masks a write's length to 17 bits: with 1 MiB (T250) that was a write of
/// 0 bytes, reported as `SQLITE_FULL`, "database or disk is full", and the group rolled back.
fn journal_to_memory(option: Option<&str>) -> bool {
    let spill = option.and_then(|o| o.strip_prefix("STMTJRNL_SPILL=")).and_then(|n| n.parse::<i64>().ok());
    spill.is_none_or(|n| n >= 0)
}

#[cfg(test)]
mod tests {
    use super::journal_to_memory;

    /// T250, T264: the savepoints' journal stays in memory whatever SQLite the store was built
    /// with, and never spills through a write SQLite cannot make.
    #[test]
    fn temporary_files_go_to_memory_unless_the_statement_journal_never_spills() {
        assert!(!journal_to_memory(Some("STMTJRNL_SPILL=-1")), "this workspace's build: always in memory");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=126976")), "to a file past 124 KiB: slow");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=1048576")), "written as 0 bytes: it fails");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=65536")), "SQLite's default");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=0")), "always a file");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=lots")));
        assert!(journal_to_memory(None), "not reported");
    }
}
