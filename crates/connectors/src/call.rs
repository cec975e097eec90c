//! Authenticating an ATS's call (D64): the connection's key as the user name of HTTP Basic with an
//! empty password (Greenhouse, Ashby), or `Authorization: Bearer <key>` (Workable); either is
//! accepted on every route. A key of another connection of the organization, or a plain API key,
//! speaks for the organization's enabled connection to the ATS. The API's budgets apply: an
//! address over its budget of failed authentications is refused before its key is looked up, a
//! failure spends from it, and a good key spends from the key's and organization's budgets.

use crate::{client_error, Partners};
use actix_web::HttpRequest;
use base64::Engine;
use talent_domain::connector::{Ats, Connection};
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::ports::{RateDecision, RateSubject, Store};
use talent_domain::usecases::access::{Principal, Requirement};
use talent_domain::values::Scope;

/// An authenticated call of an ATS: who, for which connection.
#[derive(Clone, Debug)]
pub struct Call {
    /// The key's principal (organization, plan).
    pub principal: Principal,
    /// The connection the call speaks for (shared with the store's cache of them).
    pub connection: std::sync::Arc<Connection>,
}

/// Why a call was refused: the client error, and whether to ask for HTTP Basic
/// (`WWW-Authenticate: Basic realm="talent"`, D64) on a 401.
#[derive(Debug)]
pub struct Refused {
    /// The error.
    pub error: ClientError,
    /// Add `WWW-Authenticate: Basic realm="talent"`.
    pub basic: bool,
}

/// The `Authorization` header as the domain reads it (`Bearer <key>`): a Basic header's user name
/// (the key; the password must be empty) becomes `Bearer <user>`. Anything else is passed as it
/// is and refused by authentication as a malformed key. `None` without a header.
pub fn bearer_of(header: Option<&str>) -> Option<String> {
    let h = header?;
    let Some((scheme, value)) = h.split_once(' ') else { return Some(h.to_string()) };
    if !scheme.eq_ignore_ascii_case("basic") {
        return Some(h.to_string());
    }
    let decoded = base64::engine::general_purpose::STANDARD.decode(value.trim()).ok();
    let text = decoded.and_then(|d| String::from_utf8(d).ok());
    match text.as_deref().and_then(|t| t.split_once(':')) {
        Some((user, "")) if !user.is_empty() => Some(format!("Bearer {user}")),
        _ => Some("Bearer \u{0}malformed".to_string()),
    }
}

pub(crate) fn rate_limited(d: &RateDecision) -> ClientError {
    let secs = d.retry_after_secs.unwrap_or(1).max(1);
    ClientError {
        retry_after: Some(u32::try_from(secs).unwrap_or(u32::MAX)),
        ..ClientError::new(Code::RateLimited, "Rate limit exceeded; retry after the number of seconds in Retry-After")
            .with_details(serde_json::json!({"limit": d.limit, "retryAfter": secs}))
    }
}

/// Authenticates `req` as a call of `ats` needing `scope` (a write when `write`): the
/// [`Call`], or the refusal (401 `unauthorized`/`invalid_token`/`key_revoked`/`key_expired`, 429
/// `rate_limited`, 403 `insufficient_scope`/`subscription_inactive`/`plan_upgrade_required`, 401
/// when the organization has no enabled connection to `ats`). `basic` routes ask for HTTP Basic.
pub async fn authenticate<S: Store>(
    p: &Partners<S>,
    req: &HttpRequest,
    ats: Ats,
    scope: Scope,
    write: bool,
    basic: bool,
) -> Result<Call, Refused> {
    let refuse = |error: ClientError| Refused { error, basic };
    let ip = (p.client_ip)(req);
    if let Some(d) = p.limiter.blocked(ip).await {
        return Err(refuse(rate_limited(&d)));
    }
    let header = req.headers().get("authorization").map(|v| v.to_str().unwrap_or("\u{0}invalid"));
    authenticate_key(p, ip, bearer_of(header), ats, scope, write, basic).await
}

/// [`authenticate`] for a key found otherwise than in the `Authorization` header (Kombo's
/// webhook names its connection by a signature, D82), from address `ip`, once the address's
/// budget was checked.
pub async fn authenticate_key<S: Store>(
    p: &Partners<S>,
    ip: std::net::IpAddr,
    bearer: Option<String>,
    ats: Ats,
    scope: Scope,
    write: bool,
    basic: bool,
) -> Result<Call, Refused> {
    let refuse = |error: ClientError| Refused { error, basic };
    let principal = match p.svc.authenticate(bearer.as_deref()).await {
        Ok(principal) => principal,
        Err(UseCaseError::Client(e)) => return Err(refuse(failed(p, ip, e).await)),
        Err(e) => return Err(refuse(client_error(e))),
    };
    let plan = principal.budget_plan(&p.svc.plans);
    let subject = RateSubject::Key { org: principal.ctx.org.id, key: principal.ctx.key.id, plan: &plan };
    if let Some(d) = p.limiter.check(subject).await.filter(|d| !d.allowed) {
        return Err(refuse(rate_limited(&d)));
    }
    principal.authorize(Requirement { scope: Some(scope), write }).map_err(refuse)?;
    let connection = match p.svc.connection_for_call(principal.ctx.org.id, principal.ctx.key.id, ats).await {
        Ok(c) => c,
        Err(UseCaseError::Client(e)) => return Err(refuse(failed(p, ip, e).await)),
        Err(e) => return Err(refuse(client_error(e))),
    };
    Ok(Call { principal, connection })
}

/// A failed authentication from `ip` spends one request of the address's budget (D8): `e` while
/// it lasts, 429 once it is spent.
pub(crate) async fn failed(p: &Partners<impl Store>, ip: std::net::IpAddr, e: ClientError) -> ClientError {
    match p.limiter.check(RateSubject::Ip(ip)).await {
        Some(d) if !d.allowed => rate_limited(&d),
        _ => e,
    }
}
