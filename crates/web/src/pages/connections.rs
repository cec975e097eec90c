//! ATS connections (administrators; D63, D67-D69): Settings → ATS connections lists the
//! organization's connections with their last activity, creates one (choose the ATS, enter its
//! credentials, see the key once with a copy button), and shows one connection: what to paste
//! where in the ATS, its orders with status, score and report-link openings, its push log with
//! redelivery, the errors its ATS reported; disable, enable, delete.

use super::{button_form, clip, csrf_field, label, layout, notice, ok, when, when_opt};
use crate::form::Form;
use crate::respond::{require_admin, see_other, shown, signed, AdminPost, Ctx, Fail, Posted};
use crate::Dashboard;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use talent_domain::connector::{Ats, Connection, ConnectionPatch, ConnectionSettings, NewConnection};
use talent_domain::errors::ClientError;
use talent_domain::ids::{ConnectionId, DeliveryId};
use talent_domain::ports::Store;
use talent_domain::usecases::connectors::ConnectionView;
use talent_domain::values::Locale;

const BASE: &str = "/dashboard/settings/connections";
/// Orders and pushes shown on a connection's page.
const SHOWN: u32 = 25;

fn not_found() -> Fail {
    Fail::Client(ClientError::not_found("Connection"))
}

fn connection_id(raw: &str) -> Result<ConnectionId, Fail> {
    uuid::Uuid::parse_str(raw).map(ConnectionId).map_err(|_| not_found())
}

/// The connection `id` of the signed-in organization; another organization's is not found.
async fn own<S: Store>(d: &Dashboard<S>, ctx: &Ctx, id: ConnectionId) -> Result<ConnectionView, Fail> {
    let v = d.svc.get_connection(id).await?;
    if v.connection.org_id != ctx.who.org_id() {
        return Err(not_found());
    }
    Ok(v)
}

fn state(c: &Connection) -> &'static str {
    if c.enabled {
        "enabled"
    } else {
        "disabled"
    }
}

/// What to enter in the ATS, per ATS: the partner URLs and where the key goes.
fn instructions(c: &Connection, public: &str) -> Markup {
    let base = format!("{}/partners/{}", public.trim_end_matches('/'), c.ats.as_str());
    html! {
        @match c.ats {
            Ats::Greenhouse => {
                p { "Send Greenhouse these URLs for the assessment partner integration, and enter the key as the API key (Greenhouse sends it as the user name of HTTP Basic):" }
                ul.urls { @for p in ["list_tests", "send_test", "test_status", "response_error"] { li { code { (base) "/" (p) } } } }
            }
            Ats::Ashby => {
                p { "In Ashby's assessment integration, enter this base URL and the key:" }
                ul.urls { li { code { (base) } } }
            }
            Ats::Workable => {
                p { "In Workable's assessment provider settings, enter this base URL and the key as the token:" }
                ul.urls { li { code { (base) } } }
            }
            Ats::Kombo => {
                p { "In Kombo's dashboard, send the assessment webhooks (order received) to this URL. Kombo signs them with the webhook secret entered here; Talent also asks Kombo for open orders every minute, and sends the tests as packages and the results with the Kombo API key entered here." }
                ul.urls { li { code { (base) "/webhook" } } }
            }
        }
    }
}

