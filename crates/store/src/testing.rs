//! Test support: a fresh PostgreSQL database per test (`TEST_DATABASE_URL` names a server and an
//! existing database to connect to for `CREATE DATABASE`), or a fresh SQLite file.

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use talent_domain::errors::StoreError;

/// A database made for one test; [`TestDb::drop_db`] removes it.
#[derive(Debug, Clone)]
pub struct TestDb {
    /// `DATABASE_URL` of the fresh database.
    pub url: String,
    admin_url: Option<String>,
    name: String,
}

fn internal(e: impl std::fmt::Display) -> StoreError {
    StoreError::Internal(e.to_string())
}

/// Runs `test` with the URL of a new PostgreSQL database on the server of `TEST_DATABASE_URL`
/// (with every migration applied when `migrated`), on a task of its own, and drops the database
/// afterwards even when `test` panics (the panic is then resumed). Without `TEST_DATABASE_URL`
/// it prints "skipped" and returns: PostgreSQL-only tests.
pub async fn on_postgres<F, Fut>(migrated: bool, test: F)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let Some(admin) = std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.is_empty()) else {
        println!("skipped: TEST_DATABASE_URL unset");
        return;
    };
    let db = match migrated {
        true => TestDb::postgres_migrated(&admin).await,
        false => TestDb::postgres(&admin).await,
    };
    let db = db.unwrap_or_else(|e| panic!("create the test database: {e}"));
    let outcome = tokio::spawn(test(db.url.clone())).await;
    db.drop_db().await.unwrap_or_else(|e| panic!("drop the test database: {e}"));
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// Replaces the database name of a PostgreSQL URL (`postgres://user@host:port/db?params`).
pub fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_part_end = base[scheme_end..].find('/').map(|i| i + scheme_end).unwrap_or(base.len());
    let mut out = format!("{}/{}", &base[..host_part_end], db);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

impl TestDb {
    /// A new, empty PostgreSQL database on the server of `admin_url`.
    pub async fn postgres(admin_url: &str) -> Result<TestDb, StoreError> {
        let name = format!("talent_t_{}", uuid::Uuid::new_v4().simple());
        let mut c = AsyncPgConnection::establish(admin_url).await.map_err(internal)?;
        c.batch_execute(&format!("CREATE DATABASE {name}")).await.map_err(internal)?;
        Ok(TestDb { url: with_database(admin_url, &name), admin_url: Some(admin_url.to_string()), name })
    }

    /// A new PostgreSQL database on the server of `admin_url` with every migration applied:
    /// a copy of a template database that the migrations were applied to once per server and
    /// migration set (`talent_tpl_{hash of migrations/postgres}`), ~0.1 s instead of ~0.6 s for
    /// a fresh database and its migrations (issue 14 point 7). Tests of the migrations themselves
    /// use [`TestDb::postgres`].
    pub async fn postgres_migrated(admin_url: &str) -> Result<TestDb, StoreError> {
        let template = format!("talent_tpl_{:016x}", migrations_hash());
        let name = format!("talent_t_{}", uuid::Uuid::new_v4().simple());
        let mut c = AsyncPgConnection::establish(admin_url).await.map_err(internal)?;
        // FILE_COPY: a copy of the files, not a WAL record of every block (WAL_LOG, the default).
        let clone = format!("CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY");
        if c.batch_execute(&clone).await.is_err() {
            make_template(admin_url, &template).await?;
            // Another process may hold the template for its own copy for a moment: retry briefly.
            let mut tries = 0;
            while let Err(e) = c.batch_execute(&clone).await {
                tries += 1;
                if tries >= 50 {
                    return Err(internal(e));
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
        Ok(TestDb { url: with_database(admin_url, &name), admin_url: Some(admin_url.to_string()), name })
    }

    /// A new SQLite file under `dir`.
    pub fn sqlite(dir: &std::path::Path) -> TestDb {
        let name = format!("talent_t_{}.db", uuid::Uuid::new_v4().simple());
        let path = dir.join(&name);
        TestDb { url: format!("sqlite://{}", path.display()), admin_url: None, name: path.display().to_string() }
    }

    /// Removes the database (PostgreSQL: `DROP DATABASE ... WITH (FORCE)`; SQLite: the files).
    pub async fn drop_db(self) -> Result<(), StoreError> {
        match self.admin_url {
            Some(admin) => {
                let mut c = AsyncPgConnection::establish(&admin).await.map_err(internal)?;
                c.batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name)).await.map_err(internal)
            }
            None => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", self.name));
                }
                Ok(())
            }
        }
    }
}

