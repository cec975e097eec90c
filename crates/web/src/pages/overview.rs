//! The overview (issue 18): plan, subscription, persons used of the limit, profiles, and the rate
//! limits of the plan (D5, D6).

use super::{label, layout, ok, when_opt};
use crate::respond::{signed, Fail};
use crate::Dashboard;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;
use talent_domain::ports::Store;

/// `GET /dashboard/`.
pub async fn show<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    let (org, usage) = d.svc.organization(ctx.data_org()).await?;
    let plan = d.svc.plans.get(&org.plan).cloned();
    let body = html! {
        dl.facts {
            dt { "Organization" } dd { (org.company_name) }
            dt { "Plan" } dd id="plan" { (org.plan) }
            dt { "Subscription" } dd id="subscription" { (label(org.subscription_status.as_str())) }
            @if org.trial_ends_at.is_some() { dt { "Trial ends" } dd { (when_opt(org.trial_ends_at)) } }
            @if org.current_period_end.is_some() { dt { "Current period ends" } dd { (when_opt(org.current_period_end)) } }
            dt { "Persons" } dd id="persons-used" { (usage.persons_used) " of " (usage.persons_limit) }
            dt { "Profiles" } dd { (usage.profiles_used) " of " (usage.profiles_limit) }
            dt { "Imports" } dd { @if usage.import_blocked { "blocked (limit reached or subscription inactive)" } @else { "open" } }
        }
        h2 { "Rate limits" }
        @if let Some(p) = plan {
            @if p.api_access {
                p { "Requests per minute, per organization: " strong { (p.org_rpm) } "; per API key: " strong { (p.key_rpm) }
                    " (or " (p.org_only_rpm) " per organization where only the organization is limited). Each response's "
                    code { "X-RateLimit-*" } " headers show what is left." }
            } @else {
                p { "This plan has no API access." }
            }
        }
        h2 { "Start here" }
        ul {
            li { a href="/dashboard/keys" { "Create an API key" } " and call " code { "GET /api/v1/me" } "." }
            @if ctx.who.is_admin() { li { a href="/dashboard/webhooks" { "Register a webhook endpoint" } " and send it a test." } }
            li { a href="/dashboard/persons" { "Look at the persons" } " of the organization." }
        }
    };
    Ok(ok(layout(&ctx, "/dashboard/", "Overview", body)))
}
