//! SQLite's write-ahead log written in one call per commit, not two per page (T329).
//!
//! SQLite appends each page of a commit to the log as a frame, a 24-byte header and the page,
//! each in a `pwrite` of its own: a group of imports commits about 96 pages, so about 190 calls,
//! each of which walks the kernel's page cache for one or two 4 KiB pages (a frame of 4,120 bytes
//! is never aligned). That was 16-19 % of the writer thread's time under an import load.
//!
//! This module registers, as the process's default, a VFS that is SQLite's own `unix` VFS but
//! for two things. The log files it opens keep consecutive appends in memory and write them in
//! one call. They write what they keep
//! - at the header of a commit frame (SQLite marks it with the database's new size), and the
//!   commit's last page, which follows, at once; only then does SQLite publish the commit in the
//!   log's index (shared memory), so no other connection can see a frame that is not in the file;
//! - before any other call on the file (a read, a size, a sync, a truncation, a file control,
//!   the close), so SQLite reads back what it wrote;
//! - before a write that does not append to what is kept (SQLite rewrites a frame of the same
//!   transaction in place), and when [`KEEP`] bytes are kept.
//!
//! And a database file's shared-memory lock writes what its connection's log keeps when the
//! connection gives up the log's write lock ([`db_shm_lock`]): a commit leaves nothing kept, but a
//! transaction that spilled frames and rolled back does, and another connection may commit
//! frames at the same place as soon as the lock is free. So bytes are kept only while their
//! connection holds the write lock, when SQLite itself would have written them.
//!
//! A crash loses only frames of a transaction that had not committed, as it would without the
//! buffer. Journals and temporary files keep the `unix` VFS's own methods.
#![allow(unsafe_code)]

use libsqlite3_sys as ffi;
use std::ffi::{c_int, c_void};

/// The most bytes a log file keeps before it writes them: 64 KiB, below the 128 KiB that one
/// write of SQLite's `unix` layer takes (it masks a length to 17 bits).
const KEEP: usize = 64 * 1024;

/// The size of a frame's header in SQLite's log.
const FRAME_HEADER: usize = 24;

/// A file of this VFS: SQLite's `sqlite3_file` first (its methods ours for a log, the `unix`
/// VFS's own otherwise), the kept appends, and the `unix` VFS's file after it.
#[repr(C)]
struct LogFile {
    base: ffi::sqlite3_file,
    kept: *mut Kept,
}

/// The appends a log file keeps: `bytes` to be written at `at`.
struct Kept {
    bytes: Vec<u8>,
    at: i64,
    /// The next write is a commit's last page: written at once.
    commit_page: bool,
    /// The database's file, whose write lock bounds what is kept (null: none known).
    db: *mut ffi::sqlite3_file,
}

/// Offset of the `unix` VFS's file inside a [`LogFile`]'s allocation.
const INNER: usize = std::mem::size_of::<LogFile>().next_multiple_of(16);

/// Installs the VFS as the process's default, once. Connections opened before keep the `unix`
/// VFS. Errors: none; when SQLite has no `unix` VFS, nothing is installed.
pub(crate) fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| unsafe {
        let unix = ffi::sqlite3_vfs_find(c"unix".as_ptr());
        if unix.is_null() {
            return;
        }
        let mut vfs: ffi::sqlite3_vfs = *unix;
        vfs.zName = c"talent-unix".as_ptr();
        vfs.szOsFile = (INNER + (*unix).szOsFile as usize) as c_int;
        vfs.xOpen = Some(open);
        vfs.pNext = std::ptr::null_mut();
        UNIX.store(unix, std::sync::atomic::Ordering::Release);
        let vfs = Box::leak(Box::new(vfs));
        ffi::sqlite3_vfs_register(vfs, 1);
    });
}

static UNIX: std::sync::atomic::AtomicPtr<ffi::sqlite3_vfs> = std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

unsafe fn inner(f: *mut ffi::sqlite3_file) -> *mut ffi::sqlite3_file {
    (f as *mut u8).add(INNER) as *mut ffi::sqlite3_file
}

unsafe fn methods(f: *mut ffi::sqlite3_file) -> &'static ffi::sqlite3_io_methods {
    &*(*inner(f)).pMethods
}

