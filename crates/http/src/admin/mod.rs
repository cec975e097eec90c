//! The admin API `/admin/v1` (D39): the dashboard's back end and the sandbox. Authenticated by
//! `Authorization: Bearer {TALENT_ADMIN_TOKEN}` (constant-time); answers 404 for every path when
//! the token is unset. Same error envelope as the public API. Handlers take their ids and bodies
//! as extractors (`crate::extract`, T178) and answer the typed bodies of [`out`] (T179):
//! organizations, users and keys in [`orgs`]; persons, teams and profiles in [`persons`]; the
//! sandbox's shortcuts in [`sandbox`]; data-subject requests in [`privacy`]; ATS connections in
//! [`connections`].

pub mod connections;
pub mod orgs;
pub mod out;
pub mod persons;
pub mod privacy;
pub mod sandbox;

pub use connections::*;
pub use orgs::*;
pub use persons::*;
pub use privacy::*;
pub use sandbox::*;

use crate::body::{page_limit, parse_params};
use crate::error::ApiError;
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use talent_domain::errors::{ClientError, Code};
use talent_domain::ports::Store;
use talent_domain::values::FieldErrors;

/// Checks the admin token; 404 when the admin API is disabled, 401 `unauthorized` /
/// `invalid_token` otherwise. A failed check takes from the client IP's budget of failed admin
/// tokens (D53), a budget of its own: failed API keys from the address neither spend it nor stop
/// the right admin token. It is 429 `rate_limited` once spent, and an address over it is refused
/// before its token is compared, the right one too, until its next attempt would conform
/// (T89, T150).
pub async fn admin_middleware<S: Store>(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let state = req.app_data::<web::Data<ApiState<S>>>().cloned();
    let ip = match &state {
        Some(s) => s.trusted_proxies.client_ip(req.peer_addr(), req.headers()),
        None => std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED),
    };
    if let Some(s) = state.as_ref().filter(|s| s.admin_enabled()) {
        // D53: the admin budget only; the address's failed API keys do not matter here.
        if let Some(d) = s.limiter.admin_blocked(ip).await {
            return Ok(req.into_response(crate::auth::refused(&d, "admin")).map_into_right_body());
        }
    }
    let err = match &state {
        None => Some(ApiError(ClientError::internal())),
        Some(s) if !s.admin_enabled() => Some(ApiError::new(Code::NotFound, "Not found")),
        Some(s) => match req.headers().get(actix_web::http::header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("")) {
            None => Some(ApiError::new(
                Code::Unauthorized,
                "Missing Authorization header; send 'Authorization: Bearer <ADMIN_TOKEN>'",
            )),
            Some(h) => match h.split_once(' ') {
                Some((scheme, t)) if scheme.eq_ignore_ascii_case("bearer") && s.admin_token_matches(t.trim()) => None,
                _ => Some(ApiError::new(Code::InvalidToken, "The admin token is invalid")),
            },
        },
    };
    if let Some(e) = err {
        let resp = match (&state, e.0.code) {
            (Some(s), Code::Unauthorized | Code::InvalidToken) => {
                crate::auth::failed_admin_authentication(&*s.limiter, ip, e).await
            }
            _ => e.error_response(),
        };
        return Ok(req.into_response(resp).map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// `limit` and `cursor` of an admin list (D36: keyset, newest first, the public API's rules):
/// (position after which the page starts, page size, the cursor's filter key).
pub(super) fn admin_page<S: Store>(
    state: &ApiState<S>,
    req: &HttpRequest,
    resource: &str,
) -> Result<(Option<uuid::Uuid>, u32, String), ApiError> {
    let (params, pairs) = parse_params::<crate::results::PageParams>(req)?;
    let mut errs = FieldErrors::default();
    let limit = page_limit(params.limit.as_deref(), &mut errs);
    errs.into_result()?;
    let filters = crate::cursor::filter_key(resource, &pairs);
    let before = state.cursors.position(params.cursor.as_deref(), &filters)?;
    Ok((before, limit, filters))
}

/// 200 `{data, pagination: {hasMore, nextCursor}}` of an admin list; `next` is the next page's
/// cursor.
pub(super) fn admin_list<T: serde::Serialize>(data: Vec<T>, next: Option<String>) -> HttpResponse {
    HttpResponse::Ok().json_body(out::AdminListOut::new(data, next))
}