/// Reverts every applied migration of the database at `url` (the migration check: every
/// migration must revert cleanly, and apply again after). Returns how many were reverted.
pub async fn revert_all(url: &str) -> Result<usize, StoreError> {
    use diesel_migrations::MigrationHarness;
    let url = url.to_string();
    if url.starts_with("postgres") {
        let conn = AsyncPgConnection::establish(&url).await.map_err(internal)?;
        tokio::task::spawn_blocking(move || {
            let mut h = diesel_async::AsyncMigrationHarness::new(conn);
            h.revert_all_migrations(crate::PG_MIGRATIONS).map(|v| v.len()).map_err(internal)
        })
        .await
        .map_err(internal)?
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(&url).to_string();
        let conn = crate::SqliteConn::establish(&path).await.map_err(internal)?;
        tokio::task::spawn_blocking(move || {
            let mut h = diesel_async::AsyncMigrationHarness::new(conn);
            h.revert_all_migrations(crate::SQLITE_MIGRATIONS).map(|v| v.len()).map_err(internal)
        })
        .await
        .map_err(internal)?
    }
}

/// Reverts the applied migrations of the database at `url`, newest first, up to and including
/// the one of `version` (its folder name's digits: `2026-11-23-000008_x` is `20261123000008`),
/// for a migration's data check: revert it, apply it again, look at the data. Returns how many
/// were reverted; an error when the version was not applied.
pub async fn revert_through(url: &str, version: &str) -> Result<usize, StoreError> {
    use diesel_migrations::MigrationHarness;
    fn go<C>(
        mut h: diesel_async::AsyncMigrationHarness<C>,
        set: fn() -> diesel_migrations::EmbeddedMigrations,
        name: &str,
    ) -> Result<usize, StoreError>
    where
        diesel_async::AsyncMigrationHarness<C>: MigrationHarness<C::Backend>,
        C: diesel_async::AsyncConnection,
    {
        let mut n = 0;
        loop {
            let v = h.revert_last_migration(set()).map_err(internal)?;
            n += 1;
            if v.to_string() == name {
                return Ok(n);
            }
        }
    }
    let (url, name) = (url.to_string(), version.to_string());
    if url.starts_with("postgres") {
        let conn = AsyncPgConnection::establish(&url).await.map_err(internal)?;
        let h = diesel_async::AsyncMigrationHarness::new(conn);
        tokio::task::spawn_blocking(move || go(h, || crate::PG_MIGRATIONS, &name)).await.map_err(internal)?
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(&url).to_string();
        let conn = crate::SqliteConn::establish(&path).await.map_err(internal)?;
        let h = diesel_async::AsyncMigrationHarness::new(conn);
        tokio::task::spawn_blocking(move || go(h, || crate::SQLITE_MIGRATIONS, &name)).await.map_err(internal)?
    }
}

/// Every `(table, column)` of the database at `url` whose text holds `needle` (a plain,
/// case-sensitive substring: `strpos` on PostgreSQL, `instr` on SQLite).
/// Looks at every text column of every table, for erasure tests (D44, D45): "no table holds it".
pub async fn tables_containing(url: &str, needle: &str) -> Result<Vec<(String, String)>, StoreError> {
    use diesel::sql_types::{BigInt, Text};
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Col {
        #[diesel(sql_type = Text)]
        t: String,
        #[diesel(sql_type = Text)]
        c: String,
    }
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let mut hits = vec![];
    if url.starts_with("postgres") {
        let mut conn = AsyncPgConnection::establish(url).await.map_err(internal)?;
        let cols: Vec<Col> = diesel::sql_query(
            "SELECT table_name::text AS t, column_name::text AS c FROM information_schema.columns \
             WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb') \
             AND table_name <> '__diesel_schema_migrations'",
        )
        .load(&mut conn)
        .await
        .map_err(internal)?;
        for col in cols {
            let q = format!("SELECT COUNT(*) AS n FROM \"{}\" WHERE strpos(\"{}\"::text, $1) > 0", col.t, col.c);
            let n: N = diesel::sql_query(q).bind::<Text, _>(needle).get_result(&mut conn).await.map_err(internal)?;
            if n.n > 0 {
                hits.push((col.t, col.c));
            }
        }
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(url).to_string();
        let mut conn = crate::SqliteConn::establish(&path).await.map_err(internal)?;
        let tables: Vec<Col> = diesel::sql_query(
            "SELECT name AS t, '' AS c FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%' AND name <> '__diesel_schema_migrations'",
        )
        .load(&mut conn)
        .await
        .map_err(internal)?;
        for table in tables {
            let cols: Vec<Col> = diesel::sql_query(format!(
                "SELECT '{0}' AS t, name AS c FROM pragma_table_info('{0}') WHERE upper(type) = 'TEXT'",
                table.t
            ))
            .load(&mut conn)
            .await
            .map_err(internal)?;
            for col in cols {
                let q = format!("SELECT COUNT(*) AS n FROM \"{}\" WHERE instr(\"{}\", ?) > 0", col.t, col.c);
                let n: N =
                    diesel::sql_query(q).bind::<Text, _>(needle).get_result(&mut conn).await.map_err(internal)?;
                if n.n > 0 {
                    hits.push((col.t, col.c));
                }
            }
        }
    }
    Ok(hits)
}

