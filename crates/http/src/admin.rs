//! The admin API `/admin/v1` (D39): the dashboard's back end and the sandbox. Authenticated by
//! `Authorization: Bearer {TALENT_ADMIN_TOKEN}` (constant-time); answers 404 for every path when
//! the token is unset. Same error envelope as the public API.

use crate::extract::{Body, JsonIn, PathId, PathIds};
use crate::body::{double_option, page_limit, parse_json, parse_params, validation_fields};
use crate::error::ApiError;
use crate::state::ApiState;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use serde::Deserialize;
use serde_json::json;
use talent_domain::errors::{ClientError, Code};
use talent_domain::ids::InvitationId;
use talent_domain::ids::*;
use talent_domain::model::{ApiKey, ArchiveReason, User};
use talent_domain::ports::Store;
use talent_domain::timefmt::{format, parse};
use talent_domain::usecases::orgs::{parse_company_name, parse_domain, NewOrganization, OrganizationPatch};
use talent_domain::values::*;
use talent_domain::wire::{organization_json, person_json};
use time::OffsetDateTime;
use validator::Validate;

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
        Some(s) => match req.headers().get("authorization").map(|v| v.to_str().unwrap_or("")) {
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

fn parse_time(field: &str, v: &Option<String>, errs: &mut FieldErrors) -> Option<OffsetDateTime> {
    v.as_ref().and_then(|s| errs.take(field, parse(s).ok_or_else(|| "must be an ISO 8601 date-time".to_string())))
}

fn parse_domains(v: &[String], errs: &mut FieldErrors) -> Vec<String> {
    let mut out = Vec::new();
    for (i, d) in v.iter().enumerate() {
        if let Some(d) = errs.take(&format!("employeeDomains[{i}]"), parse_domain(d)) {
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

/// `POST /admin/v1/organizations` body.
#[derive(Deserialize, Validate, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OrgIn {
    company_name: String,
    email: String,
    plan: String,
    subscription_status: Option<String>,
    trial_ends_at: Option<String>,
    current_period_end: Option<String>,
    #[validate(length(max = 100))]
    employee_domains: Option<Vec<String>>,
}

/// `POST /admin/v1/organizations` → 201 Organization.
pub async fn create_org<S: Store>(
    state: web::Data<ApiState<S>>,
    JsonIn(i): JsonIn<OrgIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    if let Err(e) = i.validate() {
        validation_fields(&e, "", &mut errs);
    }
    let company_name = errs.take("companyName", parse_company_name(&i.company_name));
    let email = errs.take("email", Email::parse(&i.email));
    let status =
        i.subscription_status.as_ref().and_then(|s| errs.take("subscriptionStatus", SubscriptionStatus::parse(s)));
    let trial = parse_time("trialEndsAt", &i.trial_ends_at, &mut errs);
    let period = parse_time("currentPeriodEnd", &i.current_period_end, &mut errs);
    let domains = parse_domains(i.employee_domains.as_deref().unwrap_or(&[]), &mut errs);
    errs.into_result()?;
    let (Some(company_name), Some(email)) = (company_name, email) else {
        return Err(ApiError(ClientError::internal()));
    };
    let n = NewOrganization {
        company_name,
        email,
        plan: i.plan,
        subscription_status: status,
        trial_ends_at: trial,
        current_period_end: period,
        employee_domains: domains,
    };
    let (org, usage) = state.svc.create_organization(n).await?;
    Ok(HttpResponse::Created().json(admin_org_json(&org, &usage)))
}

/// The admin API's Organization: the public object (spec, Organization) plus
/// `employeeDomains` (D15), which an operator sets and must be able to read back (issue 16).
fn admin_org_json(org: &talent_domain::model::Organization, usage: &talent_domain::model::Usage) -> serde_json::Value {
    let mut v = organization_json(org, usage);
    if let Some(o) = v.as_object_mut() {
        o.insert("employeeDomains".into(), json!(org.employee_domains));
    }
    v
}

/// `limit` and `cursor` of an admin list (D36: keyset, newest first, the public API's rules):
/// (position after which the page starts, page size, the cursor's filter key).
fn admin_page<S: Store>(
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

/// `{data, pagination: {hasMore, nextCursor}}` of an admin list.
fn admin_list(data: Vec<serde_json::Value>, next: Option<String>) -> HttpResponse {
    HttpResponse::Ok().json(json!({"data": data, "pagination": {"hasMore": next.is_some(), "nextCursor": next}}))
}

/// `GET /admin/v1/organizations`: every organization with `employeeDomains`, newest first,
/// paginated (`limit`, `cursor`; issue 16).
pub async fn list_orgs<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let (before, limit, filters) = admin_page(&state, &req, "admin/organizations")?;
    let page = state.svc.list_organizations(before.map(OrgId), limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|(o, _)| o.id.0), &filters);
    Ok(admin_list(page.items.iter().map(|(o, u)| admin_org_json(o, u)).collect(), next))
}

/// `GET /admin/v1/organizations/{id}/users`: the organization's users, newest first, paginated.
pub async fn list_users<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    PathId(org): PathId<OrgId>,
) -> Result<HttpResponse, ApiError> {
    let (before, limit, filters) = admin_page(&state, &req, &format!("admin/organizations/{org}/users"))?;
    let page = state.svc.list_users(org, before.map(UserId), limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|u| u.id.0), &filters);
    Ok(admin_list(page.items.iter().map(user_json).collect(), next))
}

