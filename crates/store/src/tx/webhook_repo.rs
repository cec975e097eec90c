//! [`WebhookRepo`] on both backends (webhook endpoints, deliveries and attempts): one body, compiled for PostgreSQL and SQLite.

use super::*;

/// The webhook endpoints of an organization (connector endpoints aside), oldest first: what an
/// event's fan-out reads ([`WebhookRepo::list_endpoints_of_org`]).
macro_rules! endpoints_of_org {
    ($org:expr) => {
        webhook_endpoints::table
            .filter(webhook_endpoints::org_id.eq(DbUuid($org.0)))
            .filter(webhook_endpoints::kind.eq(EndpointKind::Webhook.as_str()))
            .order((webhook_endpoints::created_at.asc(), webhook_endpoints::id.asc()))
            .select(EndpointRow::as_select())
    };
}

impl<C> DbTx<'_, C> {
    /// Answers this transaction's fan-outs to `org`'s endpoints ([`DbTx::endpoints_of`]) from
    /// the store's cache at `version` (T272); false when the cache does not hold them.
    fn endpoints_from_cache(&mut self, org: OrgId, version: EndpointsVersion) -> bool {
        let Some(known) = self.endpoint_cache.as_ref().and_then(|c| c.get(org, version)) else { return false };
        self.endpoints_of = Some((org, known.as_ref().clone()));
        true
    }

    /// `found` as `org`'s endpoints for this transaction's fan-outs; the store's cache learns
    /// them at `version` once the transaction commits, when `version` is known to be theirs.
    fn keep_endpoints(&mut self, org: OrgId, version: Option<EndpointsVersion>, found: Vec<Endpoint>) {
        if let Some(v) = version {
            self.learned.push((org, v, Arc::new(found.clone())));
        }
        self.endpoints_of = Some((org, found));
    }
}

impl DbTx<'_, PgPipe<'_>> {
    /// `org`'s endpoints for this transaction's fan-outs, its endpoints version `version` read
    /// (with the organization's lock) before: from the store's cache, or read in one round trip
    /// with the version again. Learned only when the version did not move meanwhile: a change
    /// that committed between the two reads may or may not be in the endpoints read (each
    /// statement sees what had committed when it began).
    pub(super) async fn endpoints_at(&mut self, org: OrgId, version: EndpointsVersion) -> StoreResult<()> {
        if self.endpoints_from_cache(org, version) {
            return Ok(());
        }
        // An organization's few endpoints and one row by its key: plans that cannot go wrong (T269).
        self.keep_next_plan();
        let rows = endpoints_of_org!(org).load::<EndpointRow>(self.conn);
        self.keep_next_plan();
        let again = webhook_endpoint_versions::table
            .find(DbUuid(org.0))
            .select(webhook_endpoint_versions::version)
            .load::<i64>(self.conn);
        // The first statement's error if both failed (`pipeline::in_order`).
        let (rows, again) = futures_util::future::join(rows, again).await;
        let (rows, again) = (rows.map_err(db_err)?, again.map_err(db_err)?);
        let found = rows.into_iter().map(|r| self.open_endpoint(r)).collect::<StoreResult<Vec<_>>>()?;
        let unmoved = again.into_iter().next() == version;
        self.keep_endpoints(org, unmoved.then_some(version), found);
        Ok(())
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// As on PostgreSQL; writers are serialized (`BEGIN IMMEDIATE`), so the version read before
    /// is the endpoints'.
    pub(super) async fn endpoints_at(&mut self, org: OrgId, version: EndpointsVersion) -> StoreResult<()> {
        if self.endpoints_from_cache(org, version) {
            return Ok(());
        }
        let found = self.load_all_owned(endpoints_of_org!(org), Self::open_endpoint).await?;
        self.keep_endpoints(org, Some(version), found);
        Ok(())
    }
}

/// Enabled endpoints with closed breakers that have a claimable delivery, with their oldest due
/// time (one index probe per endpoint, `deliveries_pending_idx`). Params: 1 now.
macro_rules! claimable_endpoints {
    ($p:literal) => {
        concat!("SELECT id, org_id, due FROM (", due_of_endpoints!($p), ") e WHERE due IS NOT NULL ORDER BY due, id")
    };
}

/// Each enabled endpoint with a closed breaker and its oldest claimable delivery's due time
/// (`NULL`: none): the inner select of [`claimable_endpoints`].
macro_rules! due_of_endpoints {
    ($p:literal) => {
        concat!(
            "SELECT w.id, w.org_id, (SELECT min(d.next_attempt_at) FROM deliveries d ",
            "WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ",
            $p,
            "1 ",
            "AND (d.claimed_until IS NULL OR d.claimed_until <= ",
            $p,
            "1)) AS due ",
            "FROM webhook_endpoints w WHERE w.enabled AND (w.breaker_open_until IS NULL OR w.breaker_open_until <= ",
            $p,
            "1)"
        )
    };
}

/// One row of [`claimable_endpoints`].
#[derive(diesel::QueryableByName)]
pub(super) struct ClaimableEndpoint {
    #[diesel(sql_type = crate::types::sql::Uuid)]
    id: DbUuid,
    #[diesel(sql_type = crate::types::sql::Uuid)]
    org_id: DbUuid,
}

/// What is left of the caps while a claim goes through the claimable endpoints, oldest due first
/// (T60): per endpoint the cap less what is in flight, per organization likewise less what this
/// claim took, and the claim's limit.
pub(super) struct Allowance<'a> {
    c: &'a ClaimRequest,
    org_left: std::collections::HashMap<uuid::Uuid, u32>,
    left: u32,
}

