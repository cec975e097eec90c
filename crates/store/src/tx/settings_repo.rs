//! [`SettingsRepo`] on both backends (settings, secrets at rest and durability): one body, compiled for PostgreSQL and SQLite.

use super::*;

impl DbTx<'_, PgPipe<'_>> {
    /// `SET LOCAL synchronous_commit = off` (write transactions only).
    pub(super) async fn relax_impl(&mut self) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        diesel_async::SimpleAsyncConnection::batch_execute(self.conn, "SET LOCAL synchronous_commit = off")
            .await
            .map_err(db_err)
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// WAL with `synchronous=NORMAL` does not sync on commit already.
    pub(super) async fn relax_impl(&mut self) -> StoreResult<()> {
        Ok(())
    }
}

macro_rules! impl_settings_repo {
    ($conn:ty) => {
        impl<'c> SettingsRepo for DbTx<'c, $conn> {
            fn relax_durability(&mut self) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move { self.relax_impl().await })
            }

            fn reseal_secrets(&mut self) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let open = |s: &Arc<dyn SecretBox>, v: &str| {
                        s.open(v).map_err(|m| StoreError::Internal(format!("resealing a secret: {m}")))
                    };
                    let mut n = 0u64;
                    self.endpoints_of = None;
                    let rows: Vec<(DbUuid, String, Option<String>)> = webhook_endpoints::table
                        .select((webhook_endpoints::id, webhook_endpoints::secret, webhook_endpoints::previous_secret))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    for (id, secret, previous) in rows {
                        let stale = self.sealer.needs_reseal(&secret)
                            || previous.as_deref().is_some_and(|p| self.sealer.needs_reseal(p));
                        if !stale {
                            continue;
                        }
                        let secret = self.sealer.seal(&open(&self.sealer, &secret)?);
                        let previous = match previous {
                            Some(p) => Some(self.sealer.seal(&open(&self.sealer, &p)?)),
                            None => None,
                        };
                        self.exec(diesel::update(webhook_endpoints::table.find(id)).set((
                            webhook_endpoints::secret.eq(secret),
                            webhook_endpoints::previous_secret.eq(previous),
                        )))
                        .await?;
                        n += 1;
                    }
                    // The ATS credentials of connections (D63), the same way.
                    type Credentials = (DbUuid, Option<String>, Option<String>, Option<String>);
                    let rows: Vec<Credentials> = ats_connections::table
                        .select((
                            ats_connections::id,
                            ats_connections::api_key,
                            ats_connections::webhook_secret,
                            ats_connections::key_value,
                        ))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    for (id, key, secret, own) in rows {
                        let stale = [&key, &secret, &own]
                            .iter()
                            .any(|v| v.as_deref().is_some_and(|v| self.sealer.needs_reseal(v)));
                        if !stale {
                            continue;
                        }
                        let reseal = |v: Option<String>| {
                            v.map(|v| open(&self.sealer, &v).map(|p| self.sealer.seal(&p))).transpose()
                        };
                        let (key, secret, own) = (reseal(key)?, reseal(secret)?, reseal(own)?);
                        self.exec(diesel::update(ats_connections::table.find(id)).set((
                            ats_connections::api_key.eq(key),
                            ats_connections::webhook_secret.eq(secret),
                            ats_connections::key_value.eq(own),
                        )))
                        .await?;
                        n += 1;
                    }
                    let settings: Vec<(String, String)> = settings::table
                        .select((settings::name, settings::value))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    if !settings.iter().any(|(name, _)| name == LINKS_SEALED) {
                        n += self.seal_stored_links().await?;
                        self.exec(
                            diesel::insert_into(settings::table)
                                .values((settings::name.eq(LINKS_SEALED), settings::value.eq(self.sealer.seal("1"))))
                                .on_conflict_do_nothing(),
                        )
                        .await?;
                    }
                    for (name, value) in settings {
                        if self.sealer.needs_reseal(&value) {
                            let sealed = self.sealer.seal(&open(&self.sealer, &value)?);
                            self.exec(diesel::update(settings::table.find(&name)).set(settings::value.eq(sealed)))
                                .await?;
                            n += 1;
                        }
                    }
                    Ok(n)
                })
            }

            fn setting_get_or_insert<'a>(
                &'a mut self,
                name: &'a str,
                value: &'a str,
            ) -> BoxFuture<'a, StoreResult<String>> {
                Box::pin(async move {
                    self.exec(
                        diesel::insert_into(settings::table)
                            .values((settings::name.eq(name), settings::value.eq(self.sealer.seal(value))))
                            .on_conflict_do_nothing(),
                    )
                    .await?;
                    let stored: String = settings::table
                        .find(name)
                        .select(settings::value)
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    self.sealer.open(&stored).map_err(|m| StoreError::Internal(format!("setting {name}: {m}")))
                })
            }
        }
    };
}

