//! Invitations (D17-D21): the public endpoints and the person-facing pages `GET`/`POST /i/{token}`.

use crate::auth::authorize;
use crate::body::{check, page_limit, parse_json, parse_params};
use crate::error::ApiError;
use crate::extract::{Body, PathId};
use crate::idempotency::{keyed, Reply};
use crate::openapi::schemas;
use crate::out;
use crate::out::JsonBody as _;
use crate::person_in::{limits, parse_person_fields_of, PersonFields};
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use talent_domain::ids::{InvitationId, PersonId};
use talent_domain::invitation::{InvitationStatus, Variant};
use talent_domain::ports::{InvitationQuery, Store};
use talent_domain::usecases::invitations::{InvitationView, NewInvitation};
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
    /// The language of the emails, pages and report (BCP 47); default: on the pages the
    /// person's browser language, else the organization's `locale`.
    #[schema(value_type = Option<schemas::LocaleTag>)]
    locale: Option<String>,
    /// The IANA time zone of the dates the person reads; default: the organization's `timeZone`.
    #[schema(value_type = Option<schemas::TimeZoneName>)]
    time_zone: Option<String>,
    /// What the person is granted for the assessment; never part of scoring.
    accommodations: Option<crate::candidate::AccommodationsIn>,
    /// Where the person goes after accepting: an https URL on one of the organization's redirect
    /// hosts; default: a thank-you page in the person's language.
    #[schema(value_type = Option<schemas::RedirectUrl>)]
    redirect_url: Option<String>,
}

impl InvitationCreateIn {
    fn try_into_domain(self) -> Result<NewInvitation, FieldErrors> {
        let mut errs = FieldErrors::default();
        check(&self, &mut errs);
        let PersonFields { email, first_name, last_name, external_id, labels, tags } =
            parse_person_fields_of!(self, &mut errs);
        let candidate = crate::candidate::parse(
            "",
            self.locale.as_deref(),
            self.time_zone.as_deref(),
            self.accommodations.as_ref(),
            self.redirect_url.as_deref(),
            &mut errs,
        );
        errs.into_result()?;
        let email = email.ok_or_else(FieldErrors::default)?;
        Ok(NewInvitation {
            candidate,
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
    let answer = |(view, created): &(InvitationView, bool)| {
        if *created {
            Reply::new(StatusCode::CREATED, &view.out())
        } else {
            Reply { existing_resource: true, ..Reply::new(StatusCode::OK, &view.out()) }
        }
    };
    keyed(&state, &req, org, &body, answer, |claim| async {
        let input: InvitationCreateIn = parse_json(&req, &body)?;
        let cmd = input.try_into_domain()?;
        Ok(state.svc.create_invitation_keyed(org, cmd, claim).await?)
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
    Ok(HttpResponse::Ok().json_body(state.svc.get_invitation(p.ctx.org.id, id).await?.out()))
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
    Ok(HttpResponse::Ok().json_body(out::InvitationPage::new(page.items.iter().map(|v| v.out()).collect(), next)))
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
    let answer = |v: &InvitationView| Reply::new(StatusCode::OK, &v.out());
    keyed(&state, &req, org, &body, answer, |claim| async {
        let input: ResendIn =
            if body.iter().all(u8::is_ascii_whitespace) { ResendIn::default() } else { parse_json(&req, &body)? };
        let mut errs = FieldErrors::default();
        check(&input, &mut errs);
        errs.into_result()?;
        let days = input.expires_in_days.and_then(|d| u32::try_from(d).ok());
        Ok(state.svc.resend_invitation_keyed(org, id, days, claim).await?)
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
    let answer = |v: &InvitationView| Reply::new(StatusCode::OK, &v.out());
    let svc = &state.svc;
    keyed(
        &state,
        &req,
        org,
        &body,
        answer,
        |claim| async move { Ok(svc.revoke_invitation_keyed(org, id, claim).await?) },
    )
    .await
}
