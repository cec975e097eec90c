//! Authentication and rate limiting of `/api/v1` (spec, Authentication; D7, D8), as middleware so
//! that every response carries the rate-limit headers, errors included.

use crate::error::ApiError;
use crate::state::ApiState;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::HeaderValue;
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse, ResponseError};
use std::net::IpAddr;
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::ports::{RateDecision, RateLimiter, RateSubject, Store};
use talent_domain::usecases::access::{Principal, Requirement};
use talent_domain::values::Scope;

fn set_rate_headers(headers: &mut actix_web::http::header::HeaderMap, d: &RateDecision) {
    use crate::names::{X_RATELIMIT_LIMIT, X_RATELIMIT_REMAINING, X_RATELIMIT_RESET};
    // Numbers are header values as they are (`HeaderValue: From<u64>`): no string, no check.
    headers.insert(X_RATELIMIT_LIMIT.clone(), HeaderValue::from(d.limit));
    headers.insert(X_RATELIMIT_REMAINING.clone(), HeaderValue::from(d.remaining));
    headers.insert(X_RATELIMIT_RESET.clone(), HeaderValue::from(d.reset_unix));
    if let Some(r) = d.retry_after_secs {
        headers.insert(actix_web::http::header::RETRY_AFTER, HeaderValue::from(r.max(1)));
    }
}

fn rate_limited(d: &RateDecision) -> ApiError {
    ApiError(
        ClientError::new(Code::RateLimited, "Rate limit exceeded; retry after the number of seconds in Retry-After")
            .with_details(serde_json::json!({"limit": d.limit, "retryAfter": d.retry_after_secs.unwrap_or(1).max(1)})),
    )
}

/// 429 `rate_limited` for the refusal `d` of a budget of `subject` (`key`: the organization's or
/// the key's; `ip`: the address's budget of failed requests), with its rate-limit headers and
/// `Retry-After`; counted in `talent_rate_limited_total{subject}` (issue 17).
pub(crate) fn refused(d: &RateDecision, subject: &'static str) -> HttpResponse {
    metrics::counter!("talent_rate_limited_total", "subject" => subject).increment(1);
    let mut resp = rate_limited(d).error_response();
    set_rate_headers(resp.headers_mut(), d);
    resp
}

/// The answer to a failed authentication from `ip` (D8): one request is taken from the
/// address's budget; `err` (401) while the budget lasts, 429 once it is spent, with the
/// address's rate-limit headers either way (none when limiting is off). For `/api/v1`; the admin
/// API spends a budget of its own ([`failed_admin_authentication`], D53).
pub(crate) async fn failed_authentication(limiter: &dyn RateLimiter, ip: IpAddr, err: ApiError) -> HttpResponse {
    metrics::counter!("talent_auth_failures_total", "reason" => err.0.code.as_str()).increment(1);
    spend_failure(limiter, RateSubject::Ip(ip), "ip", err.error_response()).await
}

/// [`failed_authentication`] for a missing or wrong admin token (D53): takes from the address's
/// budget of failed admin tokens ([`RateSubject::AdminIp`]), never from its budget of failed API
/// keys.
pub(crate) async fn failed_admin_authentication(limiter: &dyn RateLimiter, ip: IpAddr, err: ApiError) -> HttpResponse {
    metrics::counter!("talent_auth_failures_total", "reason" => err.0.code.as_str()).increment(1);
    spend_failure(limiter, RateSubject::AdminIp(ip), "admin", err.error_response()).await
}

/// Takes one request from the per-address budget `subject` for the failure answered `resp`:
/// `resp` with the budget's rate-limit headers while it lasts, 429 `rate_limited` (counted under
/// `label`) once it is spent; `resp` as it is when limiting is off (D8, D53).
pub(crate) async fn spend_failure(
    limiter: &dyn RateLimiter,
    subject: RateSubject<'_>,
    label: &'static str,
    mut resp: HttpResponse,
) -> HttpResponse {
    match limiter.check(subject).await {
        Some(d) if !d.allowed => refused(&d, label),
        Some(d) => {
            set_rate_headers(resp.headers_mut(), &d);
            resp
        }
        None => resp,
    }
}

/// The middleware of the API's scope: authenticate the key, take one request from its budgets,
/// put the [`Principal`] into the request's extensions, and add `X-RateLimit-*` to the response.
/// A failed authentication takes from the client IP's budget (D8) and is answered 401, or 429
/// once that budget is spent. Every answer to a deprecated operation, these errors included,
/// carries its `Deprecation`, `Sunset` and `Link` (D61, [`crate::deprecation::annotate`]).
pub async fn api_middleware<S: Store>(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let mut res = authenticated::<S>(req, next).await?;
    // From the answer's request: nothing is held across the await (this future is allocated
    // per request, and one of 1 KiB or more costs glibc's allocator a consolidation).
    crate::deprecation::annotate(&mut res);
    Ok(res)
}

