//! Invitations (D17-D21): the public endpoints and the person-facing pages `GET`/`POST /i/{token}`.

use crate::api::limits;
use crate::auth::authorize;
use crate::body::{page_limit, parse_json, parse_params, validation_fields};
use crate::error::ApiError;
use crate::extract::{Body, PathId};
use crate::idempotency::{idempotent, Reply};
use crate::openapi::schemas;
use crate::out;
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use talent_domain::consent::Refusal;
use talent_domain::errors::{Code, UseCaseError};
use talent_domain::ids::{InvitationId, PersonId};
use talent_domain::invitation::{InvitationStatus, Variant};
use talent_domain::ports::{InvitationQuery, RateSubject, Store};
use talent_domain::usecases::invitations::{NewInvitation, PageAnswer};
use talent_domain::values::*;
use utoipa::{IntoParams, ToSchema};
use validator::Validate;

/// Query parameters of `GET /api/v1/invitations` (D17), as parsed ([`parse_params`]).
#[derive(Deserialize, IntoParams, Debug)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct InvitationListParams {
    #[param(value_type = Option<talent_domain::invitation::InvitationStatus>)]
    status: Option<String>,
    #[param(value_type = Option<talent_domain::invitation::Variant>)]
    variant: Option<String>,
    /// Exact match (case-insensitive, D9).
    #[param(value_type = Option<schemas::EmailAddress>)]
    email: Option<String>,
    /// Exact match.
    #[param(value_type = Option<schemas::OneLine>)]
    external_id: Option<String>,
    #[param(value_type = Option<uuid::Uuid>)]
    person_id: Option<String>,
    /// Only invitations changed after this moment.
    #[param(value_type = Option<time::OffsetDateTime>)]
    updated_after: Option<String>,
    /// `pagination.nextCursor` of the previous page, with the same filters.
    #[param(min_length = 1)]
    cursor: Option<String>,
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100, default = 25)]
    limit: Option<String>,
}

/// The `{id}` path parameter of the invitation endpoints.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct InvitationIdParam {
    /// The invitation's id. A non-UUID is 404 (T13).
    id: uuid::Uuid,
}

/// `POST /invitations` body (D18).
#[derive(Deserialize, Validate, Debug, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = InvitationCreateRequest)]
pub struct InvitationCreateIn {
    #[schema(value_type = schemas::EmailAddress)]
    email: String,
    #[validate(length(min = 1, max = limits::NAME))]
    #[schema(value_type = Option<schemas::Name>)]
    first_name: Option<String>,
    #[validate(length(min = 1, max = limits::NAME))]
    #[schema(value_type = Option<schemas::Name>)]
    last_name: Option<String>,
    #[validate(length(min = 1, max = limits::EXTERNAL_ID))]
    #[schema(value_type = Option<schemas::ExternalId>)]
    external_id: Option<String>,
    /// Applied on acceptance; absent or null: `candidate` plus the employee domain rule (D15).
    #[validate(length(max = limits::LABELS))]
    #[schema(schema_with = schemas::label_list_or_null)]
    labels: Option<Vec<String>>,
    /// Applied on acceptance.
    #[validate(length(max = limits::TAGS))]
    #[schema(value_type = Option<Vec<schemas::Tag>>)]
    tags: Option<Vec<String>>,
    /// A personal message in the email and its reminder; trimmed.
    #[validate(length(min = 1, max = 2000))]
    #[schema(
        min_length = 1,
        max_length = 2000,
        pattern = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$"
    )]
    message: Option<String>,
    /// `true`: Talent emails the invitation; `false`: the client sends `url` itself.
    send_email: bool,
    /// Days until expiry; default 14 (D18).
    #[validate(range(min = 1, max = 90))]
    #[schema(minimum = 1, maximum = 90)]
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    expires_in_days: Option<i64>,
}

