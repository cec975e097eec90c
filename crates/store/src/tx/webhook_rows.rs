//! The rows of webhook endpoints, deliveries and attempts, and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;
use talent_domain::webhook::{Breaker, EndpointKind, Subscription};

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = webhook_endpoints, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct EndpointRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) url: String,
    pub(crate) events: String,
    pub(crate) description: Option<String>,
    pub(crate) enabled: bool,
    pub(crate) secret: String,
    pub(crate) previous_secret: Option<String>,
    pub(crate) previous_secret_expires_at: Option<DbTime>,
    pub(crate) consecutive_failures: i64,
    pub(crate) created_at: DbTime,
    pub(crate) updated_at: DbTime,
    pub(crate) breaker_failures: i64,
    pub(crate) breaker_open_until: Option<DbTime>,
    pub(crate) failing_since: Option<DbTime>,
    pub(crate) kind: String,
}

impl From<&Endpoint> for EndpointRow {
    fn from(e: &Endpoint) -> Self {
        EndpointRow {
            id: DbUuid(e.id.0),
            org_id: DbUuid(e.org_id.0),
            url: e.url.clone(),
            events: serde_json::to_string(&e.events.to_strings()).unwrap_or_else(|_| "[]".into()),
            description: e.description.clone(),
            enabled: e.enabled,
            secret: e.secret.clone(),
            previous_secret: e.previous_secret.clone(),
            previous_secret_expires_at: e.previous_secret_expires_at.map(DbTime),
            consecutive_failures: i64::from(e.consecutive_failures),
            created_at: DbTime(e.created_at),
            updated_at: DbTime(e.updated_at),
            breaker_failures: i64::from(e.breaker.failed_attempts),
            breaker_open_until: e.breaker.open_until.map(DbTime),
            failing_since: e.failing_since.map(DbTime),
            kind: e.kind.as_str().to_string(),
        }
    }
}

impl TryFrom<EndpointRow> for Endpoint {
    type Error = StoreError;
    fn try_from(r: EndpointRow) -> Result<Self, StoreError> {
        let ev: Vec<String> = serde_json::from_str(&r.events).map_err(|_| corrupt("webhook_endpoints.events"))?;
        let kind = EndpointKind::parse(&r.kind).map_err(|_| corrupt("webhook_endpoints.kind"))?;
        // A connection's hidden endpoint subscribes to nothing (D69).
        let events = match kind {
            EndpointKind::Ats if ev.is_empty() => Subscription::Types(vec![]),
            _ => Subscription::parse(&ev).map_err(|_| corrupt("webhook_endpoints.events"))?,
        };
        Ok(Endpoint {
            id: WebhookId(r.id.0),
            org_id: OrgId(r.org_id.0),
            url: r.url,
            events,
            description: r.description,
            enabled: r.enabled,
            secret: r.secret,
            previous_secret: r.previous_secret,
            previous_secret_expires_at: r.previous_secret_expires_at.map(|t| t.0),
            consecutive_failures: u32::try_from(r.consecutive_failures).unwrap_or(u32::MAX),
            failing_since: r.failing_since.map(|t| t.0),
            breaker: Breaker {
                failed_attempts: u32::try_from(r.breaker_failures).unwrap_or(u32::MAX),
                open_until: r.breaker_open_until.map(|t| t.0),
            },
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
            kind,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug, diesel::QueryableByName)]
#[diesel(table_name = deliveries, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct DeliveryRow {
    pub(crate) id: DbUuid,
    pub(crate) endpoint_id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) event_type: String,
    pub(crate) payload: String,
    pub(crate) status: String,
    pub(crate) attempts: i64,
    pub(crate) next_attempt_at: Option<DbTime>,
    pub(crate) last_attempt_at: Option<DbTime>,
    pub(crate) last_response_status: Option<i32>,
    pub(crate) last_error: Option<String>,
    pub(crate) claimed_until: Option<DbTime>,
    pub(crate) created_at: DbTime,
    pub(crate) request_id: Option<String>,
    pub(crate) event_id: Option<DbUuid>,
}

impl From<&Delivery> for DeliveryRow {
    fn from(d: &Delivery) -> Self {
        let DeliveryStateRow {
            status,
            attempts,
            next_attempt_at,
            last_attempt_at,
            last_response_status,
            last_error,
            claimed_until,
        } = DeliveryStateRow::from(d);
        DeliveryRow {
            id: DbUuid(d.id.0),
            endpoint_id: DbUuid(d.endpoint_id.0),
            org_id: DbUuid(d.org_id.0),
            event_type: d.event_type.as_str().to_string(),
            payload: d.payload.clone(),
            status: status.to_string(),
            attempts,
            next_attempt_at,
            last_attempt_at,
            last_response_status,
            last_error,
            claimed_until,
            created_at: DbTime(d.created_at),
            request_id: d.request_id.clone(),
            event_id: d.event_id.map(|e| DbUuid(e.0)),
        }
    }
}