/// [`api_middleware`] but the deprecation notice.
async fn authenticated<S: Store>(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<ApiState<S>>>().cloned() else {
        let e = ApiError(ClientError::internal());
        return Ok(req.into_response(e.error_response()).map_into_right_body());
    };
    // The TCP peer, or behind a trusted proxy the client it names (T98).
    let ip = state.trusted_proxies.client_ip(req.peer_addr(), req.headers());
    // An address over its budget of failed authentications is refused before its key is looked
    // up (T88): the answer tells nothing about the key and costs no query.
    if let Some(d) = state.limiter.blocked(ip).await {
        return Ok(req.into_response(refused(&d, "ip")).map_into_right_body());
    }
    let header =
        req.headers().get(actix_web::http::header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("\u{0}invalid"));
    let auth = state.svc.authenticate(header).await;
    let principal = match auth {
        Ok(p) => p,
        Err(UseCaseError::Client(e)) => {
            // Boxed: unboxed, this rare branch's future would enlarge every request's.
            let resp = Box::pin(failed_authentication(&*state.limiter, ip, ApiError(e))).await;
            return Ok(req.into_response(resp).map_into_right_body());
        }
        Err(e @ (UseCaseError::Store(_) | UseCaseError::Internal(_))) => {
            let resp = ApiError::from(e).error_response();
            return Ok(req.into_response(resp).map_into_right_body());
        }
    };
    let plan = principal.budget_plan(&state.svc.plans);
    let decision = state
        .limiter
        .check(RateSubject::Key { org: principal.ctx.org.id, key: principal.ctx.key.id, plan: &plan })
        .await;
    if let Some(d) = &decision {
        if !d.allowed {
            return Ok(req.into_response(refused(d, "key")).map_into_right_body());
        }
    }
    req.extensions_mut().insert(principal);
    let mut res = next.call(req).await?;
    if let Some(d) = &decision {
        set_rate_headers(res.headers_mut(), d);
    }
    Ok(res.map_into_left_body())
}

/// The authenticated principal of a request, authorized for `scope` (or none) and `write`. A
/// handler calls it once: it takes the principal out of the request's extensions, where
/// [`api_middleware`] put it (T323: a copy cost the plan's allocation and the key's shared
/// reference count twice per request). Errors: 403 `plan_upgrade_required`, `insufficient_scope`,
/// `subscription_inactive`; 500 `internal_error` when there is none (a route outside the API's
/// scope, or a second call).
pub fn authorize(req: &HttpRequest, scope: Option<Scope>, write: bool) -> Result<Principal, ApiError> {
    let p = req.extensions_mut().remove::<Principal>().ok_or_else(|| ApiError(ClientError::internal()))?;
    p.authorize(Requirement { scope, write })?;
    Ok(p)
}

/// The client address's budget of failed requests, for the answers outside the APIs' own
/// middleware (D8; issue 16): app data of the public listener (as `web::Data`), read by
/// [`crate::observe::observe`] on a 4xx answer only. A listener without it (the admin
/// listener, which has the admin token's checks, T89) spends nothing.
pub struct FailureBudget {
    /// The rate limiter of [`ApiState::limiter`].
    pub limiter: std::sync::Arc<dyn RateLimiter>,
    /// The reverse proxies of [`ApiState::trusted_proxies`].
    pub trusted_proxies: crate::client_ip::TrustedProxies,
}

/// Whether the answer `res` spends from the address's budget ([`spend_client_error`]): a 4xx
/// that no budget of its own answered. Not the answers that matter for speed (2xx, and
/// `/api/v1`'s own, which carry their rate-limit headers already).
pub(crate) fn spends_client_error<B>(res: &ServiceResponse<B>) -> bool {
    let path = res.request().path();
    res.status().is_client_error()
        && !res.headers().contains_key(&crate::names::X_RATELIMIT_LIMIT)
        && !path.starts_with("/admin/")
        // The dashboard (issue 18) counts its failed sign-ins itself; its other 4xx pages (a
        // form's validation, a member's refusal) are not failed authentications.
        && !path.starts_with("/dashboard")
        // The ATSs' partner routes count their failed authentications themselves; their other
        // 4xx (a refused order, a second start) are answers of their protocols.
        && !path.starts_with("/partners/")
}

/// Every 4xx answer outside the APIs' own middleware (an unknown path, a method a resource does
/// not have, an invitation page that is gone) carries the rate-limit headers of the client
/// address's budget, and takes one request from it as a failed request does (D8; issue 16): 429
/// `rate_limited` once that budget is spent. `/api/v1` answers carry its own headers already;
/// `/admin/v1` has the admin token's checks (T89). Called by [`crate::observe::observe`] on the
/// answers [`spends_client_error`] picks: until T321 a middleware of its own, a boxed future and
/// a layer of polls per request.
pub(crate) async fn spend_client_error<B>(res: ServiceResponse<B>) -> ServiceResponse<EitherBody<B>> {
    let Some(budget) = res.request().app_data::<web::Data<FailureBudget>>().cloned() else {
        return res.map_into_left_body();
    };
    let ip = budget.trusted_proxies.client_ip(res.request().peer_addr(), res.request().headers());
    match budget.limiter.check(RateSubject::Ip(ip)).await {
        Some(d) if !d.allowed => {
            let (req, _) = res.into_parts();
            ServiceResponse::new(req, refused(&d, "ip")).map_into_right_body()
        }
        Some(d) => {
            let mut res = res;
            set_rate_headers(res.headers_mut(), &d);
            res.map_into_left_body()
        }
        None => res.map_into_left_body(),
    }
}
