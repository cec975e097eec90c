//! ATS connections (D63): create, list, read, change and delete an organization's connections,
//! and read a connection's orders and the errors its ATS reported.

use super::out::{AtsErrorOut, ConnectionOut, OrderOut, PushAttemptOut, PushDetailOut, PushOut, ReportOpeningOut};
use super::{admin_list, admin_page};
use crate::body::double_option;
use crate::error::ApiError;
use crate::extract::{JsonIn, PathId, PathIds};
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use talent_domain::connector::{Ats, Connection, ConnectionPatch, ConnectionSettings, NewConnection, SettingsPatch};
use talent_domain::errors::ClientError;
use talent_domain::ids::*;
use talent_domain::ports::Store;
use talent_domain::values::{FieldErrors, Locale};
use talent_domain::webhook::DeliveryStatus;

/// The `settings` of a connection's create or change body (D63): each member absent = unchanged
/// (or unset on create), `null` = cleared.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SettingsIn {
    #[serde(default, deserialize_with = "double_option")]
    base_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    api_key: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    integration_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    webhook_secret: Option<Option<String>>,
}

impl SettingsIn {
    fn patch(self) -> SettingsPatch {
        SettingsPatch {
            base_url: self.base_url,
            api_key: self.api_key,
            integration_id: self.integration_id,
            webhook_secret: self.webhook_secret,
        }
    }
}

/// `POST /admin/v1/organizations/{id}/connections` body (D63).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ConnectionIn {
    ats: String,
    name: String,
    #[serde(default)]
    settings: Option<SettingsIn>,
    /// The language of the invitations its orders send (T221).
    locale: Option<String>,
}

/// `PATCH /admin/v1/connections/{id}` body (D63).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ConnectionPatchIn {
    name: Option<String>,
    enabled: Option<bool>,
    settings: Option<SettingsIn>,
    /// `null` clears it (the organization's language then).
    #[serde(default, deserialize_with = "double_option")]
    locale: Option<Option<String>>,
}

fn out(view: &talent_domain::usecases::connectors::ConnectionView, key: Option<String>) -> ConnectionOut {
    ConnectionOut::new(&view.connection, (view.orders, view.failed_pushes), key)
}

/// `POST /admin/v1/organizations/{id}/connections` → 201 the connection with `key`, the API key
/// the administrator pastes into the ATS, shown once (D63).
pub async fn create_connection<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(org): PathId<OrgId>,
    JsonIn(i): JsonIn<ConnectionIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    let ats = errs.take("ats", Ats::parse(&i.ats));
    let name = errs.take("name", Connection::parse_name(&i.name));
    let locale = i.locale.as_deref().and_then(|l| errs.take("locale", Locale::parse(l)));
    errs.into_result()?;
    let (Some(ats), Some(name)) = (ats, name) else { return Err(ApiError(ClientError::internal())) };
    let settings = ConnectionSettings::default().patched(&i.settings.unwrap_or_default().patch());
    let created = state.svc.create_connection(org, NewConnection { ats, name, settings, locale }, None).await?;
    Ok(HttpResponse::Created().json_body(out(&created.view, Some(created.key))))
}

/// `GET /admin/v1/organizations/{id}/connections` → the organization's connections, oldest first.
pub async fn list_connections<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(org): PathId<OrgId>,
) -> Result<HttpResponse, ApiError> {
    let list = state.svc.list_connections(org).await?;
    Ok(admin_list(list.iter().map(|v| out(v, None)).collect(), None))
}

/// `GET /admin/v1/connections/{id}` → one connection (never its credentials).
pub async fn get_connection<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<ConnectionId>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json_body(out(&state.svc.get_connection(id).await?, None)))
}

/// `PATCH /admin/v1/connections/{id}` → the changed connection: `name`, `enabled`, and
/// `settings` members (replaced, or cleared with `null`).
pub async fn patch_connection<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<ConnectionId>,
    JsonIn(i): JsonIn<ConnectionPatchIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    let name = i.name.and_then(|n| errs.take("name", Connection::parse_name(&n)));
    let locale = match i.locale {
        None => None,
        Some(None) => Some(None),
        Some(Some(l)) => errs.take("locale", Locale::parse(&l)).map(Some),
    };
    errs.into_result()?;
    let patch = ConnectionPatch { name, enabled: i.enabled, settings: i.settings.unwrap_or_default().patch(), locale };
    Ok(HttpResponse::Ok().json_body(out(&state.svc.update_connection(id, patch).await?, None)))
}