/// What an attempt's outcome changes in a delivery's row ([`WebhookRepo::update_deliveries`]'s
/// state, its claim released), for SQLite's update of an outcome: neither the payload nor the
/// columns no outcome changes are written, so SQLite leaves the indexes on those columns alone
/// (T324). `None` is NULL.
///
/// [`WebhookRepo::update_deliveries`]: talent_domain::ports::tx::webhook::WebhookRepo::update_deliveries
#[derive(AsChangeset, Clone, Debug)]
#[diesel(table_name = deliveries, treat_none_as_null = true)]
pub struct DeliveryStateRow {
    pub(crate) status: &'static str,
    pub(crate) attempts: i64,
    pub(crate) next_attempt_at: Option<DbTime>,
    pub(crate) last_attempt_at: Option<DbTime>,
    pub(crate) last_response_status: Option<i32>,
    pub(crate) last_error: Option<String>,
    pub(crate) claimed_until: Option<DbTime>,
}

impl From<&Delivery> for DeliveryStateRow {
    fn from(d: &Delivery) -> Self {
        DeliveryStateRow {
            status: d.status.as_str(),
            attempts: i64::from(d.attempts),
            next_attempt_at: d.next_attempt_at.map(DbTime),
            last_attempt_at: d.last_attempt_at.map(DbTime),
            last_response_status: d.last_response_status.map(i32::from),
            last_error: d.last_error.clone(),
            claimed_until: None,
        }
    }
}

impl TryFrom<DeliveryRow> for Delivery {
    type Error = StoreError;
    fn try_from(r: DeliveryRow) -> Result<Self, StoreError> {
        Ok(Delivery {
            id: DeliveryId(r.id.0),
            endpoint_id: WebhookId(r.endpoint_id.0),
            org_id: OrgId(r.org_id.0),
            event_type: talent_domain::webhook::parse_event_type(&r.event_type)
                .ok_or_else(|| corrupt("deliveries.event_type"))?,
            event_id: r.event_id.map(|e| EventId(e.0)),
            payload: r.payload,
            status: DeliveryStatus::parse(&r.status).map_err(|_| corrupt("deliveries.status"))?,
            attempts: u32::try_from(r.attempts).unwrap_or(u32::MAX),
            next_attempt_at: r.next_attempt_at.map(|t| t.0),
            last_attempt_at: r.last_attempt_at.map(|t| t.0),
            last_response_status: r.last_response_status.and_then(|s| u16::try_from(s).ok()),
            last_error: r.last_error,
            created_at: r.created_at.0,
            request_id: r.request_id,
        })
    }
}

/// One row of `delivery_attempts` (batch inserts; `None` is NULL, not DEFAULT, so SQLite can take
/// many rows in one statement).
#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = delivery_attempts, treat_none_as_default_value = false)]
pub struct AttemptRow {
    pub(crate) delivery_id: DbUuid,
    pub(crate) seq: i64,
    pub(crate) attempted_at: DbTime,
    pub(crate) response_status: Option<i32>,
    pub(crate) duration_ms: i64,
    pub(crate) error: Option<String>,
    pub(crate) response_body: Option<String>,
}

impl<C> DbTx<'_, C> {
    pub(super) fn open_endpoint(&self, r: EndpointRow) -> StoreResult<Endpoint> {
        let mut e = Endpoint::try_from(r)?;
        e.secret = self.sealer.open(&e.secret).map_err(|m| StoreError::Internal(format!("webhook secret: {m}")))?;
        e.previous_secret = e
            .previous_secret
            .map(|p| self.sealer.open(&p).map_err(|m| StoreError::Internal(format!("webhook secret: {m}"))))
            .transpose()?;
        Ok(e)
    }

    /// The row of a delivery, the links' tokens of its payload sealed (D52).
    pub(super) fn delivery_row(&self, d: &Delivery) -> DeliveryRow {
        let mut r = DeliveryRow::from(d);
        r.payload = self.conceal(&r.payload);
        r
    }

    /// The delivery of a stored row, its payload's links opened: the exact body that is signed.
    pub(super) fn open_delivery(&self, mut r: DeliveryRow) -> StoreResult<Delivery> {
        r.payload = self.reveal(&r.payload);
        Delivery::try_from(r)
    }

    pub(super) fn seal_endpoint(&self, e: &Endpoint) -> EndpointRow {
        let mut r = EndpointRow::from(e);
        r.secret = self.sealer.seal(&e.secret);
        r.previous_secret = e.previous_secret.as_deref().map(|p| self.sealer.seal(p));
        r
    }
}