impl<'a> Allowance<'a> {
    pub(super) fn new(c: &'a ClaimRequest) -> Self {
        Allowance { c, org_left: std::collections::HashMap::new(), left: c.limit }
    }

    /// How many rows of `e` to claim now (0: skip it).
    pub(super) fn of(&mut self, e: &ClaimableEndpoint) -> u32 {
        let c = self.c;
        let busy_e = c.busy_endpoints.iter().find(|(k, _)| k.0 == e.id.0).map(|(_, v)| *v).unwrap_or(0);
        let org = *self.org_left.entry(e.org_id.0).or_insert_with(|| {
            let busy = c.busy_orgs.iter().find(|(k, _)| k.0 == e.org_id.0).map(|(_, v)| *v).unwrap_or(0);
            c.per_org.saturating_sub(busy)
        });
        c.per_endpoint.saturating_sub(busy_e).min(org).min(self.left)
    }

    /// Records that `n` rows of `e` were claimed.
    pub(super) fn took(&mut self, e: &ClaimableEndpoint, n: usize) {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        if let Some(o) = self.org_left.get_mut(&e.org_id.0) {
            *o = o.saturating_sub(n);
        }
        self.left = self.left.saturating_sub(n);
    }
}

impl DbTx<'_, PgPipe<'_>> {
    /// Per endpoint its oldest due rows, locked with `FOR UPDATE SKIP LOCKED` in a materialized
    /// CTE (evaluated once; storage-notes pitfall 4), so concurrent instances never claim the same
    /// row (T60). Params: 1 lease end, 2 now, 3 endpoint, 4 how many.
    pub(super) const CLAIM_ROWS: &'static str = "WITH pick AS MATERIALIZED (SELECT id FROM deliveries WHERE endpoint_id = $3 AND status = 'pending' \
                 AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2) \
                 ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) \
                 UPDATE deliveries SET claimed_until = $1 FROM pick WHERE deliveries.id = pick.id RETURNING deliveries.*";

    /// [`claimable_endpoints`] in this dialect.
    pub(super) const CLAIMABLE: &'static str = claimable_endpoints!("$");

