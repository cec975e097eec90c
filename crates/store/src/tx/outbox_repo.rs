//! [`OutboxRepo`] on both backends (the event outbox): one body, compiled for PostgreSQL and SQLite.

use super::*;
use std::sync::atomic::AtomicU64;

impl DbTx<'_, PgPipe<'_>> {
    /// [`OutboxRepo::insert_event`]: a plain insert, numbered later by the sequencer, since
    /// PostgreSQL's transactions commit in another order than they insert (T106).
    pub(super) async fn insert_event_impl(&mut self, e: &OutboxEvent) -> StoreResult<()> {
        self.run_owned(Fixed::new(diesel::insert_into(outbox_events::table).values(self.event_row(e)))).await
    }

    /// [`OutboxRepo::sequence_events`] in two statements (T325): the counter locked, then the
    /// events numbered. The claim of fresh deliveries numbers their events in its own transaction,
    /// so these statements are round trips of the engine's claim loop; the six they replace (the
    /// lock, the oldest running transaction, the events, the organizations' counts, the numbers,
    /// the counts written back) held each claim of a busy server at 10-35 ms.
    ///
    /// 1. The counter's row locked (`FOR UPDATE`: sequencers take turns, T106), with the oldest
    ///    transaction running when the statement began. Read before the events (the statement
    ///    after): the oldest running transaction only moves up, so the events read next see every
    ///    transaction below it finished. Its snapshot may predate the lock's wait, which only
    ///    makes that bound lower.
    /// 2. One statement: at most `limit` committed events without a sequence, oldest
    ///    `created_at` first, read from [`DbTx::event_floor`] on through
    ///    `outbox_events_unsequenced_idx` (by writing transaction, T293); each organization's
    ///    count moved up by its events (D56), and each event given its place after the count as
    ///    it stood. When fewer than `limit` were numbered, every event of a transaction older
    ///    than the bound of (1) is numbered, which [`DbTx::numbered_below`] records.
    pub(super) async fn sequence_impl(&mut self, limit: u32) -> StoreResult<u32> {
        use diesel::sql_types::{BigInt, Text};
        let running: Vec<OldestRunning> = Prepared(diesel::sql_query(
            "SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin FROM event_sequence WHERE id = 1 FOR UPDATE",
        ))
        .load(self.conn)
        .await
        .map_err(db_err)?;
        // Without its row nothing is locked, and two sequencers could give one number twice.
        let Some(running) = running.into_iter().next() else {
            return Err(StoreError::Internal("the event counter's row is missing".into()));
        };
        let floor = AtomicU64::load(&self.event_floor, Ordering::Relaxed).to_string();
        let numbered = self
            .exec(Prepared(
                diesel::sql_query(
                    "WITH ev AS MATERIALIZED (SELECT id, org_id, created_at FROM outbox_events \
                     WHERE sequence IS NULL AND xact >= $1::xid8 ORDER BY created_at, id LIMIT $2), \
                     per_org AS MATERIALIZED (SELECT org_id, count(*) AS n FROM ev GROUP BY org_id), \
                     counted AS (INSERT INTO org_event_sequences AS s (org_id, last) SELECT org_id, n FROM per_org \
                     ON CONFLICT (org_id) DO UPDATE SET last = s.last + EXCLUDED.last RETURNING s.org_id, s.last), \
                     placed AS (SELECT ev.id, c.last - p.n \
                     + row_number() OVER (PARTITION BY ev.org_id ORDER BY ev.created_at, ev.id) AS seq \
                     FROM ev JOIN per_org p ON p.org_id = ev.org_id JOIN counted c ON c.org_id = ev.org_id) \
                     UPDATE outbox_events e SET sequence = placed.seq FROM placed WHERE e.id = placed.id",
                )
                .bind::<Text, _>(floor)
                .bind::<BigInt, _>(i64::from(limit)),
            ))
            .await?;
        if numbered < limit as usize {
            self.numbered_below = running.xmin.parse().ok();
        }
        Ok(u32::try_from(numbered).unwrap_or(u32::MAX))
    }

