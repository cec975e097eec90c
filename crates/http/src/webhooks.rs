//! Webhook management (D29-D33), scope `webhooks:manage`.

use crate::api::path_id;
use crate::auth::authorize;
use crate::body::{double_option, page_limit, parse_json, parse_query, read_body};
use crate::error::ApiError;
use crate::idempotency::{idempotent, Reply};
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::{json, Value};
use talent_domain::ids::{DeliveryId, WebhookId};
use talent_domain::ports::Store;
use talent_domain::timefmt::format;
use talent_domain::usecases::webhooks::{EndpointPatch, NewEndpoint};
use talent_domain::values::{FieldErrors, Scope};
use talent_domain::webhook::{AttemptOutcome, Delivery, DeliveryStatus, Endpoint, Subscription};

/// The endpoint object (D29). `secret` only at creation and rotation.
pub fn endpoint_json(e: &Endpoint, with_secret: bool) -> Value {
    let mut v = json!({
        "id": e.id.to_string(),
        "url": e.url,
        "events": e.events.to_strings(),
        "description": e.description,
        "enabled": e.enabled,
        "createdAt": format(e.created_at),
        "updatedAt": format(e.updated_at),
    });
    if with_secret {
        if let Some(o) = v.as_object_mut() {
            o.insert("secret".into(), json!(e.secret));
        }
    }
    v
}

/// The delivery record (D32).
pub fn delivery_json(d: &Delivery) -> Value {
    json!({
        "id": d.id.to_string(),
        "type": d.event_type.as_str(),
        "status": d.status.as_str(),
        "attempts": d.attempts,
        "createdAt": format(d.created_at),
        "lastAttemptAt": d.last_attempt_at.map(format),
        "nextAttemptAt": d.next_attempt_at.map(format),
        "lastResponseStatus": d.last_response_status,
        "lastError": d.last_error,
    })
}

fn attempt_json(t: time::OffsetDateTime, a: &AttemptOutcome) -> Value {
    json!({
        "attemptedAt": format(t),
        "responseStatus": a.status,
        "durationMs": a.duration_ms,
        "error": a.error,
        "responseBody": a.response_body,
    })
}

fn events_of(items: &[String], errs: &mut FieldErrors) -> Option<Subscription> {
    match Subscription::parse(items) {
        Ok(s) => Some(s),
        Err(list) => {
            for (i, m) in list {
                match i {
                    Some(i) => errs.push(format!("events[{i}]"), m),
                    None => errs.push("events", m),
                }
            }
            None
        }
    }
}

fn description_of(d: Option<String>, errs: &mut FieldErrors) -> Option<String> {
    let d = d.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    if d.as_ref().is_some_and(|s| s.chars().count() > 500) {
        errs.push("description", "must be at most 500 characters");
    }
    d
}

/// `POST /webhooks` body (D29).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EndpointIn {
    url: String,
    events: Vec<String>,
    description: Option<String>,
}

/// `POST /api/v1/webhooks` → 201 with the secret (shown once, D30).
pub async fn create<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let body = read_body(&req, payload).await?;
    let org = p.ctx.org.id;
    idempotent(&state, &req, org, &body, || async {
        let i: EndpointIn = parse_json(&req, &body)?;
        let mut errs = FieldErrors::default();
        let events = events_of(&i.events, &mut errs);
        let description = description_of(i.description, &mut errs);
        errs.into_result()?;
        let events = events.ok_or_else(FieldErrors::default)?;
        let e =
            state.svc.create_endpoint(org, NewEndpoint { url: i.url.trim().to_string(), events, description }).await?;
        Ok(Reply::new(StatusCode::CREATED, endpoint_json(&e, true)))
    })
    .await
}

/// `GET /api/v1/webhooks`: `{data: [...]}`, oldest first (at most 10).
pub async fn list<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    parse_query(&req, &[])?;
    let v = state.svc.list_endpoints(p.ctx.org.id).await?;
    Ok(HttpResponse::Ok().json(json!({"data": v.iter().map(|e| endpoint_json(e, false)).collect::<Vec<_>>(), "pagination": {"hasMore": false, "nextCursor": null}})))
}

/// `GET /api/v1/webhooks/{id}`.
pub async fn get<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    let id: WebhookId = path_id(&id, "Webhook endpoint")?;
    Ok(HttpResponse::Ok().json(endpoint_json(&state.svc.get_endpoint(p.ctx.org.id, id).await?, false)))
}

