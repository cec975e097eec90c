//! What a handler answers when it cannot show its page ([`Fail`]), the signed-in context of a
//! request ([`Ctx`]) and the checks every POST makes (session, CSRF token).

use crate::form::Form;
use crate::{csrf, pages, Dashboard, MODE_COOKIE, PRESESSION_COOKIE, SESSION_COOKIE};
use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpRequest, HttpResponse, ResponseError};
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use talent_domain::dashboard::Signed;
use talent_domain::errors::{ClientError, Code, StoreError, UseCaseError};
use talent_domain::ids::OrgId;
use talent_domain::organization::Organization;
use talent_domain::ports::{RateSubject, Store};

/// Why a page is not shown. Each is a page of its own (never a 500 for anything a client does).
#[derive(Debug)]
pub enum Fail {
    /// No valid session: to the sign-in page (303).
    SignIn,
    /// A POST without the form's CSRF token, or with another's (403).
    Csrf,
    /// The use case refused (its status: 400, 403, 404, 409, 429).
    Client(ClientError),
    /// The client IP is over its budget of failed sign-ins (429, `Retry-After` seconds).
    TooMany(u64),
    /// The database is away for now (503).
    Unavailable,
    /// Anything else (500; the cause is not shown).
    Internal,
}

impl std::fmt::Display for Fail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl From<UseCaseError> for Fail {
    fn from(e: UseCaseError) -> Self {
        match e {
            UseCaseError::Client(c) => Fail::Client(c),
            UseCaseError::Store(StoreError::Unavailable(_)) => Fail::Unavailable,
            UseCaseError::Store(_) | UseCaseError::Internal(_) => Fail::Internal,
        }
    }
}

impl From<StoreError> for Fail {
    fn from(e: StoreError) -> Self {
        Fail::from(UseCaseError::from(e))
    }
}

impl Fail {
    /// The page's title and text.
    fn text(&self) -> (&'static str, String) {
        match self {
            Fail::SignIn => ("Sign in", "Sign in to continue.".into()),
            Fail::Csrf => (
                "Form expired",
                "This form was not sent by this page of the dashboard (its security token is missing or \
                 wrong). Go back, reload the page and try again."
                    .into(),
            ),
            Fail::Client(c) => (
                match c.code {
                    Code::NotFound => "Not found",
                    Code::RateLimited => "Too many requests",
                    Code::InsufficientScope => "Not allowed",
                    Code::ValidationError => "Check the form",
                    _ => "Not possible",
                },
                describe(c),
            ),
            Fail::TooMany(_) => {
                ("Too many attempts", "Too many failed sign-ins from your address. Wait a minute and try again.".into())
            }
            Fail::Unavailable => {
                ("Unavailable", "The service is briefly unavailable. Try again in a few seconds.".into())
            }
            Fail::Internal => ("Something went wrong", "Something went wrong on our side. Try again.".into()),
        }
    }
}

/// A use case's error as the sentence a form shows: a refusal is [`describe`]d; anything else
/// (the store, an internal failure) stays a [`Fail`] for the error page.
pub fn shown(e: UseCaseError) -> Result<String, Fail> {
    match e {
        UseCaseError::Client(c) => Ok(describe(&c)),
        e => Err(e.into()),
    }
}

/// A use case's refusal as one sentence, with the fields of a validation error.
pub fn describe(c: &ClientError) -> String {
    let fields: Vec<String> = c
        .details
        .as_ref()
        .and_then(|d| d.get("fields"))
        .and_then(|f| f.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|e| Some(format!("{}: {}", e.get("field")?.as_str()?, e.get("message")?.as_str()?)))
                .collect()
        })
        .unwrap_or_default();
    if fields.len() > 1 {
        format!("{} ({})", c.message, fields.join("; "))
    } else {
        c.message.clone()
    }
}

impl ResponseError for Fail {
    fn status_code(&self) -> StatusCode {
        let code = match self {
            Fail::SignIn => 303,
            Fail::Csrf => 403,
            Fail::Client(c) => c.code.status(),
            Fail::TooMany(_) => 429,
            Fail::Unavailable => 503,
            Fail::Internal => 500,
        };
        StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        if let Fail::SignIn = self {
            return see_other("/dashboard/sign-in");
        }
        let (title, text) = self.text();
        let mut r = HttpResponse::build(self.status_code());
        let retry = match self {
            Fail::TooMany(s) => Some(*s),
            Fail::Client(c) => c.retry_after.map(u64::from),
            Fail::Unavailable => Some(1),
            _ => None,
        };
        if let Some(s) = retry {
            r.insert_header((header::RETRY_AFTER, s.max(1).to_string()));
        }
        r.content_type("text/html; charset=utf-8").body(pages::message_page(title, &text).into_string())
    }
}

/// 303 See Other to `to` (after a POST, and to the sign-in page).
pub fn see_other(to: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, to)).finish()
}

/// The dashboard's 404 page.
pub async fn not_found() -> HttpResponse {
    Fail::Client(ClientError::not_found("Page")).error_response()
}

/// A signed-in request: who, the token its forms carry, and the mode its pages show.
pub struct Ctx {
    /// The session with its user and organization.
    pub who: Signed,
    /// The CSRF token of the session's forms.
    pub csrf: String,
    /// In test mode (D60), the organization's test twin, whose data the persons, invitations,
    /// webhooks and overview pages show and change; `None` in live mode.
    pub test: Option<Organization>,
}

