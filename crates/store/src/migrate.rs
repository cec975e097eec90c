//! Migrations (`migrations/postgres`, `migrations/sqlite`) and the start-up rewrite of stored
//! addresses: what `talent migrate` and every start run before serving.

use super::*;

/// Migrations for PostgreSQL (`migrations/postgres`).
pub const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");
/// Migrations for SQLite (`migrations/sqlite`).
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");

/// The PostgreSQL advisory lock key held while migrations run (T120): an arbitrary constant,
/// the bytes of "talent\0\0" read as a big-endian integer.
pub const MIGRATION_LOCK: i64 = 0x7461_6c65_6e74_0000;

impl DbStore {
    /// Applies pending migrations of the backend's folder; returns how many ran. Runs on a
    /// blocking thread (the migration harness blocks; storage-notes pitfall 1). Instances that
    /// start together on one database apply them once (T120): on PostgreSQL the run holds the
    /// session advisory lock [`MIGRATION_LOCK`], so the others wait for it and then find nothing
    /// pending; on SQLite a run that meets the file locked (another process migrating) is
    /// retried, each migration being its own transaction, for up to 60 s, and a migration that
    /// another process applied after the pending list was read is skipped.
    pub async fn migrate(&self) -> StoreResult<usize> {
        let url = self.url.clone();
        match self.backend() {
            Backend::Postgres => {
                let mut conn = AsyncPgConnection::establish(&url).await.map_err(internal)?;
                // Released when the harness drops the connection.
                conn.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})")).await.map_err(internal)?;
                tokio::task::spawn_blocking(move || {
                    let mut h = diesel_async::AsyncMigrationHarness::new(conn);
                    h.run_pending_migrations(PG_MIGRATIONS).map(|v| v.len()).map_err(internal)
                })
                .await
                .map_err(internal)?
            }
            Backend::Sqlite => {
                crate::sqlite_wal::install();
                let path = sqlite_path(&url).unwrap_or_default().to_string();
                let started = std::time::Instant::now();
                let mut applied = 0;
                loop {
                    let mut conn = SqliteConn::establish(&path).await.map_err(internal)?;
                    let run = match sqlite_setup(&mut conn).await {
                        Err(e) => Err(e.to_string()),
                        Ok(()) => tokio::task::spawn_blocking(move || {
                            let mut h = diesel_async::AsyncMigrationHarness::new(conn);
                            // Counted one by one: an attempt cut short by the lock keeps what it applied.
                            let mut n = 0;
                            loop {
                                let pending =
                                    h.pending_migrations(SQLITE_MIGRATIONS).map_err(|e| (n, e.to_string()))?;
                                let Some(m) = pending.first() else { return Ok(n) };
                                if let Err(e) = h.run_migration(&**m) {
                                    // Another process applied it since the list was read (its
                                    // transaction committed first): go on with the next one.
                                    let version = m.name().version().as_owned();
                                    let applied = h.applied_migrations().map_err(|e| (n, e.to_string()))?;
                                    if !applied.contains(&version) {
                                        return Err((n, e.to_string()));
                                    }
                                } else {
                                    n += 1;
                                }
                            }
                        })
                        .await
                        .map_err(internal)?
                        .map_err(|(n, e)| {
                            applied += n;
                            e
                        }),
                    };
                    match run {
                        Ok(n) => return Ok(applied + n),
                        Err(e) if e.contains("locked") && started.elapsed() < std::time::Duration::from_secs(60) => {
                            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        }
                        Err(e) => return Err(StoreError::Internal(e)),
                    }
                }
            }
        }
    }

    /// Rewrites the stored addresses whose domain is not in IDNA ASCII form (D55, T146; see
    /// [`tx::email_idna`]) in one write transaction: run after [`DbStore::migrate`] by `talent
    /// migrate` and at every start. Rows that would merge into another identity, and addresses
    /// that no longer parse, are left as they are and reported. Idempotent; with nothing to do it
    /// reads eight empty partial indexes. On PostgreSQL instances that start together take turns
    /// ([`MIGRATION_LOCK`], for the transaction). Errors: the database's.
    pub async fn normalize_email_domains(&self) -> StoreResult<tx::email_idna::EmailNormalization> {
        match &self.pools {
            Pools::Pg(pool) => {
                let mut pooled = pool.get().await.map_err(|e| self.health.failed(e))?;
                self.health.ok();
                let conn: &mut AsyncPgConnection = &mut pooled;
                let (out, auth_changed) = conn
                    .transaction(async |c| {
                        c.batch_execute(&format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")).await?;
                        let mut pipe = crate::pipeline::PgPipe::new(c);
                        let mut tx = DbTx::new(&mut pipe, true);
                        let out = tx.normalize_email_domains().await.map_err(TxError::App)?;
                        let auth_changed = tx.auth_changed;
                        pipe.flush().await?;
                        drop(pipe);
                        if auth_changed {
                            c.batch_execute(&format!("NOTIFY {AUTH_CHANNEL}, '{}'", self.instance)).await?;
                        }
                        Ok((out, auth_changed))
                    })
                    .await
                    .map_err(TxError::<StoreError>::into_app)?;
                if auth_changed {
                    self.auth.invalidate();
                }
                Ok(out)
            }
            Pools::Sqlite { write, .. } => {
                let mut conn = write.get().await.map_err(|e| self.health.failed(e))?;
                self.health.ok();
                conn.batch_execute("BEGIN IMMEDIATE").await.map_err(tx::db_err)?;
                let mut tx = DbTx::new(&mut *conn, true);
                let out = tx.normalize_email_domains().await;
                let auth_changed = tx.auth_changed;
                let end = conn.batch_execute(if out.is_ok() { "COMMIT" } else { "ROLLBACK" }).await;
                if end.is_err() {
                    // Possibly still inside the transaction: never back in the pool.
                    let _ = deadpool::managed::Object::take(conn);
                }
                let out = out?;
                end.map_err(tx::db_err)?;
                if auth_changed {
                    self.auth.invalidate();
                }
                Ok(out)
            }
        }
    }

    /// Number of migrations not yet applied (`/readyz`).
    pub async fn pending_migrations(&self) -> StoreResult<usize> {
        let url = self.url.clone();
        match self.backend() {
            Backend::Postgres => {
                pending_on(AsyncPgConnection::establish(&url).await.map_err(internal)?, PG_MIGRATIONS).await
            }
            Backend::Sqlite => {
                let path = sqlite_path(&url).unwrap_or_default().to_string();
                pending_on(SqliteConn::establish(&path).await.map_err(internal)?, SQLITE_MIGRATIONS).await
            }
        }
    }
}

/// How many of `migrations` `conn` has not applied, asked on a blocking thread (the harness blocks).
async fn pending_on<C>(conn: C, migrations: EmbeddedMigrations) -> StoreResult<usize>
where
    C: AsyncConnection + Send + 'static,
    diesel_async::AsyncMigrationHarness<C>: MigrationHarness<C::Backend>,
    EmbeddedMigrations: diesel::migration::MigrationSource<C::Backend>,
{
    tokio::task::spawn_blocking(move || {
        let mut h = diesel_async::AsyncMigrationHarness::new(conn);
        h.pending_migrations(migrations).map(|v| v.len()).map_err(internal)
    })
    .await
    .map_err(internal)?
}