/// `GET /admin/v1/users/{id}`: one user.
pub async fn get_user<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<UserId>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(user_json(&state.svc.get_user(id).await?)))
}

/// `GET /admin/v1/users/{id}/api-keys`: the user's keys, active, expired and revoked, newest
/// first, paginated; never a key's value (only its hash is stored, D41), so a key whose id was not
/// kept can be found here and revoked.
pub async fn list_keys<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    PathId(user): PathId<UserId>,
) -> Result<HttpResponse, ApiError> {
    let (before, limit, filters) = admin_page(&state, &req, &format!("admin/users/{user}/api-keys"))?;
    let page = state.svc.list_api_keys(user, before.map(ApiKeyId), limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|k| k.id.0), &filters);
    Ok(admin_list(page.items.iter().map(key_json).collect(), next))
}

/// `GET /admin/v1/organizations/{id}`.
pub async fn get_org<S: Store>(state: web::Data<ApiState<S>>, PathId(id): PathId<OrgId>) -> Result<HttpResponse, ApiError> {
    let (org, usage) = state.svc.organization(id).await?;
    Ok(HttpResponse::Ok().json(admin_org_json(&org, &usage)))
}

/// `PATCH /admin/v1/organizations/{id}` body: the creation fields, all optional.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OrgPatchIn {
    company_name: Option<String>,
    email: Option<String>,
    plan: Option<String>,
    subscription_status: Option<String>,
    #[serde(default, deserialize_with = "double_option")]
    trial_ends_at: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    current_period_end: Option<Option<String>>,
    employee_domains: Option<Vec<String>>,
}

/// `PATCH /admin/v1/organizations/{id}`.
pub async fn patch_org<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<OrgId>,
    JsonIn(i): JsonIn<OrgPatchIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    let mut p = OrganizationPatch {
        company_name: i.company_name.as_ref().and_then(|s| errs.take("companyName", parse_company_name(s))),
        email: i.email.as_ref().and_then(|s| errs.take("email", Email::parse(s))),
        plan: i.plan,
        subscription_status: i
            .subscription_status
            .as_ref()
            .and_then(|s| errs.take("subscriptionStatus", SubscriptionStatus::parse(s))),
        ..Default::default()
    };
    p.trial_ends_at = i.trial_ends_at.map(|v| parse_time("trialEndsAt", &v, &mut errs));
    p.current_period_end = i.current_period_end.map(|v| parse_time("currentPeriodEnd", &v, &mut errs));
    if let Some(d) = &i.employee_domains {
        if d.len() > 100 {
            errs.push("employeeDomains", "must have at most 100 items");
        }
        p.employee_domains = Some(parse_domains(d, &mut errs));
    }
    errs.into_result()?;
    let (org, usage) = state.svc.patch_organization(id, p).await?;
    Ok(HttpResponse::Ok().json(admin_org_json(&org, &usage)))
}

/// `POST /admin/v1/organizations/{id}/users` body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct UserIn {
    email: String,
    role: String,
}

fn user_json(u: &User) -> serde_json::Value {
    json!({"id": u.id.to_string(), "organizationId": u.org_id.to_string(), "email": u.email.as_str(), "role": u.role.as_str(), "createdAt": format(u.created_at)})
}