unsafe extern "C" fn open(
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    let unix = UNIX.load(std::sync::atomic::Ordering::Acquire);
    let Some(unix_open) = (*unix).xOpen else { return ffi::SQLITE_CANTOPEN };
    if flags & ffi::SQLITE_OPEN_WAL != 0 {
        // SQLite names a log by a name that leads to its database's file.
        let db = if name.is_null() { std::ptr::null_mut() } else { ffi::sqlite3_database_file_object(name) };
        return open_log(unix, name, file, flags, out_flags, db);
    }
    // Not a log: the `unix` VFS's file in place; a database's with `db_shm_lock`.
    let rc = unix_open(unix, name, file, flags, out_flags);
    if rc == ffi::SQLITE_OK && flags & ffi::SQLITE_OPEN_MAIN_DB != 0 && !(*file).pMethods.is_null() {
        (*file).pMethods = db_methods((*file).pMethods);
    }
    rc
}

/// Opens a log in `file` with the `unix` VFS's file inside, for the database file `db` (null:
/// none known, in tests).
unsafe fn open_log(
    unix: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
    db: *mut ffi::sqlite3_file,
) -> c_int {
    let Some(unix_open) = (*unix).xOpen else { return ffi::SQLITE_CANTOPEN };
    let f = file as *mut LogFile;
    (*f).base.pMethods = std::ptr::null();
    (*f).kept = std::ptr::null_mut();
    let inner_file = inner(file);
    (*inner_file).pMethods = std::ptr::null();
    let rc = unix_open(unix, name, inner_file, flags, out_flags);
    if rc != ffi::SQLITE_OK {
        if !(*inner_file).pMethods.is_null() {
            if let Some(close) = (*(*inner_file).pMethods).xClose {
                close(inner_file);
            }
        }
        return rc;
    }
    (*f).kept = Box::into_raw(Box::new(Kept { bytes: Vec::new(), at: 0, commit_page: false, db }));
    if !db.is_null() {
        logs().insert(db as usize, f as usize);
    }
    (*f).base.pMethods = &LOG_METHODS;
    ffi::SQLITE_OK
}

/// Each open log, by its database's file (both addresses): how `db_shm_lock` finds the log of
/// the connection that ends a write transaction.
fn logs() -> std::sync::MutexGuard<'static, std::collections::HashMap<usize, usize>> {
    static LOGS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<usize, usize>>> =
        std::sync::OnceLock::new();
    let logs = LOGS.get_or_init(Default::default);
    logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A database file's methods: the `unix` VFS's (`unix`), with [`db_shm_lock`].
#[repr(C)]
struct DbMethods {
    methods: ffi::sqlite3_io_methods,
    unix: *const ffi::sqlite3_io_methods,
}

// Read-only after it is made: a table of function pointers.
unsafe impl Send for DbMethods {}
unsafe impl Sync for DbMethods {}

/// The [`DbMethods`] of `unix`'s methods, made once for each table the `unix` VFS uses.
unsafe fn db_methods(unix: *const ffi::sqlite3_io_methods) -> *const ffi::sqlite3_io_methods {
    static MADE: std::sync::Mutex<Vec<(usize, usize)>> = std::sync::Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, ours)) = made.iter().find(|(theirs, _)| *theirs == unix as usize) {
        return *ours as *const ffi::sqlite3_io_methods;
    }
    let mut methods = *unix;
    if methods.xShmLock.is_some() {
        methods.xShmLock = Some(db_shm_lock);
    }
    let ours: &'static DbMethods = Box::leak(Box::new(DbMethods { methods, unix }));
    let ours = &ours.methods as *const ffi::sqlite3_io_methods;
    made.push((unix as usize, ours as usize));
    ours
}

/// SQLite's lock on a database's shared memory. When a connection gives up the log's write lock
/// (slot 0), its transaction has ended; a commit left nothing kept, so what its log still keeps
/// is frames of a transaction rolled back (spilled from the page cache before the commit). They
/// are written now, before another connection can write where they go, as SQLite itself would
/// have written them earlier.
unsafe extern "C" fn db_shm_lock(f: *mut ffi::sqlite3_file, offset: c_int, n: c_int, flags: c_int) -> c_int {
    let releases_write = flags & ffi::SQLITE_SHM_UNLOCK != 0 && flags & ffi::SQLITE_SHM_EXCLUSIVE != 0;
    if releases_write && offset <= 0 && offset + n > 0 {
        let log = logs().get(&(f as usize)).copied();
        if let Some(log) = log {
            let _ = flush(log as *mut ffi::sqlite3_file);
        }
    }
    let ours = (*f).pMethods as *const DbMethods;
    match (*(*ours).unix).xShmLock {
        Some(lock) => lock(f, offset, n, flags),
        None => ffi::SQLITE_IOERR_SHMLOCK,
    }
}

