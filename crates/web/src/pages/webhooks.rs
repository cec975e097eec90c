//! Webhooks (administrators; D30-D35, D47; issue 18): endpoints (create, edit events and URL,
//! enable and disable, rotate the signing secret, delete, send a test ping and show the answer);
//! the delivery log with filters by status and event type, newest first in pages; one delivery
//! with its attempts (time, status, duration, the first bytes of the answer); redeliver.

use super::{button_form, clip, csrf_field, event_types_sorted, label, layout, notice, ok, when, when_opt};
use crate::form::Form;
use crate::respond::{require_admin, see_other, shown, signed, AdminPost, Ctx, Fail, Posted};
use crate::Dashboard;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use talent_domain::errors::{ClientError, Code};
use talent_domain::ids::{DeliveryId, WebhookId};
use talent_domain::ports::Store;
use talent_domain::usecases::webhooks::{EndpointPatch, NewEndpoint, PingResult};
use talent_domain::webhook::{parse_event_type, DeliveryStatus, Endpoint, Subscription};

/// Deliveries per page of the log.
const PAGE: u32 = 25;
/// How much of a receiver's answer the attempt list shows.
const ANSWER_CHARS: usize = 300;

fn not_found(what: &str) -> Fail {
    Fail::Client(ClientError::not_found(what))
}

fn webhook_id(raw: &str) -> Result<WebhookId, Fail> {
    uuid::Uuid::parse_str(raw).map(WebhookId).map_err(|_| not_found("Webhook endpoint"))
}

fn events_text(s: &Subscription) -> String {
    match s {
        Subscription::All => "all events".into(),
        Subscription::Types(t) => t.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", "),
    }
}

/// The event checkboxes, `current` checked.
fn event_fields(current: Option<&Subscription>) -> Markup {
    let all = matches!(current, None | Some(Subscription::All));
    let has = |t| matches!(current, Some(Subscription::Types(v)) if v.contains(&t));
    html! {
        fieldset {
            legend { "Events" }
            label { input type="checkbox" name="all" value="1" id="events-all" checked[all]; "All events" }
            @for t in event_types_sorted() {
                label { input type="checkbox" name="event" value=(t.as_str()) checked[has(t)]; (t.as_str()) }
            }
        }
    }
}

/// The subscription a form asks for. Errors: 400 with the message.
fn subscription(form: &Form) -> Result<Subscription, Fail> {
    if form.checked("all") {
        return Ok(Subscription::All);
    }
    Subscription::parse(&form.all("event")).map_err(|errs| {
        let msg = errs.first().map(|(_, m)| m.clone()).unwrap_or_default();
        Fail::Client(ClientError::new(Code::ValidationError, format!("Events: {msg}")))
    })
}

fn secret_box(title: &str, secret: &str) -> Markup {
    html! {
        section.notice.good {
            h2 { (title) }
            p { "Copy the signing secret now: it is not shown again. Verify each request's " code { "Talent-Signature" } " with it." }
            div.secret {
                input type="text" id="signing-secret" readonly value=(secret) size="60" aria-label="Signing secret";
                button type="button" data-copy="signing-secret" { "Copy" }
            }
        }
    }
}

async fn list_page<S: Store>(d: &Dashboard<S>, ctx: &Ctx, above: Markup) -> Result<Markup, Fail> {
    let endpoints = d.svc.list_endpoints(ctx.data_org()).await?;
    let body = html! {
        (above)
        @if endpoints.is_empty() {
            p.muted { "No endpoints yet." }
        } @else {
            table id="endpoints" {
                thead { tr { th scope="col" { "URL" } th scope="col" { "Events" } th scope="col" { "State" } th scope="col" { "Created" } } }
                tbody {
                    @for e in &endpoints {
                        tr {
                            td { a href={"/dashboard/webhooks/" (e.id.0)} { (e.url) } }
                            td { (events_text(&e.events)) }
                            td { (state(e)) }
                            td { (when(e.created_at)) }
                        }
                    }
                }
            }
        }
        h2 { "Add an endpoint" }
        form.stack method="post" action="/dashboard/webhooks" {
            (csrf_field(&ctx.csrf))
            label for="url" { "URL (https)" }
            input type="url" id="url" name="url" required placeholder="https://ats.example.com/talent-webhooks";
            label for="description" { "Description (optional)" }
            input type="text" id="description" name="description" maxlength="500";
            (event_fields(None))
            button type="submit" id="create-endpoint" { "Add endpoint" }
        }
    };
    Ok(layout(ctx, "/dashboard/webhooks", "Webhooks", body))
}

