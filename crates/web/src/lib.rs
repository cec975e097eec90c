//! The dashboard (issue 18, T122): server-rendered HTML pages where the users of an organization
//! sign in with an emailed one-time link, create and revoke API keys, manage webhook endpoints and
//! read their delivery log, look at persons and invitations, and (administrators) change the
//! organization's settings. An adapter like the HTTP API: it calls the domain's use cases
//! directly, never the API over the network, and depends on the domain only. The app crate mounts
//! [`configure`] at `/dashboard` with a [`Dashboard`] as app data.
//!
//! Security, in one place:
//! - Sessions are rows ([`talent_domain::dashboard::Session`], 12 hours); the cookie
//!   [`SESSION_COOKIE`] carries the token (only its SHA-256 is stored), `HttpOnly`,
//!   `SameSite=Lax`, `Path=/dashboard`, `Secure` when the public URL is https.
//! - Every form carries a CSRF token ([`csrf`]): an HMAC of the session id (signed in) or of a
//!   pre-session cookie (the sign-in forms), checked in constant time on every POST.
//! - Failed sign-ins (a link that is unknown, expired or used; a request for an address that is no
//!   user's) count against the client IP's budget of failed authentications (D8), shared with the
//!   API; the per-address limit is the use case's (5 links in 15 minutes).
//! - Every response carries a strict Content-Security-Policy (no inline script or style),
//!   `Referrer-Policy: no-referrer` (the sign-in link's token never leaves in a Referer),
//!   `X-Frame-Options: DENY` and `Cache-Control: no-store`. maud escapes everything it shows.

pub mod csrf;
pub mod form;
pub mod markdown;
pub mod pages;
pub mod respond;

use actix_web::http::header;
use actix_web::{middleware::DefaultHeaders, web, HttpRequest, HttpResponse};
use std::net::IpAddr;
use std::sync::Arc;
use talent_domain::ports::{RateLimiter, Store};
use talent_domain::Services;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "talent_session";
/// The pre-session cookie of the sign-in forms' CSRF token.
pub const PRESESSION_COOKIE: &str = "talent_presession";
/// The cookie of the dashboard's mode: `test` shows the organization's test data (D60), anything
/// else (or none) its live data.
pub const MODE_COOKIE: &str = "talent_mode";

/// The client address of a request (the app wires the HTTP layer's trusted-proxy rule, T98).
pub type ClientIp = Arc<dyn Fn(&HttpRequest) -> IpAddr + Send + Sync>;

/// What the dashboard's handlers share (app data).
pub struct Dashboard<S: Store> {
    /// The use cases.
    pub svc: Services<S>,
    /// Cookies get `Secure` (the public URL is https).
    pub secure_cookies: bool,
    /// The key of the CSRF tokens' HMAC (a server secret kept in the database).
    pub csrf_key: ring::hmac::Key,
    /// The budgets of failed authentications per client IP (D8), shared with the API.
    pub limiter: Arc<dyn RateLimiter>,
    /// The client address of a request.
    pub client_ip: ClientIp,
}

impl<S: Store> Dashboard<S> {
    /// A dashboard over `svc`; `csrf_secret` keys the CSRF tokens (any length, random).
    pub fn new(svc: Services<S>, csrf_secret: &[u8], limiter: Arc<dyn RateLimiter>, client_ip: ClientIp) -> Self {
        let secure_cookies = svc.invites.public_url.starts_with("https://");
        Dashboard {
            svc,
            secure_cookies,
            csrf_key: ring::hmac::Key::new(ring::hmac::HMAC_SHA256, csrf_secret),
            limiter,
            client_ip,
        }
    }
}

const CSP: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; \
                   frame-ancestors 'none'; base-uri 'none'";