/// Writes what `f` keeps. Errors: the `unix` VFS's write's; what was kept is dropped then (SQLite
/// rolls the transaction back).
unsafe fn flush(f: *mut ffi::sqlite3_file) -> c_int {
    write_kept(f, &mut *(*(f as *mut LogFile)).kept)
}

/// [`flush`] with the file's [`Kept`] borrowed by the caller.
unsafe fn write_kept(f: *mut ffi::sqlite3_file, kept: &mut Kept) -> c_int {
    if kept.bytes.is_empty() {
        return ffi::SQLITE_OK;
    }
    let Some(write) = methods(f).xWrite else { return ffi::SQLITE_IOERR_WRITE };
    let rc = write(inner(f), kept.bytes.as_ptr() as *const c_void, kept.bytes.len() as c_int, kept.at);
    kept.bytes.clear();
    count(0, 1);
    rc
}

unsafe extern "C" fn log_write(f: *mut ffi::sqlite3_file, data: *const c_void, n: c_int, at: i64) -> c_int {
    let kept = &mut *(*(f as *mut LogFile)).kept;
    let Some(write) = methods(f).xWrite else { return ffi::SQLITE_IOERR_WRITE };
    let len = n.max(0) as usize;
    let appends = !kept.bytes.is_empty() && at == kept.at + kept.bytes.len() as i64;
    if kept.commit_page || (!kept.bytes.is_empty() && !appends) || kept.bytes.len() + len > KEEP {
        let rc = write_kept(f, kept);
        if rc != ffi::SQLITE_OK {
            kept.commit_page = false;
            return rc;
        }
    }
    if kept.commit_page || len > KEEP {
        kept.commit_page = false;
        count(1, 1);
        return write(inner(f), data, n, at);
    }
    count(1, 0);
    let bytes = std::slice::from_raw_parts(data as *const u8, len);
    if kept.bytes.is_empty() {
        kept.at = at;
    }
    kept.bytes.extend_from_slice(bytes);
    // A frame's header: its page number, then the database's size after a commit (0 otherwise).
    if len == FRAME_HEADER && bytes[4..8] != [0; 4] {
        let rc = write_kept(f, kept);
        kept.commit_page = rc == ffi::SQLITE_OK;
        return rc;
    }
    ffi::SQLITE_OK
}

/// The methods of a log file: [`log_write`], and the `unix` VFS's own after a flush.
static LOG_METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 3,
    xClose: Some(log_close),
    xRead: Some(log_read),
    xWrite: Some(log_write),
    xTruncate: Some(log_truncate),
    xSync: Some(log_sync),
    xFileSize: Some(log_file_size),
    xLock: Some(log_lock),
    xUnlock: Some(log_unlock),
    xCheckReservedLock: Some(log_check_reserved_lock),
    xFileControl: Some(log_file_control),
    xSectorSize: Some(log_sector_size),
    xDeviceCharacteristics: Some(log_device_characteristics),
    xShmMap: Some(log_shm_map),
    xShmLock: Some(log_shm_lock),
    xShmBarrier: Some(log_shm_barrier),
    xShmUnmap: Some(log_shm_unmap),
    xFetch: Some(log_fetch),
    xUnfetch: Some(log_unfetch),
};

/// Defines a method that flushes what the file keeps, then calls the `unix` VFS's.
macro_rules! flushed {
    ($name:ident, $member:ident, $err:expr, ($($arg:ident: $ty:ty),*)) => {
        unsafe extern "C" fn $name(f: *mut ffi::sqlite3_file $(, $arg: $ty)*) -> c_int {
            let rc = flush(f);
            if rc != ffi::SQLITE_OK {
                return rc;
            }
            match methods(f).$member {
                Some(m) => m(inner(f) $(, $arg)*),
                None => $err,
            }
        }
    };
}

