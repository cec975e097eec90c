//! [`OrgRepo`] on both backends (organizations, users and API keys): one body, compiled for PostgreSQL and SQLite.

use super::*;

impl DbTx<'_, PgPipe<'_>> {
    /// The organization, its row locked `FOR UPDATE` (serializes use cases that check
    /// per-organization limits) or, `shared`, `FOR SHARE` (T65).
    pub(super) async fn org_locked(&mut self, id: OrgId, shared: bool) -> StoreResult<Option<Organization>> {
        let q = organizations::table.find(DbUuid(id.0)).select(OrgRow::as_select());
        if shared {
            self.load_one(q.for_share(), conv).await
        } else {
            self.load_one(q.for_update(), conv).await
        }
    }

    /// `max_connections`: no more transactions than connections can be in flight (T65).
    pub(super) async fn writers_impl(&mut self) -> StoreResult<u32> {
        let known = AtomicU32::load(&self.max_writers, Ordering::Relaxed);
        if known > 0 {
            return Ok(known);
        }
        #[derive(diesel::QueryableByName)]
        struct Writers {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            n: i32,
        }
        let w: Writers = diesel::sql_query("SELECT current_setting('max_connections')::int4 AS n")
            .get_result(self.conn)
            .await
            .map_err(db_err)?;
        let n = u32::try_from(w.n).unwrap_or(u32::MAX).max(1);
        self.max_writers.store(n, Ordering::Relaxed);
        Ok(n)
    }
}

/// The statements of [`OrgRepo::age_test_data`] (D60), in their locking order: each moves the
/// listed time columns of one table's rows of the twin (`$1`) back by `$2` seconds. `shift` is
/// the backend's expression of a column moved back by `$2`; `lock` the row lock that skips
/// deliveries being claimed (PostgreSQL) or nothing (SQLite).
fn aging_statements(shift: impl Fn(&str) -> String, p1: &str, lock: &str) -> Vec<String> {
    let set = |cols: &[&str]| cols.iter().map(|c| format!("{c} = {}", shift(c))).collect::<Vec<_>>().join(", ");
    vec![
        format!("UPDATE outbox_events SET {} WHERE org_id = {p1}", set(&["created_at"])),
        format!(
            "UPDATE deliveries SET {} WHERE id IN (SELECT id FROM deliveries WHERE org_id = {p1} {lock})",
            set(&["created_at", "next_attempt_at", "last_attempt_at"])
        ),
        format!(
            "UPDATE delivery_attempts SET {} WHERE delivery_id IN (SELECT id FROM deliveries WHERE org_id = {p1})",
            set(&["attempted_at"])
        ),
        format!(
            "UPDATE invitations SET {} WHERE org_id = {p1}",
            set(&[
                "email_sent_at",
                "reminder_sent_at",
                "expires_at",
                "accepted_at",
                "revoked_at",
                "created_at",
                "updated_at"
            ])
        ),
        format!(
            "UPDATE consent_codes SET {} WHERE invitation_id IN (SELECT id FROM invitations WHERE org_id = {p1})",
            set(&["used_at", "expires_at", "created_at"])
        ),
        format!("UPDATE emails SET {} WHERE org_id = {p1}", set(&["sent_at", "next_attempt_at", "created_at"])),
        format!(
            "UPDATE webhook_endpoints SET {} WHERE org_id = {p1}",
            set(&["previous_secret_expires_at", "breaker_open_until", "failing_since"])
        ),
        // Answered records only: one in flight (the advancing request's own, a concurrent one)
        // keeps its time, so it is neither taken over nor purged while its request runs.
        format!(
            "UPDATE idempotency_keys SET {} WHERE org_id = {p1} AND response_status IS NOT NULL",
            set(&["created_at"])
        ),
    ]
}