/// `PATCH /webhooks/{id}` body (D29).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EndpointPatchIn {
    url: Option<String>,
    events: Option<Vec<String>>,
    #[serde(default, deserialize_with = "double_option")]
    description: Option<Option<String>>,
    enabled: Option<bool>,
}

/// `PATCH /api/v1/webhooks/{id}`.
pub async fn patch<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let id: WebhookId = path_id(&id, "Webhook endpoint")?;
    let body = read_body(&req, payload).await?;
    let i: EndpointPatchIn = parse_json(&req, &body)?;
    let mut errs = FieldErrors::default();
    let events = i.events.as_ref().and_then(|e| events_of(e, &mut errs));
    let description = i.description.map(|d| description_of(d, &mut errs));
    errs.into_result()?;
    let patch = EndpointPatch { url: i.url.map(|u| u.trim().to_string()), events, description, enabled: i.enabled };
    Ok(HttpResponse::Ok().json(endpoint_json(&state.svc.patch_endpoint(p.ctx.org.id, id, patch).await?, false)))
}

/// `DELETE /api/v1/webhooks/{id}` → 204.
pub async fn delete<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let id: WebhookId = path_id(&id, "Webhook endpoint")?;
    state.svc.delete_endpoint(p.ctx.org.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /api/v1/webhooks/{id}/rotate-secret` → 200 with the new secret (shown once).
pub async fn rotate<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let id: WebhookId = path_id(&id, "Webhook endpoint")?;
    let body = read_body(&req, payload).await?;
    let org = p.ctx.org.id;
    idempotent(&state, &req, org, &body, || async {
        let e = state.svc.rotate_secret(org, id).await?;
        Ok(Reply::new(StatusCode::OK, endpoint_json(&e, true)))
    })
    .await
}

/// `GET /api/v1/webhooks/{id}/deliveries` (D32): keyset-paginated, `status` filter.
pub async fn deliveries<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    let id: WebhookId = path_id(&id, "Webhook endpoint")?;
    let pairs = parse_query(&req, &["status", "cursor", "limit"])?;
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let mut errs = FieldErrors::default();
    let status = get("status").and_then(|s| errs.take("status", DeliveryStatus::parse(s)));
    let limit = page_limit(get("limit"), &mut errs);
    errs.into_result()?;
    let filters = crate::cursor::filter_key(&format!("webhooks/{id}/deliveries"), &pairs);
    let before = state.cursors.position(get("cursor"), &filters)?.map(DeliveryId);
    let page = state.svc.list_deliveries(p.ctx.org.id, id, status, before, limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|d| d.id.0), &filters);
    Ok(HttpResponse::Ok().json(json!({
        "data": page.items.iter().map(delivery_json).collect::<Vec<_>>(),
        "pagination": {"hasMore": page.has_more, "nextCursor": next},
    })))
}

/// `GET /api/v1/webhooks/{id}/deliveries/{deliveryId}`: the record plus `attempts[]`.
pub async fn delivery<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    let id: WebhookId = path_id(&path.0, "Webhook endpoint")?;
    let did: DeliveryId = path_id(&path.1, "Delivery")?;
    let (d, attempts) = state.svc.get_delivery(p.ctx.org.id, id, did).await?;
    let mut v = delivery_json(&d);
    if let Some(o) = v.as_object_mut() {
        o.insert("attemptLog".into(), json!(attempts.iter().map(|(t, a)| attempt_json(*t, a)).collect::<Vec<_>>()));
    }
    Ok(HttpResponse::Ok().json(v))
}

/// `POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver` → 202 with the delivery.
pub async fn redeliver<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let id: WebhookId = path_id(&path.0, "Webhook endpoint")?;
    let did: DeliveryId = path_id(&path.1, "Delivery")?;
    let body = read_body(&req, payload).await?;
    let org = p.ctx.org.id;
    idempotent(&state, &req, org, &body, || async {
        let d = state.svc.redeliver(org, id, did).await?;
        Ok(Reply::new(StatusCode::ACCEPTED, delivery_json(&d)))
    })
    .await
}

/// `POST /api/v1/webhooks/{id}/test` (D33): synchronous ping; never idempotent (D38).
pub async fn test<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let id: WebhookId = path_id(&id, "Webhook endpoint")?;
    let r = state.svc.test_ping(p.ctx.org.id, id).await?;
    Ok(HttpResponse::Ok().json(json!({
        "deliveryId": r.delivery_id.to_string(),
        "success": r.success,
        "responseStatus": r.response_status,
        "responseBody": r.response_body,
        "durationMs": r.duration_ms,
        "error": r.error,
    })))
}