fn state(e: &Endpoint) -> String {
    match (e.enabled, e.failing_since) {
        (false, _) => "disabled".into(),
        (true, Some(t)) => format!("enabled, failing since {}", when(t)),
        (true, None) => "enabled".into(),
    }
}

/// `GET /dashboard/webhooks`.
pub async fn list<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    require_admin(&ctx)?;
    Ok(ok(list_page(&d, &ctx, html! {}).await?))
}

/// `POST /dashboard/webhooks`: registers an endpoint and shows its signing secret once.
pub async fn create<S: Store>(p: AdminPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let events = subscription(&form)?;
    let n = NewEndpoint {
        url: form.get("url").unwrap_or_default().to_string(),
        events,
        description: form.get("description").map(str::to_string),
    };
    match d.svc.create_endpoint(ctx.data_org(), n).await {
        Ok(e) => {
            let above = html! {
                (secret_box("Endpoint added", &e.secret))
                p { a href={"/dashboard/webhooks/" (e.id.0)} id="open-endpoint" { "Open the endpoint" } }
            };
            Ok(ok(list_page(&d, &ctx, above).await?))
        }
        Err(e) => {
            let why = shown(e)?;
            Ok(super::with_status(400, list_page(&d, &ctx, notice("bad", &why)).await?))
        }
    }
}

async fn endpoint_page<S: Store>(
    d: &Dashboard<S>,
    ctx: &Ctx,
    id: WebhookId,
    query: &Form,
    above: Markup,
) -> Result<Markup, Fail> {
    let org = ctx.data_org();
    let e = d.svc.get_endpoint(org, id).await?;
    let status = query.get("status").and_then(|s| DeliveryStatus::parse(s).ok());
    let event_type = query.get("type").and_then(parse_event_type);
    let before = query.get("before").and_then(|b| uuid::Uuid::parse_str(b).ok()).map(DeliveryId);
    let page = d.svc.list_deliveries(org, id, status, event_type, before, PAGE).await?;
    let base = format!("/dashboard/webhooks/{}", id.0);
    let older = page.items.last().filter(|_| page.has_more).map(|last| {
        let mut q = url::form_urlencoded::Serializer::new(String::new());
        if let Some(s) = status {
            q.append_pair("status", s.as_str());
        }
        if let Some(t) = event_type {
            q.append_pair("type", t.as_str());
        }
        q.append_pair("before", &last.id.0.to_string());
        format!("{base}?{}", q.finish())
    });
    let body = html! {
        (above)
        dl.facts {
            dt { "URL" } dd id="endpoint-url" { (e.url) }
            dt { "Events" } dd { (events_text(&e.events)) }
            dt { "State" } dd id="endpoint-state" { (state(&e)) }
            dt { "Description" } dd { (e.description.as_deref().unwrap_or("-")) }
            dt { "Consecutive failures" } dd { (e.consecutive_failures) }
            dt { "Created" } dd { (when(e.created_at)) }
        }
        p {
            (button_form(&format!("{base}/test"), &ctx.csrf, "Send a test ping", Some("send-test")))
            " "
            (button_form(&format!("{base}/rotate"), &ctx.csrf, "Rotate the signing secret", Some("rotate-secret")))
            " "
            (danger_form(&format!("{base}/delete"), &ctx.csrf, "Delete the endpoint", "delete-endpoint"))
        }
        h2 id="log" { "Delivery log" }
        form.filters method="get" action=(base) {
            div {
                label for="status" { "Status" }
                select id="status" name="status" {
                    option value="" { "any" }
                    @for s in [DeliveryStatus::Pending, DeliveryStatus::Succeeded, DeliveryStatus::Failed] {
                        option value=(s.as_str()) selected[status == Some(s)] { (label(s.as_str())) }
                    }
                }
            }
            div {
                label for="type" { "Event type" }
                select id="type" name="type" {
                    option value="" { "any" }
                    @for t in event_types_sorted() {
                        option value=(t.as_str()) selected[event_type == Some(t)] { (t.as_str()) }
                    }
                }
            }
            button type="submit" id="filter" { "Filter" }
        }
        @if page.items.is_empty() {
            p.muted id="no-deliveries" { "No deliveries." }
        } @else {
            table id="deliveries" {
                thead { tr {
                    th scope="col" { "Created" } th scope="col" { "Event" } th scope="col" { "Status" }
                    th scope="col" { "Attempts" } th scope="col" { "Last answer" } th scope="col" { "Next attempt" }
                } }
                tbody {
                    @for dl in &page.items {
                        tr data-status=(dl.status.as_str()) {
                            td { a href={(base) "/deliveries/" (dl.id.0)} { (when(dl.created_at)) } }
                            td { (dl.event_type.as_str()) }
                            td class={"status-" (dl.status.as_str())} { (label(dl.status.as_str())) }
                            td { (dl.attempts) }
                            td { @if let Some(s) = dl.last_response_status { (s) } @else if let Some(err) = &dl.last_error { (clip(err, 60)) } @else { "-" } }
                            td { (when_opt(dl.next_attempt_at)) }
                        }
                    }
                }
            }
            @if let Some(href) = older { p.pager { a href=(href) { "Older deliveries" } } }
        }
        h2 { "Edit" }
        form.stack method="post" action=(base) {
            (csrf_field(&ctx.csrf))
            label for="url" { "URL" }
            input type="url" id="url" name="url" value=(e.url) required;
            label for="description" { "Description" }
            input type="text" id="description" name="description" value=(e.description.as_deref().unwrap_or("")) maxlength="500";
            (event_fields(Some(&e.events)))
            label { input type="checkbox" name="enabled" value="1" id="enabled" checked[e.enabled]; " Enabled (a disabled endpoint gets no deliveries)" }
            button type="submit" id="save-endpoint" { "Save" }
        }
    };
    Ok(layout(ctx, "/dashboard/webhooks", "Webhook endpoint", body))
}