impl InvitationCreateIn {
    fn try_into_domain(self) -> Result<NewInvitation, FieldErrors> {
        let mut errs = FieldErrors::default();
        if let Err(e) = self.validate() {
            validation_fields(&e, "", &mut errs);
        }
        let email = errs.take("email", Email::parse(&self.email));
        let first_name = self.first_name.as_ref().and_then(|s| errs.take("firstName", PersonName::parse(s)));
        let last_name = self.last_name.as_ref().and_then(|s| errs.take("lastName", PersonName::parse(s)));
        let external_id = self.external_id.as_ref().and_then(|s| errs.take("externalId", ExternalId::parse(s)));
        let labels = match &self.labels {
            None => None,
            Some(l) => match Labels::parse(l) {
                Ok(v) => Some(v),
                Err(list) => {
                    for (i, m) in list {
                        match i {
                            Some(i) => errs.push(format!("labels[{i}]"), m),
                            None => errs.push("labels", m),
                        }
                    }
                    None
                }
            },
        };
        let tags = self.tags.as_ref().map(|t| {
            t.iter()
                .enumerate()
                .filter_map(|(i, x)| errs.take(&format!("tags[{i}]"), TagName::parse(x)))
                .collect::<Vec<_>>()
        });
        errs.into_result()?;
        let email = email.ok_or_else(FieldErrors::default)?;
        Ok(NewInvitation {
            email,
            first_name,
            last_name,
            external_id,
            labels,
            tags,
            message: self.message.map(|m| m.trim().to_string()).filter(|m| !m.is_empty()),
            send_email: self.send_email,
            expires_in_days: self.expires_in_days.and_then(|d| u32::try_from(d).ok()),
        })
    }
}

/// `POST /api/v1/invitations` (scope `invitations:write`, D18; Idempotency-Key).
#[utoipa::path(post, path = "/api/v1/invitations", tag = "invitations", operation_id = "createInvitation",
    summary = "Create a personal invitation (or return the pending one for this email)",
    description = "Invites a person to take the assessment (`assessment`) or, for a person who already has results elsewhere, to share them (`access_request`). With `sendEmail: true` the service emails the link; otherwise send the returned `url` yourself. When a pending invitation for the email exists, it is returned with 200 instead of a second one.",
    request_body = InvitationCreateIn,
    responses(
        (status = 201, description = "Created; emailed when `sendEmail` is true.", body = out::InvitationOut),
        (status = 200, description = "The email already has a pending invitation: that one (D18).",
            body = out::InvitationOut, headers(("X-Existing-Resource" = String, description = "`true`"))),
        (status = 409, description = "`person_limit_reached` (D6), `idempotency_key_reused`, or `conflict` \
(same Idempotency-Key still running).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["invitations:write"])))]
pub async fn create<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::InvitationsWrite), true)?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    idempotent(&state, &req, org, &body, || async {
        let input: InvitationCreateIn = parse_json(&req, &body)?;
        let cmd = input.try_into_domain()?;
        let (view, created) = state.svc.create_invitation(org, cmd).await?;
        Ok(if created {
            Reply::new(StatusCode::CREATED, &view.out())
        } else {
            Reply { existing_resource: true, ..Reply::new(StatusCode::OK, &view.out()) }
        })
    })
    .await
}

/// `GET /api/v1/invitations/{id}` (scope `invitations:read`).
#[utoipa::path(get, path = "/api/v1/invitations/{id}", tag = "invitations", operation_id = "getInvitation",
    summary = "An invitation",
    description = "One invitation of the organization, with its status as read now and its link.",
    params(InvitationIdParam),
    responses(
        (status = 200, description = "The invitation.", body = out::InvitationOut),
        (status = 404, description = "`not_found`: no such invitation in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["invitations:read"])))]
pub async fn get<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<InvitationId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::InvitationsRead), false)?;
    let PathId(id) = id?;
    Ok(HttpResponse::Ok().json(state.svc.get_invitation(p.ctx.org.id, id).await?.out()))
}