/// The setting that records that the texts stored before D52 had their live links sealed
/// ([`DbTx::seal_stored_links`], once per database).
const LINKS_SEALED: &str = "links_sealed_v1";

/// Seals the live links' tokens in `$table.$column` where a row holds a link (D52); evaluates
/// to how many rows it rewrote.
macro_rules! conceal_column {
    ($tx:expr, $table:ident, $column:ident) => {
        async {
            let rows: Vec<(DbUuid, String)> = $table::table
                .filter($table::$column.like("%/i/%").or($table::$column.like("%/sign-in/%")))
                .select(($table::id, $table::$column))
                .load($tx.conn)
                .await
                .map_err(db_err)?;
            let mut n = 0u64;
            for (id, text) in rows {
                let sealed = $tx.conceal(&text);
                if sealed != text {
                    $tx.run(diesel::update($table::table.find(id)).set($table::$column.eq(sealed))).await?;
                    n += 1;
                }
            }
            StoreResult::Ok(n)
        }
        .await
    };
}

macro_rules! impl_seal_stored_links {
    ($conn:ty) => {
        impl DbTx<'_, $conn> {
            /// D52, T129: seals what was stored in clear before: every email's body and link
            /// whole, and the link tokens in outbox events, delivery payloads and stored
            /// responses. Runs once per database (start-up, [`SettingsRepo::reseal_secrets`]);
            /// returns how many rows it rewrote.
            async fn seal_stored_links(&mut self) -> StoreResult<u64> {
                let mut n = 0u64;
                let mails: Vec<(DbUuid, String, Option<String>)> = emails::table
                    .filter(emails::body.not_like("sealed:%"))
                    .select((emails::id, emails::body, emails::invitation_url))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                for (id, body, url) in mails {
                    self.exec(diesel::update(emails::table.find(id)).set((
                        emails::body.eq(self.sealer.seal(&body)),
                        emails::invitation_url.eq(url.map(|u| self.sealer.seal(&u))),
                    )))
                    .await?;
                    n += 1;
                }
                n += conceal_column!(self, outbox_events, data)?;
                n += conceal_column!(self, deliveries, payload)?;
                let responses: Vec<(DbUuid, String, String, Option<String>)> = idempotency_keys::table
                    .filter(idempotency_keys::response_body.like("%/i/%"))
                    .select((
                        idempotency_keys::org_id,
                        idempotency_keys::path,
                        idempotency_keys::key,
                        idempotency_keys::response_body,
                    ))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                for (org, path, key, body) in responses {
                    let Some(body) = body.filter(|b| !is_sealed(b)) else { continue };
                    let sealed = self.conceal(&body);
                    if sealed != body {
                        self.exec(
                            diesel::update(idempotency_keys::table.find((org, &path, &key)))
                                .set(idempotency_keys::response_body.eq(Some(sealed))),
                        )
                        .await?;
                        n += 1;
                    }
                }
                Ok(n)
            }
        }
    };
}

impl_seal_stored_links!(PgPipe<'_>);
impl_seal_stored_links!(crate::SqliteConn);

impl_settings_repo!(PgPipe<'_>);
impl_settings_repo!(crate::SqliteConn);