/// Registers the dashboard's routes; mount under `/dashboard` with `web::Data<Dashboard<S>>`.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    use pages::*;
    cfg.service(
        web::scope("")
            .wrap(
                DefaultHeaders::new()
                    .add((header::CONTENT_SECURITY_POLICY, CSP))
                    .add((header::REFERRER_POLICY, "no-referrer"))
                    .add((header::X_FRAME_OPTIONS, "DENY"))
                    .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
                    .add((header::CACHE_CONTROL, "no-store")),
            )
            .route("/static/app.css", web::get().to(assets::css))
            .route("/static/app.js", web::get().to(assets::js))
            .route("/sign-in", web::get().to(sign_in::form::<S>))
            .route("/sign-in", web::post().to(sign_in::request::<S>))
            .route("/sign-in/{token}", web::get().to(sign_in::choices::<S>))
            .route("/sign-in/{token}", web::post().to(sign_in::complete::<S>))
            .route("/sign-out", web::post().to(sign_in::sign_out::<S>))
            .route("/mode", web::post().to(sign_in::switch_mode::<S>))
            .route("/", web::get().to(overview::show::<S>))
            .route("/keys", web::get().to(keys::list::<S>))
            .route("/keys", web::post().to(keys::create::<S>))
            .route("/keys/{id}/revoke", web::post().to(keys::revoke::<S>))
            .route("/webhooks", web::get().to(webhooks::list::<S>))
            .route("/webhooks", web::post().to(webhooks::create::<S>))
            .route("/webhooks/{id}", web::get().to(webhooks::show::<S>))
            .route("/webhooks/{id}", web::post().to(webhooks::update::<S>))
            .route("/webhooks/{id}/test", web::post().to(webhooks::test::<S>))
            .route("/webhooks/{id}/rotate", web::post().to(webhooks::rotate::<S>))
            .route("/webhooks/{id}/delete", web::post().to(webhooks::delete::<S>))
            .route("/webhooks/{id}/deliveries/{delivery}", web::get().to(webhooks::delivery::<S>))
            .route("/webhooks/{id}/deliveries/{delivery}/redeliver", web::post().to(webhooks::redeliver::<S>))
            .route("/persons", web::get().to(persons::list::<S>))
            .route("/persons/{id}", web::get().to(persons::show::<S>))
            .route("/persons/{id}/report", web::get().to(persons::report::<S>))
            .route("/persons/{id}/teams", web::post().to(persons::add_to_team::<S>))
            .route("/persons/{id}/teams/{team}/remove", web::post().to(persons::remove_from_team::<S>))
            .route("/invitations", web::get().to(invitations::list::<S>))
            .route("/invitations", web::post().to(invitations::create::<S>))
            .route("/invitations/{id}/resend", web::post().to(invitations::resend::<S>))
            .route("/invitations/{id}/revoke", web::post().to(invitations::revoke::<S>))
            .route("/settings", web::get().to(settings::show::<S>))
            .route("/settings/domains", web::post().to(settings::domains::<S>))
            .route("/settings/candidates", web::post().to(settings::candidates::<S>))
            .route("/settings/teams", web::post().to(settings::create_team::<S>))
            .route("/settings/users", web::post().to(settings::invite_user::<S>))
            .route("/settings/users/{id}/role", web::post().to(settings::change_role::<S>))
            .route("/settings/users/{id}/remove", web::post().to(settings::remove_user::<S>))
            .route("/settings/connections", web::get().to(connections::list::<S>))
            .route("/settings/connections", web::post().to(connections::create::<S>))
            .route("/settings/connections/{id}", web::get().to(connections::show::<S>))
            .route("/settings/connections/{id}/disable", web::post().to(connections::disable::<S>))
            .route("/settings/connections/{id}/enable", web::post().to(connections::enable::<S>))
            .route("/settings/connections/{id}/delete", web::post().to(connections::delete::<S>))
            .route("/settings/connections/{id}/pushes/{push}", web::get().to(connections::push::<S>))
            .route("/settings/connections/{id}/pushes/{push}/redeliver", web::post().to(connections::redeliver::<S>))
            .default_service(web::to(respond::not_found)),
    );
}

/// `/dashboard` without the slash: the overview.
pub async fn to_overview() -> HttpResponse {
    respond::see_other("/dashboard/")
}