flushed!(log_read, xRead, ffi::SQLITE_IOERR_READ, (data: *mut c_void, n: c_int, at: i64));
flushed!(log_truncate, xTruncate, ffi::SQLITE_IOERR_TRUNCATE, (size: i64));
flushed!(log_sync, xSync, ffi::SQLITE_IOERR_FSYNC, (flags: c_int));
flushed!(log_file_size, xFileSize, ffi::SQLITE_IOERR_FSTAT, (size: *mut i64));
flushed!(log_lock, xLock, ffi::SQLITE_IOERR_LOCK, (level: c_int));
flushed!(log_unlock, xUnlock, ffi::SQLITE_IOERR_UNLOCK, (level: c_int));
flushed!(log_check_reserved_lock, xCheckReservedLock, ffi::SQLITE_IOERR_CHECKRESERVEDLOCK, (out: *mut c_int));
flushed!(log_file_control, xFileControl, ffi::SQLITE_NOTFOUND, (op: c_int, arg: *mut c_void));
flushed!(log_shm_map, xShmMap, ffi::SQLITE_IOERR_SHMMAP, (page: c_int, size: c_int, extend: c_int, out: *mut *mut c_void));
flushed!(log_shm_lock, xShmLock, ffi::SQLITE_IOERR_SHMLOCK, (offset: c_int, n: c_int, flags: c_int));
flushed!(log_shm_unmap, xShmUnmap, ffi::SQLITE_IOERR_SHMMAP, (delete: c_int));
flushed!(log_fetch, xFetch, ffi::SQLITE_IOERR_MMAP, (at: i64, n: c_int, out: *mut *mut c_void));
flushed!(log_unfetch, xUnfetch, ffi::SQLITE_IOERR_MMAP, (at: i64, p: *mut c_void));

unsafe extern "C" fn log_shm_barrier(f: *mut ffi::sqlite3_file) {
    let _ = flush(f);
    if let Some(m) = methods(f).xShmBarrier {
        m(inner(f));
    }
}

unsafe extern "C" fn log_sector_size(f: *mut ffi::sqlite3_file) -> c_int {
    methods(f).xSectorSize.map_or(4096, |m| m(inner(f)))
}

unsafe extern "C" fn log_device_characteristics(f: *mut ffi::sqlite3_file) -> c_int {
    methods(f).xDeviceCharacteristics.map_or(0, |m| m(inner(f)))
}

unsafe extern "C" fn log_close(f: *mut ffi::sqlite3_file) -> c_int {
    let written = flush(f);
    let closed = match methods(f).xClose {
        Some(m) => m(inner(f)),
        None => ffi::SQLITE_OK,
    };
    let lf = f as *mut LogFile;
    if !(*lf).kept.is_null() {
        let db = (*(*lf).kept).db;
        if !db.is_null() {
            logs().remove(&(db as usize));
        }
        drop(Box::from_raw((*lf).kept));
        (*lf).kept = std::ptr::null_mut();
    }
    if written != ffi::SQLITE_OK {
        written
    } else {
        closed
    }
}