/// `DELETE /admin/v1/connections/{id}` → 204: the key is revoked and the connection deleted with
/// its orders.
pub async fn delete_connection<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<ConnectionId>,
) -> Result<HttpResponse, ApiError> {
    state.svc.delete_connection(id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /admin/v1/connections/{id}/orders` → the connection's orders, newest first, paginated.
pub async fn list_orders<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    PathId(id): PathId<ConnectionId>,
) -> Result<HttpResponse, ApiError> {
    let (before, limit, filters) = admin_page(&state, &req, &format!("admin/connections/{id}/orders"))?;
    let page = state.svc.list_orders(id, before.map(OrderId), limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|o| o.id.0), &filters);
    Ok(admin_list(page.items.iter().map(OrderOut::from).collect(), next))
}

/// `GET /admin/v1/connections/{id}/orders/{order}/openings` → the last 100 openings of the order's
/// report link, newest first (D68).
pub async fn list_openings<S: Store>(
    state: web::Data<ApiState<S>>,
    PathIds(id, order): PathIds<ConnectionId, OrderId>,
) -> Result<HttpResponse, ApiError> {
    let c = state.svc.get_connection(id).await?.connection;
    let o = state.svc.get_order(c.org_id, order).await?;
    if o.connection_id != id {
        return Err(ApiError(ClientError::not_found("Order")));
    }
    let list = state.svc.report_openings(c.org_id, order, 100).await?;
    Ok(admin_list(list.iter().map(ReportOpeningOut::from).collect(), None))
}

/// The query of a push log: `status` besides the page's `limit` and `cursor`.
#[derive(Deserialize, Debug)]
pub struct PushQuery {
    status: Option<String>,
}

/// `GET /admin/v1/connections/{id}/pushes[?status=pending|succeeded|failed]` → the connection's
/// push log, newest first, paginated (D69).
pub async fn list_pushes<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    PathId(id): PathId<ConnectionId>,
) -> Result<HttpResponse, ApiError> {
    let q = web::Query::<PushQuery>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or(PushQuery { status: None });
    let mut errs = FieldErrors::default();
    let status = q.status.as_deref().and_then(|s| errs.take("status", DeliveryStatus::parse(s)));
    errs.into_result()?;
    let (before, limit, filters) = admin_page(&state, &req, &format!("admin/connections/{id}/pushes"))?;
    let page = state.svc.push_log(id, status, before.map(DeliveryId), limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|d| d.id.0), &filters);
    Ok(admin_list(page.items.iter().map(PushOut::from).collect(), next))
}

/// `GET /admin/v1/connections/{id}/pushes/{push}` → the push with its attempts (D69).
pub async fn get_push<S: Store>(
    state: web::Data<ApiState<S>>,
    PathIds(id, push): PathIds<ConnectionId, DeliveryId>,
) -> Result<HttpResponse, ApiError> {
    let (d, attempts) = state.svc.push_attempts(id, push).await?;
    let attempt_log = attempts.iter().map(|(at, o)| PushAttemptOut::new(*at, o)).collect();
    Ok(HttpResponse::Ok().json_body(PushDetailOut { attempt_log, push: PushOut::from(&d) }))
}

/// `POST /admin/v1/connections/{id}/pushes/{push}/redeliver` → 202 the push, due again now with a
/// fresh retry schedule (D69).
pub async fn redeliver_push<S: Store>(
    state: web::Data<ApiState<S>>,
    PathIds(id, push): PathIds<ConnectionId, DeliveryId>,
) -> Result<HttpResponse, ApiError> {
    let d = state.svc.redeliver_push(id, push).await?;
    Ok(HttpResponse::Accepted().json_body(PushOut::from(&d)))
}

/// `GET /admin/v1/connections/{id}/errors` → the last 100 errors its ATS reported, newest first.
pub async fn list_errors<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<ConnectionId>,
) -> Result<HttpResponse, ApiError> {
    let list = state.svc.list_connection_errors(id, 100).await?;
    Ok(admin_list(list.iter().map(AtsErrorOut::from).collect(), None))
}
