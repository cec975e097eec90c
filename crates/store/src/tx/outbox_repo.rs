//! [`OutboxRepo`] on both backends (the event outbox): one body, compiled for PostgreSQL and SQLite.

use super::*;

macro_rules! impl_outbox_repo {
    ($conn:ty) => {
        impl<'c> OutboxRepo for DbTx<'c, $conn> {
            fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    diesel::insert_into(outbox_events::table)
                        .values(EventRow {
                            id: DbUuid(e.id.0),
                            org_id: DbUuid(e.org_id.0),
                            event_type: e.event_type.as_str().to_string(),
                            data: e.data.to_string(),
                            created_at: DbTime(e.created_at),
                        })
                        .execute(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(())
                })
            }

            fn list_events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>> {
                Box::pin(async move {
                    let rows: Vec<EventRow> = outbox_events::table
                        .filter(outbox_events::org_id.eq(DbUuid(org.0)))
                        .order((outbox_events::created_at.asc(), outbox_events::id.asc()))
                        .select(EventRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    rows.into_iter().map(OutboxEvent::try_from).collect()
                })
            }
        }
    };
}

impl_outbox_repo!(diesel_async::AsyncPgConnection);
impl_outbox_repo!(crate::SqliteConn);
