//! Results, profiles, matches and reports (spec "Person results"; D2, D3, D11, D25-D27).

use crate::api::path_id;
use crate::auth::authorize;
use crate::body::{page_limit, parse_query};
use crate::error::ApiError;
use crate::openapi::schemas;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::{json, Value};
use talent_domain::assessment::{AssessmentModel, Scores};
use talent_domain::ids::{PersonId, ProfileId};
use talent_domain::model::Profile;
use talent_domain::ports::Store;
use talent_domain::timefmt::format;
use talent_domain::usecases::assessments::{Match, PersonResults};
use talent_domain::values::{FieldErrors, Scope};
use utoipa::IntoParams;

/// `cursor` and `limit` of a paginated list (D36).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct PageParams {
    /// `pagination.nextCursor` of the previous page, with the same filters.
    #[param(min_length = 1)]
    cursor: Option<String>,
    #[param(minimum = 1, maximum = 100, default = 25)]
    limit: Option<u32>,
}

/// `GET /profiles/{id}/matches` query (D26).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct ProfileMatchParams {
    /// Only this person's match.
    #[param(rename = "personId")]
    person_id: Option<uuid::Uuid>,
    /// `pagination.nextCursor` of the previous page, with the same filters.
    #[param(min_length = 1)]
    cursor: Option<String>,
    #[param(minimum = 1, maximum = 100, default = 25)]
    limit: Option<u32>,
}

/// The `{id}` path parameter of the profile endpoints.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct ProfileIdParam {
    /// The profile's id. A non-UUID is 404 (T13).
    id: uuid::Uuid,
}

/// The Person results object (spec): every field present; `hasResults: false` with nulls.
pub fn results_json(model: &AssessmentModel, r: &PersonResults) -> Value {
    let Some(s) = &r.scores else {
        return json!({
            "personId": r.person.id.to_string(),
            "hasResults": false,
            "totals": null,
            "motivationAxes": null,
            "competencies": null,
            "personality": null,
        });
    };
    json!({
        "personId": r.person.id.to_string(),
        "hasResults": true,
        "totals": {"assessments": s.assessments, "responses": s.responses},
        "motivationAxes": axes_json(model, s),
        "competencies": {
            "modelName": model.name,
            "mappingName": model.mapping.name,
            "scores": s.competencies.iter().filter_map(|c| {
                let m = model.competency(c.competency_id)?;
                Some(json!({
                    "competencyId": c.competency_id.to_string(),
                    "name": m.name,
                    "description": m.description,
                    "score": c.score,
                    "band": c.band.as_str(),
                }))
            }).collect::<Vec<_>>(),
        },
        "personality": r.personality.as_ref().map(|(md, at)| json!({"markdown": md, "generatedAt": format(*at)})),
    })
}

fn axes_json(model: &AssessmentModel, s: &Scores) -> Vec<Value> {
    let all: Vec<_> = model.needs().collect();
    model
        .axes
        .iter()
        .map(|a| {
            let needs: Vec<Value> = a
                .needs
                .iter()
                .filter_map(|n| {
                    let idx = all.iter().position(|x| x.id == n.id)?;
                    let r = s.needs.iter().find(|r| r.need_index == idx)?;
                    Some(json!({
                        "name": n.name,
                        "definition": n.definition,
                        "isAnchor": n.is_anchor,
                        "score": r.score,
                        "exposure": r.exposure,
                    }))
                })
                .collect();
            json!({"code": a.code, "name": a.name, "needs": needs})
        })
        .collect()
}

/// The profile object (D25).
pub fn profile_json(model: &AssessmentModel, p: &Profile) -> Value {
    json!({
        "id": p.id.to_string(),
        "name": p.name,
        "description": p.description,
        "competencies": p.competencies.iter().map(|c| json!({
            "competencyId": c.competency_id.to_string(),
            "name": model.competency(c.competency_id).map(|m| m.name.as_str()).unwrap_or(""),
            "weight": c.weight,
        })).collect::<Vec<_>>(),
        "createdAt": format(p.created_at),
        "updatedAt": format(p.updated_at),
    })
}

/// A match item (D26): exactly `personId`, `profileId`, `percentage`, `category` (D3).
pub fn match_json(m: &Match) -> Value {
    json!({
        "personId": m.person_id.to_string(),
        "profileId": m.profile_id.to_string(),
        "percentage": m.percentage,
        "category": m.category.as_str(),
    })
}

/// `GET /api/v1/persons/{id}/results` (scope `results:read`).
#[utoipa::path(get, path = "/api/v1/persons/{id}/results", tag = "results", operation_id = "getPersonResults",
    summary = "A person's cumulative results (consent-filtered, D11)",
    params(crate::api::PersonIdParam),
    responses(
        (status = 200, description = "The results; `hasResults: false` without a completed visible assessment.",
            body = schemas::PersonResults),
        (status = 404, description = "`not_found`: not a person of the organization (archived persons are readable, D28).", body = schemas::Error),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn person_results<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    let id: PersonId = path_id(&id, "Person")?;
    let r = state.svc.results(p.ctx.org.id, id).await?;
    Ok(HttpResponse::Ok().json(results_json(&state.svc.assessment.model, &r)))
}

/// `GET /api/v1/persons/{id}/report` (scope `results:read`, D27): `application/pdf`.
#[utoipa::path(get, path = "/api/v1/persons/{id}/report", tag = "results", operation_id = "getPersonReport",
    summary = "A person's PDF report (one person; never a comparison)",
    params(crate::api::PersonIdParam),
    responses(
        (status = 200, description = "The report.", content_type = "application/pdf", body = schemas::Pdf,
            headers(("Content-Disposition" = String, description = "`inline; filename=\"report-{id}.pdf\"`"))),
        (status = 404, description = "`not_found`: not a person of the organization, or no results yet \
(details `{\"reason\":\"no_results\"}`, D27).", body = schemas::Error),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn person_report<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    let id: PersonId = path_id(&id, "Person")?;
    let (person, pdf) = state.svc.report(p.ctx.org.id, id).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header(("Content-Disposition", format!("inline; filename=\"report-{}.pdf\"", person.id)))
        .body(pdf))
}

