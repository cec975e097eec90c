//! [`SettingsRepo`] on both backends (settings, secrets at rest and durability): one body, compiled for PostgreSQL and SQLite.

use super::*;

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
                        diesel::update(webhook_endpoints::table.find(id))
                            .set((
                                webhook_endpoints::secret.eq(secret),
                                webhook_endpoints::previous_secret.eq(previous),
                            ))
                            .execute(self.conn)
                            .await
                            .map_err(db_err)?;
                        n += 1;
                    }
                    let settings: Vec<(String, String)> = settings::table
                        .select((settings::name, settings::value))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    for (name, value) in settings {
                        if self.sealer.needs_reseal(&value) {
                            let sealed = self.sealer.seal(&open(&self.sealer, &value)?);
                            diesel::update(settings::table.find(&name))
                                .set(settings::value.eq(sealed))
                                .execute(self.conn)
                                .await
                                .map_err(db_err)?;
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
                    diesel::insert_into(settings::table)
                        .values((settings::name.eq(name), settings::value.eq(self.sealer.seal(value))))
                        .on_conflict_do_nothing()
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
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

impl_settings_repo!(diesel_async::AsyncPgConnection);
impl_settings_repo!(crate::SqliteConn);