/// `GET /api/v1/invitations` (scope `invitations:read`, D17): newest first, keyset-paginated.
#[utoipa::path(get, path = "/api/v1/invitations", tag = "invitations", operation_id = "listInvitations",
    summary = "List invitations, newest first",
    description = "The organization's invitations, newest first, in pages of `limit` with an opaque cursor. Filters combine; `updatedAfter` lists every invitation changed since, for a sync. `status` is the status as read now: a pending invitation past `expiresAt` reads `expired`.",
    params(InvitationListParams),
    responses(
        (status = 200, description = "A page of invitations.", body = out::InvitationPage),
        (status = 400, description = "`validation_error`: an invalid filter, limit or cursor (D36).",
            body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["invitations:read"])))]
pub async fn list<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::InvitationsRead), false)?;
    let (params, pairs) = parse_params::<InvitationListParams>(&req)?;
    let mut errs = FieldErrors::default();
    let mut q = InvitationQuery { org_id: Some(p.ctx.org.id), ..Default::default() };
    if let Some(v) = params.status.as_deref() {
        q.status = errs.take("status", InvitationStatus::parse(v));
    }
    if let Some(v) = params.variant.as_deref() {
        q.variant = errs.take("variant", Variant::parse(v));
    }
    if let Some(v) = params.email.as_deref() {
        q.email = errs.take("email", Email::parse(v));
    }
    if let Some(v) = params.external_id.as_deref() {
        q.external_id = Some(v.to_string());
    }
    if let Some(v) = params.person_id.as_deref() {
        q.person_id = errs.take("personId", v.parse::<PersonId>().map_err(|_| "must be a UUID".to_string()));
    }
    if let Some(v) = params.updated_after.as_deref() {
        q.updated_after = errs.take(
            "updatedAfter",
            talent_domain::timefmt::parse(v)
                .ok_or_else(|| "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z".to_string()),
        );
    }
    let limit = page_limit(params.limit.as_deref(), &mut errs);
    errs.into_result()?;
    let filters = crate::cursor::filter_key("invitations", &pairs);
    q.before_id = state.cursors.position(params.cursor.as_deref(), &filters)?.map(InvitationId);
    q.limit = limit;
    let page = state.svc.list_invitations(q).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|v| v.invitation.id.0), &filters);
    Ok(HttpResponse::Ok().json(out::InvitationPage::new(page.items.iter().map(|v| v.out()).collect(), next)))
}

/// `POST /invitations/{id}/resend` body (D21).
#[derive(Deserialize, Validate, Debug, Default, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = InvitationResendRequest)]
pub struct ResendIn {
    /// A new expiry, in days from now.
    #[validate(range(min = 1, max = 90))]
    #[schema(minimum = 1, maximum = 90)]
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    expires_in_days: Option<i64>,
}

/// `POST /api/v1/invitations/{id}/resend` (scope `invitations:write`, D21). An empty body is
/// allowed. Email limits (T93): 429 `rate_limited` with `Retry-After` within a minute of the
/// invitation's last email, after 10 of its emails or 20 to its address in 24 hours.
#[utoipa::path(post, path = "/api/v1/invitations/{id}/resend", tag = "invitations", operation_id = "resendInvitation",
    summary = "Send a pending invitation's email again",
    description = "At most one email a minute per invitation, 10 per invitation and 20 per recipient address in \
24 hours (any organization): beyond, 429 `rate_limited` with `Retry-After` and `details.reason` \
(`cooldown`, `invitation_daily_cap`, `address_daily_cap`); nothing is sent or changed.",
    params(InvitationIdParam),
    request_body(content = ResendIn, description = "Optional; an empty body keeps the expiry."),
    responses(
        (status = 200, description = "The invitation; its `emailSentAt` moves once the email has gone out.", body = out::InvitationOut),
        (status = 404, description = "`not_found`: no such invitation in the organization.", body = out::ErrorOut),
        (status = 409, description = "`conflict`: the invitation is not pending (D21); or an Idempotency-Key \
conflict (D38).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["invitations:write"])))]
pub async fn resend<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<InvitationId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::InvitationsWrite), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    idempotent(&state, &req, org, &body, || async {
        let input: ResendIn =
            if body.iter().all(u8::is_ascii_whitespace) { ResendIn::default() } else { parse_json(&req, &body)? };
        if let Err(e) = input.validate() {
            let mut errs = FieldErrors::default();
            validation_fields(&e, "", &mut errs);
            return Err(errs.into());
        }
        let days = input.expires_in_days.and_then(|d| u32::try_from(d).ok());
        let v = state.svc.resend_invitation(org, id, days).await?;
        Ok(Reply::new(StatusCode::OK, &v.out()))
    })
    .await
}