async fn list_page<S: Store>(d: &Dashboard<S>, ctx: &Ctx, above: Markup) -> Result<Markup, Fail> {
    let list = d.svc.list_connections(ctx.who.org_id()).await?;
    let body = html! {
        p { a href="/dashboard/settings" { "Back to the settings" } }
        (above)
        @if list.is_empty() {
            p.muted id="no-connections" { "No ATS connections yet." }
        } @else {
            table id="connections" {
                thead { tr {
                    th scope="col" { "Name" } th scope="col" { "ATS" } th scope="col" { "State" }
                    th scope="col" { "Orders" } th scope="col" { "Failed pushes" } th scope="col" { "Last activity" }
                } }
                tbody {
                    @for v in &list {
                        tr {
                            td { a href={(BASE) "/" (v.connection.id.0)} { (v.connection.name) } }
                            td { (v.connection.ats.display_name()) }
                            td { (state(&v.connection)) }
                            td { (v.orders) }
                            td { (v.failed_pushes) }
                            td { (when_opt(v.connection.last_activity_at)) }
                        }
                    }
                }
            }
        }
        h2 { "Connect an ATS" }
        form.stack method="post" action=(BASE) {
            (csrf_field(&ctx.csrf))
            label for="ats" { "ATS" }
            select id="ats" name="ats" {
                @for a in Ats::ALL { option value=(a.as_str()) { (a.display_name()) } }
            }
            label for="name" { "Name" }
            input type="text" id="name" name="name" required maxlength="200" placeholder="Greenhouse";
            label for="api-key" { "The ATS's key (Ashby: your Ashby API key; Workable: the token Workable generated; Kombo: your Kombo API key)" }
            input type="password" id="api-key" name="api_key" autocomplete="off";
            label for="base-url" { "Base URL (Ashby, Kombo; empty for the ATS's own)" }
            input type="url" id="base-url" name="base_url";
            label for="integration-id" { "Integration id (Kombo)" }
            input type="text" id="integration-id" name="integration_id";
            label for="webhook-secret" { "Webhook secret (Kombo)" }
            input type="password" id="webhook-secret" name="webhook_secret" autocomplete="off";
            label for="connection-locale" { "Language of the invitations its orders send" }
            select id="connection-locale" name="locale" {
                option value="" selected { "The organization's language" }
                @for l in Locale::ALL { option value=(l.as_str()) { (l.endonym()) } }
            }
            button type="submit" id="create-connection" { "Connect" }
        }
    };
    Ok(layout(ctx, "/dashboard/settings", "ATS connections", body))
}

/// `GET /dashboard/settings/connections`.
pub async fn list<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    require_admin(&ctx)?;
    Ok(ok(list_page(&d, &ctx, html! {}).await?))
}

fn field(form: &Form, name: &str) -> Option<String> {
    form.get(name).map(str::trim).filter(|v| !v.is_empty()).map(str::to_string)
}

/// `POST /dashboard/settings/connections`: creates the connection and shows its key once.
pub async fn create<S: Store>(p: AdminPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let parsed = Ats::parse(form.get("ats").unwrap_or_default())
        .and_then(|ats| Connection::parse_name(form.get("name").unwrap_or_default()).map(|n| (ats, n)));
    let (ats, name) = match parsed {
        Ok(v) => v,
        Err(m) => return Ok(super::with_status(400, list_page(&d, &ctx, notice("bad", &m)).await?)),
    };
    let settings = ConnectionSettings {
        base_url: field(&form, "base_url"),
        api_key: field(&form, "api_key"),
        integration_id: field(&form, "integration_id"),
        webhook_secret: field(&form, "webhook_secret"),
    };
    let locale = match field(&form, "locale").map(|l| Locale::parse(&l)).transpose() {
        Ok(l) => l,
        Err(m) => {
            return Ok(super::with_status(400, list_page(&d, &ctx, notice("bad", &format!("Language {m}"))).await?))
        }
    };
    let input = NewConnection { ats, name, settings, locale };
    match d.svc.create_connection(ctx.who.org_id(), input, Some(ctx.who.user.id)).await {
        Ok(created) => {
            let c = &created.view.connection;
            let above = html! {
                section.notice.good {
                    h2 { "Connected" }
                    p { "Copy the key now: it is not shown again. Enter it in " (c.ats.display_name()) "." }
                    div.secret {
                        input type="text" id="connection-key" readonly value=(created.key) size="60" aria-label="Key";
                        button type="button" data-copy="connection-key" { "Copy" }
                    }
                    (instructions(c, &d.svc.invites.public_url))
                    p { a href={(BASE) "/" (c.id.0)} id="open-connection" { "Open the connection" } }
                }
            };
            Ok(ok(list_page(&d, &ctx, above).await?))
        }
        Err(e) => {
            let why = shown(e)?;
            Ok(super::with_status(400, list_page(&d, &ctx, notice("bad", &why)).await?))
        }
    }
}

