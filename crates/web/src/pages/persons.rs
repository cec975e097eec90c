//! Persons (spec, Persons; D36, D42; issue 18): search and filters as in the API (`q`, `tag`,
//! `status`, `label`, `assessmentStatus`), newest first in pages; a person's page with status,
//! labels, tags, assessment summary, the visible results (D42), matches, and the PDF report.

use super::{clip, label, layout, ok, when, when_opt};
use crate::form::Form;
use crate::respond::{signed, Fail, MemberPost, Posted};
use crate::Dashboard;
use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;
use std::collections::HashMap;
use talent_domain::errors::{ClientError, UseCaseError};
use talent_domain::ids::PersonId;
use talent_domain::ports::{LabelFilter, PersonQuery, PersonStatusFilter, Store};
use talent_domain::results::AssessmentStatus;

/// Persons per page.
const PAGE: u32 = 25;

/// `GET /dashboard/persons?q=&tag=&status=&label=&assessmentStatus=&before=`.
pub async fn list<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    let f = Form::parse(req.query_string().as_bytes());
    let status = match f.get("status") {
        Some("archived") => PersonStatusFilter::Archived,
        Some("any") => PersonStatusFilter::Any,
        _ => PersonStatusFilter::Active,
    };
    let label = match f.get("label") {
        Some("candidate") => Some(LabelFilter::Candidate),
        Some("employee") => Some(LabelFilter::Employee),
        _ => None,
    };
    let assessment = f.get("assessmentStatus").and_then(|s| AssessmentStatus::parse(s).ok());
    let q = f.get("q").map(|q| q.chars().take(200).collect::<String>());
    let tag = f.get("tag").map(|t| t.chars().take(100).collect::<String>());
    let query = PersonQuery {
        org_id: Some(ctx.data_org()),
        status,
        q: q.as_ref().map(|q| q.to_lowercase()),
        tag_key: tag.as_ref().map(|t| t.to_lowercase()),
        label,
        assessment_status: assessment,
        before_id: f.get("before").and_then(|b| uuid::Uuid::parse_str(b).ok()).map(PersonId),
        limit: PAGE,
        ..PersonQuery::default()
    };
    let page = d.svc.list_persons(query).await?;
    let older = page.items.last().filter(|_| page.has_more).map(|last| {
        let mut s = url::form_urlencoded::Serializer::new(String::new());
        for (k, v) in f.0.iter().filter(|(k, _)| k != "before") {
            s.append_pair(k, v);
        }
        s.append_pair("before", &last.id.0.to_string());
        format!("/dashboard/persons?{}", s.finish())
    });
    let sel = |name: &str, v: &str| f.get(name) == Some(v);
    let body = html! {
        form.filters method="get" action="/dashboard/persons" role="search" {
            div { label for="q" { "Name or email" } input type="search" id="q" name="q" value=(q.as_deref().unwrap_or("")); }
            div { label for="tag" { "Tag" } input type="text" id="tag" name="tag" value=(tag.as_deref().unwrap_or("")); }
            div { label for="status" { "Status" }
                select id="status" name="status" {
                    option value="active" selected[sel("status", "active")] { "active" }
                    option value="archived" selected[sel("status", "archived")] { "archived" }
                    option value="any" selected[sel("status", "any")] { "any" }
                } }
            div { label for="label" { "Label" }
                select id="label" name="label" {
                    option value="" { "any" }
                    option value="candidate" selected[sel("label", "candidate")] { "candidate" }
                    option value="employee" selected[sel("label", "employee")] { "employee" }
                } }
            div { label for="assessmentStatus" { "Assessment" }
                select id="assessmentStatus" name="assessmentStatus" {
                    option value="" { "any" }
                    @for s in ["not_started", "in_progress", "completed"] { option value=(s) selected[sel("assessmentStatus", s)] { (super::label(s)) } }
                } }
            button type="submit" id="search" { "Search" }
        }
        @if page.items.is_empty() {
            p.muted id="no-persons" { "No persons match." }
        } @else {
            table id="persons" {
                thead { tr { th scope="col" { "Name" } th scope="col" { "Email" } th scope="col" { "Labels" } th scope="col" { "Tags" } th scope="col" { "Assessment" } th scope="col" { "Updated" } } }
                tbody {
                    @for p in &page.items {
                        tr {
                            td { a href={"/dashboard/persons/" (p.id.0)} { (display_name(p)) } }
                            td { (p.email.as_str()) }
                            td { (p.labels.to_vec().join(", ")) }
                            td { (p.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")) }
                            td { (super::label(p.assessment.status.as_str())) }
                            td { (when(p.updated_at)) }
                        }
                    }
                }
            }
            @if let Some(href) = older { p.pager { a href=(href) id="older" { "Older persons" } } }
        }
    };
    Ok(ok(layout(&ctx, "/dashboard/persons", "Persons", body)))
}

fn display_name(p: &talent_domain::person::Person) -> String {
    let parts: Vec<&str> =
        [p.first_name.as_ref(), p.last_name.as_ref()].into_iter().flatten().map(|n| n.as_str()).collect();
    if parts.is_empty() {
        p.email.as_str().to_string()
    } else {
        parts.join(" ")
    }
}

fn person_id(raw: &str) -> Result<PersonId, Fail> {
    uuid::Uuid::parse_str(raw).map(PersonId).map_err(|_| Fail::Client(ClientError::not_found("Person")))
}

/// `GET /dashboard/persons/{id}`.
pub async fn show<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    let org = ctx.data_org();
    let id = person_id(&id)?;
    let results = d.svc.results(org, id).await?;
    let p = &results.person;
    // Matches exist only with results (404 `no_results` otherwise: shown as none).
    // Profiles are the organization's in both modes (D60).
    let matches = match d.svc.person_matches(org, ctx.who.org_id(), id).await {
        Ok(m) => m,
        Err(UseCaseError::Client(_)) => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    let profiles: HashMap<_, _> =
        d.svc.list_profiles(ctx.who.org_id(), None, 100).await?.items.into_iter().map(|p| (p.id, p.name)).collect();
    let teams = d.svc.list_teams(org).await?;
    let member_of = d.svc.person_teams(org, id).await?;
    let joinable: Vec<_> = teams.iter().filter(|(t, _)| !member_of.iter().any(|m| m.id == t.id)).collect();
    let model = &d.svc.assessment.model;
    let competency =
        |id: uuid::Uuid| model.competencies.iter().find(|c| c.id == id).map(|c| c.name.as_str()).unwrap_or("?");
    let done = match req.query_string() {
        q if q.contains("done=team-removed") => Some("Removed from the team."),
        q if q.contains("done=team") => Some("Added to the team."),
        _ => None,
    };
    let body = html! {
        @if let Some(text) = done { (crate::pages::notice("good", text)) }
        dl.facts {
            dt { "Email" } dd id="person-email" { (p.email.as_str()) }
            dt { "Status" } dd { (label(p.status.as_str())) }
            dt { "Labels" } dd { (p.labels.to_vec().join(", ")) }
            dt { "Tags" } dd { (p.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")) }
            dt { "External id" } dd { (p.external_id.as_ref().map(|e| e.as_str()).unwrap_or("-")) }
            dt { "Member since" } dd { (when(p.member_since)) }
            dt { "Assessment" } dd { (label(p.assessment.status.as_str())) ", " (p.assessment.count) " completed, last " (when_opt(p.assessment.completed_at)) }
        }
        @if !teams.is_empty() {
            h2 { "Teams" }
            @if member_of.is_empty() {
                p.muted id="no-teams" { "In no team." }
            } @else {
                ul id="person-teams" {
                    @for t in &member_of {
                        li {
                            (t.name) " "
                            form.inline method="post" action={"/dashboard/persons/" (p.id.0) "/teams/" (t.id.0) "/remove"} {
                                (crate::pages::csrf_field(&ctx.csrf))
                                button type="submit" aria-label={"Remove from the team " (t.name)} { "Remove" }
                            }
                        }
                    }
                }
            }
            @if !joinable.is_empty() {
                form.filters method="post" action={"/dashboard/persons/" (p.id.0) "/teams"} {
                    (crate::pages::csrf_field(&ctx.csrf))
                    div { label for="team" { "Team" }
                        select id="team" name="team" { @for (t, _) in &joinable { option value=(t.id.0) { (t.name) } } } }
                    button type="submit" id="add-to-team" { "Add to team" }
                }
            }
        }
        h2 { "Results" }
        @match &results.scores {
            None => { p.muted id="no-results" { "No visible results: no completed assessment this organization may see." } }
            Some(scores) => {
                p { a href={"/dashboard/persons/" (p.id.0) "/report"} id="report" download { "Download the PDF report" } }
                table id="competencies" {
                    thead { tr { th scope="col" { "Competency" } th scope="col" { "Score" } th scope="col" { "Band" } } }
                    tbody {
                        @for c in &scores.competencies {
                            tr { td { (competency(c.competency_id)) } td { (format!("{:.0}", c.score * 100.0)) } td { (c.band.as_str()) } }
                        }
                    }
                }
                @if let Some((text, _)) = &results.personality {
                    h2 { "Personality" }
                    div.personality { (crate::markdown::to_html(&clip(text, 8000))) }
                }
            }
        }
        h2 { "Matches" }
        @if matches.is_empty() {
            p.muted { "No matches." }
        } @else {
            table id="matches" {
                thead { tr { th scope="col" { "Profile" } th scope="col" { "Match" } th scope="col" { "Category" } } }
                tbody {
                    @for m in &matches {
                        tr { td { (profiles.get(&m.profile_id).map(String::as_str).unwrap_or("?")) } td { (m.percentage) "%" } td { (label(m.category.as_str())) } }
                    }
                }
            }
        }
    };
    let title = display_name(p);
    Ok(ok(layout(&ctx, "/dashboard/persons", &title, body)))
}

/// `GET /dashboard/persons/{id}/report`: the PDF (D27) as a download.
pub async fn report<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    let (p, pdf) = d.svc.report(ctx.data_org(), person_id(&id)?, None).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"talent-report-{}.pdf\"", p.id.0)))
        .body(pdf))
}

