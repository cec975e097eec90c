//! Settings (administrators; issue 18): the employee email domains (D15), what invited persons
//! see (language, time zone, redirect hosts; T217, T219) and the users of the organization
//! (invite by email, change role, remove; an organization keeps an administrator).

use super::{button_form, csrf_field, layout, notice, ok, when};
use crate::respond::{require_admin, see_other, signed, AdminPost, Ctx, Fail, Posted};
use crate::Dashboard;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use talent_domain::errors::{ClientError, Code, UseCaseError};
use talent_domain::ids::UserId;
use talent_domain::ports::Store;
use talent_domain::usecases::orgs::{parse_domain, parse_redirect_host, OrganizationPatch};
use talent_domain::values::{Email, Locale, OrgRole, TimeZone};

async fn page<S: Store>(d: &Dashboard<S>, ctx: &Ctx, above: Markup) -> Result<Markup, Fail> {
    let (org, _) = d.svc.organization(ctx.who.org_id()).await?;
    let users = d.svc.list_users(org.id, None, 100).await?.items;
    let teams = d.svc.list_teams(org.id).await?;
    let body = html! {
        (above)
        h2 { "ATS connections" }
        p { "Connect Greenhouse, Ashby or Workable: recruiters order the assessment in the ATS and the results come back there. " a href="/dashboard/settings/connections" id="open-connections" { "ATS connections" } }
        h2 { "Employee email domains" }
        p { "A person whose email is at one of these domains is labelled " code { "employee" } " when imported." }
        form.stack method="post" action="/dashboard/settings/domains" {
            (csrf_field(&ctx.csrf))
            label for="domains" { "Domains, one per line" }
            textarea id="domains" name="domains" rows="4" { (org.employee_domains.join("\n")) }
            button type="submit" id="save-domains" { "Save domains" }
        }
        h2 { "What invited persons see" }
        p { "The language of emails and pages when an invitation names none (the person's browser language comes first on pages), the time zone of the dates they read, and the hosts an invitation may send them on to after accepting." }
        form.stack method="post" action="/dashboard/settings/candidates" {
            (csrf_field(&ctx.csrf))
            label for="org-locale" { "Language" }
            select id="org-locale" name="locale" {
                @for l in Locale::ALL {
                    option value=(l.as_str()) selected[l == org.candidate.locale] { (l.endonym()) }
                }
            }
            label for="org-time-zone" { "Time zone (IANA name, such as Europe/Berlin)" }
            input type="text" id="org-time-zone" name="timeZone" value=(org.candidate.time_zone.as_str()) required maxlength="64";
            label for="redirect-hosts" { "Redirect hosts, one per line (such as careers.example.com)" }
            textarea id="redirect-hosts" name="redirectHosts" rows="3" { (org.candidate.redirect_hosts.join("\n")) }
            button type="submit" id="save-candidates" { "Save" }
        }
        h2 { "Teams" }
        p { "Teams group persons; add a person to a team from their page." }
        @if teams.is_empty() {
            p.muted { "No teams yet." }
        } @else {
            table id="teams" {
                thead { tr { th scope="col" { "Team" } th scope="col" { "Members" } th scope="col" { "Created" } } }
                tbody { @for (t, n) in &teams { tr { td { (t.name) } td { (n) } td { (when(t.created_at)) } } } }
            }
        }
        form.stack method="post" action="/dashboard/settings/teams" {
            (csrf_field(&ctx.csrf))
            label for="team-name" { "New team" }
            input type="text" id="team-name" name="name" required maxlength="200";
            button type="submit" id="create-team" { "Create team" }
        }
        h2 { "Users" }
        table id="users" {
            thead { tr { th scope="col" { "Email" } th scope="col" { "Role" } th scope="col" { "Since" } th scope="col" { span.visually-hidden { "Actions" } } } }
            tbody {
                @for u in &users {
                    tr {
                        td { (u.email.as_str()) }
                        td {
                            form.inline method="post" action={"/dashboard/settings/users/" (u.id.0) "/role"} {
                                (csrf_field(&ctx.csrf))
                                label.visually-hidden for={"role-" (u.id.0)} { "Role of " (u.email.as_str()) }
                                select id={"role-" (u.id.0)} name="role" {
                                    option value="member" selected[u.role == OrgRole::Member] { "member" }
                                    option value="admin" selected[u.role == OrgRole::Admin] { "admin" }
                                }
                                " "
                                button.secondary type="submit" { "Change" }
                            }
                        }
                        td { (when(u.created_at)) }
                        td { @if u.id != ctx.who.user.id {
                            (button_form(&format!("/dashboard/settings/users/{}/remove", u.id.0), &ctx.csrf, "Remove", None))
                        } }
                    }
                }
            }
        }
        h2 { "Invite a user" }
        p { "They get an email with a sign-in link." }
        form.stack method="post" action="/dashboard/settings/users" {
            (csrf_field(&ctx.csrf))
            label for="email" { "Email address" }
            input type="email" id="email" name="email" required;
            label for="role" { "Role" }
            select id="role" name="role" { option value="member" { "member" } option value="admin" { "admin" } }
            button type="submit" id="invite-user" { "Invite" }
        }
    };
    Ok(layout(ctx, "/dashboard/settings", "Settings", body))
}

/// `GET /dashboard/settings`.
pub async fn show<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    require_admin(&ctx)?;
    let done = crate::form::Form::parse(req.query_string().as_bytes());
    let above = match done.get("done") {
        Some("domains") => notice("good", "Domains saved."),
        Some("candidates") => notice("good", "Saved: language, time zone and redirect hosts."),
        Some("team") => notice("good", "Team created."),
        Some("invited") => notice("good", "User added; a sign-in link is on its way to them."),
        Some("role") => notice("good", "Role changed."),
        Some("removed") => notice("good", "User removed; their API keys no longer work."),
        _ => html! {},
    };
    Ok(ok(page(&d, &ctx, above).await?))
}

