//! [`IdempotencyRepo`] on both backends (idempotency records): one body, compiled for PostgreSQL and SQLite.

use super::*;

impl DbTx<'_, PgPipe<'_>> {
    /// In a write transaction, `SELECT ... FOR UPDATE` of an idempotency record: an abandoned or
    /// expired record is taken over by one request only.
    pub(super) async fn lock_idem_row(&mut self, org: OrgId, path: &str, key: &str) -> StoreResult<()> {
        self.lock_rows(
            idempotency_keys::table.find((DbUuid(org.0), path, key)).select(idempotency_keys::org_id).for_update(),
        )
        .await
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// Writers are serialized by `BEGIN IMMEDIATE`: nothing to lock.
    pub(super) async fn lock_idem_row(&mut self, _org: OrgId, _path: &str, _key: &str) -> StoreResult<()> {
        Ok(())
    }
}

macro_rules! impl_idempotency_repo {
    ($conn:ty) => {
        impl<'c> IdempotencyRepo for DbTx<'c, $conn> {
            fn find_idempotency<'a>(
                &'a mut self,
                org: OrgId,
                path: &'a str,
                key: &'a str,
            ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>> {
                Box::pin(async move {
                    self.lock_idem_row(org, path, key).await?;
                    self.peek_idempotency(org, path, key).await
                })
            }

            fn peek_idempotency<'a>(
                &'a mut self,
                org: OrgId,
                path: &'a str,
                key: &'a str,
            ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>> {
                Box::pin(async move {
                    let q = idempotency_keys::table
                        .find((DbUuid(org.0), path.to_string(), key.to_string()))
                        .select(IdemRow::as_select());
                    self.first_fixed(q, Self::open_idem).await
                })
            }

            fn idem_insert<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<bool>> {
                Box::pin(async move {
                    // An insert and an update by the primary key keep their plans (T269).
                    self.keep_next_plan();
                    let n = self
                        .exec(
                            diesel::insert_into(idempotency_keys::table)
                                .values(self.idem_row(r))
                                .on_conflict_do_nothing(),
                        )
                        .await?;
                    Ok(n == 1)
                })
            }

            fn idem_update<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.keep_next_plan();
                    self.run(Prepared(
                        diesel::update(idempotency_keys::table.find((
                            DbUuid(r.org_id.0),
                            r.path.as_str(),
                            r.key.as_str(),
                        )))
                        .set(self.idem_row(r)),
                    ))
                    .await
                })
            }

            fn idem_delete<'a>(
                &'a mut self,
                org: OrgId,
                path: &'a str,
                key: &'a str,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(diesel::delete(idempotency_keys::table.find((DbUuid(org.0), path, key)))).await
                })
            }

            fn idem_purge(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    // The creation time of the `limit`-th oldest record bounds the batch: the
                    // table's key is composite, so the batch is a range of `created_at`.
                    let old = idempotency_keys::table.filter(idempotency_keys::created_at.lt(DbTime(before)));
                    let edge: Option<DbTime> = old
                        .order(idempotency_keys::created_at.asc())
                        .offset(i64::from(limit.max(1) - 1))
                        .select(idempotency_keys::created_at)
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    let target = idempotency_keys::table.filter(idempotency_keys::created_at.lt(DbTime(before)));
                    let n = match edge {
                        Some(t) => {
                            diesel::delete(target.filter(idempotency_keys::created_at.le(t))).execute(self.conn).await
                        }
                        None => diesel::delete(target).execute(self.conn).await,
                    }
                    .map_err(db_err)?;
                    Ok(n as u64)
                })
            }
        }
    };
}

impl_idempotency_repo!(PgPipe<'_>);
impl_idempotency_repo!(crate::SqliteConn);
