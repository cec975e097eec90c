//! Webhook management (D29-D33), scope `webhooks:manage`.

use crate::auth::authorize;
use crate::body::{double_option, page_limit, parse_json, parse_params, parse_query, reject_nulls};
use crate::error::ApiError;
use crate::extract::{Body, PathId, PathIds};
use crate::idempotency::{keyed, Reply};
use crate::openapi::schemas;
use crate::out;
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use talent_domain::ids::{DeliveryId, WebhookId};
use talent_domain::ports::Store;

use talent_domain::usecases::feed::Replayed;
use talent_domain::usecases::webhooks::{EndpointPatch, NewEndpoint};
use talent_domain::values::{FieldErrors, Scope};
use talent_domain::webhook::{Delivery, DeliveryStatus, Endpoint, Subscription};
use utoipa::{IntoParams, ToSchema};

/// The `{id}` path parameter of the webhook endpoints.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct WebhookIdParam {
    /// The endpoint's id. A non-UUID is 404 (T13).
    id: uuid::Uuid,
}

/// The `{deliveryId}` path parameter.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct DeliveryIdParam {
    /// The delivery's id (`Talent-Delivery-Id`). A non-UUID is 404 (T13).
    #[param(rename = "deliveryId")]
    delivery_id: uuid::Uuid,
}

/// `GET /webhooks/{id}/deliveries` query (D29, D32), as parsed ([`parse_params`]).
#[derive(Deserialize, IntoParams, Debug)]
#[into_params(parameter_in = Query)]
pub struct DeliveryListParams {
    #[param(value_type = Option<talent_domain::webhook::DeliveryStatus>)]
    status: Option<String>,
    /// `pagination.nextCursor` of the previous page, with the same filters.
    #[param(min_length = 1)]
    cursor: Option<String>,
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100, default = 25)]
    limit: Option<String>,
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
#[derive(Deserialize, Debug, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = WebhookEndpointCreateRequest)]
pub struct EndpointIn {
    /// `https`, not resolving to an address that is not globally reachable (loopback, private,
    /// link-local, multicast, and every other special-purpose address; D35, D54).
    url: String,
    /// Event types, or `["*"]` for all.
    #[schema(schema_with = schemas::event_subscriptions)]
    events: Vec<String>,
    /// Trimmed; at most 500 characters.
    #[schema(max_length = 500, pattern = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$")]
    description: Option<String>,
}

