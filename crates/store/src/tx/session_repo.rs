//! [`SessionRepo`] on both backends (the dashboard's sign-in links and sessions, issue 18): one
//! body, compiled for PostgreSQL and SQLite.

use super::*;
use talent_domain::dashboard::{Session, SignInLink};

macro_rules! impl_session_repo {
    ($conn:ty) => {
        impl<'c> SessionRepo for DbTx<'c, $conn> {
            fn insert_sign_in_link<'a>(&'a mut self, l: &'a SignInLink) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(diesel::insert_into(sign_in_links::table).values(SignInLinkRow::from(l))).await
                })
            }

            fn find_sign_in_link<'a>(
                &'a mut self,
                token_hash: &'a [u8],
            ) -> BoxFuture<'a, StoreResult<Option<SignInLink>>> {
                Box::pin(async move {
                    let q = sign_in_links::table.filter(sign_in_links::token_hash.eq(token_hash));
                    self.load_one(q.select(SignInLinkRow::as_select()), conv).await
                })
            }

            fn use_sign_in_link(&mut self, id: uuid::Uuid, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    let target = sign_in_links::table.find(DbUuid(id)).filter(sign_in_links::used_at.is_null());
                    let n = self.exec(diesel::update(target).set(sign_in_links::used_at.eq(Some(DbTime(at))))).await?;
                    Ok(n == 1)
                })
            }

            fn count_sign_in_links_since<'a>(
                &'a mut self,
                email: &'a Email,
                since: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<u64>> {
                Box::pin(async move {
                    let n: i64 = sign_in_links::table
                        .filter(sign_in_links::email.eq(email.as_str()))
                        .filter(sign_in_links::created_at.ge(DbTime(since)))
                        .count()
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(u64::try_from(n).unwrap_or(0))
                })
            }

            fn list_users_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Vec<User>>> {
                Box::pin(async move {
                    let q = users::table
                        .filter(users::email.eq(email.as_str()))
                        .order((users::created_at.asc(), users::id.asc()));
                    self.load_all(q.select(UserRow::as_select()), conv).await
                })
            }

            fn insert_session<'a>(&'a mut self, s: &'a Session) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(diesel::insert_into(dashboard_sessions::table).values(SessionRow::from(s))).await
                })
            }

            fn find_session<'a>(&'a mut self, token_hash: &'a [u8]) -> BoxFuture<'a, StoreResult<Option<Session>>> {
                Box::pin(async move {
                    Ok(dashboard_sessions::table
                        .filter(dashboard_sessions::token_hash.eq(token_hash))
                        .select(SessionRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(Session::from))
                })
            }

            fn delete_session(&mut self, id: uuid::Uuid) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move { self.run(diesel::delete(dashboard_sessions::table.find(DbUuid(id)))).await })
            }

            fn purge_sign_ins(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let sessions = purge_oldest!(self, dashboard_sessions, expires_at, before, limit)?;
                    let links = purge_oldest!(self, sign_in_links, expires_at, before, limit)?;
                    Ok((sessions + links) as u64)
                })
            }
        }
    };
}

impl_session_repo!(PgPipe<'_>);
impl_session_repo!(crate::SqliteConn);