/// `GET /api/v1/persons/{id}/matches` (scope `results:read`, D26): one item per profile.
#[utoipa::path(get, path = "/api/v1/persons/{id}/matches", tag = "results", operation_id = "listPersonMatches",
    summary = "A person's match with every profile (one page)",
    params(crate::api::PersonIdParam),
    responses(
        (status = 200, description = "One match per profile; `hasMore` is false.", body = schemas::MatchPage),
        (status = 400, description = "`validation_error`: query parameters are not accepted here.", body = schemas::Error),
        (status = 404, description = "`not_found`: not a person of the organization, or no results yet \
(details `{\"reason\":\"no_results\"}`, T26).", body = schemas::Error),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn person_matches<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    parse_query(&req, &[])?;
    let id: PersonId = path_id(&id, "Person")?;
    let v = state.svc.person_matches(p.ctx.org.id, id).await?;
    Ok(HttpResponse::Ok().json(json!({
        "data": v.iter().map(match_json).collect::<Vec<_>>(),
        "pagination": {"hasMore": false, "nextCursor": null},
    })))
}

/// `GET /api/v1/profiles` (scope `profiles:read`, D25): newest first, keyset-paginated.
#[utoipa::path(get, path = "/api/v1/profiles", tag = "profiles", operation_id = "listProfiles",
    summary = "List competency profiles, newest first",
    params(PageParams),
    responses(
        (status = 200, description = "A page of profiles.", body = schemas::ProfilePage),
        (status = 400, description = "`validation_error`: an invalid limit or cursor (D36).", body = schemas::Error),
    ),
    security(("bearerAuth" = ["profiles:read"])))]
pub async fn list_profiles<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ProfilesRead), false)?;
    let pairs = parse_query(&req, &["cursor", "limit"])?;
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let mut errs = FieldErrors::default();
    let limit = page_limit(get("limit"), &mut errs);
    errs.into_result()?;
    let filters = crate::cursor::filter_key("profiles", &pairs);
    let before = state.cursors.position(get("cursor"), &filters)?.map(ProfileId);
    let page = state.svc.list_profiles(p.ctx.org.id, before, limit).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|x| x.id.0), &filters);
    let model = &state.svc.assessment.model;
    Ok(HttpResponse::Ok().json(json!({
        "data": page.items.iter().map(|x| profile_json(model, x)).collect::<Vec<_>>(),
        "pagination": {"hasMore": page.has_more, "nextCursor": next},
    })))
}

/// `GET /api/v1/profiles/{id}` (scope `profiles:read`, D25).
#[utoipa::path(get, path = "/api/v1/profiles/{id}", tag = "profiles", operation_id = "getProfile",
    summary = "A competency profile",
    params(ProfileIdParam),
    responses(
        (status = 200, description = "The profile.", body = schemas::Profile),
        (status = 404, description = "`not_found`: no such profile in the organization.", body = schemas::Error),
    ),
    security(("bearerAuth" = ["profiles:read"])))]
pub async fn get_profile<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ProfilesRead), false)?;
    let id: ProfileId = path_id(&id, "Profile")?;
    let profile = state.svc.get_profile(p.ctx.org.id, id).await?;
    Ok(HttpResponse::Ok().json(profile_json(&state.svc.assessment.model, &profile)))
}

/// `GET /api/v1/profiles/{id}/matches` (scope `results:read`, D26): persons with results,
/// highest percentage first; `personId` filter; keyset cursor over (percentage, personId).
#[utoipa::path(get, path = "/api/v1/profiles/{id}/matches", tag = "profiles", operation_id = "listProfileMatches",
    summary = "Matches of persons with results to a profile, highest percentage first",
    params(ProfileIdParam, ProfileMatchParams),
    responses(
        (status = 200, description = "A page of matches.", body = schemas::MatchPage),
        (status = 400, description = "`validation_error`: an invalid personId, limit or cursor (D36).",
            body = schemas::Error),
        (status = 404, description = "`not_found`: no such profile in the organization.", body = schemas::Error),
    ),
    security(("bearerAuth" = ["results:read"])))]
pub async fn profile_matches<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::ResultsRead), false)?;
    let profile: ProfileId = path_id(&id, "Profile")?;
    let pairs = parse_query(&req, &["personId", "cursor", "limit"])?;
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let mut errs = FieldErrors::default();
    let limit = page_limit(get("limit"), &mut errs);
    let person = get("personId")
        .and_then(|v| errs.take("personId", v.parse::<PersonId>().map_err(|_| "must be a UUID".to_string())));
    errs.into_result()?;
    let filters = format!("profiles/{profile}/matches?personId={}", get("personId").unwrap_or(""));
    // Keyset position: (percentage, personId) of the last item, 17 bytes.
    let after = match get("cursor") {
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
    let page = state.svc.profile_matches(p.ctx.org.id, profile, person, after, limit).await?;
    let next = match (page.has_more, page.items.last()) {
        (true, Some(last)) => {
            let mut b = vec![last.percentage];
            b.extend_from_slice(last.person_id.0.as_bytes());
            Some(state.cursors.encode_bytes(&b, &filters))
        }
        _ => None,
    };
    Ok(HttpResponse::Ok().json(json!({
        "data": page.items.iter().map(match_json).collect::<Vec<_>>(),
        "pagination": {"hasMore": page.has_more, "nextCursor": next},
    })))
}
