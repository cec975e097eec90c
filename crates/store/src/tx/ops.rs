//! What an operator watches of the outbox and the email queue (issue 17's gauges): counted on
//! both backends by one body, for [`crate::DbStore::backlog`].

use super::*;

/// The backlog as of one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backlog {
    /// Webhook deliveries not yet succeeded or failed.
    pub deliveries_pending: u64,
    /// Pending deliveries to enabled endpoints whose attempt is due (`next_attempt_at <= now`).
    pub deliveries_due: u64,
    /// Seconds since the oldest due delivery became due (0 when none is).
    pub oldest_due_seconds: f64,
    /// Endpoints disabled (by their organization or after 3 days of failures, D50).
    pub endpoints_disabled: u64,
    /// Emails not sent yet.
    pub emails_pending: u64,
    /// Emails not sent yet whose last attempt failed.
    pub emails_failed: u64,
}

/// The oldest due time of a pending delivery to an enabled endpoint: one probe per endpoint of
/// `deliveries_pending_idx` (pending rows by endpoint and due time), however many are due.
/// Params: 1 now.
macro_rules! oldest_due {
    ($p:literal) => {
        concat!(
            "SELECT min(due) AS due FROM (SELECT (SELECT min(d.next_attempt_at) FROM deliveries d ",
            "WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= ",
            $p,
            "1) AS due FROM webhook_endpoints w WHERE w.enabled) e"
        )
    };
}

/// The one row of [`oldest_due`].
#[derive(diesel::QueryableByName)]
struct OldestDue {
    #[diesel(sql_type = diesel::sql_types::Nullable<crate::types::sql::Ts>)]
    due: Option<DbTime>,
}

macro_rules! impl_ops {
    ($conn:ty, $p:literal) => {
        impl<'c> DbTx<'c, $conn> {
            /// [`Backlog`] at `now`. Errors: the database's.
            pub async fn backlog(&mut self, now: OffsetDateTime) -> StoreResult<Backlog> {
                let count = |n: i64| u64::try_from(n).unwrap_or(0);
                // `'pending'` written into the statement, not bound: SQLite then reads the
                // partial index of pending rows (a bound value cannot show the planner that
                // the index's condition holds).
                let pending = || {
                    deliveries::table
                        .filter(diesel::dsl::sql::<diesel::sql_types::Bool>("deliveries.status = 'pending'"))
                };
                let enabled =
                    webhook_endpoints::table.filter(webhook_endpoints::enabled.eq(true)).select(webhook_endpoints::id);
                let due = pending()
                    .filter(deliveries::next_attempt_at.le(DbTime(now)))
                    .filter(deliveries::endpoint_id.eq_any(enabled));
                let deliveries_pending = pending().count().get_result::<i64>(self.conn).await.map_err(db_err)?;
                let deliveries_due = due.count().get_result::<i64>(self.conn).await.map_err(db_err)?;
                let oldest: Vec<OldestDue> = diesel::sql_query(oldest_due!($p))
                    .bind::<crate::types::sql::Ts, _>(DbTime(now))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                let oldest = oldest.into_iter().next().and_then(|o| o.due);
                let oldest_due_seconds = oldest.map(|t| (now - t.0).as_seconds_f64().max(0.0)).unwrap_or(0.0);
                let endpoints_disabled = webhook_endpoints::table
                    .filter(webhook_endpoints::enabled.eq(false))
                    .count()
                    .get_result::<i64>(self.conn)
                    .await
                    .map_err(db_err)?;
                let unsent = emails::table.filter(emails::sent_at.is_null());
                let emails_pending = unsent.count().get_result::<i64>(self.conn).await.map_err(db_err)?;
                let emails_failed = unsent
                    .filter(emails::last_error.is_not_null())
                    .count()
                    .get_result::<i64>(self.conn)
                    .await
                    .map_err(db_err)?;
                Ok(Backlog {
                    deliveries_pending: count(deliveries_pending),
                    deliveries_due: count(deliveries_due),
                    oldest_due_seconds,
                    endpoints_disabled: count(endpoints_disabled),
                    emails_pending: count(emails_pending),
                    emails_failed: count(emails_failed),
                })
            }
        }
    };
}

impl_ops!(PgPipe<'_>, "$");
impl_ops!(crate::SqliteConn, "?");
