//! Results, profiles, matches and reports (spec "Person results"; D2, D3, D11, D25-D27).

use crate::auth::authorize;
use crate::body::{page_limit, parse_params, parse_query};
use crate::error::ApiError;
use crate::extract::PathId;
use crate::openapi::schemas;
use crate::out;
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use talent_domain::ids::{PersonId, ProfileId};

use talent_domain::ports::Store;

use talent_domain::values::{FieldErrors, Scope};
use utoipa::IntoParams;

/// `cursor` and `limit` of a paginated list (D36), as parsed ([`parse_params`]).
#[derive(Deserialize, IntoParams, Debug)]
#[into_params(parameter_in = Query)]
pub struct PageParams {
    /// `pagination.nextCursor` of the previous page, with the same filters.
    #[param(min_length = 1)]
    pub(crate) cursor: Option<String>,
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100, default = 25)]
    pub(crate) limit: Option<String>,
}

/// `GET /profiles/{id}/matches` query (D26), as parsed ([`parse_params`]).
#[derive(Deserialize, IntoParams, Debug)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ProfileMatchParams {
    /// Only this person's match.
    #[param(value_type = Option<uuid::Uuid>)]
    person_id: Option<String>,
    /// `pagination.nextCursor` of the previous page, with the same filters.
    #[param(min_length = 1)]
    cursor: Option<String>,
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100, default = 25)]
    limit: Option<String>,
}

/// The `{id}` path parameter of the profile endpoints.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct ProfileIdParam {
    /// The profile's id. A non-UUID is 404 (T13).
    id: uuid::Uuid,
}

/// `GET /api/v1/persons/{id}/results` (scope `results:read`).
#[utoipa::path(get, path = "/api/v1/persons/{id}/results", tag = "results", operation_id = "getPersonResults",
    summary = "A person's cumulative results (consent-filtered, D11)",
    description = "The person's cumulative results from the assessments the organization may see (those completed while the person was its member, or shared with their consent): scores per competency with bands, and the personality text.",
    params(crate::api::PersonIdParam),
    responses(
        (status = 200, description = "The results; `hasResults: false` without a completed visible assessment.",
            body = out::PersonResultsOut),
        (status = 404, description = "`not_found`: not a person of the organization (archived persons are readable, D28).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn person_results<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    let PathId(id) = id?;
    let r = state.svc.results(p.ctx.org.id, id).await?;
    Ok(HttpResponse::Ok().json_body(out::PersonResultsOut::new(&state.svc.assessment.model, &r)))
}

/// Query parameters of `GET /api/v1/persons/{id}/report` (T217).
#[derive(Deserialize, IntoParams, Debug)]
#[into_params(parameter_in = Query)]
pub struct ReportParams {
    /// The language of the report's own words and dates (BCP 47, resolved as an invitation's
    /// `locale`). Default: the language of the person's newest invitation that names one, else
    /// the organization's `locale`.
    #[param(value_type = Option<schemas::LocaleTag>)]
    locale: Option<String>,
}

/// `GET /api/v1/persons/{id}/report` (scope `results:read`, D27): `application/pdf`.
#[utoipa::path(get, path = "/api/v1/persons/{id}/report", tag = "results", operation_id = "getPersonReport",
    summary = "A person's PDF report (one person; never a comparison)",
    description = "The person's results as a PDF (`application/pdf`), about this one person only; 404 while they have no results the organization may see.",
    params(crate::api::PersonIdParam, ReportParams),
    responses(
        (status = 200, description = "The report.", content_type = "application/pdf", body = schemas::Pdf,
            headers(("Content-Disposition" = String, description = "`inline; filename=\"report-{id}.pdf\"`"))),
        (status = 400, description = "`validation_error`: `locale` is not a language Talent writes in.",
            body = out::ErrorOut),
        (status = 404, description = "`not_found`: not a person of the organization, or no results yet \
(details `{\"reason\":\"no_results\"}`, D27).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn person_report<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    let PathId(id) = id?;
    let (params, _) = parse_params::<ReportParams>(&req)?;
    let locale = match params.locale.as_deref().map(talent_domain::values::Locale::parse) {
        None => None,
        Some(Ok(l)) => Some(l),
        Some(Err(m)) => return Err(FieldErrors::one("locale", m).into()),
    };
    let (person, pdf) = state.svc.report(p.ctx.org.id, id, locale).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header(("Content-Disposition", format!("inline; filename=\"report-{}.pdf\"", person.id)))
        .body(pdf))
}

/// `GET /api/v1/persons/{id}/matches` (scope `results:read`, D26): one item per profile.
#[utoipa::path(get, path = "/api/v1/persons/{id}/matches", tag = "results", operation_id = "listPersonMatches",
    summary = "A person's match with every profile (one page)",
    description = "How well the person fits each of the organization's competency profiles: a percentage and a category per profile, from the results the organization may see.",
    params(crate::api::PersonIdParam),
    responses(
        (status = 200, description = "One match per profile; `hasMore` is false.", body = out::MatchPage),
        (status = 400, description = "`validation_error`: query parameters are not accepted here.", body = out::ErrorOut),
        (status = 404, description = "`not_found`: not a person of the organization, or no results yet \
(details `{\"reason\":\"no_results\"}`, T26).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn person_matches<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    parse_query(&req, &[])?;
    let PathId(id) = id?;
    let v = state.svc.person_matches(p.ctx.org.id, p.ctx.org.live_id(), id).await?;
    Ok(HttpResponse::Ok().json_body(out::MatchPage::new(v.iter().map(out::MatchOut::from).collect(), None)))
}

/// `GET /api/v1/profiles` (scope `profiles:read`, D25): newest first, keyset-paginated.
#[utoipa::path(get, path = "/api/v1/profiles", tag = "profiles", operation_id = "listProfiles",
    summary = "List competency profiles, newest first",
    description = "The organization's competency profiles, newest first, in pages of `limit` with an opaque cursor.",
    params(PageParams),
    responses(
        (status = 200, description = "A page of profiles.", body = out::ProfilePage),
        (status = 400, description = "`validation_error`: an invalid limit or cursor (D36).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["profiles:read"])))]
pub async fn list_profiles<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ProfilesRead), false)?;
    let (params, pairs) = parse_params::<PageParams>(&req)?;
    let mut errs = FieldErrors::default();
    let limit = page_limit(params.limit.as_deref(), &mut errs);
    errs.into_result()?;
    let filters = crate::cursor::filter_key("profiles", &pairs);
    let before = state.cursors.position(params.cursor.as_deref(), &filters)?.map(ProfileId);
    let page = state.svc.list_profiles(p.ctx.org.live_id(), before, limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|x| x.id.0), &filters);
    let model = &state.svc.assessment.model;
    Ok(HttpResponse::Ok()
        .json_body(out::ProfilePage::new(page.items.iter().map(|x| out::ProfileOut::new(model, x)).collect(), next)))
}