/// `POST /api/v1/invitations/{id}/revoke` (scope `invitations:write`): pending only, else 409.
#[utoipa::path(post, path = "/api/v1/invitations/{id}/revoke", tag = "invitations", operation_id = "revokeInvitation",
    summary = "Revoke a pending invitation",
    description = "Revokes a pending invitation: its link stops working and `invitation.revoked` is emitted. Revoking an invitation that is not pending answers 409 `conflict`.",
    params(InvitationIdParam),
    responses(
        (status = 200, description = "The revoked invitation.", body = out::InvitationOut),
        (status = 404, description = "`not_found`: no such invitation in the organization.", body = out::ErrorOut),
        (status = 409, description = "`conflict`: the invitation is not pending; or an Idempotency-Key \
conflict (D38).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["invitations:write"])))]
pub async fn revoke<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<InvitationId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::InvitationsWrite), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    idempotent(&state, &req, org, &body, || async {
        let v = state.svc.revoke_invitation(org, id).await?;
        Ok(Reply::new(StatusCode::OK, &v.out()))
    })
    .await
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// The security headers of every response under `/i/{token}` (issue 12), pages and errors alike:
/// no scripts, no framing, no sniffing, no referrer (the token is in the URL), nothing cached.
/// The pages' only resource is their inline style sheet; their only form posts to the page itself.
pub fn page_headers() -> actix_web::middleware::DefaultHeaders {
    actix_web::middleware::DefaultHeaders::new()
        .add((
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ))
        .add(("X-Frame-Options", "DENY"))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "no-referrer"))
        .add(("Cache-Control", "no-store"))
}