    /// Whether a committed event has no sequence yet, looked for from [`DbTx::event_floor`] on.
    pub(super) async fn any_unsequenced(&mut self) -> StoreResult<bool> {
        let floor = AtomicU64::load(&self.event_floor, Ordering::Relaxed).to_string();
        let found: Vec<Found> = Prepared(
            diesel::sql_query(
                "SELECT EXISTS (SELECT 1 FROM outbox_events WHERE sequence IS NULL AND xact >= $1::xid8) AS found",
            )
            .bind::<diesel::sql_types::Text, _>(floor),
        )
        .load(self.conn)
        .await
        .map_err(db_err)?;
        Ok(found.iter().any(|f| f.found))
    }
}

/// Whether a row was found.
#[derive(diesel::QueryableByName)]
struct Found {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    found: bool,
}

/// `pg_snapshot_xmin` of the current snapshot, as text (an `xid8`).
#[derive(diesel::QueryableByName)]
struct OldestRunning {
    #[diesel(sql_type = diesel::sql_types::Text)]
    xmin: String,
}

impl DbTx<'_, crate::SqliteConn> {
    /// [`OutboxRepo::insert_event`]: the event numbered as it is written (T316). SQLite's write
    /// transactions run one after another on the writer thread and commit in that order, so the
    /// organization's next number, taken in the transaction that inserts the event, is the order
    /// of commit that the sequencer gives on PostgreSQL; a transaction rolled back takes its
    /// numbers with it. The event is then written once, not inserted and updated a second time
    /// by the sequencer with the write turn held again.
    pub(super) async fn insert_event_impl(&mut self, e: &OutboxEvent) -> StoreResult<()> {
        let next = Fixed::new(
            diesel::insert_into(org_event_sequences::table)
                .values((org_event_sequences::org_id.eq(DbUuid(e.org_id.0)), org_event_sequences::last.eq(1_i64)))
                .on_conflict(org_event_sequences::org_id)
                .do_update()
                .set(org_event_sequences::last.eq(org_event_sequences::last + 1_i64))
                .returning(org_event_sequences::last),
        );
        let seq = self
            .first_owned(next, |_, n: i64| Ok(n))
            .await?
            .ok_or_else(|| StoreError::Internal("the organization's event counter returned no row".into()))?;
        let row = (self.event_row(e), outbox_events::sequence.eq(seq));
        self.run_owned(Fixed::new(diesel::insert_into(outbox_events::table).values(row))).await
    }

    /// [`OutboxRepo::sequence_events`]: what only events written before T316 can still need
    /// (SQLite numbers an event as it is written).
    pub(super) async fn sequence_impl(&mut self, limit: u32) -> StoreResult<u32> {
        // The lock first: sequencers take turns (T106).
        self.lock_event_counter().await?;
        let rows = self.unsequenced_events(limit).await?;
        if rows.is_empty() {
            return Ok(0);
        }
        // D56: each organization continues its own count.
        let mut orgs: Vec<DbUuid> = rows.iter().map(|(_, o)| *o).collect();
        orgs.sort_by_key(|o| o.0);
        orgs.dedup();
        let mut last: std::collections::HashMap<uuid::Uuid, i64> = org_event_sequences::table
            .filter(org_event_sequences::org_id.eq_any(&orgs))
            .select((org_event_sequences::org_id, org_event_sequences::last))
            .load::<(DbUuid, i64)>(self.conn)
            .await
            .map_err(db_err)?
            .into_iter()
            .map(|(o, n)| (o.0, n))
            .collect();
        let mut ids = Vec::with_capacity(rows.len());
        let mut seqs = Vec::with_capacity(rows.len());
        for (id, org) in &rows {
            let n = last.entry(org.0).or_insert(0);
            *n += 1;
            ids.push(*id);
            seqs.push(*n);
        }
        self.number_events(&ids, &seqs).await?;
        for org in orgs {
            let n = last.get(&org.0).copied().unwrap_or(0);
            self.exec(
                diesel::insert_into(org_event_sequences::table)
                    .values((org_event_sequences::org_id.eq(org), org_event_sequences::last.eq(n)))
                    .on_conflict(org_event_sequences::org_id)
                    .do_update()
                    .set(org_event_sequences::last.eq(n)),
            )
            .await?;
        }
        Ok(rows.len() as u32)
    }

    /// The sequencer's counter; writers hold the database's write lock, so reading is locking.
    pub(super) async fn lock_event_counter(&mut self) -> StoreResult<i64> {
        event_sequence::table.find(1).select(event_sequence::last).get_result(self.conn).await.map_err(db_err)
    }

    /// Gives each of `ids` its sequence of `seqs` (D56): one in-process statement each.
    pub(super) async fn number_events(&mut self, ids: &[DbUuid], seqs: &[i64]) -> StoreResult<()> {
        for (id, seq) in ids.iter().zip(seqs) {
            self.exec(Prepared(diesel::update(outbox_events::table.find(*id)).set(outbox_events::sequence.eq(*seq))))
                .await?;
        }
        Ok(())
    }

    /// At most `limit` events without a sequence, oldest `created_at` first (SQLite removes an
    /// index entry with its row version, so the partial index holds only these).
    pub(super) async fn unsequenced_events(&mut self, limit: u32) -> StoreResult<Vec<(DbUuid, DbUuid)>> {
        outbox_events::table
            .filter(outbox_events::sequence.is_null())
            .order((outbox_events::created_at.asc(), outbox_events::id.asc()))
            .limit(i64::from(limit))
            .select((outbox_events::id, outbox_events::org_id))
            .load(self.conn)
            .await
            .map_err(db_err)
    }

    /// Whether an event has no sequence yet.
    pub(super) async fn any_unsequenced(&mut self) -> StoreResult<bool> {
        diesel::select(diesel::dsl::exists(outbox_events::table.filter(outbox_events::sequence.is_null())))
            .get_result::<bool>(self.conn)
            .await
            .map_err(db_err)
    }
}