/// A hash of the PostgreSQL migrations (names and SQL), naming the template database of
/// [`TestDb::postgres_migrated`]: a changed migration gets a new template.
fn migrations_hash() -> u64 {
    use std::hash::{Hash, Hasher};
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../migrations/postgres"));
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().filter_map(Result::ok).map(|f| f.path()))
        .collect();
    files.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for f in files {
        f.hash(&mut h);
        std::fs::read(&f).unwrap_or_default().hash(&mut h);
    }
    h.finish()
}

/// Makes the template `name` unless it exists: a fresh database, migrated by [`crate::DbStore`],
/// then renamed to `name` in one statement, so a concurrent process sees it whole or not at all.
async fn make_template(admin_url: &str, name: &str) -> Result<(), StoreError> {
    let building = TestDb::postgres(admin_url).await?;
    let store = crate::DbStore::connect(&building.url, 1)?;
    store.migrate().await?;
    drop(store);
    let mut c = AsyncPgConnection::establish(admin_url).await.map_err(internal)?;
    let rename = format!("ALTER DATABASE {} RENAME TO {name}", building.name);
    let mut tries = 0;
    loop {
        match c.batch_execute(&rename).await {
            Ok(()) => break,
            // The pool's connections close in the background: wait for them.
            Err(e) if e.to_string().contains("being accessed by other users") && tries < 100 => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            // Another process made it first: ours goes.
            Err(_) => {
                building.drop_db().await?;
                break;
            }
        }
    }
    // Templates of earlier migration sets are not used any more; one in use right now (a
    // process of an older checkout copying it) refuses the drop, which is fine.
    #[derive(diesel::QueryableByName)]
    struct Name {
        #[diesel(sql_type = diesel::sql_types::Text)]
        datname: String,
    }
    use diesel_async::RunQueryDsl;
    let old: Vec<Name> = diesel::sql_query("SELECT datname FROM pg_database WHERE datname LIKE 'talent\\_tpl\\_%'")
        .load(&mut c)
        .await
        .unwrap_or_default();
    for n in old.into_iter().filter(|n| n.datname != name) {
        let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {}", n.datname)).await;
    }
    Ok(())
}