/// `GET /dashboard/webhooks/{id}` (`?status=&type=&before=` filter and page the log).
pub async fn show<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    require_admin(&ctx)?;
    let query = Form::parse(req.query_string().as_bytes());
    let above = match query.get("done") {
        Some("saved") => notice("good", "Saved."),
        Some("redelivered") => notice("good", "The delivery goes out again now."),
        _ => html! {},
    };
    Ok(ok(endpoint_page(&d, &ctx, webhook_id(&id)?, &query, above).await?))
}

/// `POST /dashboard/webhooks/{id}`: URL, description, events, enabled.
pub async fn update<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let id = webhook_id(&id)?;
    let p = EndpointPatch {
        url: form.get("url").map(str::to_string),
        events: Some(subscription(&form)?),
        description: Some(form.get("description").map(str::to_string)),
        enabled: Some(form.checked("enabled")),
    };
    match d.svc.patch_endpoint(ctx.data_org(), id, p).await {
        Ok(_) => Ok(see_other(&format!("/dashboard/webhooks/{}?done=saved", id.0))),
        Err(e) => {
            let why = shown(e)?;
            let page = endpoint_page(&d, &ctx, id, &Form::default(), notice("bad", &why)).await?;
            Ok(super::with_status(400, page))
        }
    }
}

fn ping_box(r: &PingResult) -> Markup {
    html! {
        section class={"notice " (if r.success { "good" } else { "bad" })} id="ping-result" {
            h2 { @if r.success { "Test ping delivered" } @else { "Test ping failed" } }
            dl.facts {
                dt { "Answer" } dd id="ping-status" { @if let Some(s) = r.response_status { "HTTP " (s) } @else { "none" } }
                dt { "Duration" } dd { (r.duration_ms) " ms" }
                @if let Some(err) = &r.error { dt { "Error" } dd { (err) } }
            }
            @if let Some(b) = &r.response_body { p { "The answer's first bytes:" } pre { (clip(b, ANSWER_CHARS)) } }
        }
    }
}

/// `POST /dashboard/webhooks/{id}/test`: a signed `ping` now (D33); shows the receiver's answer.
pub async fn test<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let id = webhook_id(&id)?;
    let r = d.svc.test_ping(ctx.data_org(), id).await?;
    Ok(ok(endpoint_page(&d, &ctx, id, &Form::default(), ping_box(&r)).await?))
}

/// `POST /dashboard/webhooks/{id}/rotate`: a new signing secret, shown once; the previous one
/// keeps signing for the overlap (D34).
pub async fn rotate<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let id = webhook_id(&id)?;
    let e = d.svc.rotate_secret(ctx.data_org(), id).await?;
    let above = html! {
        (secret_box("Signing secret rotated", &e.secret))
        p { "Requests are signed with both the new and the previous secret for 24 hours." }
    };
    Ok(ok(endpoint_page(&d, &ctx, id, &Form::default(), above).await?))
}