/// `POST /api/v1/webhooks` → 201 with the secret (shown once, D30).
#[utoipa::path(post, path = "/api/v1/webhooks", tag = "webhooks", operation_id = "createWebhook",
    summary = "Register a webhook endpoint (its secret is shown once)",
    description = "Registers an https endpoint for the given event types (`*` for all, new types included). The answer carries the signing secret once: store it to verify deliveries. Refused with 409 past 10 endpoints.",
    request_body = EndpointIn,
    responses(
        (status = 201, description = "Registered; `secret` is returned only here and at rotation.",
            body = out::WebhookEndpointWithSecretOut),
        (status = 409, description = "`conflict`: the organization has 10 endpoints already (D29); or an \
Idempotency-Key conflict (D38).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn create<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    let answer = |e: &Endpoint| Reply::new(StatusCode::CREATED, &out::WebhookEndpointWithSecretOut::from(e));
    keyed(&state, &req, org, &body, answer, |claim| async {
        let i: EndpointIn = parse_json(&req, &body)?;
        let mut errs = FieldErrors::default();
        let events = events_of(&i.events, &mut errs);
        let description = description_of(i.description, &mut errs);
        errs.into_result()?;
        let events = events.ok_or_else(FieldErrors::default)?;
        let new = NewEndpoint { url: i.url.trim().to_string(), events, description };
        Ok(state.svc.create_endpoint_keyed(org, new, claim).await?)
    })
    .await
}

/// `GET /api/v1/webhooks`: `{data: [...]}`, oldest first (at most 10).
#[utoipa::path(get, path = "/api/v1/webhooks", tag = "webhooks", operation_id = "listWebhooks",
    summary = "The organization's webhook endpoints (one page, at most 10)",
    description = "The organization's webhook endpoints (at most 10), without their secrets.",
    responses(
        (status = 200, description = "Every endpoint, oldest first; `hasMore` is false.", body = out::WebhookEndpointPage),
        (status = 400, description = "`validation_error`: query parameters are not accepted here.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn list<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    parse_query(&req, &[])?;
    let v = state.svc.list_endpoints(p.ctx.org.id).await?;
    Ok(HttpResponse::Ok()
        .json_body(out::WebhookEndpointPage::new(v.iter().map(out::WebhookEndpointOut::from).collect(), None)))
}

/// `GET /api/v1/webhooks/{id}`.
#[utoipa::path(get, path = "/api/v1/webhooks/{id}", tag = "webhooks", operation_id = "getWebhook",
    summary = "A webhook endpoint",
    description = "One webhook endpoint with its subscription, state and failure counters, without its secret.",
    params(WebhookIdParam),
    responses(
        (status = 200, description = "The endpoint (without its secret).", body = out::WebhookEndpointOut),
        (status = 404, description = "`not_found`: no such endpoint in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn get<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<WebhookId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    let PathId(id) = id?;
    Ok(HttpResponse::Ok().json_body(out::WebhookEndpointOut::from(&state.svc.get_endpoint(p.ctx.org.id, id).await?)))
}

/// `PATCH /webhooks/{id}` body (D29).
#[derive(Deserialize, Debug, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = WebhookEndpointPatchRequest)]
pub struct EndpointPatchIn {
    /// `https`, not resolving to a forbidden address (D35).
    #[schema(value_type = String, required = false)]
    url: Option<String>,
    /// Event types, or `["*"]` for all.
    #[schema(schema_with = schemas::event_subscriptions, required = false)]
    events: Option<Vec<String>>,
    /// `null` clears it; at most 500 characters.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>, max_length = 500, pattern = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$")]
    description: Option<Option<String>>,
    /// A disabled endpoint receives nothing.
    #[schema(value_type = bool, required = false)]
    enabled: Option<bool>,
}

/// `PATCH /api/v1/webhooks/{id}`.
#[utoipa::path(patch, path = "/api/v1/webhooks/{id}", tag = "webhooks", operation_id = "patchWebhook",
    summary = "Update a webhook endpoint",
    description = "Changes an endpoint's URL, event types, description or `enabled`. Re-enabling a disabled endpoint sends the deliveries that waited for it.",
    params(WebhookIdParam),
    request_body = EndpointPatchIn,
    responses(
        (status = 200, description = "The updated endpoint.", body = out::WebhookEndpointOut),
        (status = 404, description = "`not_found`: no such endpoint in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn patch<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<WebhookId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    let i: EndpointPatchIn = parse_json(&req, &body)?;
    reject_nulls(&body, &["url", "events", "enabled"])?;
    let mut errs = FieldErrors::default();
    let events = i.events.as_ref().and_then(|e| events_of(e, &mut errs));
    let description = i.description.map(|d| description_of(d, &mut errs));
    errs.into_result()?;
    let patch = EndpointPatch { url: i.url.map(|u| u.trim().to_string()), events, description, enabled: i.enabled };
    Ok(HttpResponse::Ok()
        .json_body(out::WebhookEndpointOut::from(&state.svc.patch_endpoint(p.ctx.org.id, id, patch).await?)))
}

/// `DELETE /api/v1/webhooks/{id}` → 204.
#[utoipa::path(delete, path = "/api/v1/webhooks/{id}", tag = "webhooks", operation_id = "deleteWebhook",
    summary = "Delete a webhook endpoint and its deliveries",
    description = "Deletes the endpoint, its pending deliveries and its delivery log. Nothing more is sent to it.",
    params(WebhookIdParam),
    responses(
        (status = 204, description = "Deleted."),
        (status = 404, description = "`not_found`: no such endpoint in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn delete<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<WebhookId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let PathId(id) = id?;
    state.svc.delete_endpoint(p.ctx.org.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /webhooks/{id}/replay` body (D48).
#[derive(Deserialize, Debug, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = WebhookReplayRequest)]
pub struct ReplayIn {
    /// Queue the events after this sequence. Absent or `0`: every event kept (D46's 30 days).
    #[serde(default, deserialize_with = "crate::body::optional_count")]
    #[schema(minimum = 0, maximum = 9_223_372_036_854_775_807_i64)]
    after: Option<u64>,
}

/// `POST /api/v1/webhooks/{id}/replay` (D48) → 202: queues for the endpoint a new delivery of each
/// kept event after `after` that it subscribes to, oldest first, at most 1,000 per call.
#[utoipa::path(post, path = "/api/v1/webhooks/{id}/replay", tag = "webhooks", operation_id = "replayWebhookEvents",
    summary = "Queue the events after a sequence for this endpoint again (new deliveries)",
    description = "Queues a new delivery to this endpoint of every kept event after the `sequence` given that the endpoint subscribes to, oldest first, at most 1,000 per call; `hasMore` and `lastSequence` say where to go on.",
    params(WebhookIdParam),
    request_body = ReplayIn,
    responses(
        (status = 202, description = "Queued; when `hasMore`, call again with `after` = `lastSequence`.",
            body = out::ReplayOut),
        (status = 400, description = "`validation_error`: `after` is not a sequence number.", body = out::ErrorOut),
        (status = 404, description = "`not_found`: no such endpoint in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn replay<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<WebhookId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    let answer = |r: &Replayed| Reply::new(StatusCode::ACCEPTED, &out::ReplayOut::from(r));
    keyed(&state, &req, org, &body, answer, |claim| async {
        let i: ReplayIn = parse_json(&req, &body)?;
        Ok(state.svc.replay_keyed(org, id, i.after.unwrap_or(0), claim).await?)
    })
    .await
}

/// `POST /api/v1/webhooks/{id}/rotate-secret` → 200 with the new secret (shown once).
#[utoipa::path(post, path = "/api/v1/webhooks/{id}/rotate-secret", tag = "webhooks", operation_id = "rotateWebhookSecret",
    summary = "Replace the signing secret (the old one keeps signing for 24 h)",
    description = "Replaces the endpoint's signing secret and returns the new one once. For 24 hours deliveries are signed with both the new and the old secret, so receivers can switch without losing events.",
    params(WebhookIdParam),
    responses(
        (status = 200, description = "The endpoint with its new secret (shown once).",
            body = out::WebhookEndpointWithSecretOut),
        (status = 404, description = "`not_found`: no such endpoint in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn rotate<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<WebhookId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    let answer = |e: &Endpoint| Reply::new(StatusCode::OK, &out::WebhookEndpointWithSecretOut::from(e));
    let svc = &state.svc;
    keyed(&state, &req, org, &body, answer, |claim| async move { Ok(svc.rotate_secret_keyed(org, id, claim).await?) })
        .await
}

/// `GET /api/v1/webhooks/{id}/deliveries` (D32): keyset-paginated, `status` filter.
#[utoipa::path(get, path = "/api/v1/webhooks/{id}/deliveries", tag = "webhooks", operation_id = "listWebhookDeliveries",
    summary = "Recent deliveries to an endpoint, newest first",
    description = "The deliveries to the endpoint within the retention window, newest first, in pages; `status` narrows them (`pending`, `succeeded`, `failed`).",
    params(WebhookIdParam, DeliveryListParams),
    responses(
        (status = 200, description = "A page of deliveries.", body = out::DeliveryPage),
        (status = 400, description = "`validation_error`: an invalid status, limit or cursor (D36).",
            body = out::ErrorOut),
        (status = 404, description = "`not_found`: no such endpoint in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn deliveries<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<WebhookId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    let PathId(id) = id?;
    let (params, pairs) = parse_params::<DeliveryListParams>(&req)?;
    let mut errs = FieldErrors::default();
    let status = params.status.as_deref().and_then(|s| errs.take("status", DeliveryStatus::parse(s)));
    let limit = page_limit(params.limit.as_deref(), &mut errs);
    errs.into_result()?;
    let filters = crate::cursor::filter_key(&format!("webhooks/{id}/deliveries"), &pairs);
    let before = state.cursors.position(params.cursor.as_deref(), &filters)?.map(DeliveryId);
    let page = state.svc.list_deliveries(p.ctx.org.id, id, status, None, before, limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|d| d.id.0), &filters);
    Ok(HttpResponse::Ok()
        .json_body(out::DeliveryPage::new(page.items.iter().map(out::DeliveryOut::from).collect(), next)))
}

/// `GET /api/v1/webhooks/{id}/deliveries/{deliveryId}`: the record plus `attempts[]`.
#[utoipa::path(get, path = "/api/v1/webhooks/{id}/deliveries/{deliveryId}", tag = "webhooks", operation_id = "getWebhookDelivery",
    summary = "A delivery with its attempts",
    description = "One delivery with its state, next attempt and the log of its attempts (status, duration, error and the start of each answer).",
    params(WebhookIdParam, DeliveryIdParam),
    responses(
        (status = 200, description = "The delivery and its attempt log.", body = out::DeliveryDetailOut),
        (status = 404, description = "`not_found`: no such endpoint or delivery in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn delivery<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    path: Result<PathIds<WebhookId, DeliveryId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), false)?;
    let PathIds(id, did) = path?;
    let (d, attempts) = state.svc.get_delivery(p.ctx.org.id, id, did).await?;
    Ok(HttpResponse::Ok().json_body(out::DeliveryDetailOut {
        delivery: (&d).into(),
        attempt_log: attempts.iter().map(|(t, a)| out::AttemptOut::new(*t, a)).collect(),
    }))
}

/// `POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver` → 202 with the delivery.
#[utoipa::path(post, path = "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", tag = "webhooks", operation_id = "redeliverWebhookDelivery",
    summary = "Send a delivery again now (same delivery id)",
    description = "Queues the delivery again now, with the same delivery id and envelope and a fresh retry schedule, even while the endpoint is backed off.",
    params(WebhookIdParam, DeliveryIdParam),
    responses(
        (status = 202, description = "Queued: the delivery, pending again.", body = out::DeliveryOut),
        (status = 404, description = "`not_found`: no such endpoint or delivery in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn redeliver<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    path: Result<PathIds<WebhookId, DeliveryId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let PathIds(id, did) = path?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    let answer = |d: &Delivery| Reply::new(StatusCode::ACCEPTED, &out::DeliveryOut::from(d));
    let svc = &state.svc;
    keyed(&state, &req, org, &body, answer, |claim| async move { Ok(svc.redeliver_keyed(org, id, did, claim).await?) })
        .await
}

/// `POST /api/v1/webhooks/{id}/test` (D33): synchronous ping; never idempotent (D38).
#[utoipa::path(post, path = "/api/v1/webhooks/{id}/test", tag = "webhooks", operation_id = "testWebhook",
    summary = "Send a signed ping now and report the endpoint's answer",
    description = "Sends a signed `ping` to the endpoint now and answers with what the endpoint answered (status, body, duration). The ping is recorded as a delivery with one attempt and is not retried.",
    params(WebhookIdParam),
    responses(
        (status = 200, description = "What the endpoint answered (`success` false on a non-2xx, a redirect, \
a timeout or a refused address).", body = out::WebhookTestResultOut),
        (status = 404, description = "`not_found`: no such endpoint in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["webhooks:manage"])))]
pub async fn test<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<WebhookId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::WebhooksManage), true)?;
    let PathId(id) = id?;
    let r = state.svc.test_ping(p.ctx.org.id, id).await?;
    Ok(HttpResponse::Ok().json_body(out::WebhookTestResultOut::from(&r)))
}