/// `POST /dashboard/persons/{id}/teams`: adds the person to a team of the organization (D16).
pub async fn add_to_team<S: Store>(p: MemberPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let person = person_id(&id)?;
    let org = ctx.data_org();
    let Some(team) = form.get("team").and_then(|t| uuid::Uuid::parse_str(t).ok()).map(talent_domain::ids::TeamId)
    else {
        return Err(Fail::Client(ClientError::not_found("Team")));
    };
    // Only a team of the signed-in organization: another organization's team is not found.
    d.svc.add_team_member_of(org, team, person).await?;
    Ok(crate::respond::see_other(&format!("/dashboard/persons/{}?done=team", person.0)))
}

/// `POST /dashboard/persons/{id}/teams/{team}/remove`: removes the person from one team of the
/// organization (another organization's team or person is not found).
pub async fn remove_from_team<S: Store>(
    p: MemberPost<S>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let (person, team) = path.into_inner();
    let person = person_id(&person)?;
    let team = uuid::Uuid::parse_str(&team)
        .map(talent_domain::ids::TeamId)
        .map_err(|_| Fail::Client(ClientError::not_found("Team")))?;
    d.svc.remove_team_member(ctx.data_org(), team, person).await?;
    Ok(crate::respond::see_other(&format!("/dashboard/persons/{}?done=team-removed", person.0)))
}