    /// One `UPDATE … FROM unnest(…)` for the whole batch (one round trip, T60). Values travel as
    /// text arrays (RFC 3339 times, hyphenated ids) and are cast in SQL.
    pub(super) async fn update_deliveries_impl(&mut self, ds: &[Delivery]) -> StoreResult<()> {
        if ds.is_empty() {
            return Ok(());
        }
        let t = |v: Option<OffsetDateTime>| -> StoreResult<Option<String>> {
            v.map(|x| {
                x.format(&time::format_description::well_known::Rfc3339)
                    .map_err(|e| StoreError::Internal(e.to_string()))
            })
            .transpose()
        };
        let mut ids = Vec::with_capacity(ds.len());
        let (mut status, mut attempts, mut next, mut last, mut code, mut err) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for d in ds {
            ids.push(d.id.0.to_string());
            status.push(d.status.as_str().to_string());
            attempts.push(i64::from(d.attempts));
            next.push(t(d.next_attempt_at)?);
            last.push(t(d.last_attempt_at)?);
            code.push(d.last_response_status.map(i32::from));
            err.push(d.last_error.clone());
        }
        use diesel::sql_types::{Array, BigInt, Integer, Nullable, Text};
        self.run(Prepared(
            diesel::sql_query(
                "UPDATE deliveries d SET status = v.status, attempts = v.attempts, \
             next_attempt_at = v.next_at::timestamptz, last_attempt_at = v.last_at::timestamptz, \
             last_response_status = v.code, last_error = v.err, claimed_until = NULL \
             FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::int4[], $7::text[]) \
             AS v(id, status, attempts, next_at, last_at, code, err) WHERE d.id = v.id::uuid",
            )
            .bind::<Array<Text>, _>(ids)
            .bind::<Array<Text>, _>(status)
            .bind::<Array<BigInt>, _>(attempts)
            .bind::<Array<Nullable<Text>>, _>(next)
            .bind::<Array<Nullable<Text>>, _>(last)
            .bind::<Array<Nullable<Integer>>, _>(code)
            .bind::<Array<Nullable<Text>>, _>(err),
        ))
        .await
    }

    /// One multi-row INSERT per 1,000 rows (one round trip for a batch of outcomes).
    pub(super) async fn insert_attempt_rows(&mut self, rows: Vec<AttemptRow>) -> StoreResult<()> {
        for chunk in rows.chunks(1000) {
            self.exec(diesel::insert_into(delivery_attempts::table).values(chunk.to_vec())).await?;
        }
        Ok(())
    }

    /// In a write transaction, `SELECT ... FOR NO KEY UPDATE` of endpoints about to be updated
    /// (new deliveries' foreign-key checks, `FOR KEY SHARE`, do not wait for it), or `FOR UPDATE`
    /// of endpoints about to be deleted, in id order (T104).
    pub(super) async fn lock_endpoint_rows(&mut self, ids: &[DbUuid], delete: bool) -> StoreResult<()> {
        let q = webhook_endpoints::table
            .filter(webhook_endpoints::id.eq_any(ids))
            .order(webhook_endpoints::id.asc())
            .select(webhook_endpoints::id);
        if delete {
            self.lock_rows(q.for_update()).await
        } else {
            self.lock_rows(q.for_no_key_update()).await
        }
    }

    /// The deliveries of `ids`; in a write transaction locked (`FOR UPDATE`) in id order (no
    /// deadlock between two recorders) by the statement that reads them: one round trip (T325).
    pub(super) async fn deliveries_locked(&mut self, ids: Vec<DbUuid>) -> StoreResult<Vec<Delivery>> {
        if !self.write {
            return self.deliveries_read(ids).await;
        }
        let q = deliveries::table.filter(deliveries::id.eq_any(ids)).order(deliveries::id.asc());
        self.load_all(q.select(DeliveryRow::as_select()).for_update(), Self::open_delivery).await
    }

    /// The endpoints of `ids`; in a write transaction locked `FOR NO KEY UPDATE` in id order (the
    /// lock of [`DbTx::lock_endpoint_rows`]) by the statement that reads them (T325).
    pub(super) async fn endpoints_locked(&mut self, ids: Vec<DbUuid>) -> StoreResult<Vec<Endpoint>> {
        if !self.write {
            return self.endpoints_read(ids).await;
        }
        let q = webhook_endpoints::table.filter(webhook_endpoints::id.eq_any(ids)).order(webhook_endpoints::id.asc());
        self.load_all(q.select(EndpointRow::as_select()).for_no_key_update(), Self::open_endpoint).await
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// Per endpoint one `UPDATE ... RETURNING` of its oldest due rows; writers are serialized
    /// (`BEGIN IMMEDIATE`), so nothing else can claim them (T60). Params as on PostgreSQL.
    pub(super) const CLAIM_ROWS: &'static str =
        "UPDATE deliveries SET claimed_until = ?1 WHERE id IN (SELECT id FROM deliveries WHERE endpoint_id = ?3 \
                 AND status = 'pending' AND next_attempt_at <= ?2 AND (claimed_until IS NULL OR claimed_until <= ?2) \
                 ORDER BY next_attempt_at, id LIMIT ?4) RETURNING *";

    /// [`claimable_endpoints`] in this dialect, its inner select materialized: SQLite would
    /// otherwise flatten it and compute each endpoint's oldest due delivery twice, once for
    /// `due IS NOT NULL` and once for the answer, each time stepping over the deliveries the
    /// engine holds claimed (T324).
    pub(super) const CLAIMABLE: &'static str = concat!(
        "WITH e AS MATERIALIZED (",
        due_of_endpoints!("?"),
        ") SELECT id, org_id, due FROM e WHERE due IS NOT NULL ORDER BY due, id"
    );

