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
/// journal in memory up to 1 MiB, in one allocation (`SQLITE_STMTJRNL_SPILL` in
/// `.cargo/config.toml`, T250). `temp_store` stays the default: `MEMORY` kept the journal in memory
/// too, but in 1 KiB pieces, allocated and freed one by one in the write turn.
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000; \
     PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0;";

/// The statement journal's spill threshold the store is built for (T250), in bytes.
const JOURNAL_SPILL: i64 = 1 << 20;

/// Whether this process's SQLite library needs `temp_store = MEMORY` ([`journal_to_memory`]): a
/// property of the library, read on the first connection and kept.
static JOURNAL_TO_MEMORY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Sets up a new SQLite connection: [`SQLITE_PRAGMAS`], and `temp_store = MEMORY` when the library
/// was built without the statement journal of [`JOURNAL_SPILL`] (a build outside this workspace,
/// without `.cargo/config.toml`), whose savepoints would otherwise journal to a temporary file
/// past 64 KiB.
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

/// Whether a connection must keep its temporary files in memory for its savepoints' journal not to
/// go to a file early, given SQLite's compile option `STMTJRNL_SPILL=n` (`None`: not reported):
/// yes unless `n` reaches [`JOURNAL_SPILL`] (or is negative: always in memory anyway).
fn journal_to_memory(option: Option<&str>) -> bool {
    let spill = option.and_then(|o| o.strip_prefix("STMTJRNL_SPILL=")).and_then(|n| n.parse::<i64>().ok());
    spill.is_none_or(|n| (0..JOURNAL_SPILL).contains(&n))
}

#[cfg(test)]
mod tests {
    use super::journal_to_memory;

    /// T250: the savepoints' journal stays in memory whatever SQLite the store was built with.
    #[test]
    fn temporary_files_go_to_memory_unless_the_statement_journal_spills_late_enough() {
        assert!(!journal_to_memory(Some("STMTJRNL_SPILL=1048576")), "this workspace's build");
        assert!(!journal_to_memory(Some("STMTJRNL_SPILL=4194304")));
        assert!(!journal_to_memory(Some("STMTJRNL_SPILL=-1")), "always in memory anyway");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=65536")), "SQLite's default");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=0")), "always a file");
        assert!(journal_to_memory(Some("STMTJRNL_SPILL=lots")));
        assert!(journal_to_memory(None), "not reported");
    }
}
