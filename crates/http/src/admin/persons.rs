//! Persons (deactivation and withdrawal, D39), teams and profiles (D25) of any organization.

use super::out::{TeamMembersOut, TeamOut};
use super::{admin_list, admin_page};
use crate::body::{check, double_option};
use crate::error::ApiError;
use crate::extract::{JsonIn, PathId, PathIds};
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use talent_domain::ids::*;
use talent_domain::person::ArchiveReason;
use talent_domain::ports::Store;
use talent_domain::values::FieldErrors;
use talent_domain::wire::person_json;
use validator::Validate;

/// `POST /admin/v1/persons/{id}/deactivate`: administrator deactivation (D39).
pub async fn deactivate<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<PersonId>,
) -> Result<HttpResponse, ApiError> {
    let p = state.svc.admin_archive_person(id, ArchiveReason::Deactivated).await?;
    Ok(HttpResponse::Ok().json_body(person_json(&p)))
}

/// `POST /admin/v1/persons/{id}/withdraw`: the person's own withdrawal (D39).
pub async fn withdraw<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(id): PathId<PersonId>,
) -> Result<HttpResponse, ApiError> {
    let p = state.svc.admin_archive_person(id, ArchiveReason::SelfRevoked).await?;
    Ok(HttpResponse::Ok().json_body(person_json(&p)))
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
    let mut errs = FieldErrors::default();
    check(&i, &mut errs);
    errs.into_result()?;
    let t = state.svc.create_team(org, i.name.trim().to_string()).await?;
    Ok(HttpResponse::Created().json_body(TeamOut::from(&t)))
}

/// `POST /admin/v1/teams/{id}/members` body.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MemberIn {
    person_id: String,
}

/// `POST /admin/v1/teams/{id}/members` → 200 `{teamId, personIds}`.
pub async fn add_member<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(team): PathId<TeamId>,
    JsonIn(i): JsonIn<MemberIn>,
) -> Result<HttpResponse, ApiError> {
    let person: PersonId = i.person_id.parse().map_err(|_| ApiError::field("personId", "must be a UUID"))?;
    let members = state.svc.add_team_member(team, person).await?;
    Ok(HttpResponse::Ok().json_body(TeamMembersOut::new(team, &members)))
}

/// `GET /admin/v1/teams/{id}/members` → 200 `{teamId, personIds}`.
pub async fn members<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(team): PathId<TeamId>,
) -> Result<HttpResponse, ApiError> {
    let members = state.svc.team_members(team).await?;
    Ok(HttpResponse::Ok().json_body(TeamMembersOut::new(team, &members)))
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
    Ok(HttpResponse::Created().json_body(crate::out::ProfileOut::new(&state.svc.assessment.model, &p)))
}

/// Competencies of a profile body, as the use case takes them; a non-UUID id is a field error.
fn competencies_input(
    list: &[ProfileCompetencyIn],
) -> Result<Vec<talent_domain::results::ProfileCompetency>, ApiError> {
    let mut errs = FieldErrors::default();
    let mut out = Vec::new();
    for (n, c) in list.iter().enumerate() {
        match c.competency_id.parse::<uuid::Uuid>() {
            Ok(cid) => out.push(talent_domain::results::ProfileCompetency { competency_id: cid, weight: c.weight }),
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
    Ok(HttpResponse::Ok().json_body(crate::out::ProfileOut::new(&state.svc.assessment.model, &p)))
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
