//! [`PrivacyRepo`] on both backends (export, erasure and retention): one body, compiled for PostgreSQL and SQLite.

use super::*;

/// The (id, text) of the rows of `$table` whose `$column` is LIKE `$pattern` (escaped with `\`),
/// of organization `$org` if one is given.
macro_rules! mentioning {
    ($tx:expr, $table:ident, $column:ident, $pattern:expr, $org:expr) => {{
        let mut q = $table::table
            .filter($table::$column.like($pattern).escape('\\'))
            .select(($table::id, $table::$column))
            .into_boxed();
        if let Some(o) = $org {
            q = q.filter($table::org_id.eq(DbUuid(o.0)));
        }
        q.load::<(DbUuid, String)>($tx.conn).await.map_err(db_err)?
    }};
}

macro_rules! impl_privacy_repo {
    ($conn:ty) => {
        impl<'c> PrivacyRepo for DbTx<'c, $conn> {
            fn list_texts_mentioning<'a>(
                &'a mut self,
                org: Option<OrgId>,
                needles: &'a [String],
            ) -> BoxFuture<'a, StoreResult<Vec<StoredText>>> {
                Box::pin(async move {
                    let mut found: Vec<StoredText> = vec![];
                    for needle in needles {
                        let pattern = format!("%{}%", like_escape(needle));
                        for (id, text) in mentioning!(self, outbox_events, data, pattern.clone(), org) {
                            found.push(StoredText { at: TextRef::Event(EventId(id.0)), text: self.reveal(&text) });
                        }
                        for (id, text) in mentioning!(self, deliveries, payload, pattern.clone(), org) {
                            let at = TextRef::Delivery(DeliveryId(id.0));
                            found.push(StoredText { at, text: self.reveal(&text) });
                        }
                        let mut q = idempotency_keys::table
                            .filter(idempotency_keys::response_body.like(pattern).escape('\\'))
                            .select((
                                idempotency_keys::org_id,
                                idempotency_keys::path,
                                idempotency_keys::key,
                                idempotency_keys::response_body,
                            ))
                            .into_boxed();
                        if let Some(o) = org {
                            q = q.filter(idempotency_keys::org_id.eq(DbUuid(o.0)));
                        }
                        for (o, path, key, text) in
                            q.load::<(DbUuid, String, String, Option<String>)>(self.conn).await.map_err(db_err)?
                        {
                            let at = TextRef::Idempotency { org: OrgId(o.0), path, key };
                            found.push(StoredText { at, text: self.reveal(&text.unwrap_or_default()) });
                        }
                    }
                    let mut unique: Vec<StoredText> = vec![];
                    for t in found {
                        if !unique.iter().any(|u| u.at == t.at) {
                            unique.push(t);
                        }
                    }
                    Ok(unique)
                })
            }

            fn rewrite_text<'a>(&'a mut self, t: &'a StoredText) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    match &t.at {
                        TextRef::Event(id) => {
                            diesel::update(outbox_events::table.find(DbUuid(id.0)))
                                .set(outbox_events::data.eq(self.conceal(&t.text)))
                                .execute(self.conn)
                                .await
                        }
                        TextRef::Delivery(id) => {
                            diesel::update(deliveries::table.find(DbUuid(id.0)))
                                .set(deliveries::payload.eq(self.conceal(&t.text)))
                                .execute(self.conn)
                                .await
                        }
                        TextRef::Idempotency { org, path, key } => {
                            diesel::update(idempotency_keys::table.find((DbUuid(org.0), path, key)))
                                .set(idempotency_keys::response_body.eq(Some(self.conceal(&t.text))))
                                .execute(self.conn)
                                .await
                        }
                    }
                    .map_err(db_err)?;
                    Ok(())
                })
            }

            fn delete_emails_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let n = self
                        .exec(diesel::delete(emails::table.filter(emails::invitation_id.eq(Some(DbUuid(id.0))))))
                        .await?;
                    Ok(n as u64)
                })
            }

            fn list_events_mentioning<'a>(
                &'a mut self,
                needle: &'a str,
            ) -> BoxFuture<'a, StoreResult<Vec<OutboxEvent>>> {
                Box::pin(async move {
                    let q = outbox_events::table
                        .filter(outbox_events::data.like(format!("%{}%", like_escape(needle))).escape('\\'))
                        .order((outbox_events::created_at.asc(), outbox_events::id.asc()));
                    self.load_all(q.select(EventRow::as_select()), Self::open_event).await
                })
            }

            fn purge_emails(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move { Ok(purge_oldest!(self, emails, created_at, before, limit)? as u64) })
            }

            fn purge_consent_codes(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move { Ok(purge_oldest!(self, consent_codes, created_at, before, limit)? as u64) })
            }

            fn list_emails_to_since<'a>(
                &'a mut self,
                to: &'a Email,
                since: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'a, StoreResult<Vec<EmailStamp>>> {
                Box::pin(async move {
                    // emails_to_idx (to_address, created_at).
                    let rows: Vec<(Option<DbUuid>, DbTime)> = emails::table
                        .filter(emails::to_address.eq(to.as_str()))
                        .filter(emails::created_at.ge(DbTime(since)))
                        .order(emails::created_at.desc())
                        .limit(i64::from(limit))
                        .select((emails::invitation_id, emails::created_at))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(rows
                        .into_iter()
                        .map(|(i, t)| EmailStamp { invitation_id: i.map(|u| InvitationId(u.0)), created_at: t.0 })
                        .collect())
                })
            }

            fn delete_emails_to<'a>(&'a mut self, to: &'a Email) -> BoxFuture<'a, StoreResult<u64>> {
                Box::pin(async move {
                    let n = self.exec(diesel::delete(emails::table.filter(emails::to_address.eq(to.as_str())))).await?;
                    Ok(n as u64)
                })
            }

            fn delete_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let n = self
                        .exec(diesel::delete(assessments::table.filter(assessments::human_id.eq(DbUuid(human.0)))))
                        .await?;
                    Ok(n as u64)
                })
            }

            fn delete_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    diesel::delete(humans::table.find(DbUuid(human.0))).execute(self.conn).await.map_err(db_err)?;
                    Ok(())
                })
            }
        }
    };
}

impl_privacy_repo!(PgPipe<'_>);
impl_privacy_repo!(crate::SqliteConn);