    /// The deliveries of `ids`: writers are serialized by `BEGIN IMMEDIATE`, nothing to lock.
    pub(super) async fn deliveries_locked(&mut self, ids: Vec<DbUuid>) -> StoreResult<Vec<Delivery>> {
        self.deliveries_read(ids).await
    }

    /// The endpoints of `ids`: writers hold the database's write lock, nothing to lock per row.
    pub(super) async fn endpoints_locked(&mut self, ids: Vec<DbUuid>) -> StoreResult<Vec<Endpoint>> {
        self.endpoints_read(ids).await
    }

    /// Writers hold the database's write lock: nothing to lock per row.
    pub(super) async fn lock_endpoint_rows(&mut self, _ids: &[DbUuid], _delete: bool) -> StoreResult<()> {
        Ok(())
    }

    /// One UPDATE per delivery of its state columns only ([`DeliveryStateRow`]): SQLite then
    /// leaves the indexes on the other columns alone (T324). In-process statements cost no round
    /// trip. Through diesel-async, not on the connection itself ([`DbTx::run_owned`]): diesel's
    /// synchronous connection asks a statement it is handed by reference whether it may be cached
    /// by walking it, and an `UPDATE` always says no, so it would be parsed on every execution.
    pub(super) async fn update_deliveries_impl(&mut self, ds: &[Delivery]) -> StoreResult<()> {
        for d in ds {
            let state = DeliveryStateRow::from(d);
            self.exec(Prepared(diesel::update(deliveries::table.find(DbUuid(d.id.0))).set(state))).await?;
        }
        Ok(())
    }

    /// One INSERT per row, all on the connection itself in one turn, each found by its type (T324):
    /// diesel-async cannot batch-insert on SQLite (diesel's SQLite batch insert is specialised for
    /// its synchronous connection).
    pub(super) async fn insert_attempt_rows(&mut self, rows: Vec<AttemptRow>) -> StoreResult<()> {
        self.conn
            .spawn_blocking(move |c| {
                for r in rows {
                    diesel::RunQueryDsl::execute(
                        Fixed::new(diesel::insert_into(delivery_attempts::table).values(r)),
                        c,
                    )?;
                }
                Ok(())
            })
            .await
            .map_err(db_err)
    }
}

