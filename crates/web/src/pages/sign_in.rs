//! Sign-in without passwords (issue 18): the email form, the emailed link's page (one button per
//! organization the address is a user of; opening it does not use the link, so mail scanners that
//! follow links cannot spend it), the POST that uses the link and starts the session, sign-out.

use super::{bare, csrf_field, message_page, ok};
use crate::respond::{count_failure, not_blocked, presession_post, see_other, Fail, MemberPost, Posted};
use crate::{csrf, Dashboard, PRESESSION_COOKIE, SESSION_COOKIE};
use actix_web::cookie::{time::Duration as CookieDuration, Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use talent_domain::dashboard::{LinkProblem, LINK_TTL, SESSION_TTL};
use talent_domain::ids::OrgId;
use talent_domain::ports::Store;
use talent_domain::usecases::dashboard::SignInError;
use talent_domain::values::Email;

fn cookie<'c>(d: &Dashboard<impl Store>, name: &'c str, value: String, max_age: CookieDuration) -> Cookie<'c> {
    Cookie::build(name, value)
        .path("/dashboard")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(d.secure_cookies)
        .max_age(max_age)
        .finish()
}

/// The pre-session cookie's value: the request's, or a new one to set.
fn presession<S: Store>(d: &Dashboard<S>, req: &HttpRequest) -> (String, Option<Cookie<'static>>) {
    match req.cookie(PRESESSION_COOKIE).map(|c| c.value().to_string()).filter(|v| v.len() >= 32) {
        Some(v) => (v, None),
        None => {
            let v = d.svc.secrets.random_token(32);
            let c = cookie(d, PRESESSION_COOKIE, v.clone(), CookieDuration::hours(1));
            (v, Some(c))
        }
    }
}

fn with_cookie(status: StatusCode, markup: Markup, c: Option<Cookie<'static>>) -> HttpResponse {
    let mut r = HttpResponse::build(status);
    if let Some(c) = c {
        r.cookie(c);
    }
    r.content_type("text/html; charset=utf-8").body(markup.into_string())
}

fn email_form(token: &str, error: Option<&str>, value: &str) -> Markup {
    bare(
        "Sign in",
        html! {
            p { "Enter the email address you use at your organization. We send you a link that signs you in; it works once, within " (LINK_TTL.whole_minutes()) " minutes." }
            @if let Some(e) = error { p.notice.bad role="alert" { (e) } }
            form.stack method="post" action="/dashboard/sign-in" {
                (csrf_field(token))
                label for="email" { "Email address" }
                input type="email" id="email" name="email" required autocomplete="email" value=(value);
                button type="submit" id="send-link" { "Email me a sign-in link" }
            }
        },
    )
}

/// `GET /dashboard/sign-in`: the email form (to the overview when signed in already).
pub async fn form<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    if crate::respond::signed(&d, &req).await.is_ok() {
        return Ok(see_other("/dashboard/"));
    }
    let (value, set) = presession(&d, &req);
    let token = csrf::for_presession(&d.csrf_key, &value);
    Ok(with_cookie(StatusCode::OK, email_form(&token, None, ""), set))
}

/// `POST /dashboard/sign-in`: asks for a link. The answer is the same whether the address is a
/// user's or not; a request for an unknown address counts as a failed sign-in of the client IP.
pub async fn request<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, Fail> {
    not_blocked(&d, &req).await?;
    let form = presession_post(&d, &req, &body)?;
    let raw = form.get("email").unwrap_or_default().to_string();
    let email = match Email::parse(&raw) {
        Ok(e) => e,
        Err(why) => {
            let (value, _) = presession(&d, &req);
            let token = csrf::for_presession(&d.csrf_key, &value);
            let page = email_form(&token, Some(&format!("The email address {why}.")), &raw);
            return Ok(with_cookie(StatusCode::BAD_REQUEST, page, None));
        }
    };
    let sent = d.svc.request_sign_in(email.clone()).await?;
    if !sent.known {
        count_failure(&d, &req).await;
    }
    Ok(ok(bare(
        "Check your email",
        html! {
            p role="status" { "If " strong { (email.as_str()) } " is the address of a user of an organization, a sign-in link is on its way. It works once, within " (LINK_TTL.whole_minutes()) " minutes." }
            p { a href="/dashboard/sign-in" { "Use another address" } }
        },
    )))
}

fn link_problem(p: LinkProblem) -> HttpResponse {
    let (status, title, text) = match p {
        LinkProblem::Unknown => (
            StatusCode::NOT_FOUND,
            "Link not valid",
            "This sign-in link is not valid. Check that you opened the whole link from the email, or ask for a new one.",
        ),
        LinkProblem::Expired => (
            StatusCode::GONE,
            "Link expired",
            "This sign-in link has expired: links work for 15 minutes. Ask for a new one.",
        ),
        LinkProblem::Used => (
            StatusCode::GONE,
            "Link already used",
            "This sign-in link was used already: each link works once. Ask for a new one.",
        ),
    };
    let page = bare(
        title,
        html! {
            p role="alert" { (text) }
            p { a href="/dashboard/sign-in" id="new-link" { "Ask for a new sign-in link" } }
        },
    );
    with_cookie(status, page, None)
}