fn page(status: StatusCode, title: &str, body: &str) -> HttpResponse {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{t}</title><style>body{{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}}\
button{{font-size:1rem;padding:.6rem 1.2rem;background:#1f5fbf;color:#fff;border:0;border-radius:.3rem;cursor:pointer}}\
label{{display:block;margin:1rem 0}}</style></head><body><main><h1>{t}</h1>{body}</main></body></html>",
        t = esc(title)
    );
    // Served under `/i/{token}` only, whose [`page_headers`] add `Cache-Control` and the rest.
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(html)
}

fn status_page(st: InvitationStatus, company: &str) -> HttpResponse {
    match st {
        InvitationStatus::Accepted => page(
            StatusCode::GONE,
            "Invitation already used",
            &format!("<p>This invitation from {} has already been accepted. Nothing more to do.</p>", esc(company)),
        ),
        InvitationStatus::Expired => page(
            StatusCode::GONE,
            "Invitation expired",
            &format!(
                "<p>This invitation from {} has expired. Please ask {} for a new one.</p>",
                esc(company),
                esc(company)
            ),
        ),
        InvitationStatus::Revoked => page(
            StatusCode::GONE,
            "Invitation withdrawn",
            &format!("<p>{} has withdrawn this invitation.</p>", esc(company)),
        ),
        InvitationStatus::Pending => page(StatusCode::OK, "Invitation", ""),
    }
}

fn not_found_page() -> HttpResponse {
    page(
        StatusCode::NOT_FOUND,
        "Invitation not found",
        "<p>This link is not valid. Please check that you copied the whole link.</p>",
    )
}

fn error_page(e: UseCaseError) -> HttpResponse {
    match e.code() {
        Some(Code::NotFound) => not_found_page(),
        Some(Code::PersonDeactivated) => page(
            StatusCode::CONFLICT,
            "Cannot join",
            "<p>Your participation was deactivated by the organization. Please contact them.</p>",
        ),
        Some(Code::PersonLimitReached) => page(
            StatusCode::CONFLICT,
            "Cannot join right now",
            "<p>The organization cannot accept new people at the moment. Please contact them.</p>",
        ),
        Some(Code::Conflict) => {
            page(StatusCode::GONE, "Invitation no longer valid", "<p>This invitation can no longer be accepted.</p>")
        }
        _ => {
            tracing::error!(error = %e, "invitation page failed");
            page(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "<p>Please try again in a minute.</p>")
        }
    }
}

/// 429 `rate_limited` (the envelope and the address's rate-limit headers, as every refusal of
/// the budget) when the client address is over its budget of failed requests (D8, D53): the page
/// then looks nothing up, so a guess of a token or a code from that address is never checked.
async fn refused_when_blocked<S: Store>(state: &ApiState<S>, req: &HttpRequest) -> Option<HttpResponse> {
    let ip = state.trusted_proxies.client_ip(req.peer_addr(), req.headers());
    let d = state.limiter.blocked(ip).await?;
    Some(crate::auth::refused(&d, "ip"))
}

/// `GET /i/{token}` (D20): the person-facing page. An address over its budget of failed
/// requests is answered 429 before the token is looked up (D8, D53).
pub async fn show_page<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    token: web::Path<String>,
) -> HttpResponse {
    if let Some(r) = refused_when_blocked(&state, &req).await {
        return r;
    }
    if token.len() > 200 {
        return not_found_page();
    }
    let view = match state.svc.invitation_page(&token).await {
        Ok(v) => v,
        Err(e) => return error_page(e),
    };
    if view.status != InvitationStatus::Pending {
        return status_page(view.status, &view.company_name);
    }
    let company = esc(&view.company_name);
    let inv = &view.invitation;
    let message = inv.message.as_ref().map(|m| format!("<blockquote>{}</blockquote>", esc(m))).unwrap_or_default();
    let body = match inv.variant {
        Variant::Assessment => format!(
            "<p>{company} invites you to take an assessment of what motivates you at work.</p>{message}\
<p>Accepting adds you to {company}'s talent pool with this email address ({email}). You can withdraw later.</p>\
<form method=\"post\"><button type=\"submit\">Accept the invitation</button></form>",
            email = esc(inv.email.as_str())
        ),
        Variant::AccessRequest => format!(
            "<p>{company} asks you to join its talent pool and to share the assessment profile you already have.</p>{message}\
<form method=\"post\"><label><input type=\"checkbox\" name=\"share\" value=\"true\"> \
Yes, {company} may see the results of assessments I took before joining.</label>\
<p>If you leave this unticked, {company} sees only assessments you take from now on. \
If you tick it, we first send a code to {email} to confirm that the answer is yours.</p>\
<button type=\"submit\">Accept</button></form>",
            email = esc(inv.email.as_str())
        ),
    };
    page(StatusCode::OK, &format!("Invitation from {}", view.company_name), &body)
}