impl DbTx<'_, PgPipe<'_>> {
    /// [`OrgRepo::age_test_data`] on PostgreSQL.
    pub(super) async fn age_rows(&mut self, twin: OrgId, seconds: i64) -> StoreResult<()> {
        use diesel::sql_types::BigInt;
        let shift = |c: &str| format!("{c} - make_interval(secs => $2::float8)");
        for sql in aging_statements(shift, "$1", "FOR UPDATE SKIP LOCKED") {
            self.run(
                diesel::sql_query(sql).bind::<crate::types::sql::Uuid, _>(DbUuid(twin.0)).bind::<BigInt, _>(seconds),
            )
            .await?;
        }
        Ok(())
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// [`OrgRepo::age_test_data`] on SQLite: times are fixed-width text (`…THH:MM:SS.ffffffZ`),
    /// so the seconds part is moved by SQLite's date functions and the fraction kept as it is.
    pub(super) async fn age_rows(&mut self, twin: OrgId, seconds: i64) -> StoreResult<()> {
        use diesel::sql_types::Text;
        let shift = |c: &str| format!("strftime('%Y-%m-%dT%H:%M:%S', substr({c}, 1, 19), ?2) || substr({c}, 20)");
        let modifier = format!("{} seconds", -seconds);
        for sql in aging_statements(shift, "?1", "") {
            self.run(
                diesel::sql_query(sql)
                    .bind::<crate::types::sql::Uuid, _>(DbUuid(twin.0))
                    .bind::<Text, _>(modifier.clone()),
            )
            .await?;
        }
        Ok(())
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// SQLite write transactions are `BEGIN IMMEDIATE`: the database-wide write lock is already
    /// held, so a plain read suffices.
    pub(super) async fn org_locked(&mut self, id: OrgId, _shared: bool) -> StoreResult<Option<Organization>> {
        self.first_owned(organizations::table.find(DbUuid(id.0)).select(OrgRow::as_select()), conv).await
    }

    /// One writer at a time.
    pub(super) async fn writers_impl(&mut self) -> StoreResult<u32> {
        Ok(1)
    }
}

macro_rules! impl_org_repo {
    ($conn:ty) => {
        impl<'c> OrgRepo for DbTx<'c, $conn> {
            fn insert_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(
                    async move { self.run(diesel::insert_into(organizations::table).values(OrgRow::from(org))).await },
                )
            }

            fn update_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.exec(Prepared(
                        diesel::update(organizations::table.find(DbUuid(org.id.0))).set(OrgRow::from(org)),
                    ))
                    .await?;
                    self.auth_changed = true;
                    Ok(())
                })
            }