/// `POST /dashboard/webhooks/{id}/delete`.
pub async fn delete<S: Store>(p: AdminPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    d.svc.delete_endpoint(ctx.data_org(), webhook_id(&id)?).await?;
    Ok(see_other("/dashboard/webhooks"))
}

/// `GET /dashboard/webhooks/{id}/deliveries/{delivery}`: the delivery, its payload and attempts.
pub async fn delivery<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    require_admin(&ctx)?;
    let id = webhook_id(&path.0)?;
    let did = uuid::Uuid::parse_str(&path.1).map(DeliveryId).map_err(|_| not_found("Delivery"))?;
    let (dl, attempts) = d.svc.get_delivery(ctx.data_org(), id, did).await?;
    let base = format!("/dashboard/webhooks/{}", id.0);
    let body = html! {
        p { a href=(base) { "Back to the endpoint" } }
        dl.facts {
            dt { "Delivery id" } dd { code { (dl.id.0) } }
            dt { "Event" } dd { (dl.event_type.as_str()) }
            dt { "Status" } dd id="delivery-status" class={"status-" (dl.status.as_str())} { (label(dl.status.as_str())) }
            dt { "Attempts" } dd { (dl.attempts) }
            dt { "Created" } dd { (when(dl.created_at)) }
            dt { "Next attempt" } dd { (when_opt(dl.next_attempt_at)) }
            @if let Some(r) = &dl.request_id { dt { "Caused by request" } dd { code { (r) } } }
        }
        (button_form(&format!("{base}/deliveries/{}/redeliver", dl.id.0), &ctx.csrf, "Redeliver now", Some("redeliver")))
        h2 { "Attempts" }
        @if attempts.is_empty() {
            p.muted { "No attempt yet." }
        } @else {
            table id="attempts" {
                thead { tr { th scope="col" { "Time" } th scope="col" { "Answer" } th scope="col" { "Duration" } th scope="col" { "First bytes of the answer, or the error" } } }
                tbody {
                    @for (at, o) in &attempts {
                        tr {
                            td { (when(*at)) }
                            td { @if let Some(s) = o.status { "HTTP " (s) } @else { "none" } }
                            td { (o.duration_ms) " ms" }
                            td { pre { (clip(o.response_body.as_deref().or(o.error.as_deref()).unwrap_or(""), ANSWER_CHARS)) } }
                        }
                    }
                }
            }
        }
        h2 { "Payload" }
        pre { (clip(&dl.payload, 4000)) }
    };
    Ok(ok(layout(&ctx, "/dashboard/webhooks", "Delivery", body)))
}

/// `POST /dashboard/webhooks/{id}/deliveries/{delivery}/redeliver`: goes out again now with a
/// fresh retry schedule (T59).
pub async fn redeliver<S: Store>(p: AdminPost<S>, path: web::Path<(String, String)>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let id = webhook_id(&path.0)?;
    let did = uuid::Uuid::parse_str(&path.1).map(DeliveryId).map_err(|_| not_found("Delivery"))?;
    d.svc.redeliver(ctx.data_org(), id, did).await?;
    Ok(see_other(&format!("/dashboard/webhooks/{}/deliveries/{}", id.0, did.0)))
}

/// The delete button, styled apart from the others.
fn danger_form(action: &str, csrf: &str, label: &str, id: &str) -> Markup {
    html! {
        form.inline method="post" action=(action) {
            (crate::pages::csrf_field(csrf))
            button.danger type="submit" id=(id) { (label) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T171: the dashboard offers every event type of the domain's one declaration to subscribe
    /// to, alphabetically (T206).
    #[test]
    fn the_event_checkboxes_are_the_declared_event_types_in_alphabetical_order() {
        let page = event_fields(None).into_string();
        let offered: Vec<&str> =
            page.split("name=\"event\" value=\"").skip(1).filter_map(|s| s.split('"').next()).collect();
        let mut declared: Vec<&str> = talent_domain::events::EventType::ALL.iter().map(|t| t.as_str()).collect();
        declared.sort();
        assert_eq!(offered, declared);
    }

    #[test]
    fn enumeration_values_read_as_words() {
        assert_eq!(label("not_started"), "Not started");
        assert_eq!(label("access_request"), "Access request");
        assert_eq!(label("succeeded"), "Succeeded");
        assert_eq!(label(""), "");
    }
}