/// The form that asks for the one-time code (D43), with a second form that sends a new one.
fn code_page(company: &str, share: bool, note: &str) -> HttpResponse {
    let keep = if share { "<input type=\"hidden\" name=\"share\" value=\"true\">" } else { "" };
    page(
        StatusCode::OK,
        "Confirm it is you",
        &format!(
            "{note}<form method=\"post\">{keep}<label>Code from the email \
<input name=\"code\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"7\" required></label>\
<button type=\"submit\">Confirm</button></form>\
<p>Only you can answer {company} with your consent: the code proves that you read this email address. \
The code is valid for 10 minutes.</p>\
<form method=\"post\">{keep}<button type=\"submit\">Send a new code</button></form>",
            company = esc(company),
        ),
    )
}

/// `POST /i/{token}` (D20, D43): accepts, or asks for the one-time code. Form fields: `share=true`
/// gives consent on an `access_request`; `code` is the code from the email. Whoever posts, with or
/// without an API key, the answer is the same: consent and rejoining need the code.
///
/// A code entry that fails (wrong, no longer valid, not six digits) takes one request from the
/// client address's budget of failed requests, the one a failed API key spends (D8, D53): the
/// page (422) carries that budget's rate-limit headers, and once it is spent the answer is 429
/// `rate_limited`; while the address is over it, every post is 429 before the token or the code
/// is looked up, the right code too.
pub async fn accept_page<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    if let Some(r) = refused_when_blocked(&state, &req).await {
        return r;
    }
    if token.len() > 200 {
        return not_found_page();
    }
    let form = web::Query::<Vec<(String, String)>>::from_query(std::str::from_utf8(&body).unwrap_or(""))
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let share = form.iter().any(|(k, v)| k == "share" && (v == "true" || v == "on" || v == "1"));
    let code = form.iter().find(|(k, _)| k == "code").map(|(_, v)| v.as_str());
    let company = || async {
        match state.svc.invitation_page(&token).await {
            Ok(v) => v.company_name,
            Err(_) => String::new(),
        }
    };
    match state.svc.respond_by_token(&token, share, code).await {
        Ok(PageAnswer::Accepted(accepted)) => page(
            StatusCode::OK,
            "Welcome",
            &format!(
                "<p>You accepted the invitation. Your email address is {}. You can close this page.</p>",
                esc(accepted.0.invitation.email.as_str())
            ),
        ),
        Ok(PageAnswer::CodeSent(to)) => code_page(
            &company().await,
            share,
            &format!("<p>We sent a 6-digit code to {}. Enter it here to confirm.</p>", esc(to.as_str())),
        ),
        Ok(PageAnswer::CodeNotSent) => code_page(
            &company().await,
            share,
            "<p>We could not send the code just now. Please ask for a new code in a minute.</p>",
        ),
        Ok(PageAnswer::Refused(r)) => {
            let note = match r {
                Refusal::TooManyCodes => {
                    "<p>Too many codes were sent to this email address. Please use the last one, or try again in an hour.</p>"
                        .to_string()
                }
                Refusal::NoLiveCode => {
                    "<p>This code is no longer valid (it expired, was used, or was entered wrongly too often). Please ask for a new code.</p>"
                        .to_string()
                }
                Refusal::WrongCode { tries_left } => {
                    format!("<p>That is not the code. {tries_left} more tries are possible with this code.</p>")
                }
                Refusal::Malformed => "<p>The code has 6 digits. Please enter it again.</p>".to_string(),
            };
            let mut res = code_page(&company().await, share, &note);
            if matches!(r, Refusal::TooManyCodes) {
                *res.status_mut() = StatusCode::TOO_MANY_REQUESTS;
                res
            } else {
                // A failed code entry (D53): the address's budget of failed requests.
                *res.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
                let ip = state.trusted_proxies.client_ip(req.peer_addr(), req.headers());
                crate::auth::spend_failure(&*state.limiter, RateSubject::Ip(ip), "ip", res).await
            }
        }
        Err(e) => {
            if e.code() == Some(Code::Conflict) {
                if let Ok(v) = state.svc.invitation_page(&token).await {
                    return status_page(v.status, &v.company_name);
                }
            }
            error_page(e)
        }
    }
}