/// `GET /api/v1/profiles/{id}` (scope `profiles:read`, D25).
#[utoipa::path(get, path = "/api/v1/profiles/{id}", tag = "profiles", operation_id = "getProfile",
    summary = "A competency profile",
    description = "One competency profile with its target per competency.",
    params(ProfileIdParam),
    responses(
        (status = 200, description = "The profile.", body = out::ProfileOut),
        (status = 404, description = "`not_found`: no such profile in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["profiles:read"])))]
pub async fn get_profile<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<ProfileId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ProfilesRead), false)?;
    let PathId(id) = id?;
    let profile = state.svc.get_profile(p.ctx.org.live_id(), id).await?;
    Ok(HttpResponse::Ok().json_body(out::ProfileOut::new(&state.svc.assessment.model, &profile)))
}

/// `GET /api/v1/profiles/{id}/matches` (scope `results:read`, D26): persons with results,
/// highest percentage first; `personId` filter; keyset cursor over (percentage, personId).
#[utoipa::path(get, path = "/api/v1/profiles/{id}/matches", tag = "profiles", operation_id = "listProfileMatches",
    summary = "Matches of persons with results to a profile, highest percentage first",
    description = "The persons with results ranked by how well they fit the profile, highest percentage first, in pages; `personId` gives one person's match.",
    params(ProfileIdParam, ProfileMatchParams),
    responses(
        (status = 200, description = "A page of matches.", body = out::MatchPage),
        (status = 400, description = "`validation_error`: an invalid personId, limit or cursor (D36).",
            body = out::ErrorOut),
        (status = 404, description = "`not_found`: no such profile in the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn profile_matches<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<ProfileId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    let PathId(profile) = id?;
    let (params, _) = parse_params::<ProfileMatchParams>(&req)?;
    let mut errs = FieldErrors::default();
    let limit = page_limit(params.limit.as_deref(), &mut errs);
    let person = params
        .person_id
        .as_deref()
        .and_then(|v| errs.take("personId", v.parse::<PersonId>().map_err(|_| "must be a UUID".to_string())));
    errs.into_result()?;
    let filters = format!("profiles/{profile}/matches?personId={}", params.person_id.as_deref().unwrap_or(""));
    // Keyset position: (percentage, personId) of the last item, 17 bytes.
    let after = match params.cursor.as_deref() {
        Some(c) => {
            let raw = state
                .cursors
                .decode_bytes(c, &filters)
                .filter(|b| b.len() == 17)
                .ok_or_else(|| ApiError::field("cursor", "invalid cursor, or made for other filters"))?;
            let id = uuid::Uuid::from_slice(&raw[1..]).map_err(|_| ApiError::field("cursor", "invalid cursor"))?;
            Some((raw[0], PersonId(id)))
        }
        None => None,
    };
    let page = state.svc.profile_matches(p.ctx.org.id, p.ctx.org.live_id(), profile, person, after, limit).await?;
    let next = match (page.has_more, page.items.last()) {
        (true, Some(last)) => {
            let mut b = vec![last.percentage];
            b.extend_from_slice(last.person_id.0.as_bytes());
            Some(state.cursors.encode_bytes(&b, &filters))
        }
        _ => None,
    };
    Ok(HttpResponse::Ok().json_body(out::MatchPage::new(page.items.iter().map(out::MatchOut::from).collect(), next)))
}
