//! [`WebhookRepo`] on both backends (webhook endpoints, deliveries and attempts): one body, compiled for PostgreSQL and SQLite.

use super::*;

macro_rules! impl_webhook_repo {
    ($conn:ty) => {
        impl DbTx<'_, $conn> {
            /// Endpoints by id, their secrets opened; `lock`: locked first (T104).
            async fn endpoints_by_ids(&mut self, ids: &[WebhookId], lock: bool) -> StoreResult<Vec<Endpoint>> {
                let ids: Vec<DbUuid> = ids.iter().map(|i| DbUuid(i.0)).collect();
                if lock {
                    self.lock_endpoint_rows(&ids, false).await?;
                }
                webhook_endpoints::table
                    .filter(webhook_endpoints::id.eq_any(ids))
                    .select(EndpointRow::as_select())
                    .load(self.conn)
                    .await
                    .map_err(db_err)?
                    .into_iter()
                    .map(|r| self.open_endpoint(r))
                    .collect()
            }
        }

        impl<'c> WebhookRepo for DbTx<'c, $conn> {
            fn insert_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(webhook_endpoints::table)
                        .values(self.seal_endpoint(e))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(webhook_endpoints::table.find(DbUuid(e.id.0)))
                        .set(self.seal_endpoint(e))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn get_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<Option<Endpoint>>> {
                Box::pin(async move {
                    webhook_endpoints::table
                        .find(DbUuid(id.0))
                        .filter(webhook_endpoints::org_id.eq(DbUuid(org.0)))
                        .select(EndpointRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(|r| self.open_endpoint(r))
                        .transpose()
                })
            }

            fn list_endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Endpoint>>> {
                Box::pin(async move {
                    webhook_endpoints::table
                        .filter(webhook_endpoints::org_id.eq(DbUuid(org.0)))
                        .order((webhook_endpoints::created_at.asc(), webhook_endpoints::id.asc()))
                        .select(EndpointRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(|r| self.open_endpoint(r))
                        .collect()
                })
            }

            fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    // The endpoint before its deliveries: the lock order of `WebhookRepo` (T104).
                    self.lock_endpoint_rows(&[DbUuid(id.0)], true).await?;
                    let ids = deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(id.0))).select(deliveries::id);
                    diesel::delete(delivery_attempts::table.filter(delivery_attempts::delivery_id.eq_any(ids)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(id.0))))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(
                        webhook_endpoints::table.find(DbUuid(id.0)).filter(webhook_endpoints::org_id.eq(DbUuid(org.0))),
                    )
                    .execute(self.conn)
                    .await
                    .map_err(db_err)?;
                    Ok(())
                })
            }

            fn insert_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(deliveries::table)
                        .values(self.delivery_row(d))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::update(deliveries::table.find(DbUuid(d.id.0)))
                        .set(self.delivery_row(d))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn update_deliveries<'a>(&'a mut self, ds: &'a [Delivery]) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move { self.update_deliveries_impl(ds).await })
            }

            fn insert_attempts<'a>(&'a mut self, attempts: &'a [AttemptRecord]) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    if attempts.is_empty() {
                        return Ok(());
                    }
                    let mut ids: Vec<DbUuid> = attempts.iter().map(|a| DbUuid(a.delivery.0)).collect();
                    ids.sort_by_key(|i| i.0);
                    ids.dedup();
                    // One read of the highest sequence number per delivery of the batch.
                    let seqs: Vec<(DbUuid, Option<i64>)> = delivery_attempts::table
                        .filter(delivery_attempts::delivery_id.eq_any(&ids))
                        .group_by(delivery_attempts::delivery_id)
                        .select((delivery_attempts::delivery_id, diesel::dsl::max(delivery_attempts::seq)))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let mut next: std::collections::HashMap<uuid::Uuid, i64> =
                        seqs.into_iter().map(|(d, m)| (d.0, m.unwrap_or(0))).collect();
                    let rows: Vec<AttemptRow> = attempts
                        .iter()
                        .map(|a| {
                            let seq = next.entry(a.delivery.0).or_insert(0);
                            *seq += 1;
                            AttemptRow {
                                delivery_id: DbUuid(a.delivery.0),
                                seq: *seq,
                                attempted_at: DbTime(a.at),
                                response_status: a.outcome.status.map(i32::from),
                                duration_ms: i64::try_from(a.outcome.duration_ms).unwrap_or(i64::MAX),
                                error: a.outcome.error.clone(),
                                response_body: a.outcome.response_body.clone(),
                            }
                        })
                        .collect();
                    self.insert_attempt_rows(rows).await?;
                    Ok(())
                })
            }

            fn list_endpoints_by_ids<'a>(
                &'a mut self,
                ids: &'a [WebhookId],
            ) -> BoxFuture<'a, StoreResult<Vec<Endpoint>>> {
                Box::pin(async move { self.endpoints_by_ids(ids, false).await })
            }

            fn lock_endpoints<'a>(&'a mut self, ids: &'a [WebhookId]) -> BoxFuture<'a, StoreResult<Vec<Endpoint>>> {
                Box::pin(async move { self.endpoints_by_ids(ids, true).await })
            }

            fn list_deliveries_by_ids<'a>(
                &'a mut self,
                ids: &'a [DeliveryId],
            ) -> BoxFuture<'a, StoreResult<Vec<Delivery>>> {
                Box::pin(async move {
                    let ids: Vec<DbUuid> = ids.iter().map(|i| DbUuid(i.0)).collect();
                    self.lock_deliveries(&ids).await?;
                    deliveries::table
                        .filter(deliveries::id.eq_any(ids))
                        .select(DeliveryRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(|r| self.open_delivery(r))
                        .collect()
                })
            }

            fn purge_webhook_history(
                &mut self,
                before: OffsetDateTime,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<(u64, u64)>> {
                Box::pin(async move {
                    let old: Vec<DbUuid> = deliveries::table
                        .filter(deliveries::created_at.lt(DbTime(before)))
                        .filter(deliveries::claimed_until.is_null())
                        .order(deliveries::created_at.asc())
                        .limit(i64::from(limit))
                        .select(deliveries::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    diesel::delete(delivery_attempts::table.filter(delivery_attempts::delivery_id.eq_any(&old)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    let d = diesel::delete(deliveries::table.filter(deliveries::id.eq_any(&old)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    let events: Vec<DbUuid> = outbox_events::table
                        .filter(outbox_events::created_at.lt(DbTime(before)))
                        .order(outbox_events::created_at.asc())
                        .limit(i64::from(limit))
                        .select(outbox_events::id)
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let e = diesel::delete(outbox_events::table.filter(outbox_events::id.eq_any(&events)))
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok((d as u64, e as u64))
                })
            }

            fn wake_deliveries(&mut self) {
                self.wake = true;
            }

            fn get_delivery(
                &mut self,
                endpoint: WebhookId,
                id: DeliveryId,
            ) -> BoxFuture<'_, StoreResult<Option<Delivery>>> {
                Box::pin(async move {
                    deliveries::table
                        .find(DbUuid(id.0))
                        .filter(deliveries::endpoint_id.eq(DbUuid(endpoint.0)))
                        .select(DeliveryRow::as_select())
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?
                        .map(|r| self.open_delivery(r))
                        .transpose()
                })
            }

            fn list_attempts_of(
                &mut self,
                delivery: DeliveryId,
            ) -> BoxFuture<'_, StoreResult<Vec<(OffsetDateTime, AttemptOutcome)>>> {
                Box::pin(async move {
                    let rows: Vec<(DbTime, Option<i32>, i64, Option<String>, Option<String>)> =
                        delivery_attempts::table
                            .filter(delivery_attempts::delivery_id.eq(DbUuid(delivery.0)))
                            .order(delivery_attempts::seq.asc())
                            .select((
                                delivery_attempts::attempted_at,
                                delivery_attempts::response_status,
                                delivery_attempts::duration_ms,
                                delivery_attempts::error,
                                delivery_attempts::response_body,
                            ))
                            .load(self.conn)
                            .await
                            .map_err(db_err)?;
                    Ok(rows
                        .into_iter()
                        .map(|(t, st, ms, err, body)| {
                            (
                                t.0,
                                AttemptOutcome {
                                    status: st.and_then(|s| u16::try_from(s).ok()),
                                    duration_ms: u64::try_from(ms).unwrap_or(0),
                                    error: err,
                                    response_body: body,
                                },
                            )
                        })
                        .collect())
                })
            }

            fn list_deliveries(
                &mut self,
                endpoint: WebhookId,
                status: Option<DeliveryStatus>,
                event_type: Option<EventType>,
                before: Option<DeliveryId>,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<Delivery>>> {
                Box::pin(async move {
                    let mut q = deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(endpoint.0))).into_boxed();
                    if let Some(st) = status {
                        q = q.filter(deliveries::status.eq(st.as_str()));
                    }
                    if let Some(t) = event_type {
                        q = q.filter(deliveries::event_type.eq(t.as_str()));
                    }
                    if let Some(b) = before {
                        q = q.filter(deliveries::id.lt(DbUuid(b.0)));
                    }
                    q.order(deliveries::id.desc())
                        .limit(i64::from(limit))
                        .select(DeliveryRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?
                        .into_iter()
                        .map(|r| self.open_delivery(r))
                        .collect()
                })
            }

            /// The claimable endpoints (one index probe each), then per endpoint its oldest due
            /// rows within what [`Allowance`] leaves (T60).
            fn claim_deliveries<'a>(&'a mut self, c: &'a ClaimRequest) -> BoxFuture<'a, StoreResult<Vec<Delivery>>> {
                Box::pin(async move {
                    let endpoints: Vec<ClaimableEndpoint> = diesel::sql_query(Self::CLAIMABLE)
                        .bind::<crate::types::sql::Ts, _>(DbTime(c.now))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let mut out = Vec::new();
                    let mut allowance = Allowance::new(c);
                    for e in &endpoints {
                        let k = allowance.of(e);
                        if k == 0 {
                            continue;
                        }
                        let rows: Vec<DeliveryRow> = diesel::sql_query(Self::CLAIM_ROWS)
                            .bind::<crate::types::sql::Ts, _>(DbTime(c.lease_until))
                            .bind::<crate::types::sql::Ts, _>(DbTime(c.now))
                            .bind::<crate::types::sql::Uuid, _>(DbUuid(e.id.0))
                            .bind::<diesel::sql_types::BigInt, _>(i64::from(k))
                            .load(self.conn)
                            .await
                            .map_err(db_err)?;
                        allowance.took(e, rows.len());
                        out.extend(rows);
                    }
                    out.into_iter().map(|r| self.open_delivery(r)).collect()
                })
            }
        }
    };
}

impl_webhook_repo!(diesel_async::AsyncPgConnection);
impl_webhook_repo!(crate::SqliteConn);
