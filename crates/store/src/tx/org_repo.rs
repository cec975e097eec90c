//! [`OrgRepo`] on both backends (organizations, users and API keys): one body, compiled for PostgreSQL and SQLite.

use super::*;

macro_rules! impl_org_repo {
    ($conn:ty) => {
        impl<'c> OrgRepo for DbTx<'c, $conn> {
            fn insert_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(organizations::table)
                        .values(OrgRow::from(org))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(organizations::table.find(DbUuid(org.id.0)))
                        .set(OrgRow::from(org))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    self.auth_changed = true;
                    Ok(())
                })
            }

            fn get_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move {
                    organizations::table
                        .find(DbUuid(id.0))
                        .select(OrgRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Organization::try_from)
                        .transpose()
                })
            }

            fn lock_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move { self.lock_org_row(id).await?.map(Organization::try_from).transpose() })
            }

            fn lock_org_shared(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
                Box::pin(async move { self.share_org_row(id).await?.map(Organization::try_from).transpose() })
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
                    let mut q = organizations::table.into_boxed();
                    if let Some(b) = before {
                        q = q.filter(organizations::id.lt(DbUuid(b.0)));
                    }
                    q.order(organizations::id.desc())
                        .limit(i64::from(limit.min(100_000)))
                        .select(OrgRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(Organization::try_from)
                        .collect()
                })
            }

            fn find_org_by_name<'a>(&'a mut self, name: &'a str) -> BoxFuture<'a, StoreResult<Option<Organization>>> {
                Box::pin(async move {
                    organizations::table
                        .filter(organizations::company_name.eq(name))
                        .order(organizations::created_at.asc())
                        .select(OrgRow::as_select())
                        .first(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Organization::try_from)
                        .transpose()
                })
            }

            fn count_active_persons(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move {
                    // The triggers' per-organization counter rows (T69), not COUNT(*) of persons.
                    let n: i64 = org_active_persons::table
                        .filter(org_active_persons::org_id.eq(DbUuid(org.0)))
                        .select(diesel::dsl::sql::<diesel::sql_types::BigInt>("CAST(COALESCE(SUM(n), 0) AS BIGINT)"))
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(u32::try_from(n).unwrap_or(u32::MAX))
                })
            }

            fn insert_user<'a>(&'a mut self, user: &'a User) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(users::table)
                        .values(UserRow::from(user))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<Option<User>>> {
                Box::pin(async move {
                    users::table
                        .find(DbUuid(id.0))
                        .select(UserRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(User::try_from)
                        .transpose()
                })
            }

            fn update_user_role(&mut self, id: UserId, role: OrgRole) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(users::table.find(DbUuid(id.0)))
                        .set(users::role.eq(role.as_str()))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    // A key's context carries its user's role: cached contexts are stale.
                    self.auth_changed = true;
                    Ok(())
                })
            }

            fn delete_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let keys = diesel::delete(api_keys::table.filter(api_keys::user_id.eq(DbUuid(id.0))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(dashboard_sessions::table.filter(dashboard_sessions::user_id.eq(DbUuid(id.0))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(users::table.find(DbUuid(id.0))).execute(self.conn).await.map_err(db_err)?;
                    self.auth_changed = true;
                    Ok(keys as u64)
                })
            }

            fn list_users_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<User>>> {
                Box::pin(async move {
                    users::table
                        .filter(users::org_id.eq(DbUuid(org.0)))
                        .order((users::created_at.asc(), users::id.asc()))
                        .select(UserRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(User::try_from)
                        .collect()
                })
            }

            fn insert_api_key<'a>(&'a mut self, key: &'a ApiKey) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(api_keys::table)
                        .values(KeyRow::from(key))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_api_key(&mut self, id: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<ApiKey>>> {
                Box::pin(async move {
                    api_keys::table
                        .find(DbUuid(id.0))
                        .select(KeyRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(ApiKey::try_from)
                        .transpose()
                })
            }

            fn list_api_keys_of_user(&mut self, user: UserId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
                Box::pin(async move {
                    api_keys::table
                        .filter(api_keys::user_id.eq(DbUuid(user.0)))
                        .order((api_keys::created_at.asc(), api_keys::id.asc()))
                        .select(KeyRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(ApiKey::try_from)
                        .collect()
                })
            }

            fn list_api_keys_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
                Box::pin(async move {
                    let of_org = users::table.filter(users::org_id.eq(DbUuid(org.0))).select(users::id);
                    api_keys::table
                        .filter(api_keys::user_id.eq_any(of_org))
                        .order((api_keys::created_at.desc(), api_keys::id.desc()))
                        .select(KeyRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(ApiKey::try_from)
                        .collect()
                })
            }

            fn revoke_api_key(&mut self, id: ApiKeyId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(api_keys::table.find(DbUuid(id.0)))
                        .set(api_keys::revoked_at.eq(Some(DbTime(at))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
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

impl_org_repo!(diesel_async::AsyncPgConnection);
impl_org_repo!(crate::SqliteConn);