/// `POST /admin/v1/organizations/{id}/users` → 201 user.
pub async fn create_user<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(org): PathId<OrgId>,
    JsonIn(i): JsonIn<UserIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    let email = errs.take("email", Email::parse(&i.email));
    let role = errs.take("role", OrgRole::parse(&i.role));
    errs.into_result()?;
    let (Some(email), Some(role)) = (email, role) else { return Err(ApiError(ClientError::internal())) };
    let u = state.svc.create_user(org, email, role).await?;
    Ok(HttpResponse::Created().json(user_json(&u)))
}

/// `POST /admin/v1/users/{id}/api-keys` body.
#[derive(Deserialize, Validate, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KeyIn {
    #[validate(length(min = 1, max = 100), custom(function = "crate::body::one_line"))]
    name: Option<String>,
    scopes: Vec<String>,
    expires_at: Option<String>,
}

fn key_json(k: &ApiKey) -> serde_json::Value {
    json!({
        "id": k.id.to_string(),
        "name": k.name,
        "scopes": k.scopes.to_strings(),
        "expiresAt": k.expires_at.map(format),
        "revokedAt": k.revoked_at.map(format),
        "createdAt": format(k.created_at),
    })
}

/// `POST /admin/v1/users/{id}/api-keys` → 201 `{id, key, scopes, expiresAt, createdAt, name}`; the
/// key value is shown once (D39, D41).
pub async fn create_key<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(user): PathId<UserId>,
    JsonIn(i): JsonIn<KeyIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    if let Err(e) = i.validate() {
        validation_fields(&e, "", &mut errs);
    }
    let scopes = match Scopes::parse(&i.scopes) {
        Ok(s) => Some(s),
        Err(list) => {
            for (idx, m) in list {
                match idx {
                    Some(n) => errs.push(format!("scopes[{n}]"), m),
                    None => errs.push("scopes", m),
                }
            }
            None
        }
    };
    let expires = parse_time("expiresAt", &i.expires_at, &mut errs);
    errs.into_result()?;
    let Some(scopes) = scopes else { return Err(ApiError(ClientError::internal())) };
    let created = state.svc.create_api_key(user, i.name, scopes, expires).await?;
    let mut v = key_json(&created.key);
    if let Some(o) = v.as_object_mut() {
        o.insert("key".into(), json!(created.value));
        o.remove("revokedAt");
    }
    Ok(HttpResponse::Created().json(v))
}

/// `DELETE /admin/v1/api-keys/{id}`: revokes at once; 200 with the key record (no value).
pub async fn revoke_key<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<ApiKeyId>,
) -> Result<HttpResponse, ApiError> {
    let k = state.svc.revoke_api_key(id).await?;
    Ok(HttpResponse::Ok().json(key_json(&k)))
}

/// `POST /admin/v1/persons/{id}/deactivate`: administrator deactivation (D39).
pub async fn deactivate<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<PersonId>,
) -> Result<HttpResponse, ApiError> {
    let p = state.svc.admin_archive_person(id, ArchiveReason::Deactivated).await?;
    Ok(HttpResponse::Ok().json(person_json(&p)))
}

/// `POST /admin/v1/persons/{id}/withdraw`: the person's own withdrawal (D39).
pub async fn withdraw<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<PersonId>,
) -> Result<HttpResponse, ApiError> {
    let p = state.svc.admin_archive_person(id, ArchiveReason::SelfRevoked).await?;
    Ok(HttpResponse::Ok().json(person_json(&p)))
}

/// `POST /admin/v1/organizations/{id}/teams` body.
#[derive(Deserialize, Validate, Debug)]
#[serde(deny_unknown_fields)]
pub struct TeamIn {
    #[validate(length(min = 1, max = 200), custom(function = "crate::body::one_line"))]
    name: String,
}

/// `POST /admin/v1/organizations/{id}/teams` → 201 `{id, organizationId, name, createdAt}`.
pub async fn create_team<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(org): PathId<OrgId>,
    JsonIn(i): JsonIn<TeamIn>,
) -> Result<HttpResponse, ApiError> {
    if let Err(e) = i.validate() {
        let mut errs = FieldErrors::default();
        validation_fields(&e, "", &mut errs);
        return Err(errs.into());
    }
    let t = state.svc.create_team(org, i.name.trim().to_string()).await?;
    Ok(HttpResponse::Created().json(json!({"id": t.id.to_string(), "organizationId": t.org_id.to_string(), "name": t.name, "createdAt": format(t.created_at)})))
}

/// `POST /admin/v1/teams/{id}/members` body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MemberIn {
    person_id: String,
}