async fn connection_page<S: Store>(
    d: &Dashboard<S>,
    ctx: &Ctx,
    id: ConnectionId,
    above: Markup,
) -> Result<Markup, Fail> {
    let v = own(d, ctx, id).await?;
    let c = &v.connection;
    let org = ctx.who.org_id();
    let orders = d.svc.list_orders(id, None, SHOWN).await?.items;
    let mut rows = Vec::with_capacity(orders.len());
    for o in &orders {
        let r = d.svc.order_report(org, o.id).await?;
        let opened = d.svc.report_openings(org, o.id, 100).await?.len();
        rows.push((r, opened));
    }
    let pushes = d.svc.push_log(id, None, None, SHOWN).await?.items;
    let errors = d.svc.list_connection_errors(id, 10).await?;
    let base = format!("{BASE}/{}", id.0);
    let body = html! {
        p { a href=(BASE) { "All ATS connections" } }
        (above)
        dl.facts {
            dt { "ATS" } dd { (c.ats.display_name()) }
            dt { "State" } dd id="connection-state" { (state(c)) }
            dt { "Created" } dd { (when(c.created_at)) }
            dt { "Last activity" } dd { (when_opt(c.last_activity_at)) }
            dt { "Orders" } dd { (v.orders) }
            dt { "Failed pushes" } dd id="failed-pushes" { (v.failed_pushes) }
            @if let Some(b) = &c.settings.base_url { dt { "Base URL" } dd { (b) } }
            @if let Some(i) = &c.settings.integration_id { dt { "Integration id" } dd { (i) } }
            dt { "The ATS's key" } dd { @if c.settings.api_key.is_some() { "set" } @else { "none" } }
        }
        h2 { "In the ATS" }
        (instructions(c, &d.svc.invites.public_url))
        p {
            @if c.enabled {
                (button_form(&format!("{base}/disable"), &ctx.csrf, "Disable", Some("disable-connection")))
            } @else {
                (button_form(&format!("{base}/enable"), &ctx.csrf, "Enable", Some("enable-connection")))
            }
            " "
            form.inline method="post" action={(base) "/delete"} {
                (csrf_field(&ctx.csrf))
                button.danger type="submit" id="delete-connection" { "Delete the connection" }
            }
        }
        h2 { "Orders" }
        @if rows.is_empty() {
            p.muted id="no-orders" { "No orders yet." }
        } @else {
            table id="orders" {
                thead { tr {
                    th scope="col" { "Placed" } th scope="col" { "Test" } th scope="col" { "Person" } th scope="col" { "Status" }
                    th scope="col" { "Score" } th scope="col" { "Report link openings" }
                } }
                tbody {
                    @for (r, opened) in &rows {
                        tr data-status=(r.order.status.as_str()) {
                            td { (when(r.order.created_at)) }
                            td { (r.profile.as_ref().map(|p| p.name.as_str()).unwrap_or("Talent assessment")) }
                            td { a href={"/dashboard/persons/" (r.order.person_id.0)} { "Person" } }
                            td class={"status-" (r.order.status.as_str())} { (label(r.order.status.as_str())) }
                            td { @if let Some(m) = &r.result { (m.percentage) "% (" (label(m.category.as_str())) ")" } @else { "-" } }
                            td { (opened) }
                        }
                    }
                }
            }
        }
        h2 { "Pushes" }
        @if pushes.is_empty() {
            p.muted id="no-pushes" { "No pushes yet." }
        } @else {
            table id="pushes" {
                thead { tr {
                    th scope="col" { "Created" } th scope="col" { "Event" } th scope="col" { "Status" } th scope="col" { "Attempts" }
                    th scope="col" { "Last answer" } th scope="col" { span.visually-hidden { "Actions" } }
                } }
                tbody {
                    @for p in &pushes {
                        tr data-status=(p.status.as_str()) {
                            td { a href={(base) "/pushes/" (p.id.0)} { (when(p.created_at)) } }
                            td { (talent_domain::connector::push_about(p)) }
                            td class={"status-" (p.status.as_str())} { (label(p.status.as_str())) }
                            td { (p.attempts) }
                            td { @if let Some(s) = p.last_response_status { "HTTP " (s) } @if let Some(e) = &p.last_error { " " (clip(e, 80)) } }
                            td { (button_form(&format!("{base}/pushes/{}/redeliver", p.id.0), &ctx.csrf, "Redeliver", None)) }
                        }
                    }
                }
            }
        }
        @if !errors.is_empty() {
            h2 { "Errors the ATS reported" }
            table id="ats-errors" {
                thead { tr { th scope="col" { "Time" } th scope="col" { "Call" } th scope="col" { "Errors" } } }
                tbody { @for e in &errors { tr { td { (when(e.created_at)) } td { (e.api_call) } td { (clip(&e.errors, 200)) } } } }
            }
        }
    };
    Ok(layout(ctx, "/dashboard/settings", &c.name, body))
}