macro_rules! impl_webhook_repo {
    ($conn:ty) => {
        impl DbTx<'_, $conn> {
            /// Endpoints by id, their secrets opened; `lock`: locked first (T104).
            async fn endpoints_by_ids(&mut self, ids: &[WebhookId], lock: bool) -> StoreResult<Vec<Endpoint>> {
                let ids = crate::types::db_uuids(ids);
                if lock {
                    return self.endpoints_locked(ids).await;
                }
                self.endpoints_read(ids).await
            }

            /// The deliveries of `ids`, nothing locked.
            async fn deliveries_read(&mut self, ids: Vec<DbUuid>) -> StoreResult<Vec<Delivery>> {
                self.load_all(
                    deliveries::table.filter(deliveries::id.eq_any(ids)).select(DeliveryRow::as_select()),
                    Self::open_delivery,
                )
                .await
            }

            /// The endpoints of `ids`, nothing locked.
            async fn endpoints_read(&mut self, ids: Vec<DbUuid>) -> StoreResult<Vec<Endpoint>> {
                self.load_all(
                    webhook_endpoints::table.filter(webhook_endpoints::id.eq_any(ids)).select(EndpointRow::as_select()),
                    Self::open_endpoint,
                )
                .await
            }
        }

        impl<'c> WebhookRepo for DbTx<'c, $conn> {
            fn insert_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.endpoints_of = None;
                    self.run(diesel::insert_into(webhook_endpoints::table).values(self.seal_endpoint(e))).await
                })
            }

            fn update_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.endpoints_of = None;
                    self.run(Prepared(
                        diesel::update(webhook_endpoints::table.find(DbUuid(e.id.0))).set(self.seal_endpoint(e)),
                    ))
                    .await
                })
            }

            fn get_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<Option<Endpoint>>> {
                Box::pin(async move {
                    let q = webhook_endpoints::table
                        .find(DbUuid(id.0))
                        .filter(webhook_endpoints::org_id.eq(DbUuid(org.0)))
                        .filter(webhook_endpoints::kind.eq(EndpointKind::Webhook.as_str()));
                    self.load_one(q.select(EndpointRow::as_select()), Self::open_endpoint).await
                })
            }

            fn list_endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Endpoint>>> {
                Box::pin(async move {
                    if let Some((_, known)) = self.endpoints_of.as_ref().filter(|(o, _)| *o == org) {
                        return Ok(known.clone());
                    }
                    let found = self.load_all_owned(endpoints_of_org!(org), Self::open_endpoint).await?;
                    self.endpoints_of = Some((org, found.clone()));
                    Ok(found)
                })
            }

            fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    self.endpoints_of = None;
                    // The endpoint before its deliveries: the lock order of `WebhookRepo` (T104).
                    self.lock_endpoint_rows(&[DbUuid(id.0)], true).await?;
                    let ids = deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(id.0))).select(deliveries::id);
                    let target = delivery_attempts::table.filter(delivery_attempts::delivery_id.eq_any(ids));
                    self.exec(diesel::delete(target)).await?;
                    self.exec(diesel::delete(deliveries::table.filter(deliveries::endpoint_id.eq(DbUuid(id.0)))))
                        .await?;
                    self.run(diesel::delete(
                        webhook_endpoints::table.find(DbUuid(id.0)).filter(webhook_endpoints::org_id.eq(DbUuid(org.0))),
                    ))
                    .await
                })
            }

            fn insert_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run_owned(diesel::insert_into(deliveries::table).values(self.delivery_row(d))).await
                })
            }

            fn update_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(Prepared(diesel::update(deliveries::table.find(DbUuid(d.id.0))).set(self.delivery_row(d))))
                        .await
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
                Box::pin(async move { self.deliveries_locked(crate::types::db_uuids(ids)).await })
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
                    let target = delivery_attempts::table.filter(delivery_attempts::delivery_id.eq_any(&old));
                    self.exec(diesel::delete(target)).await?;
                    let d = self.exec(diesel::delete(deliveries::table.filter(deliveries::id.eq_any(&old)))).await?;
                    let e = purge_oldest!(self, outbox_events, created_at, before, limit)?;
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
                    let q = deliveries::table.find(DbUuid(id.0)).filter(deliveries::endpoint_id.eq(DbUuid(endpoint.0)));
                    self.load_one(q.select(DeliveryRow::as_select()), Self::open_delivery).await
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

            fn count_deliveries(
                &mut self,
                endpoint: WebhookId,
                status: DeliveryStatus,
            ) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let n: i64 = deliveries::table
                        .filter(deliveries::endpoint_id.eq(DbUuid(endpoint.0)))
                        .filter(deliveries::status.eq(status.as_str()))
                        .count()
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(u64::try_from(n).unwrap_or(0))
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
                    self.load_all(
                        q.order(deliveries::id.desc()).limit(i64::from(limit)).select(DeliveryRow::as_select()),
                        Self::open_delivery,
                    )
                    .await
                })
            }

            /// The claimable endpoints (one index probe each), then per endpoint its oldest due
            /// rows within what [`Allowance`] leaves (T60).
            fn claim_deliveries<'a>(&'a mut self, c: &'a ClaimRequest) -> BoxFuture<'a, StoreResult<Vec<Delivery>>> {
                Box::pin(async move {
                    let endpoints: Vec<ClaimableEndpoint> =
                        Prepared(diesel::sql_query(Self::CLAIMABLE).bind::<crate::types::sql::Ts, _>(DbTime(c.now)))
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
                        let rows: Vec<DeliveryRow> = Prepared(
                            diesel::sql_query(Self::CLAIM_ROWS)
                                .bind::<crate::types::sql::Ts, _>(DbTime(c.lease_until))
                                .bind::<crate::types::sql::Ts, _>(DbTime(c.now))
                                .bind::<crate::types::sql::Uuid, _>(DbUuid(e.id.0))
                                .bind::<diesel::sql_types::BigInt, _>(i64::from(k)),
                        )
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

impl_webhook_repo!(PgPipe<'_>);
impl_webhook_repo!(crate::SqliteConn);