fn members_json(team: TeamId, v: &[PersonId]) -> serde_json::Value {
    json!({"teamId": team.to_string(), "personIds": v.iter().map(|p| p.to_string()).collect::<Vec<_>>()})
}

/// `POST /admin/v1/teams/{id}/members` → 200 `{teamId, personIds}`.
pub async fn add_member<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(team): PathId<TeamId>,
    JsonIn(i): JsonIn<MemberIn>,
) -> Result<HttpResponse, ApiError> {
    let person: PersonId = i.person_id.parse().map_err(|_| ApiError::field("personId", "must be a UUID"))?;
    let members = state.svc.add_team_member(team, person).await?;
    Ok(HttpResponse::Ok().json(members_json(team, &members)))
}

/// `GET /admin/v1/teams/{id}/members` → 200 `{teamId, personIds}`.
pub async fn members<S: Store>(state: web::Data<ApiState<S>>, PathId(team): PathId<TeamId>) -> Result<HttpResponse, ApiError> {
    let members = state.svc.team_members(team).await?;
    Ok(HttpResponse::Ok().json(members_json(team, &members)))
}

/// `POST /admin/v1/persons/{id}/assessments` body (D39).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AssessmentIn {
    complete: bool,
    responses: Option<Vec<talent_domain::assessment::Response>>,
    seed: Option<u64>,
}

/// `POST /admin/v1/persons/{id}/assessments`: starts (`complete: false`) or completes an
/// assessment from `responses` or a `seed` (D39). 200 `{id, personId, status, startedAt,
/// completedAt, responses}` (responses: how many).
pub async fn assessment<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(person): PathId<PersonId>,
    JsonIn(i): JsonIn<AssessmentIn>,
) -> Result<HttpResponse, ApiError> {
    let cmd = talent_domain::usecases::assessments::AssessmentCommand {
        complete: i.complete,
        responses: i.responses,
        seed: i.seed,
    };
    let a = state.svc.admin_assessment(person, cmd).await?;
    Ok(HttpResponse::Ok().json(json!({
        "id": a.id.to_string(),
        "personId": person.to_string(),
        "status": a.state.as_str(),
        "startedAt": format(a.started_at),
        "completedAt": a.completed_at.map(format),
        "responses": a.responses.len(),
    })))
}

/// `POST /admin/v1/organizations/{id}/profiles` body (D25 fields but ids).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ProfileIn {
    name: String,
    description: Option<String>,
    competencies: Vec<ProfileCompetencyIn>,
}

/// One weighted competency of [`ProfileIn`].
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProfileCompetencyIn {
    competency_id: String,
    weight: f64,
}

/// `POST /admin/v1/organizations/{id}/profiles` → 201 the profile (D25); 409 `conflict` at the
/// plan's profile limit (D5).
pub async fn create_profile<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(org): PathId<OrgId>,
    JsonIn(i): JsonIn<ProfileIn>,
) -> Result<HttpResponse, ApiError> {
    let n = profile_input(i)?;
    let p = state.svc.create_profile(org, n).await?;
    Ok(HttpResponse::Created().json(crate::out::ProfileOut::new(&state.svc.assessment.model, &p)))
}

/// Competencies of a profile body, as the use case takes them; a non-UUID id is a field error.
fn competencies_input(list: &[ProfileCompetencyIn]) -> Result<Vec<talent_domain::model::ProfileCompetency>, ApiError> {
    let mut errs = FieldErrors::default();
    let mut out = Vec::new();
    for (n, c) in list.iter().enumerate() {
        match c.competency_id.parse::<uuid::Uuid>() {
            Ok(cid) => out.push(talent_domain::model::ProfileCompetency { competency_id: cid, weight: c.weight }),
            Err(_) => errs.push(format!("competencies[{n}].competencyId"), "must be a UUID"),
        }
    }
    errs.into_result()?;
    Ok(out)
}

/// A [`ProfileIn`] as the use case takes it.
fn profile_input(i: ProfileIn) -> Result<talent_domain::usecases::assessments::NewProfile, ApiError> {
    let competencies = competencies_input(&i.competencies)?;
    Ok(talent_domain::usecases::assessments::NewProfile { name: i.name, description: i.description, competencies })
}