/// PostgreSQL: the index entries read so far by scans of `table`'s indexes in the database at
/// `url`, from the statistics (`pg_stat_user_indexes.idx_tup_read`), summed over its indexes;
/// `None` on SQLite. A session publishes its statistics when it ends, and at the end of a
/// transaction at least a second after it last did. Polls until two reads 100 ms apart agree
/// (at most 5 s).
pub async fn index_entries_read(url: &str, table: &str) -> Result<Option<i64>, StoreError> {
    use diesel::sql_types::{BigInt, Text};
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    if !url.starts_with("postgres") {
        return Ok(None);
    }
    let mut last = -1;
    for _ in 0..50 {
        // A new connection each time: a session reads a snapshot of the statistics.
        let mut conn = AsyncPgConnection::establish(url).await.map_err(internal)?;
        let n: N = diesel::sql_query(
            "SELECT CAST(COALESCE(SUM(idx_tup_read), 0) AS BIGINT) AS n FROM pg_stat_user_indexes WHERE relname = $1",
        )
        .bind::<Text, _>(table)
        .get_result(&mut conn)
        .await
        .map_err(internal)?;
        if n.n == last {
            return Ok(Some(n.n));
        }
        last = n.n;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Ok(Some(last))
}

/// Runs `sql` (one or more statements) on the database at `url`, outside the store: for tests
/// that put rows in a state the service no longer writes (data from before a change, e.g. an
/// address with a Unicode domain, D55). Errors: the database's.
pub async fn execute(url: &str, sql: &str) -> Result<(), StoreError> {
    if url.starts_with("postgres") {
        let mut conn = AsyncPgConnection::establish(url).await.map_err(internal)?;
        conn.batch_execute(sql).await.map_err(internal)
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(url).to_string();
        let mut conn = crate::SqliteConn::establish(&path).await.map_err(internal)?;
        conn.batch_execute(sql).await.map_err(internal)
    }
}

/// A PostgreSQL cluster of a test's own (`initdb` into a temporary directory, a free port, fsync
/// off), for tests that stop the database (issue 13): the shared server is never disturbed.
/// Stopped and removed on drop; declare it before the [`TestApp`] that uses it, so that it drops
/// last. Used by the e2e tests and `make chaos`.
pub struct PgCluster {
    dir: std::path::PathBuf,
    bin: std::path::PathBuf,
    pub port: u16,
    max_connections: u32,
    /// Further server settings (`name=value`), passed as `-c` options at every start.
    settings: Vec<String>,
}

// Test support: a cluster that cannot be set up fails the test or run that asked for it.
#[allow(clippy::expect_used)]
impl PgCluster {
    /// `initdb` and start; `None` (with a note) when no PostgreSQL binaries are installed.
    pub fn start() -> Option<PgCluster> {
        PgCluster::start_sized(40)
    }

    /// As [`PgCluster::start`], accepting `max_connections` connections.
    pub fn start_sized(max_connections: u32) -> Option<PgCluster> {
        PgCluster::start_with(max_connections, &[])
    }

    /// As [`PgCluster::start_sized`], with further server `settings` (`name=value`, such as
    /// `shared_buffers=2GB`) at every start.
    pub fn start_with(max_connections: u32, settings: &[&str]) -> Option<PgCluster> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path().join("bin"))
            .find(|b| b.join("initdb").exists());
        let Some(bin) = bin else {
            eprintln!("skipped: no PostgreSQL binaries under /usr/lib/postgresql");
            return None;
        };
        let dir = std::env::temp_dir().join(format!("talent-pg-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(dir.join("data")).expect("create the cluster directory");
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let settings = settings.iter().map(|s| s.to_string()).collect();
        let c = PgCluster { dir, bin, port, max_connections, settings };
        if c.as_root() {
            let ok = std::process::Command::new("chown").args(["-R", "postgres:postgres"]).arg(&c.dir).status();
            assert!(ok.is_ok_and(|s| s.success()), "chown the cluster directory to postgres");
        }
        let data = c.dir.join("data");
        let st = c.pg("initdb").args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "-D"]).arg(&data).output();
        assert!(st.as_ref().is_ok_and(|o| o.status.success()), "initdb: {st:?}");
        c.start_again();
        Some(c)
    }

    fn as_root(&self) -> bool {
        std::process::Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0")
    }

    /// The command `tool` of the cluster's PostgreSQL, as the `postgres` user when run as root
    /// (PostgreSQL refuses to run as root).
    fn pg(&self, tool: &str) -> std::process::Command {
        let exe = self.bin.join(tool);
        if self.as_root() {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            std::process::Command::new(exe)
        }
    }

    /// The URL of its `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Starts the server (again) and waits until it accepts connections.
    pub fn start_again(&self) {
        let mut opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections={}",
            self.port,
            self.dir.display(),
            self.max_connections
        );
        for s in &self.settings {
            opts.push_str(" -c ");
            opts.push_str(s);
        }
        let st = self
            .pg("pg_ctl")
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-o", &opts, "-l"])
            .arg(self.dir.join("server.log"))
            .args(["-w", "start"])
            .output();
        assert!(st.as_ref().is_ok_and(|o| o.status.success()), "pg_ctl start: {st:?}");
    }

    /// Stops the server (`-m fast`: open sessions are terminated, as in a restart).
    pub fn stop(&self) {
        let st = self.pg("pg_ctl").arg("-D").arg(self.dir.join("data")).args(["-m", "fast", "-w", "stop"]).output();
        assert!(st.as_ref().is_ok_and(|o| o.status.success()), "pg_ctl stop: {st:?}");
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self.pg("pg_ctl").arg("-D").arg(self.dir.join("data")).args(["-m", "immediate", "-w", "stop"]).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn replaces_the_database_name() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/test", "x"),
            "postgres://postgres@127.0.0.1:5432/x"
        );
        assert_eq!(with_database("postgres://h/test?sslmode=disable", "x"), "postgres://h/x?sslmode=disable");
        assert_eq!(with_database("postgres://h", "x"), "postgres://h/x");
    }
}
