//! Organizations, their users and the users' API keys (D39; issue 16).

use super::out::{ApiKeyOut, CreatedApiKeyOut, UserOut};
use super::{admin_list, admin_page};
use crate::body::{check, double_option};
use crate::error::ApiError;
use crate::extract::{JsonIn, PathId};
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use talent_domain::errors::ClientError;
use talent_domain::ids::*;
use talent_domain::organization::CandidateDefaults;
use talent_domain::ports::Store;
use talent_domain::timefmt::parse;
use talent_domain::usecases::orgs::{
    parse_company_name, parse_domain, parse_redirect_host, NewOrganization, OrganizationPatch,
};
use talent_domain::values::*;
use talent_domain::wire::{organization_json, to_value};
use time::OffsetDateTime;
use validator::Validate;

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
    locale: Option<String>,
    time_zone: Option<String>,
    redirect_hosts: Option<Vec<String>>,
}

/// The language, time zone and redirect hosts of an organization's persons (T217, T219), each
/// recorded under its member's name when bad.
fn parse_candidate(
    locale: Option<&str>,
    time_zone: Option<&str>,
    hosts: Option<&[String]>,
    errs: &mut FieldErrors,
) -> (Option<Locale>, Option<TimeZone>, Option<Vec<String>>) {
    let locale = locale.and_then(|l| errs.take("locale", Locale::parse(l)));
    let zone = time_zone.and_then(|z| errs.take("timeZone", TimeZone::parse(z)));
    let hosts = hosts.map(|list| {
        if list.len() > 20 {
            errs.push("redirectHosts", "must have at most 20 items");
        }
        let mut out: Vec<String> = Vec::new();
        for (i, h) in list.iter().enumerate() {
            let ascii = match url::Host::parse(h.trim()) {
                Ok(url::Host::Domain(d)) => Ok(d),
                _ => Err("must be a host name such as careers.example.com (no scheme, port or path)".to_string()),
            };
            if let Some(v) = errs.take(&format!("redirectHosts[{i}]"), ascii.and_then(|d| parse_redirect_host(&d))) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    });
    (locale, zone, hosts)
}

/// `POST /admin/v1/organizations` → 201 Organization.
pub async fn create_org<S: Store>(
    state: web::Data<ApiState<S>>,
    JsonIn(i): JsonIn<OrgIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    check(&i, &mut errs);
    let company_name = errs.take("companyName", parse_company_name(&i.company_name));
    let email = errs.take("email", Email::parse(&i.email));
    let status =
        i.subscription_status.as_ref().and_then(|s| errs.take("subscriptionStatus", SubscriptionStatus::parse(s)));
    let trial = parse_time("trialEndsAt", &i.trial_ends_at, &mut errs);
    let period = parse_time("currentPeriodEnd", &i.current_period_end, &mut errs);
    let domains = parse_domains(i.employee_domains.as_deref().unwrap_or(&[]), &mut errs);
    let (locale, time_zone, hosts) =
        parse_candidate(i.locale.as_deref(), i.time_zone.as_deref(), i.redirect_hosts.as_deref(), &mut errs);
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
        candidate: CandidateDefaults {
            locale: locale.unwrap_or_default(),
            time_zone: time_zone.unwrap_or_default(),
            redirect_hosts: hosts.unwrap_or_default(),
        },
    };
    let (org, usage) = state.svc.create_organization(n).await?;
    Ok(HttpResponse::Created().json_body(admin_org_json(&org, &usage)))
}

/// The admin API's Organization: the public object (spec, Organization) plus
/// `employeeDomains` (D15), which an operator sets and must be able to read back (issue 16), and
/// what its persons see by default: `locale`, `timeZone` (T217) and `redirectHosts` (T219).
fn admin_org_json(
    org: &talent_domain::organization::Organization,
    usage: &talent_domain::organization::Usage,
) -> serde_json::Value {
    let mut v = organization_json(org, usage);
    if let Some(o) = v.as_object_mut() {
        o.insert("employeeDomains".into(), to_value(&org.employee_domains));
        o.insert("locale".into(), org.candidate.locale.as_str().into());
        o.insert("timeZone".into(), org.candidate.time_zone.as_str().into());
        o.insert("redirectHosts".into(), to_value(&org.candidate.redirect_hosts));
    }
    v
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
    Ok(admin_list(page.items.iter().map(UserOut::from).collect(), next))
}

/// `GET /admin/v1/users/{id}`: one user.
pub async fn get_user<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<UserId>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json_body(UserOut::from(&state.svc.get_user(id).await?)))
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
    Ok(admin_list(page.items.iter().map(ApiKeyOut::from).collect(), next))
}

/// `GET /admin/v1/organizations/{id}`.
pub async fn get_org<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<OrgId>,
) -> Result<HttpResponse, ApiError> {
    let (org, usage) = state.svc.organization(id).await?;
    Ok(HttpResponse::Ok().json_body(admin_org_json(&org, &usage)))
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
    locale: Option<String>,
    time_zone: Option<String>,
    redirect_hosts: Option<Vec<String>>,
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
    (p.locale, p.time_zone, p.redirect_hosts) =
        parse_candidate(i.locale.as_deref(), i.time_zone.as_deref(), i.redirect_hosts.as_deref(), &mut errs);
    errs.into_result()?;
    let (org, usage) = state.svc.patch_organization(id, p).await?;
    Ok(HttpResponse::Ok().json_body(admin_org_json(&org, &usage)))
}

/// `POST /admin/v1/organizations/{id}/users` body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct UserIn {
    email: String,
    role: String,
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
    Ok(HttpResponse::Created().json_body(UserOut::from(&u)))
}

/// `POST /admin/v1/users/{id}/api-keys` body.
#[derive(Deserialize, Validate, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KeyIn {
    #[validate(length(min = 1, max = 100), custom(function = "crate::body::one_line"))]
    name: Option<String>,
    scopes: Vec<String>,
    expires_at: Option<String>,
    /// `live` (the default) or `test` (D60: a `tk_test_` key on the organization's test twin).
    mode: Option<String>,
}

/// `POST /admin/v1/users/{id}/api-keys` → 201 `{id, key, mode, scopes, expiresAt, createdAt,
/// name}`; the key value is shown once (D39, D41, D60).
pub async fn create_key<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(user): PathId<UserId>,
    JsonIn(i): JsonIn<KeyIn>,
) -> Result<HttpResponse, ApiError> {
    let mut errs = FieldErrors::default();
    check(&i, &mut errs);
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
    let test = match i.mode.as_deref() {
        None | Some("live") => false,
        Some("test") => true,
        Some(_) => {
            errs.push("mode", "must be 'live' or 'test'");
            false
        }
    };
    errs.into_result()?;
    let Some(scopes) = scopes else { return Err(ApiError(ClientError::internal())) };
    let created = if test {
        state.svc.create_test_api_key(user, i.name, scopes, expires).await?
    } else {
        state.svc.create_api_key(user, i.name, scopes, expires).await?
    };
    Ok(HttpResponse::Created().json_body(CreatedApiKeyOut::new(&created.key, created.value)))
}

/// `DELETE /admin/v1/api-keys/{id}`: revokes at once; 200 with the key record (no value).
pub async fn revoke_key<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<ApiKeyId>,
) -> Result<HttpResponse, ApiError> {
    let k = state.svc.revoke_api_key(id).await?;
    Ok(HttpResponse::Ok().json_body(ApiKeyOut::from(&k)))
}