/// `GET /dashboard/sign-in/{token}`: the link's page; does not use the link.
pub async fn choices<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    token: web::Path<String>,
) -> Result<HttpResponse, Fail> {
    not_blocked(&d, &req).await?;
    let choices = match d.svc.sign_in_choices(&token).await {
        Ok(c) => c,
        Err(SignInError::Link(p)) => {
            count_failure(&d, &req).await;
            return Ok(link_problem(p));
        }
        Err(SignInError::NotOffered) => return Err(Fail::Client(not_offered())),
        Err(SignInError::Other(e)) => return Err(e.into()),
    };
    if choices.organizations.is_empty() {
        return Ok(ok(message_page("No organization", "This address is no longer a user of any organization.")));
    }
    let (value, set) = presession(&d, &req);
    let csrf_token = csrf::for_presession(&d.csrf_key, &value);
    let action = format!("/dashboard/sign-in/{}", token.as_str());
    let page = bare(
        "Sign in",
        html! {
            p { "Signing in as " strong { (choices.email.as_str()) } "." }
            @for (id, name) in &choices.organizations {
                form.stack method="post" action=(action) {
                    (csrf_field(&csrf_token))
                    input type="hidden" name="org" value=(id.0.to_string());
                    button type="submit" class="sign-in-to" { "Sign in to " (name) }
                }
            }
        },
    );
    Ok(with_cookie(StatusCode::OK, page, set))
}

fn not_offered() -> talent_domain::errors::ClientError {
    talent_domain::errors::ClientError::new(
        talent_domain::errors::Code::ValidationError,
        "This link does not sign in to that organization",
    )
}

/// `POST /dashboard/sign-in/{token}`: uses the link and starts the session (cookie), then to the
/// overview.
pub async fn complete<S: Store>(
    d: web::Data<Dashboard<S>>,
    req: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, Fail> {
    not_blocked(&d, &req).await?;
    let form = presession_post(&d, &req, &body)?;
    let org = form
        .get("org")
        .and_then(|o| uuid::Uuid::parse_str(o).ok())
        .map(OrgId)
        .ok_or_else(|| Fail::Client(not_offered()))?;
    let started = match d.svc.sign_in(&token, org).await {
        Ok(s) => s,
        Err(SignInError::Link(p)) => {
            count_failure(&d, &req).await;
            return Ok(link_problem(p));
        }
        Err(SignInError::NotOffered) => return Err(Fail::Client(not_offered())),
        Err(SignInError::Other(e)) => return Err(e.into()),
    };
    let session = cookie(&d, SESSION_COOKIE, started.token, CookieDuration::seconds(SESSION_TTL.whole_seconds()));
    let mut gone = cookie(&d, PRESESSION_COOKIE, String::new(), CookieDuration::ZERO);
    gone.make_removal();
    Ok(HttpResponse::SeeOther()
        .insert_header((actix_web::http::header::LOCATION, "/dashboard/"))
        .cookie(session)
        .cookie(gone)
        .finish())
}

/// `POST /dashboard/sign-out`: ends the session (the cookie no longer works anywhere).
pub async fn sign_out<S: Store>(p: MemberPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    d.svc.sign_out(ctx.who.session.id).await?;
    let mut gone = cookie(&d, SESSION_COOKIE, String::new(), CookieDuration::ZERO);
    gone.make_removal();
    let page = bare(
        "Signed out",
        html! {
            p role="status" { "You are signed out." }
            p { a href="/dashboard/sign-in" { "Sign in again" } }
        },
    );
    Ok(HttpResponse::Ok().cookie(gone).content_type("text/html; charset=utf-8").body(page.into_string()))
}

/// Where the mode switch returns: the page it was sent from when that is a dashboard page (no
/// other site, no other scheme), else the overview.
fn back_to(form: &crate::form::Form) -> String {
    match form.get("back") {
        Some(b)
            if (b == "/dashboard" || b.starts_with("/dashboard/"))
                && !b.contains("//")
                && !b.contains('\\')
                && b.chars().all(|c| c.is_ascii_graphic()) =>
        {
            b.to_string()
        }
        _ => "/dashboard/".to_string(),
    }
}

/// `POST /dashboard/mode` (D60): `mode=test` shows the organization's test data (made on first
/// use), `mode=live` its live data; the choice is kept in [`crate::MODE_COOKIE`] for the
/// session's length and the browser returns to the page it came from.
pub async fn switch_mode<S: Store>(p: MemberPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let test = form.get("mode") == Some("test");
    if test {
        d.svc.ensure_test_twin(ctx.who.org_id()).await?;
    }
    let value = if test { "test" } else { "live" };
    let c = cookie(&d, crate::MODE_COOKIE, value.to_string(), CookieDuration::seconds(SESSION_TTL.whole_seconds()));
    Ok(HttpResponse::SeeOther().cookie(c).insert_header((actix_web::http::header::LOCATION, back_to(&form))).finish())
}