/// A refusal shown on the settings page with its status.
async fn refused<S: Store>(d: &Dashboard<S>, ctx: &Ctx, e: UseCaseError) -> Result<HttpResponse, Fail> {
    let UseCaseError::Client(c) = e else { return Err(e.into()) };
    Ok(super::with_status(c.code.status(), page(d, ctx, notice("bad", &crate::respond::describe(&c))).await?))
}

fn invalid(msg: String) -> UseCaseError {
    ClientError::new(Code::ValidationError, msg).into()
}

/// `POST /dashboard/settings/domains`.
pub async fn domains<S: Store>(p: AdminPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let mut list = Vec::new();
    for raw in form.get("domains").unwrap_or_default().split(['\n', ',']).map(str::trim) {
        if raw.is_empty() {
            continue;
        }
        match parse_domain(raw) {
            Ok(dm) if !list.contains(&dm) => list.push(dm),
            Ok(_) => {}
            Err(why) => return refused(&d, &ctx, invalid(format!("'{raw}' {why}"))).await,
        }
    }
    let patch = OrganizationPatch { employee_domains: Some(list), ..OrganizationPatch::default() };
    match d.svc.patch_organization(ctx.who.org_id(), patch).await {
        Ok(_) => Ok(see_other("/dashboard/settings?done=domains")),
        Err(e) => refused(&d, &ctx, e).await,
    }
}

/// `POST /dashboard/settings/candidates`: the organization's language, time zone and redirect
/// hosts (T217, T219).
pub async fn candidates<S: Store>(p: AdminPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let locale = match Locale::parse(form.get("locale").unwrap_or_default()) {
        Ok(l) => l,
        Err(why) => return refused(&d, &ctx, invalid(format!("Language {why}"))).await,
    };
    let zone = match TimeZone::parse(form.get("timeZone").unwrap_or_default().trim()) {
        Ok(z) => z,
        Err(why) => return refused(&d, &ctx, invalid(format!("Time zone {why}"))).await,
    };
    let mut hosts = Vec::new();
    for raw in form.get("redirectHosts").unwrap_or_default().split(['\n', ',']).map(str::trim) {
        if raw.is_empty() {
            continue;
        }
        let parsed = match url::Host::parse(raw) {
            Ok(url::Host::Domain(h)) => parse_redirect_host(&h),
            _ => Err("must be a host name such as careers.example.com (no scheme, port or path)".into()),
        };
        match parsed {
            Ok(h) if !hosts.contains(&h) => hosts.push(h),
            Ok(_) => {}
            Err(why) => return refused(&d, &ctx, invalid(format!("'{raw}' {why}"))).await,
        }
    }
    if hosts.len() > 20 {
        return refused(&d, &ctx, invalid("At most 20 redirect hosts".into())).await;
    }
    let patch = OrganizationPatch {
        locale: Some(locale),
        time_zone: Some(zone),
        redirect_hosts: Some(hosts),
        ..OrganizationPatch::default()
    };
    match d.svc.patch_organization(ctx.who.org_id(), patch).await {
        Ok(_) => Ok(see_other("/dashboard/settings?done=candidates")),
        Err(e) => refused(&d, &ctx, e).await,
    }
}

/// `POST /dashboard/settings/teams`.
pub async fn create_team<S: Store>(p: AdminPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let name = match talent_domain::usecases::teams::parse_team_name(form.get("name").unwrap_or_default()) {
        Ok(n) => n,
        Err(why) => return refused(&d, &ctx, invalid(format!("Team name {why}"))).await,
    };
    match d.svc.create_team(ctx.who.org_id(), name).await {
        Ok(_) => Ok(see_other("/dashboard/settings?done=team")),
        Err(e) => refused(&d, &ctx, e).await,
    }
}

fn role(raw: Option<&str>) -> Result<OrgRole, UseCaseError> {
    OrgRole::parse(raw.unwrap_or_default()).map_err(|e| invalid(format!("Role {e}")))
}

/// `POST /dashboard/settings/users`: adds a user and emails them a sign-in link.
pub async fn invite_user<S: Store>(p: AdminPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let r = async {
        let email = Email::parse(form.get("email").unwrap_or_default()).map_err(|e| invalid(format!("Email: {e}")))?;
        let role = role(form.get("role"))?;
        d.svc.invite_user(&ctx.who, email, role).await
    }
    .await;
    match r {
        Ok(_) => Ok(see_other("/dashboard/settings?done=invited")),
        Err(e) => refused(&d, &ctx, e).await,
    }
}

fn user_id(raw: &str) -> Result<UserId, Fail> {
    uuid::Uuid::parse_str(raw).map(UserId).map_err(|_| Fail::Client(ClientError::not_found("User")))
}

/// `POST /dashboard/settings/users/{id}/role`.
pub async fn change_role<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let id = user_id(&id)?;
    let r = match role(form.get("role")) {
        Ok(role) => d.svc.change_role(&ctx.who, id, role).await.map(drop),
        Err(e) => Err(e),
    };
    match r {
        Ok(()) => Ok(see_other("/dashboard/settings?done=role")),
        Err(e) => refused(&d, &ctx, e).await,
    }
}

/// `POST /dashboard/settings/users/{id}/remove`.
pub async fn remove_user<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    match d.svc.remove_user(&ctx.who, user_id(&id)?).await {
        Ok(()) => Ok(see_other("/dashboard/settings?done=removed")),
        Err(e) => refused(&d, &ctx, e).await,
    }
}