impl Ctx {
    /// The organization whose data the pages show: the test twin in test mode, else the
    /// session's organization. Settings, keys and connections are always the organization's.
    pub fn data_org(&self) -> OrgId {
        self.test.as_ref().map_or(self.who.org_id(), |t| t.id)
    }
}

/// The session of `req`, in test mode when its [`MODE_COOKIE`] says `test` and the
/// organization has test data. Errors: [`Fail::SignIn`] without a valid one.
pub async fn signed<S: Store>(d: &Dashboard<S>, req: &HttpRequest) -> Result<Ctx, Fail> {
    let Some(cookie) = req.cookie(SESSION_COOKIE) else { return Err(Fail::SignIn) };
    let Some(who) = d.svc.session(cookie.value()).await? else { return Err(Fail::SignIn) };
    let csrf = csrf::for_session(&d.csrf_key, who.session.id);
    // The cookie only chooses between the session organization's own two sets of data.
    let test = match req.cookie(MODE_COOKIE) {
        Some(c) if c.value() == "test" => d.svc.test_twin_of(who.org_id()).await?,
        _ => None,
    };
    Ok(Ctx { who, csrf, test })
}

/// A signed-in POST: the session, then the form's CSRF token. Errors: [`Fail::SignIn`],
/// [`Fail::Csrf`].
pub async fn post<S: Store>(d: &Dashboard<S>, req: &HttpRequest, body: &[u8]) -> Result<(Ctx, Form), Fail> {
    let ctx = signed(d, req).await?;
    let form = Form::parse(body);
    let token = form.get("csrf").unwrap_or_default();
    if !csrf::check_session(&d.csrf_key, ctx.who.session.id, token) {
        return Err(Fail::Csrf);
    }
    Ok((ctx, form))
}

/// Who may send a form: [`Member`] (any signed-in user) or [`Admin`].
pub trait Role: 'static {
    /// Refuses a context this role does not admit (403).
    fn admit(ctx: &Ctx) -> Result<(), Fail>;
}

/// Any signed-in user of the organization.
pub struct Member;

/// An administrator of the organization (the webhook and settings pages).
pub struct Admin;

impl Role for Member {
    fn admit(_: &Ctx) -> Result<(), Fail> {
        Ok(())
    }
}

impl Role for Admin {
    fn admit(ctx: &Ctx) -> Result<(), Fail> {
        require_admin(ctx)
    }
}

/// A signed-in POST as a handler argument: the dashboard, the request, the session and the form,
/// read and checked as [`post`] does (then the role). Errors: what reading the body answers,
/// [`Fail::SignIn`], [`Fail::Csrf`], 403 for a role that is not admitted.
pub struct Posted<S: Store, R: Role> {
    /// The dashboard's state.
    pub d: web::Data<Dashboard<S>>,
    /// The request (its client address, cookies).
    pub req: HttpRequest,
    /// The session.
    pub ctx: Ctx,
    /// The form, its CSRF token checked.
    pub form: Form,
    role: PhantomData<R>,
}

/// Any signed-in user's form.
pub type MemberPost<S> = Posted<S, Member>;
/// An administrator's form.
pub type AdminPost<S> = Posted<S, Admin>;

impl<S: Store, R: Role> FromRequest for Posted<S, R> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let body = web::Bytes::from_request(&req, payload);
        Box::pin(async move {
            let body = body.await?;
            let d = req.app_data::<web::Data<Dashboard<S>>>().cloned().ok_or(Fail::Internal)?;
            let (ctx, form) = post(&d, &req, &body).await?;
            R::admit(&ctx)?;
            Ok(Posted { d, req, ctx, form, role: PhantomData })
        })
    }
}

/// 403 unless the user is an administrator (the webhook and settings pages).
pub fn require_admin(ctx: &Ctx) -> Result<(), Fail> {
    talent_domain::usecases::dashboard::require_admin(&ctx.who).map_err(Fail::Client)
}

/// A POST of the sign-in forms: checks the token against the pre-session cookie. Errors:
/// [`Fail::Csrf`].
pub fn presession_post<S: Store>(d: &Dashboard<S>, req: &HttpRequest, body: &[u8]) -> Result<Form, Fail> {
    let form = Form::parse(body);
    let cookie = req.cookie(PRESESSION_COOKIE).map(|c| c.value().to_string()).unwrap_or_default();
    if !csrf::check_presession(&d.csrf_key, &cookie, form.get("csrf").unwrap_or_default()) {
        return Err(Fail::Csrf);
    }
    Ok(form)
}

/// Refuses a client IP over its budget of failed authentications (D8) before any work.
pub async fn not_blocked<S: Store>(d: &Dashboard<S>, req: &HttpRequest) -> Result<(), Fail> {
    match d.limiter.blocked((d.client_ip)(req)).await {
        Some(decision) => Err(Fail::TooMany(decision.retry_after_secs.unwrap_or(60))),
        None => Ok(()),
    }
}

/// Counts a failed sign-in against the client IP's budget (D8).
pub async fn count_failure<S: Store>(d: &Dashboard<S>, req: &HttpRequest) {
    let ip = (d.client_ip)(req);
    let _ = d.limiter.check(RateSubject::Ip(ip)).await;
}