/// `GET /dashboard/settings/connections/{id}`.
pub async fn show<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    require_admin(&ctx)?;
    let query = Form::parse(req.query_string().as_bytes());
    let above = match query.get("done") {
        Some("redelivered") => notice("good", "The push goes out again now."),
        Some("saved") => notice("good", "Saved."),
        _ => html! {},
    };
    Ok(ok(connection_page(&d, &ctx, connection_id(&id)?, above).await?))
}

async fn set_enabled<S: Store>(p: AdminPost<S>, id: &str, enabled: bool) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let id = connection_id(id)?;
    own(&d, &ctx, id).await?;
    d.svc.update_connection(id, ConnectionPatch { enabled: Some(enabled), ..Default::default() }).await?;
    Ok(see_other(&format!("{BASE}/{}?done=saved", id.0)))
}

/// `POST /dashboard/settings/connections/{id}/disable`: the ATS's calls are refused and pushes wait.
pub async fn disable<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    set_enabled(p, &id, false).await
}

/// `POST /dashboard/settings/connections/{id}/enable`.
pub async fn enable<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    set_enabled(p, &id, true).await
}

/// `POST /dashboard/settings/connections/{id}/delete`: revokes the key and deletes the connection.
pub async fn delete<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let id = connection_id(&id)?;
    own(&d, &ctx, id).await?;
    d.svc.delete_connection(id).await?;
    Ok(see_other(BASE))
}

/// `GET /dashboard/settings/connections/{id}/pushes/{push}`: one push with its attempts (time, the
/// ATS's answer, duration, the first bytes of the answer or the error) and a redeliver button.
pub async fn push<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    require_admin(&ctx)?;
    let id = connection_id(&path.0)?;
    let v = own(&d, &ctx, id).await?;
    let push_id =
        uuid::Uuid::parse_str(&path.1).map(DeliveryId).map_err(|_| Fail::Client(ClientError::not_found("Push")))?;
    let (p, attempts) = d.svc.push_attempts(id, push_id).await?;
    let base = format!("{BASE}/{}", id.0);
    let body = html! {
        p { a href=(base) { "Back to " (v.connection.name) } }
        dl.facts {
            dt { "Event" } dd { (talent_domain::connector::push_about(&p)) }
            dt { "Status" } dd id="push-status" class={"status-" (p.status.as_str())} { (label(p.status.as_str())) }
            dt { "Attempts" } dd { (p.attempts) }
            dt { "Created" } dd { (when(p.created_at)) }
            dt { "Next attempt" } dd { (when_opt(p.next_attempt_at)) }
        }
        (button_form(&format!("{base}/pushes/{}/redeliver", p.id.0), &ctx.csrf, "Redeliver now", Some("redeliver-push")))
        h2 { "Attempts" }
        @if attempts.is_empty() {
            p.muted { "No attempt yet." }
        } @else {
            table id="push-attempts" {
                thead { tr { th scope="col" { "Time" } th scope="col" { "Answer" } th scope="col" { "Duration" } th scope="col" { "First bytes of the answer, or the error" } } }
                tbody {
                    @for (at, o) in &attempts {
                        tr {
                            td { (when(*at)) }
                            td { @if let Some(s) = o.status { "HTTP " (s) } @else { "none" } }
                            td { (o.duration_ms) " ms" }
                            td { pre { (clip(o.response_body.as_deref().or(o.error.as_deref()).unwrap_or(""), 300)) } }
                        }
                    }
                }
            }
        }
    };
    Ok(ok(layout(&ctx, "/dashboard/settings", "Push", body)))
}

/// `POST /dashboard/settings/connections/{id}/pushes/{push}/redeliver`.
pub async fn redeliver<S: Store>(p: AdminPost<S>, path: web::Path<(String, String)>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let id = connection_id(&path.0)?;
    own(&d, &ctx, id).await?;
    let push =
        uuid::Uuid::parse_str(&path.1).map(DeliveryId).map_err(|_| Fail::Client(ClientError::not_found("Push")))?;
    d.svc.redeliver_push(id, push).await?;
    Ok(see_other(&format!("{BASE}/{}?done=redelivered", id.0)))
}
