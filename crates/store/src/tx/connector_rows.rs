//! The rows of ATS connections, orders and reported errors, and their conversions to and from
//! the domain. A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never
//! a panic. Credentials are sealed by [`DbTx::connection_row`] and opened by
//! [`DbTx::open_connection`].

use super::*;
use talent_domain::connector::{
    Ats, Connection, ConnectionError, ConnectionSettings, Order, OrderRefs, OrderStatus, ReportOpening, TestRef,
};

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = ats_connections, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct ConnectionRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) ats: String,
    pub(crate) name: String,
    pub(crate) enabled: bool,
    pub(crate) base_url: Option<String>,
    pub(crate) api_key: Option<String>,
    pub(crate) integration_id: Option<String>,
    pub(crate) webhook_secret: Option<String>,
    pub(crate) api_key_id: DbUuid,
    pub(crate) created_at: DbTime,
    pub(crate) updated_at: DbTime,
    pub(crate) last_activity_at: Option<DbTime>,
    pub(crate) endpoint_id: Option<DbUuid>,
    pub(crate) key_value: Option<String>,
    pub(crate) locale: Option<String>,
}

impl<C> DbTx<'_, C> {
    /// The row of a connection, its credentials sealed.
    pub(super) fn connection_row(&self, c: &Connection) -> ConnectionRow {
        let s = &c.settings;
        ConnectionRow {
            id: DbUuid(c.id.0),
            org_id: DbUuid(c.org_id.0),
            ats: c.ats.as_str().to_string(),
            name: c.name.clone(),
            enabled: c.enabled,
            base_url: s.base_url.clone(),
            api_key: s.api_key.as_deref().map(|k| self.sealer.seal(k)),
            integration_id: s.integration_id.clone(),
            webhook_secret: s.webhook_secret.as_deref().map(|k| self.sealer.seal(k)),
            api_key_id: DbUuid(c.api_key_id.0),
            created_at: DbTime(c.created_at),
            updated_at: DbTime(c.updated_at),
            last_activity_at: c.last_activity_at.map(DbTime),
            endpoint_id: Some(DbUuid(c.endpoint_id.0)),
            key_value: Some(self.sealer.seal(&c.key)),
            locale: c.locale.map(|l| l.as_str().to_string()),
        }
    }

    /// The connection of a stored row, its credentials opened. Errors: `Internal` for a value that
    /// does not parse or a credential no configured key opens.
    pub(super) fn open_connection(&self, r: ConnectionRow) -> StoreResult<Connection> {
        let open = |v: Option<String>| {
            v.map(|v| self.sealer.open(&v).map_err(|m| StoreError::Internal(format!("connection credential: {m}"))))
                .transpose()
        };
        Ok(Connection {
            id: ConnectionId(r.id.0),
            org_id: OrgId(r.org_id.0),
            ats: Ats::parse(&r.ats).map_err(|_| corrupt("ats_connections.ats"))?,
            name: r.name,
            enabled: r.enabled,
            settings: ConnectionSettings {
                base_url: r.base_url,
                api_key: open(r.api_key)?,
                integration_id: r.integration_id,
                webhook_secret: open(r.webhook_secret)?,
            },
            api_key_id: ApiKeyId(r.api_key_id.0),
            key: open(r.key_value)?.unwrap_or_default(),
            endpoint_id: WebhookId(r.endpoint_id.ok_or_else(|| corrupt("ats_connections.endpoint_id"))?.0),
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
            last_activity_at: r.last_activity_at.map(|t| t.0),
            locale: r.locale.map(|l| Locale::parse(&l).map_err(|_| corrupt("ats_connections.locale"))).transpose()?,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = ats_orders, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct OrderRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) connection_id: DbUuid,
    pub(crate) test_id: String,
    pub(crate) person_id: DbUuid,
    pub(crate) invitation_id: DbUuid,
    pub(crate) ats_key: String,
    pub(crate) candidate_ref: Option<String>,
    pub(crate) application_ref: Option<String>,
    pub(crate) job_ref: Option<String>,
    pub(crate) job_name: Option<String>,
    pub(crate) profile_url: Option<String>,
    pub(crate) ats_order_ref: Option<String>,
    pub(crate) callback_url: Option<String>,
    pub(crate) status: String,
    pub(crate) assessment_id: Option<DbUuid>,
    pub(crate) created_at: DbTime,
    pub(crate) updated_at: DbTime,
    pub(crate) started_at: Option<DbTime>,
    pub(crate) completed_at: Option<DbTime>,
    pub(crate) report_token_hash: Option<Vec<u8>>,
}

impl From<&Order> for OrderRow {
    fn from(o: &Order) -> Self {
        let r = &o.refs;
        OrderRow {
            id: DbUuid(o.id.0),
            org_id: DbUuid(o.org_id.0),
            connection_id: DbUuid(o.connection_id.0),
            test_id: o.test.id(),
            person_id: DbUuid(o.person_id.0),
            invitation_id: DbUuid(o.invitation_id.0),
            ats_key: o.ats_key.clone(),
            candidate_ref: r.candidate.clone(),
            application_ref: r.application.clone(),
            job_ref: r.job.clone(),
            job_name: r.job_name.clone(),
            profile_url: r.profile_url.clone(),
            ats_order_ref: r.ats_order.clone(),
            callback_url: o.callback_url.clone(),
            status: o.status.as_str().to_string(),
            assessment_id: o.assessment_id.map(|a| DbUuid(a.0)),
            created_at: DbTime(o.created_at),
            updated_at: DbTime(o.updated_at),
            started_at: o.started_at.map(DbTime),
            completed_at: o.completed_at.map(DbTime),
            report_token_hash: Some(o.report_token_hash.clone()),
        }
    }
}

impl TryFrom<OrderRow> for Order {
    type Error = StoreError;
    fn try_from(r: OrderRow) -> Result<Self, StoreError> {
        Ok(Order {
            id: OrderId(r.id.0),
            org_id: OrgId(r.org_id.0),
            connection_id: ConnectionId(r.connection_id.0),
            test: TestRef::parse(&r.test_id).ok_or_else(|| corrupt("ats_orders.test_id"))?,
            person_id: PersonId(r.person_id.0),
            invitation_id: InvitationId(r.invitation_id.0),
            ats_key: r.ats_key,
            refs: OrderRefs {
                candidate: r.candidate_ref,
                application: r.application_ref,
                job: r.job_ref,
                job_name: r.job_name,
                profile_url: r.profile_url,
                ats_order: r.ats_order_ref,
            },
            callback_url: r.callback_url,
            status: OrderStatus::parse(&r.status).map_err(|_| corrupt("ats_orders.status"))?,
            assessment_id: r.assessment_id.map(|a| AssessmentId(a.0)),
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
            started_at: r.started_at.map(|t| t.0),
            completed_at: r.completed_at.map(|t| t.0),
            report_token_hash: r.report_token_hash.unwrap_or_default(),
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = ats_errors, treat_none_as_default_value = false)]
pub struct AtsErrorRow {
    pub(crate) id: DbUuid,
    pub(crate) connection_id: DbUuid,
    pub(crate) api_call: String,
    pub(crate) errors: String,
    pub(crate) order_id: Option<DbUuid>,
    pub(crate) created_at: DbTime,
}

impl From<&ConnectionError> for AtsErrorRow {
    fn from(e: &ConnectionError) -> Self {
        AtsErrorRow {
            id: DbUuid(e.id),
            connection_id: DbUuid(e.connection_id.0),
            api_call: e.api_call.clone(),
            errors: e.errors.clone(),
            order_id: e.order_id.map(|o| DbUuid(o.0)),
            created_at: DbTime(e.created_at),
        }
    }
}

impl From<AtsErrorRow> for ConnectionError {
    fn from(r: AtsErrorRow) -> Self {
        ConnectionError {
            id: r.id.0,
            connection_id: ConnectionId(r.connection_id.0),
            api_call: r.api_call,
            errors: r.errors,
            order_id: r.order_id.map(|o| OrderId(o.0)),
            created_at: r.created_at.0,
        }
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = ats_report_openings, treat_none_as_default_value = false)]
pub struct ReportOpeningRow {
    pub(crate) id: DbUuid,
    pub(crate) order_id: DbUuid,
    pub(crate) opened_at: DbTime,
    pub(crate) client_ip: String,
    pub(crate) user_agent: Option<String>,
    pub(crate) pdf: bool,
}

impl From<&ReportOpening> for ReportOpeningRow {
    fn from(o: &ReportOpening) -> Self {
        ReportOpeningRow {
            id: DbUuid(o.id),
            order_id: DbUuid(o.order_id.0),
            opened_at: DbTime(o.opened_at),
            client_ip: o.client_ip.clone(),
            user_agent: o.user_agent.clone(),
            pdf: o.pdf,
        }
    }
}

impl From<ReportOpeningRow> for ReportOpening {
    fn from(r: ReportOpeningRow) -> Self {
        ReportOpening {
            id: r.id.0,
            order_id: OrderId(r.order_id.0),
            opened_at: r.opened_at.0,
            client_ip: r.client_ip,
            user_agent: r.user_agent,
            pdf: r.pdf,
        }
    }
}