/// `GET /admin/v1/organizations/{id}/profiles`: the organization's profiles, newest first,
/// paginated.
pub async fn list_profiles<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    PathId(org): PathId<OrgId>,
) -> Result<HttpResponse, ApiError> {
    let (before, limit, filters) = admin_page(&state, &req, &format!("admin/organizations/{org}/profiles"))?;
    let page = state.svc.list_profiles(org, before.map(ProfileId), limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|p| p.id.0), &filters);
    let model = &state.svc.assessment.model;
    let data = page.items.iter().map(|p| talent_domain::wire::to_value(&crate::out::ProfileOut::new(model, p)));
    Ok(admin_list(data.collect(), next))
}

/// `PATCH /admin/v1/organizations/{org}/profiles/{id}` body: the creation fields, each optional;
/// `description: null` clears it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ProfilePatchIn {
    name: Option<String>,
    #[serde(default, deserialize_with = "double_option")]
    description: Option<Option<String>>,
    competencies: Option<Vec<ProfileCompetencyIn>>,
}

/// `PATCH /admin/v1/organizations/{org}/profiles/{id}`: changes the given fields, held to the
/// rules of creation (D25; issue 16). 200 the profile.
pub async fn update_profile<S: Store>(
    state: web::Data<ApiState<S>>,
    PathIds(org, id): PathIds<OrgId, ProfileId>,
    JsonIn(i): JsonIn<ProfilePatchIn>,
) -> Result<HttpResponse, ApiError> {
    let competencies = match i.competencies {
        Some(c) => Some(competencies_input(&c)?),
        None => None,
    };
    let patch =
        talent_domain::usecases::assessments::ProfilePatch { name: i.name, description: i.description, competencies };
    let p = state.svc.update_profile(org, id, patch).await?;
    Ok(HttpResponse::Ok().json(crate::out::ProfileOut::new(&state.svc.assessment.model, &p)))
}

