//! [`InvitationRepo`] on both backends (invitations and one-time codes): one body, compiled for PostgreSQL and SQLite.

use super::*;

impl DbTx<'_, PgPipe<'_>> {
    /// In a write transaction, `SELECT ... FOR UPDATE` of an invitation a use case may change.
    pub(super) async fn lock_invitation_row(&mut self, id: InvitationId) -> StoreResult<()> {
        self.lock_rows(invitations::table.find(DbUuid(id.0)).select(invitations::id).for_update()).await
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// Writers are serialized by `BEGIN IMMEDIATE`: nothing to lock.
    pub(super) async fn lock_invitation_row(&mut self, _id: InvitationId) -> StoreResult<()> {
        Ok(())
    }
}

macro_rules! impl_invitation_repo {
    ($conn:ty) => {
        impl<'c> InvitationRepo for DbTx<'c, $conn> {
            fn insert_invitation<'a>(&'a mut self, i: &'a Invitation) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run_owned(diesel::insert_into(invitations::table).values(InvitationRow::from(i))).await
                })
            }

            fn update_invitation<'a>(&'a mut self, i: &'a Invitation) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(Prepared(
                        diesel::update(invitations::table.find(DbUuid(i.id.0))).set(InvitationRow::from(i)),
                    ))
                    .await
                })
            }

            fn stamp_invitations_emailed<'a>(
                &'a mut self,
                ids: &'a [InvitationId],
                at: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    if ids.is_empty() {
                        return Ok(());
                    }
                    let ids = crate::types::db_uuids(ids);
                    let set = (invitations::email_sent_at.eq(Some(DbTime(at))), invitations::updated_at.eq(DbTime(at)));
                    self.run(diesel::update(invitations::table.filter(invitations::id.eq_any(ids))).set(set)).await
                })
            }

            fn get_invitation(
                &mut self,
                org: OrgId,
                id: InvitationId,
            ) -> BoxFuture<'_, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    self.lock_invitation_row(id).await?;
                    let q = invitations::table.find(DbUuid(id.0)).filter(invitations::org_id.eq(DbUuid(org.0)));
                    self.first_fixed(q.select(InvitationRow::as_select()), conv).await
                })
            }

            fn get_invitation_any(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    self.lock_invitation_row(id).await?;
                    let q = invitations::table.find(DbUuid(id.0)).select(InvitationRow::as_select());
                    self.first_fixed(q, conv).await
                })
            }

            fn list_invitations_by_ids<'a>(
                &'a mut self,
                ids: &'a [InvitationId],
            ) -> BoxFuture<'a, StoreResult<Vec<Invitation>>> {
                Box::pin(async move {
                    if ids.is_empty() {
                        return Ok(vec![]);
                    }
                    let ids = crate::types::db_uuids(ids);
                    let q = invitations::table.filter(invitations::id.eq_any(ids));
                    self.load_all(q.select(InvitationRow::as_select()), conv).await
                })
            }

            fn find_invitation_by_token_hash<'a>(
                &'a mut self,
                hash: &'a [u8],
            ) -> BoxFuture<'a, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    let found: Option<DbUuid> = invitations::table
                        .filter(invitations::token_hash.eq(hash.to_vec()))
                        .select(invitations::id)
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    match found {
                        Some(id) => self.get_invitation_any(InvitationId(id.0)).await,
                        None => Ok(None),
                    }
                })
            }

            fn find_pending_invitation_by_email<'a>(
                &'a mut self,
                org: OrgId,
                email: &'a Email,
                now: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<Option<Invitation>>> {
                Box::pin(async move {
                    // By `(org_id, email)` alone, the rest filtered here: with the status and
                    // expiry in the query SQLite's planner chose `invitations_due_idx` and read
                    // every pending invitation of every organization per call (imports with an
                    // invitation slowed as invitations accumulated). An address has few.
                    let all: Vec<Invitation> = self
                        .load_all_owned(
                            invitations::table
                                .filter(invitations::org_id.eq(DbUuid(org.0)))
                                .filter(invitations::email.eq(email.as_str().to_string()))
                                .select(InvitationRow::as_select()),
                            conv,
                        )
                        .await?;
                    Ok(all
                        .into_iter()
                        .filter(|i| i.status == InvitationStatus::Pending && i.expires_at > now)
                        .max_by_key(|i| i.id))
                })
            }

            fn list_invitations<'a>(
                &'a mut self,
                q: &'a InvitationQuery,
            ) -> BoxFuture<'a, StoreResult<Vec<Invitation>>> {
                Box::pin(async move {
                    let mut query = invitations::table.into_boxed();
                    if let Some(org) = q.org_id {
                        query = query.filter(invitations::org_id.eq(DbUuid(org.0)));
                    }
                    let now = DbTime(q.now.unwrap_or(OffsetDateTime::UNIX_EPOCH));
                    match q.status {
                        None => {}
                        Some(InvitationStatus::Pending) => {
                            query =
                                query.filter(invitations::status.eq("pending")).filter(invitations::expires_at.gt(now))
                        }
                        Some(InvitationStatus::Expired) => {
                            query = query.filter(
                                invitations::status
                                    .eq("expired")
                                    .or(invitations::status.eq("pending").and(invitations::expires_at.le(now))),
                            )
                        }
                        Some(st) => query = query.filter(invitations::status.eq(st.as_str())),
                    }
                    if let Some(v) = q.variant {
                        query = query.filter(invitations::variant.eq(v.as_str()));
                    }
                    if let Some(e) = &q.email {
                        query = query.filter(invitations::email.eq(e.as_str().to_string()));
                    }
                    if let Some(x) = &q.external_id {
                        query = query.filter(invitations::external_id.eq(x.clone()));
                    }
                    if let Some(p) = q.person_id {
                        query = query.filter(invitations::person_id.eq(DbUuid(p.0)));
                    }
                    if let Some(u) = q.updated_after {
                        query = query.filter(invitations::updated_at.gt(DbTime(u)));
                    }
                    if let Some(b) = q.before_id {
                        query = query.filter(invitations::id.lt(DbUuid(b.0)));
                    }
                    let q = query.order(invitations::id.desc()).limit(i64::from(q.limit));
                    self.load_all(q.select(InvitationRow::as_select()), conv).await
                })
            }

            fn list_due_invitations(
                &mut self,
                org: Option<OrgId>,
                now: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
                Box::pin(async move {
                    let mut q = invitations::table.into_boxed();
                    if let Some(o) = org {
                        q = q.filter(invitations::org_id.eq(DbUuid(o.0)));
                    }
                    let q = q
                        .filter(invitations::status.eq("pending"))
                        .filter(invitations::expires_at.le(DbTime(now)))
                        .order(invitations::expires_at.asc())
                        .limit(i64::from(limit));
                    self.load_all(q.select(invitations::id), |_, u: DbUuid| Ok(InvitationId(u.0))).await
                })
            }

            fn list_reminders_due(
                &mut self,
                org: Option<OrgId>,
                sent_before: OffsetDateTime,
                now: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
                Box::pin(async move {
                    let mut q = invitations::table.into_boxed();
                    if let Some(o) = org {
                        q = q.filter(invitations::org_id.eq(DbUuid(o.0)));
                    }
                    let q = q
                        .filter(invitations::status.eq("pending"))
                        .filter(invitations::expires_at.gt(DbTime(now)))
                        .filter(invitations::reminder_sent_at.is_null())
                        .filter(invitations::email_sent_at.le(DbTime(sent_before)))
                        .limit(i64::from(limit));
                    self.load_all(q.select(invitations::id), |_, u: DbUuid| Ok(InvitationId(u.0))).await
                })
            }

            fn expire_invitation_if_pending(
                &mut self,
                id: InvitationId,
                now: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    let target = invitations::table
                        .find(DbUuid(id.0))
                        .filter(invitations::status.eq("pending"))
                        .filter(invitations::expires_at.le(DbTime(now)));
                    let n = self
                        .exec(Prepared(
                            diesel::update(target)
                                .set((invitations::status.eq("expired"), invitations::updated_at.eq(DbTime(now)))),
                        ))
                        .await?;
                    Ok(n == 1)
                })
            }

            fn mark_reminder_if_unset(
                &mut self,
                id: InvitationId,
                now: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    let target = invitations::table.find(DbUuid(id.0)).filter(invitations::reminder_sent_at.is_null());
                    let n = self
                        .exec(Prepared(diesel::update(target).set(invitations::reminder_sent_at.eq(Some(DbTime(now))))))
                        .await?;
                    Ok(n == 1)
                })
            }

            fn insert_consent_code<'a>(
                &'a mut self,
                c: &'a talent_domain::consent::ConsentCode,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(diesel::insert_into(consent_codes::table).values(ConsentCodeRow::from(c))).await
                })
            }

            fn update_consent_code<'a>(
                &'a mut self,
                c: &'a talent_domain::consent::ConsentCode,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(diesel::update(consent_codes::table.find(DbUuid(c.id.0))).set((
                        consent_codes::tries.eq(i64::from(c.tries)),
                        consent_codes::used_at.eq(c.used_at.map(DbTime)),
                    )))
                    .await
                })
            }

            fn list_consent_codes_since(
                &mut self,
                invitation: InvitationId,
                since: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<Vec<talent_domain::consent::ConsentCode>>> {
                Box::pin(async move {
                    consent_codes::table
                        .filter(consent_codes::invitation_id.eq(DbUuid(invitation.0)))
                        .filter(consent_codes::created_at.gt(DbTime(since)))
                        .select(ConsentCodeRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(talent_domain::consent::ConsentCode::try_from)
                        .collect()
                })
            }

            fn list_consent_codes_of_address_since<'a>(
                &'a mut self,
                org: OrgId,
                email: &'a Email,
                since: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<Vec<talent_domain::consent::ConsentCode>>> {
                Box::pin(async move {
                    // invitations_org_email_idx, then consent_codes_invitation_idx per invitation.
                    let of_address = invitations::table
                        .filter(invitations::org_id.eq(DbUuid(org.0)))
                        .filter(invitations::email.eq(email.as_str()))
                        .select(invitations::id);
                    consent_codes::table
                        .filter(consent_codes::invitation_id.eq_any(of_address))
                        .filter(consent_codes::created_at.gt(DbTime(since)))
                        .select(ConsentCodeRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(talent_domain::consent::ConsentCode::try_from)
                        .collect()
                })
            }
        }
    };
}

impl_invitation_repo!(PgPipe<'_>);
impl_invitation_repo!(crate::SqliteConn);
