//! The pages: one module per area, the layout and small shared pieces here. Templates are maud
//! (compile-time, escaping everything it prints).

pub mod assets;
pub mod connections;
pub mod invitations;
pub mod keys;
pub mod overview;
pub mod persons;
pub mod settings;
pub mod sign_in;
pub mod webhooks;

use crate::respond::Ctx;
use actix_web::HttpResponse;
use maud::{html, Markup, DOCTYPE};
use time::OffsetDateTime;

/// The sections of the navigation: (path, label, administrators only).
const NAV: [(&str, &str, bool); 6] = [
    ("/dashboard/", "Overview", false),
    ("/dashboard/keys", "API keys", false),
    ("/dashboard/webhooks", "Webhooks", true),
    ("/dashboard/persons", "Persons", false),
    ("/dashboard/invitations", "Invitations", false),
    ("/dashboard/settings", "Settings", true),
];

fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) " · Talent dashboard" }
            link rel="stylesheet" href="/dashboard/static/app.css";
            script src="/dashboard/static/app.js" defer {}
        }
    }
}

/// A signed-in page: navigation (the current section marked), the organization and user, a
/// sign-out button, and `body` under an `h1` of `title`.
pub fn layout(ctx: &Ctx, section: &str, title: &str, body: Markup) -> Markup {
    let admin = ctx.who.is_admin();
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body class=[ctx.test.as_ref().map(|_| "test-mode")] {
                a.skip href="#main" { "Skip to content" }
                header.top {
                    span.brand { "Talent" }
                    nav aria-label="Dashboard" {
                        ul {
                            @for (path, label, admin_only) in NAV {
                                @if admin || !admin_only {
                                    li {
                                        @if *path == *section {
                                            a href=(path) aria-current="page" { (label) }
                                        } @else {
                                            a href=(path) { (label) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    div.mode {
                        form method="post" action="/dashboard/mode" {
                            (csrf_field(&ctx.csrf))
                            input type="hidden" name="back" value=(section);
                            @if ctx.test.is_some() {
                                input type="hidden" name="mode" value="live";
                                span id="mode" { "Test data" } " "
                                button type="submit" id="switch-mode" { "Show live data" }
                            } @else {
                                input type="hidden" name="mode" value="test";
                                span id="mode" { "Live data" } " "
                                button type="submit" id="switch-mode" { "Show test data" }
                            }
                        }
                    }
                    div.who {
                        span { (ctx.who.org.company_name) " · " (ctx.who.user.email.as_str()) " (" (label(ctx.who.user.role.as_str())) ")" }
                        form method="post" action="/dashboard/sign-out" {
                            (csrf_field(&ctx.csrf))
                            button type="submit" id="sign-out" { "Sign out" }
                        }
                    }
                }
                main id="main" {
                    h1 { (title) }
                    @if ctx.test.is_some() {
                        p.notice.test id="mode-banner" {
                            strong { "Test data." }
                            " Persons, invitations and webhooks on these pages are your organization's test data: they never touch live data, and their emails are recorded, not sent. Settings, API keys and connections are the same in both modes."
                        }
                    }
                    (body)
                }
            }
        }
    }
}

/// A page without navigation (sign-in, errors).
pub fn bare(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body {
                main id="main" .narrow {
                    p.brand { "Talent" }
                    h1 { (title) }
                    (body)
                }
            }
        }
    }
}

/// The page of a [`crate::respond::Fail`].
pub fn message_page(title: &str, text: &str) -> Markup {
    bare(
        title,
        html! {
            p role="alert" { (text) }
            p { a href="/dashboard/" { "Back to the dashboard" } }
        },
    )
}

/// The hidden CSRF field every form carries.
pub fn csrf_field(token: &str) -> Markup {
    html! { input type="hidden" name="csrf" value=(token); }
}

/// A one-button form posting to `action` (revoke, redeliver, ...).
pub fn button_form(action: &str, csrf: &str, label: &str, id: Option<&str>) -> Markup {
    html! {
        form.inline method="post" action=(action) {
            (csrf_field(csrf))
            button type="submit" id=[id] { (label) }
        }
    }
}

/// A notice above a page's content (the outcome of the last action).
pub fn notice(kind: &str, text: &str) -> Markup {
    html! { p class={"notice " (kind)} role="status" { (text) } }
}

/// A timestamp as shown: `2026-11-25 12:00 UTC`.
pub fn when(t: OffsetDateTime) -> String {
    format!("{:04}-{:02}-{:02} {:02}:{:02} UTC", t.year(), u8::from(t.month()), t.day(), t.hour(), t.minute())
}

/// An optional timestamp; `-` when absent.
pub fn when_opt(t: Option<OffsetDateTime>) -> String {
    t.map(when).unwrap_or_else(|| "-".into())
}

/// A 200 HTML response.
pub fn ok(markup: Markup) -> HttpResponse {
    with_status(200, markup)
}

/// An HTML response with `status` (a page that shows a refusal keeps the refusal's status).
pub fn with_status(status: u16, markup: Markup) -> HttpResponse {
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap_or_default())
        .content_type("text/html; charset=utf-8")
        .body(markup.into_string())
}

/// At most `n` characters of `s`, with an ellipsis when cut.
/// An enumeration's wire value as people read it: `not_started` is "Not started",
/// `access_request` "Access request". Forms and filters keep the wire value.
pub fn label(raw: &str) -> String {
    let spaced = raw.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}

/// The event types as the dashboard lists them: alphabetically by name.
pub fn event_types_sorted() -> Vec<talent_domain::events::EventType> {
    let mut all = talent_domain::webhook::EVENT_TYPES.to_vec();
    all.sort_by_key(|t| t.as_str());
    all
}

pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}