/// `DELETE /admin/v1/organizations/{org}/profiles/{id}`: 204; 404 when there is no such
/// profile (issue 16).
pub async fn delete_profile<S: Store>(
    state: web::Data<ApiState<S>>,
    PathIds(org, id): PathIds<OrgId, ProfileId>,
) -> Result<HttpResponse, ApiError> {
    state.svc.delete_profile(org, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /admin/v1/invitations/{id}/accept` body (D39).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct AcceptIn {
    share: Option<bool>,
}

/// `POST /admin/v1/invitations/{id}/accept`: what the person's `POST` on the URL does (D39).
/// 200 `{invitation, person}`.
pub async fn accept_invitation<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    PathId(id): PathId<InvitationId>,
    Body(body): Body,
) -> Result<HttpResponse, ApiError> {
    let i: AcceptIn =
        if body.iter().all(u8::is_ascii_whitespace) { AcceptIn::default() } else { parse_json(&req, &body)? };
    let (view, person) = state.svc.accept_invitation(id, i.share.unwrap_or(false)).await?;
    Ok(HttpResponse::Ok().json(json!({"invitation": view.json(), "person": person_json(&person)})))
}

/// `GET /admin/v1/emails?to=` (D22): recorded emails, newest first (at most 200).
pub async fn emails<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let pairs = crate::body::parse_query(&req, &["to"])?;
    let to = match pairs.iter().find(|(k, _)| k == "to") {
        Some((_, v)) => Some(Email::parse(v).map_err(|m| ApiError::field("to", m))?),
        None => None,
    };
    let list = state.svc.emails(to, 200).await?;
    Ok(HttpResponse::Ok().json(json!({
        "data": list.iter().map(|e| json!({
            "to": e.to.as_str(),
            "subject": e.subject,
            "body": e.body,
            "invitationUrl": e.invitation_url,
            "sentAt": e.sent_at.map(format),
        })).collect::<Vec<_>>()
    })))
}

/// The `email` of a data-subject request (D45): required, a valid address.
fn subject_email(pairs: &[(String, String)]) -> Result<Email, ApiError> {
    match pairs.iter().find(|(k, _)| k == "email") {
        Some((_, v)) => Email::parse(v).map_err(|m| ApiError::field("email", m)),
        None => Err(ApiError::field("email", "is required")),
    }
}

/// `GET /admin/v1/humans/export?email=` (D45): every record held about the address as one JSON
/// document: `{email, exportedAt, memberships: [{organization: {id, companyName}, person,
/// results}], assessments: [{id, state, startedAt, completedAt, responses}], invitations,
/// emails: [{to, subject, body, sentAt, createdAt}], events: [{id, type, organizationId, data,
/// createdAt}]}`. Errors: 400 (email), 404 when nothing is held. The address is never logged.
pub async fn export_human<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let pairs = crate::body::parse_query(&req, &["email"])?;
    let email = subject_email(&pairs)?;
    let x = state.svc.export_human(email.clone()).await?;
    let model = &state.svc.assessment.model;
    Ok(HttpResponse::Ok().json(json!({
        "email": email.as_str(),
        "exportedAt": format(x.exported_at),
        "memberships": x.memberships.iter().map(|m| json!({
            "organization": {"id": m.organization.id.to_string(), "companyName": m.organization.company_name},
            "person": person_json(&m.person),
            "results": m.results.as_ref().map(|r| crate::out::PersonResultsOut::new(model, r)),
        })).collect::<Vec<_>>(),
        "assessments": x.assessments.iter().map(|a| json!({
            "id": a.id.to_string(),
            "state": a.state.as_str(),
            "startedAt": format(a.started_at),
            "completedAt": a.completed_at.map(format),
            "responses": a.responses,
        })).collect::<Vec<_>>(),
        "invitations": x.invitations.iter().map(|v| v.json()).collect::<Vec<_>>(),
        "emails": x.emails.iter().map(|e| json!({
            "to": e.to.as_str(),
            "subject": e.subject,
            "body": e.body,
            "sentAt": e.sent_at.map(format),
            "createdAt": format(e.created_at),
        })).collect::<Vec<_>>(),
        "events": x.events.iter().map(|e| json!({
            "id": e.id.to_string(),
            "type": e.event_type.as_str(),
            "organizationId": e.org_id.to_string(),
            "data": e.data,
            "createdAt": format(e.created_at),
        })).collect::<Vec<_>>(),
    })))
}

/// `POST /admin/v1/humans/erase` body (D45).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EraseHumanIn {
    /// The address.
    pub email: String,
}

/// `POST /admin/v1/humans/erase` `{email}` (D45): erases everything held about the address and
/// answers what was removed: `{memberships, assessments, invitations, emails, texts}`. Safe to
/// repeat (then every count is 0). Errors: 400 (email). The address is never logged.
pub async fn erase_human<S: Store>(
    state: web::Data<ApiState<S>>,
    JsonIn(i): JsonIn<EraseHumanIn>,
) -> Result<HttpResponse, ApiError> {
    let email = Email::parse(&i.email).map_err(|m| ApiError::field("email", m))?;
    let r = state.svc.erase_human(email).await?;
    Ok(HttpResponse::Ok().json(json!({
        "memberships": r.memberships,
        "assessments": r.assessments,
        "invitations": r.invitations,
        "emails": r.emails,
        "texts": r.texts,
    })))
}

/// `POST /admin/v1/clock` body (D39).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClockIn {
    advance_seconds: i64,
}

/// `POST /admin/v1/clock` (sandbox only, else 404): moves the service clock forward, then runs
/// the invitation sweep, the email job and the webhook worker so expiry, reminders and retries
/// follow at once.
/// 200 `{now, expired, reminded, deliveryAttempts}`.
pub async fn clock<S: Store>(
    state: web::Data<ApiState<S>>,
    body: Result<JsonIn<ClockIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Some(ctl) = state.clock_control.clone() else {
        return Err(ApiError::new(Code::NotFound, "The clock can be moved in sandbox mode only (TALENT_SANDBOX=1)"));
    };
    // The body's errors after the sandbox's 404.
    let JsonIn(i) = body?;
    if !(0..=10 * 365 * 86_400).contains(&i.advance_seconds) {
        return Err(ApiError::field(
            "advanceSeconds",
            "must be between 0 and 315360000 (the clock only moves forward)",
        ));
    }
    // What the email job would have sent before the jump goes out at the old time; the
    // reminders the sweep queues go out before the answer.
    while state.svc.deliver_emails().await? > 0 {}
    ctl.advance(i.advance_seconds);
    let (expired, reminded) = state.svc.sweep_invitations().await?;
    while state.svc.deliver_emails().await? > 0 {}
    let mut delivered = 0;
    loop {
        let n = state.svc.run_deliveries(100).await?;
        delivered += n;
        if n == 0 {
            break;
        }
    }
    Ok(HttpResponse::Ok().json(json!({
        "now": format(state.svc.clock.now()),
        "expired": expired,
        "reminded": reminded,
        "deliveryAttempts": delivered,
    })))
}