#[cfg(test)]
thread_local! {
    /// This thread's appends to logs and the writes they became: a test's own connection's.
    static COUNTS: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// Counts an append (`appends`) and a write to a file (`writes`) on this thread, in tests.
#[inline]
fn count(appends: u64, writes: u64) {
    #[cfg(test)]
    COUNTS.with(|c| {
        let (a, w) = c.get();
        c.set((a + appends, w + writes));
    });
    let _ = (appends, writes);
}

#[cfg(test)]
mod tests {
    use super::{install, COUNTS};
    use diesel::connection::SimpleConnection;
    use diesel::{Connection, RunQueryDsl, SqliteConnection};

    fn db(name: &str) -> String {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!("talent-wal-{name}-{}-{nanos}.sqlite", std::process::id()));
        path.to_string_lossy().into_owned()
    }

    fn count_rows(c: &mut SqliteConnection, sql: &str) -> i64 {
        diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(sql)).get_result(c).unwrap_or(-1)
    }

    fn integrity(c: &mut SqliteConnection) -> String {
        diesel::select(diesel::dsl::sql::<diesel::sql_types::Text>(
            "(SELECT group_concat(integrity_check) FROM pragma_integrity_check)",
        ))
        .get_result(c)
        .unwrap_or_default()
    }

    fn remove(path: &str) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    }

    /// T329: a commit of many pages reaches the log in a few writes, and another connection reads
    /// every committed row at once, from a log and a database that SQLite finds whole.
    #[test]
    fn a_commit_of_many_pages_is_written_in_a_few_calls_and_read_at_once_by_another_connection() {
        install();
        let path = db("commit");
        let mut writer = SqliteConnection::establish(&path).unwrap();
        writer
            .batch_execute(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;
             CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL); CREATE INDEX t_body ON t (body);",
            )
            .unwrap();
        let mut reader = SqliteConnection::establish(&path).unwrap();
        let before = COUNTS.with(|c| c.get());
        for round in 0..20 {
            // 200 rows of 300 bytes and their index: about 30 pages a commit.
            writer.batch_execute(&format!(
                "BEGIN IMMEDIATE; WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 200) INSERT INTO t (body) SELECT printf('%d-%d-%s', {round}, value, hex(randomblob(140))) FROM s; COMMIT;"
            ))
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
            assert_eq!(count_rows(&mut reader, "(SELECT count(*) FROM t)"), (round + 1) * 200, "round {round}");
        }
        let (appends, writes) = COUNTS.with(|c| c.get());
        let (appends, writes) = (appends - before.0, writes - before.1);
        assert!(appends >= 20 * 2 * 20, "{appends} appends: the commits wrote pages to the log");
        assert!(writes * 5 < appends, "{writes} writes for {appends} appends");
        writer.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
        assert_eq!(integrity(&mut reader), "ok");
        drop((writer, reader));
        let mut again = SqliteConnection::establish(&path).unwrap();
        assert_eq!(count_rows(&mut again, "(SELECT count(*) FROM t)"), 4000);
        remove(&path);
    }

    /// T329: a transaction larger than its connection's page cache spills pages to the log before
    /// its commit and writes some of them again (SQLite then rewrites the frames' checksums, reading
    /// them back): every row is read back whole, by this connection and by a new one.
    #[test]
    fn a_transaction_that_spills_and_rewrites_its_frames_reads_back_whole() {
        install();
        let path = db("spill");
        let mut c = SqliteConnection::establish(&path).unwrap();
        c.batch_execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = 10;
             CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL, n INTEGER NOT NULL DEFAULT 0);").unwrap();
        c.batch_execute(
            "BEGIN IMMEDIATE;
             WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 3000) INSERT INTO t (body) SELECT hex(randomblob(200)) FROM s;
             UPDATE t SET n = n + 1;
             UPDATE t SET n = n + 1 WHERE id % 2 = 0;
             COMMIT;",
        )
        .unwrap();
        assert_eq!(count_rows(&mut c, "(SELECT sum(n) FROM t)"), 4500);
        let mut other = SqliteConnection::establish(&path).unwrap();
        assert_eq!(count_rows(&mut other, "(SELECT sum(n) FROM t)"), 4500);
        assert_eq!(integrity(&mut other), "ok");
        drop((c, other));
        remove(&path);
    }
    /// T329: the contract of a log file, checked on the file itself (its length on disk): appends
    /// are kept; a read, or a write elsewhere, writes them first; a commit frame's header writes
    /// them with it, and the commit's page goes straight to the file.
    #[test]
    fn a_log_keeps_its_appends_until_a_read_a_write_elsewhere_or_a_commit() {
        use super::ffi;
        install();
        let path = db("file");
        let on_disk = || std::fs::metadata(&path).map_or(0, |m| m.len());
        let name = std::ffi::CString::new(path.clone()).unwrap_or_default();
        let page = vec![7u8; 4096];
        let header = |commit: u8| {
            let mut h = [0u8; 24];
            h[3] = 1;
            h[7] = commit;
            h
        };
        unsafe {
            let vfs = ffi::sqlite3_vfs_find(c"talent-unix".as_ptr());
            assert!(!vfs.is_null(), "installed");
            let mut mem = vec![0u64; ((*vfs).szOsFile as usize).div_ceil(8)];
            let file = mem.as_mut_ptr() as *mut ffi::sqlite3_file;
            let flags = ffi::SQLITE_OPEN_WAL | ffi::SQLITE_OPEN_CREATE | ffi::SQLITE_OPEN_READWRITE;
            let unix = super::UNIX.load(std::sync::atomic::Ordering::Acquire);
            let (no_flags, no_db) = (std::ptr::null_mut(), std::ptr::null_mut());
            assert_eq!(super::open_log(unix, name.as_ptr(), file, flags, no_flags, no_db), ffi::SQLITE_OK);
            let m = &*(*file).pMethods;
            let write = m.xWrite.unwrap_or_else(|| unreachable!());
            let read = m.xRead.unwrap_or_else(|| unreachable!());
            let put = |bytes: &[u8], at: i64| write(file, bytes.as_ptr() as *const _, bytes.len() as i32, at);
            // The log's header and a frame: kept.
            assert_eq!(put(&[1u8; 32], 0), ffi::SQLITE_OK);
            assert_eq!(put(&header(0), 32), ffi::SQLITE_OK);
            assert_eq!(put(&page, 56), ffi::SQLITE_OK);
            assert_eq!(on_disk(), 0, "kept");
            // A read writes them first, and reads them.
            let mut back = vec![0u8; 4096];
            assert_eq!(read(file, back.as_mut_ptr() as *mut _, 4096, 56), ffi::SQLITE_OK);
            assert_eq!((back, on_disk()), (page.clone(), 4152));
            // A frame, then a write elsewhere (a page rewritten in place): the frame first.
            assert_eq!(put(&header(0), 4152), ffi::SQLITE_OK);
            assert_eq!(put(&page, 4176), ffi::SQLITE_OK);
            assert_eq!(on_disk(), 4152, "kept");
            assert_eq!(put(&page, 56), ffi::SQLITE_OK);
            assert_eq!(on_disk(), 8272);
            // A commit frame: its header with what is kept, its page at once.
            assert_eq!(put(&header(0), 8272), ffi::SQLITE_OK);
            assert_eq!(put(&page, 8296), ffi::SQLITE_OK);
            assert_eq!(on_disk(), 8272, "kept");
            assert_eq!(put(&header(9), 12392), ffi::SQLITE_OK);
            assert_eq!(on_disk(), 12416);
            assert_eq!(put(&page, 12416), ffi::SQLITE_OK);
            assert_eq!(on_disk(), 16512, "the commit's page is written at once");
            assert_eq!(m.xClose.map_or(-1, |close| close(file)), ffi::SQLITE_OK);
        }
        remove(&path);
    }
    /// T329: a transaction that spilled frames and rolled back leaves nothing kept: another
    /// connection's commit at the same place in the log stays whole when the first connection
    /// uses its log again.
    #[test]
    fn frames_of_a_rolled_back_transaction_never_overwrite_another_connections_commit() {
        install();
        let path = db("rollback");
        let rows = "WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 3000)";
        let mut a = SqliteConnection::establish(&path).unwrap();
        a.batch_execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = 10;
             CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL);",
        )
        .unwrap();
        let mut b = SqliteConnection::establish(&path).unwrap();
        b.batch_execute("PRAGMA wal_autocheckpoint = 0").unwrap();
        for round in 0..5 {
            // The log emptied, then a transaction of 14 pages in a cache of 10: it spills a few
            // frames at the log's start, and rolls back.
            a.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
            a.batch_execute(&format!(
                "BEGIN IMMEDIATE; {rows} INSERT INTO t (body) SELECT hex(randomblob(1800 + {round})) FROM s WHERE value <= 14; ROLLBACK;"
            ))
            .unwrap();
            // Another connection commits at the log's start.
            b.batch_execute(&format!(
                "BEGIN IMMEDIATE; {rows} INSERT INTO t (body) SELECT 'b{round}-' || value FROM s WHERE value <= 50; COMMIT;"
            ))
            .unwrap();
            let expected = (round + 1) * 50;
            assert_eq!(count_rows(&mut a, "(SELECT count(*) FROM t WHERE body LIKE 'b%')"), expected, "round {round}");
            a.batch_execute(&format!("BEGIN IMMEDIATE; INSERT INTO t (body) SELECT 'a{round}'; DELETE FROM t WHERE body = 'a{round}'; COMMIT;"))
                .unwrap();
            assert_eq!(count_rows(&mut b, "(SELECT count(*) FROM t WHERE body LIKE 'b%')"), expected, "round {round}");
            assert_eq!(integrity(&mut b), "ok", "round {round}");
        }
        let mut other = SqliteConnection::establish(&path).unwrap();
        assert_eq!(integrity(&mut other), "ok");
        assert_eq!(count_rows(&mut other, "(SELECT count(*) FROM t)"), 250);
        drop((a, b, other));
        remove(&path);
    }
}
