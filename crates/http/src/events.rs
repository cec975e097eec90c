//! The events feed, `GET /api/v1/events` (D48, T106).

use crate::auth::authorize;
use crate::body::{page_limit, parse_query_of};
use crate::error::ApiError;
use crate::out;
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use talent_domain::events::EventType;
use talent_domain::ports::Store;
use talent_domain::usecases::feed::FeedRequest;
use talent_domain::values::FieldErrors;
use talent_domain::webhook::parse_event_type;
use utoipa::IntoParams;

/// Query parameters of `GET /api/v1/events` (D48). `type` may repeat; every other one appears
/// once at most (T14).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct EventFeedParams {
    /// Only events with a sequence above this one: the last `sequence` you processed (default 0,
    /// the oldest event kept; D46's 30 days).
    #[param(minimum = 0, maximum = 9_223_372_036_854_775_807_i64)]
    after: Option<u64>,
    /// Only events of this type; repeat for several. Default: every type the key may read
    /// (`ping` matches nothing: pings are never in the feed).
    #[param(rename = "type", value_type = Option<Vec<EventType>>, style = Form, explode)]
    event_type: Option<Vec<String>>,
    #[param(minimum = 1, maximum = 100, default = 25)]
    limit: Option<u32>,
}

/// `GET /api/v1/events` (D48): the organization's events after `after`, oldest first. Scope: the
/// read scope of each event's resource (`persons:read` for `person.*`, `invitations:read` for
/// `invitation.*`, `results:read` for `assessment.*`), or `webhooks:manage` for every type.
#[utoipa::path(get, path = "/api/v1/events", tag = "events", operation_id = "listEvents",
    summary = "The events feed, in commit order (sequence ascending)",
    description = "Every event of the organization in the order its changes committed, ascending by `sequence` (the organization's own count, 1, 2, 3, … without gaps). Store the last `sequence` you processed and pass it as `after` to get what follows; `type` (repeatable) narrows the types. A key reads the events of the resources its scopes cover. Events are kept for the retention window (30 days by default).",
    params(EventFeedParams),
    responses(
        (status = 200, description = "A page of events; `pagination.nextCursor` is the last `sequence` when more \
follow (pass it as `after`).", body = out::EventPage),
        (status = 400, description = "`validation_error`: an invalid after, type or limit.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:read", "invitations:read", "results:read", "webhooks:manage"])))]
pub async fn list<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, None, false)?;
    let pairs = parse_query_of::<EventFeedParams>(&req, &["type"])?;
    let mut errs = FieldErrors::default();
    let mut feed = FeedRequest { after: 0, types: Vec::new(), limit: 25 };
    let mut limit = None;
    for (k, v) in &pairs {
        match k.as_str() {
            "after" => match v.parse::<u64>() {
                Ok(n) if n <= i64::MAX as u64 => feed.after = n,
                _ => errs.push("after", "must be a sequence number (an integer from 0)"),
            },
            // `ping` is accepted and matches nothing: pings are never in the feed.
            "type" => match parse_event_type(v) {
                Some(t) if !feed.types.contains(&t) => feed.types.push(t),
                Some(_) => {}
                None => errs.push("type", "must be an event type (see the webhooks section)"),
            },
            "limit" => limit = Some(v.as_str()),
            _ => {}
        }
    }
    feed.limit = page_limit(limit, &mut errs);
    errs.into_result()?;
    let page = state.svc.events_feed(p.ctx.org.id, &p.acting_scopes(), feed).await?;
    let next = if page.has_more { page.items.last().map(|e| e.sequence.to_string()) } else { None };
    Ok(HttpResponse::Ok().json_body(out::EventPage::new(page.items.iter().map(out::EventOut::from).collect(), next)))
}