macro_rules! impl_outbox_repo {
    ($conn:ty) => {
        impl<'c> OutboxRepo for DbTx<'c, $conn> {
            fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move { self.insert_event_impl(e).await })
            }

            fn list_events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>> {
                Box::pin(async move {
                    let q = outbox_events::table
                        .filter(outbox_events::org_id.eq(DbUuid(org.0)))
                        .order((outbox_events::created_at.asc(), outbox_events::id.asc()));
                    self.load_all(q.select(EventRow::as_select()), Self::open_event).await
                })
            }

            fn has_unsequenced_events(&mut self) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move { self.any_unsequenced().await })
            }

            fn sequence_events(&mut self, limit: u32) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move { self.sequence_impl(limit).await })
            }

            fn event_sequences<'a>(
                &'a mut self,
                ids: &'a [EventId],
            ) -> BoxFuture<'a, StoreResult<Vec<(EventId, u64)>>> {
                Box::pin(async move {
                    if ids.is_empty() {
                        return Ok(vec![]);
                    }
                    let rows: Vec<(DbUuid, Option<i64>)> = outbox_events::table
                        .filter(outbox_events::id.eq_any(crate::types::db_uuids(ids)))
                        .filter(outbox_events::sequence.is_not_null())
                        .select((outbox_events::id, outbox_events::sequence))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(rows.into_iter().filter_map(|(id, n)| Some((EventId(id.0), u64::try_from(n?).ok()?))).collect())
                })
            }

            fn list_feed<'a>(&'a mut self, q: &'a FeedQuery) -> BoxFuture<'a, StoreResult<Vec<SequencedEvent>>> {
                Box::pin(async move {
                    let types: Vec<&str> = if q.types.is_empty() {
                        talent_domain::webhook::EVENT_TYPES.iter().map(|t| t.as_str()).collect()
                    } else {
                        q.types.iter().map(|t| t.as_str()).collect()
                    };
                    let rows: Vec<(EventRow, Option<i64>)> = outbox_events::table
                        .filter(outbox_events::org_id.eq(DbUuid(q.org_id.0)))
                        .filter(outbox_events::sequence.gt(i64::try_from(q.after).unwrap_or(i64::MAX)))
                        .filter(outbox_events::event_type.eq_any(types))
                        .order(outbox_events::sequence.asc())
                        .limit(i64::from(q.limit))
                        .select((EventRow::as_select(), outbox_events::sequence))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    rows.into_iter()
                        .map(|(r, n)| {
                            let sequence = n
                                .and_then(|n| u64::try_from(n).ok())
                                .ok_or_else(|| StoreError::Internal("a feed row without a sequence".into()))?;
                            Ok(SequencedEvent { sequence, event: self.open_event(r)? })
                        })
                        .collect()
                })
            }
        }
    };
}

impl_outbox_repo!(PgPipe<'_>);
impl_outbox_repo!(crate::SqliteConn);
