//! [`EmailRepo`] on both backends (the email outbox): one body, compiled for PostgreSQL and SQLite.

use super::*;

macro_rules! impl_email_repo {
    ($conn:ty) => {
        impl<'c> EmailRepo for DbTx<'c, $conn> {
            fn insert_email<'a>(&'a mut self, e: &'a EmailRecord) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(
                    async move { self.run_owned(diesel::insert_into(emails::table).values(self.email_row(e))).await },
                )
            }

            fn list_due_emails(
                &mut self,
                now: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>> {
                Box::pin(async move {
                    let q = emails::table
                        .filter(emails::sent_at.is_null())
                        .filter(emails::next_attempt_at.le(DbTime(now)))
                        .order((emails::created_at.asc(), emails::id.asc()))
                        .limit(i64::from(limit));
                    self.load_all(q.select(EmailRow::as_select()), Self::open_email).await
                })
            }

            fn claim_emails<'a>(
                &'a mut self,
                ids: &'a [EmailId],
                now: OffsetDateTime,
                lease_until: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<Vec<EmailId>>> {
                Box::pin(async move {
                    if ids.is_empty() {
                        return Ok(vec![]);
                    }
                    // Conditional update: of concurrent claimers exactly one sees a row due.
                    let ids = crate::types::db_uuids(ids);
                    let target = emails::table
                        .filter(emails::id.eq_any(ids))
                        .filter(emails::sent_at.is_null())
                        .filter(emails::next_attempt_at.le(DbTime(now)));
                    let claimed: Vec<DbUuid> = diesel::update(target)
                        .set(emails::next_attempt_at.eq(DbTime(lease_until)))
                        .returning(emails::id)
                        .get_results(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(claimed.into_iter().map(|i| EmailId(i.0)).collect())
                })
            }

            fn record_emails_sent<'a>(
                &'a mut self,
                ids: &'a [EmailId],
                at: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    if ids.is_empty() {
                        return Ok(());
                    }
                    let ids = crate::types::db_uuids(ids);
                    let set = (emails::sent_at.eq(Some(DbTime(at))), emails::attempts.eq(emails::attempts + 1));
                    self.exec(diesel::update(emails::table.filter(emails::id.eq_any(ids))).set(set)).await?;
                    Ok(())
                })
            }

            fn record_email_attempt<'a>(
                &'a mut self,
                id: EmailId,
                result: Result<OffsetDateTime, (&'a str, OffsetDateTime)>,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    let target = emails::table.find(DbUuid(id.0));
                    match result {
                        Ok(at) => {
                            Prepared(
                                diesel::update(target).set((
                                    emails::sent_at.eq(Some(DbTime(at))),
                                    emails::attempts.eq(emails::attempts + 1),
                                )),
                            )
                            .execute(self.conn)
                            .await
                        }
                        Err((err, next)) => {
                            Prepared(diesel::update(target).set((
                                emails::last_error.eq(Some(err.chars().take(500).collect::<String>())),
                                emails::next_attempt_at.eq(DbTime(next)),
                                emails::attempts.eq(emails::attempts + 1),
                            )))
                            .execute(self.conn)
                            .await
                        }
                    }
                    .map_err(db_err)?;
                    Ok(())
                })
            }

            fn list_emails<'a>(
                &'a mut self,
                to: Option<&'a Email>,
                limit: u32,
            ) -> BoxFuture<'a, StoreResult<Vec<EmailRecord>>> {
                Box::pin(async move {
                    let mut q = emails::table.into_boxed();
                    if let Some(t) = to {
                        q = q.filter(emails::to_address.eq(t.as_str().to_string()));
                    }
                    let q = q.order((emails::created_at.desc(), emails::id.desc())).limit(i64::from(limit));
                    self.load_all(q.select(EmailRow::as_select()), Self::open_email).await
                })
            }

            fn list_emails_of_org(&mut self, org: OrgId, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>> {
                Box::pin(async move {
                    let q = emails::table
                        .filter(emails::org_id.eq(DbUuid(org.0)))
                        .order((emails::created_at.desc(), emails::id.desc()))
                        .limit(i64::from(limit));
                    self.load_all(q.select(EmailRow::as_select()), Self::open_email).await
                })
            }
        }
    };
}

impl_email_repo!(PgPipe<'_>);
impl_email_repo!(crate::SqliteConn);