            fn get_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move {
                    self.load_one(organizations::table.find(DbUuid(id.0)).select(OrgRow::as_select()), conv).await
                })
            }

            fn lock_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move { self.org_locked(id, false).await })
            }

            fn lock_org_shared(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move { self.org_locked(id, true).await })
            }

            fn concurrent_writers(&mut self) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move { self.writers_impl().await })
            }

            fn list_orgs(
                &mut self,
                before: Option<OrgId>,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<Organization>>> {
                Box::pin(async move {
                    let mut q = organizations::table.filter(organizations::test_of.is_null()).into_boxed();
                    if let Some(b) = before {
                        q = q.filter(organizations::id.lt(DbUuid(b.0)));
                    }
                    let q = q.order(organizations::id.desc()).limit(i64::from(limit.min(100_000)));
                    self.load_all(q.select(OrgRow::as_select()), conv).await
                })
            }

            fn find_test_twin(&mut self, live: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move {
                    let q = organizations::table.filter(organizations::test_of.eq(DbUuid(live.0)));
                    self.load_one(q.select(OrgRow::as_select()), conv).await
                })
            }

            fn age_test_data(&mut self, twin: OrgId, seconds: i64) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    self.age_rows(twin, seconds).await?;
                    self.wake = true;
                    Ok(())
                })
            }

            fn find_org_by_name<'a>(&'a mut self, name: &'a str) -> BoxFuture<'a, StoreResult<Option<Organization>>> {
                Box::pin(async move {
                    self.load_one(
                        organizations::table
                            .filter(organizations::company_name.eq(name))
                            .filter(organizations::test_of.is_null())
                            .order(organizations::created_at.asc())
                            .select(OrgRow::as_select())
                            .limit(1),
                        conv,
                    )
                    .await
                })
            }

            fn count_active_persons(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move {
                    // The triggers' per-organization counter rows (T69), not COUNT(*) of persons:
                    // at most 16 (shards), summed here so that the statement is all DSL and stays
                    // in the connection's prepared-statement cache; an SQL fragment made both
                    // backends parse and plan it on every import (T234).
                    let q = org_active_persons::table
                        .filter(org_active_persons::org_id.eq(DbUuid(org.0)))
                        .select(org_active_persons::n);
                    let shards: Vec<i64> = self.load_all_owned(q, |_, n: i64| Ok(n)).await?;
                    Ok(active_of_shards(&shards))
                })
            }

            fn insert_user<'a>(&'a mut self, user: &'a User) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move { self.run(diesel::insert_into(users::table).values(UserRow::from(user))).await })
            }

            fn get_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<Option<User>>> {
                Box::pin(async move {
                    self.load_one(users::table.find(DbUuid(id.0)).select(UserRow::as_select()), conv).await
                })
            }

            fn update_user_role(&mut self, id: UserId, role: OrgRole) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    self.exec(diesel::update(users::table.find(DbUuid(id.0))).set(users::role.eq(role.as_str())))
                        .await?;
                    // A key's context carries its user's role: cached contexts are stale.
                    self.auth_changed = true;
                    Ok(())
                })
            }

            fn delete_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let keys =
                        self.exec(diesel::delete(api_keys::table.filter(api_keys::user_id.eq(DbUuid(id.0))))).await?;
                    let target = dashboard_sessions::table.filter(dashboard_sessions::user_id.eq(DbUuid(id.0)));
                    self.exec(diesel::delete(target)).await?;
                    diesel::delete(users::table.find(DbUuid(id.0))).execute(self.conn).await.map_err(db_err)?;
                    self.auth_changed = true;
                    Ok(keys as u64)
                })
            }

            fn list_users_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<User>>> {
                Box::pin(async move {
                    let q = users::table
                        .filter(users::org_id.eq(DbUuid(org.0)))
                        .order((users::created_at.asc(), users::id.asc()));
                    self.load_all(q.select(UserRow::as_select()), conv).await
                })
            }

            fn insert_api_key<'a>(&'a mut self, key: &'a ApiKey) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move { self.run(diesel::insert_into(api_keys::table).values(KeyRow::from(key))).await })
            }

            fn get_api_key(&mut self, id: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<ApiKey>>> {
                Box::pin(async move {
                    self.load_one(api_keys::table.find(DbUuid(id.0)).select(KeyRow::as_select()), conv).await
                })
            }

            fn list_api_keys_of_user(&mut self, user: UserId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
                Box::pin(async move {
                    let q = api_keys::table
                        .filter(api_keys::user_id.eq(DbUuid(user.0)))
                        .order((api_keys::created_at.asc(), api_keys::id.asc()));
                    self.load_all(q.select(KeyRow::as_select()), conv).await
                })
            }

            fn list_api_keys_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
                Box::pin(async move {
                    let of_org = users::table.filter(users::org_id.eq(DbUuid(org.0))).select(users::id);
                    let q = api_keys::table
                        .filter(api_keys::user_id.eq_any(of_org))
                        .order((api_keys::created_at.desc(), api_keys::id.desc()));
                    self.load_all(q.select(KeyRow::as_select()), conv).await
                })
            }

            fn revoke_api_key(&mut self, id: ApiKeyId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    self.exec(
                        diesel::update(api_keys::table.find(DbUuid(id.0)))
                            .set(api_keys::revoked_at.eq(Some(DbTime(at)))),
                    )
                    .await?;
                    self.auth_changed = true;
                    Ok(())
                })
            }

            fn find_key_context<'a>(&'a mut self, prefix: &'a str) -> BoxFuture<'a, StoreResult<Option<KeyContext>>> {
                Box::pin(async move {
                    let row: Option<(KeyRow, String, OrgRow)> = api_keys::table
                        .inner_join(users::table)
                        .inner_join(organizations::table)
                        .filter(api_keys::prefix.eq(prefix))
                        .select((KeyRow::as_select(), users::role, OrgRow::as_select()))
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    let Some((k, role, o)) = row else { return Ok(None) };
                    Ok(Some(KeyContext {
                        key: ApiKey::try_from(k)?,
                        role: OrgRole::parse(&role).map_err(|_| StoreError::Internal("corrupt users.role".into()))?,
                        org: Organization::try_from(o)?,
                    }))
                })
            }
        }
    };
}

impl_org_repo!(PgPipe<'_>);
impl_org_repo!(crate::SqliteConn);
