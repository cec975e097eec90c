//! The rows of outbox events, and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = outbox_events, treat_none_as_default_value = false)]
pub struct EventRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) event_type: String,
    pub(crate) data: String,
    pub(crate) created_at: DbTime,
    pub(crate) request_id: Option<String>,
}

impl TryFrom<EventRow> for OutboxEvent {
    type Error = StoreError;
    fn try_from(r: EventRow) -> Result<Self, StoreError> {
        Ok(OutboxEvent {
            id: EventId(r.id.0),
            org_id: OrgId(r.org_id.0),
            event_type: talent_domain::webhook::parse_event_type(&r.event_type)
                .ok_or_else(|| corrupt("outbox_events.event_type"))?,
            data: talent_domain::events::EventData::parse(r.data).map_err(|_| corrupt("outbox_events.data"))?,
            created_at: r.created_at.0,
            request_id: r.request_id,
        })
    }
}

impl<C> DbTx<'_, C> {
    /// The row of an outbox event, its links' tokens sealed (D52).
    pub(super) fn event_row(&self, e: &OutboxEvent) -> EventRow {
        EventRow {
            id: DbUuid(e.id.0),
            org_id: DbUuid(e.org_id.0),
            event_type: e.event_type.as_str().to_string(),
            data: self.conceal(e.data.as_str()),
            created_at: DbTime(e.created_at),
            request_id: e.request_id.clone(),
        }
    }

    /// The event of a stored row, its links opened.
    pub(super) fn open_event(&self, mut r: EventRow) -> StoreResult<OutboxEvent> {
        r.data = self.reveal(&r.data);
        OutboxEvent::try_from(r)
    }
}
