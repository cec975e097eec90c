//! The person-facing pages `GET`/`POST /i/{token}` (D20, D43) in the person's language (issue 37,
//! T217-T219): the invitation's `locale`, else the reader's `Accept-Language`, else the
//! organization's default. Dates in the person's time zone; the accommodations the invitation
//! grants (T218); after accepting, a thank-you page or the way on to the invitation's
//! `redirectUrl` (T219).

use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use talent_domain::consent::{self, Refusal};
use talent_domain::errors::{Code, UseCaseError};
use talent_domain::invitation::{InvitationStatus, Variant};
use talent_domain::ports::{RateSubject, Store, TextArg, Texts};
use talent_domain::usecases::accommodation_lines;
use talent_domain::usecases::invitations::{InvitationPage, PageAnswer};
use talent_domain::values::Locale;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// The security headers of every response under `/i/{token}` (issue 12), pages and errors alike:
/// no scripts, no framing, no sniffing, no referrer (the token is in the URL), nothing cached.
/// The pages' only resource is their inline style sheet; their only form posts to the page itself.
pub fn page_headers() -> actix_web::middleware::DefaultHeaders {
    actix_web::middleware::DefaultHeaders::new()
        .add((
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ))
        .add(("X-Frame-Options", "DENY"))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "no-referrer"))
        .add(("Cache-Control", "no-store"))
        .add(("Vary", "Accept-Language"))
}

/// The words of one page: its locale and the texts.
struct Words<'a> {
    texts: &'a dyn Texts,
    locale: Locale,
}

impl Words<'_> {
    /// The message `key`, HTML-escaped.
    fn t(&self, key: &str, args: &[(&str, TextArg<'_>)]) -> String {
        esc(&self.texts.message(self.locale, key, args))
    }

    fn page(
        &self,
        status: StatusCode,
        title_key: &str,
        title_args: &[(&str, TextArg<'_>)],
        body: &str,
    ) -> HttpResponse {
        self.page_with(status, &self.t(title_key, title_args), body, "")
    }

    /// A page: `title` and `body` are HTML already; `head` is added to the head.
    fn page_with(&self, status: StatusCode, title: &str, body: &str, head: &str) -> HttpResponse {
        let html = format!(
            "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{head}\
<title>{title}</title><style>body{{font-family:system-ui,\"Noto Sans\",\"Noto Sans CJK JP\",\"Noto Sans CJK SC\",sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}}\
button{{font-size:1rem;padding:.6rem 1.2rem;background:#1f5fbf;color:#fff;border:0;border-radius:.3rem;cursor:pointer}}\
label{{display:block;margin:1rem 0}}.granted{{background:#eef4fb;border-left:.25rem solid #1f5fbf;padding:.5rem 1rem}}</style></head>\
<body><main><h1>{title}</h1>{body}</main></body></html>",
            lang = self.locale.as_str(),
        );
        // Served under `/i/{token}` only, whose [`page_headers`] add `Cache-Control` and the rest.
        HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .insert_header(("Content-Language", self.locale.as_str()))
            .body(html)
    }

    fn status_page(&self, st: InvitationStatus, company: &str) -> HttpResponse {
        let c = [("company", TextArg::Text(company))];
        let (title, body) = match st {
            InvitationStatus::Accepted => ("page-used-title", "page-used-body"),
            InvitationStatus::Expired => ("page-expired-title", "page-expired-body"),
            InvitationStatus::Revoked => ("page-withdrawn-title", "page-withdrawn-body"),
            InvitationStatus::Pending => ("page-invitation-title", "page-invitation-title"),
        };
        let status = if st == InvitationStatus::Pending { StatusCode::OK } else { StatusCode::GONE };
        self.page(status, title, &c, &format!("<p>{}</p>", self.t(body, &c)))
    }

    fn not_found_page(&self) -> HttpResponse {
        self.page(
            StatusCode::NOT_FOUND,
            "page-not-found-title",
            &[],
            &format!("<p>{}</p>", self.t("page-not-found-body", &[])),
        )
    }

    fn error_page(&self, e: UseCaseError) -> HttpResponse {
        let (status, title, body) = match e.code() {
            Some(Code::NotFound) => return self.not_found_page(),
            Some(Code::PersonDeactivated) => (StatusCode::CONFLICT, "page-deactivated-title", "page-deactivated-body"),
            Some(Code::PersonLimitReached) => (StatusCode::CONFLICT, "page-full-title", "page-full-body"),
            Some(Code::Conflict) => (StatusCode::GONE, "page-no-longer-valid-title", "page-no-longer-valid-body"),
            _ => {
                tracing::error!(error = %e, "invitation page failed");
                (StatusCode::INTERNAL_SERVER_ERROR, "page-error-title", "page-error-body")
            }
        };
        self.page(status, title, &[], &format!("<p>{}</p>", self.t(body, &[])))
    }

    /// The form that asks for the one-time code (D43), with a second form that sends a new one.
    fn code_page(&self, company: &str, share: bool, note: &str) -> HttpResponse {
        let keep = if share { "<input type=\"hidden\" name=\"share\" value=\"true\">" } else { "" };
        let minutes = TextArg::Number(consent::CODE_VALIDITY.whole_minutes());
        self.page(
            StatusCode::OK,
            "page-code-title",
            &[],
            &format!(
                "<p>{note}</p><form method=\"post\">{keep}<label>{label} \
<input name=\"code\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"7\" required></label>\
<button type=\"submit\">{confirm}</button></form><p>{help}</p>\
<form method=\"post\">{keep}<button type=\"submit\">{resend}</button></form>",
                label = self.t("page-code-label", &[]),
                confirm = self.t("page-code-button", &[]),
                help = self.t("page-code-help", &[("company", TextArg::Text(company)), ("minutes", minutes)]),
                resend = self.t("page-code-resend", &[]),
            ),
        )
    }
}

/// The reader's language from `Accept-Language`, if it names one Talent speaks (T217). Any
/// header, however malformed, answers: at worst nothing.
fn reader(req: &HttpRequest) -> Option<Locale> {
    let h = req.headers().get(actix_web::http::header::ACCEPT_LANGUAGE)?;
    Locale::negotiate(&String::from_utf8_lossy(h.as_bytes()))
}

/// The words of a page without an invitation (a link that is not valid): the reader's language,
/// else English.
fn plain<'a, S: Store>(state: &'a ApiState<S>, req: &HttpRequest) -> Words<'a> {
    Words { texts: &*state.svc.invites.texts, locale: reader(req).unwrap_or_default() }
}

fn words_for<'a, S: Store>(state: &'a ApiState<S>, req: &HttpRequest, view: &InvitationPage) -> Words<'a> {
    Words { texts: &*state.svc.invites.texts, locale: view.locale(reader(req)) }
}

/// 429 `rate_limited` (the envelope and the address's rate-limit headers, as every refusal of
/// the budget) when the client address is over its budget of failed requests (D8, D53): the page
/// then looks nothing up, so a guess of a token or a code from that address is never checked.
async fn refused_when_blocked<S: Store>(state: &ApiState<S>, req: &HttpRequest) -> Option<HttpResponse> {
    let ip = state.trusted_proxies.client_ip(req.peer_addr(), req.headers());
    let d = state.limiter.blocked(ip).await?;
    Some(crate::auth::refused(&d, "ip"))
}

/// The accommodations the invitation grants (T218), as a list in the page's language.
fn granted(w: &Words<'_>, view: &InvitationPage) -> String {
    match view.invitation.candidate.accommodations.as_ref().filter(|a| a.any()) {
        None => String::new(),
        Some(a) => {
            let items: String =
                accommodation_lines(w.texts, w.locale, a).iter().map(|l| format!("<li>{}</li>", esc(l))).collect();
            format!(
                "<section class=\"granted\"><h2>{}</h2><ul>{items}</ul></section>",
                w.t("page-accommodations-title", &[])
            )
        }
    }
}

/// `GET /i/{token}` (D20): the person-facing page, in the person's language (T217). An address
/// over its budget of failed requests is answered 429 before the token is looked up (D8, D53).
pub async fn show_page<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    token: web::Path<String>,
) -> HttpResponse {
    if let Some(r) = refused_when_blocked(&state, &req).await {
        return r;
    }
    if token.len() > 200 {
        return plain(&state, &req).not_found_page();
    }
    let view = match state.svc.invitation_page(&token).await {
        Ok(v) => v,
        Err(e) => return plain(&state, &req).error_page(e),
    };
    let w = words_for(&state, &req, &view);
    if view.status != InvitationStatus::Pending {
        return w.status_page(view.status, &view.company_name);
    }
    let company = TextArg::Text(&view.company_name);
    let inv = &view.invitation;
    let email = TextArg::Text(inv.email.as_str());
    let message = inv.message.as_ref().map(|m| format!("<blockquote>{}</blockquote>", esc(m))).unwrap_or_default();
    let expiry = w.texts.date_time(w.locale, &view.zone(), inv.expires_at);
    let valid = format!("<p>{}</p>", w.t("page-valid-until", &[("expiry", TextArg::Text(&expiry))]));
    let granted = granted(&w, &view);
    let body = match inv.variant {
        Variant::Assessment => format!(
            "<p>{intro}</p>{message}{granted}<p>{consent}</p>{valid}\
<form method=\"post\"><button type=\"submit\">{button}</button></form>",
            intro = w.t("page-assessment-intro", &[("company", company)]),
            consent = w.t("page-assessment-consent", &[("company", company), ("email", email)]),
            button = w.t("page-accept-button", &[]),
        ),
        Variant::AccessRequest => format!(
            "<p>{intro}</p>{message}{granted}<form method=\"post\"><label><input type=\"checkbox\" name=\"share\" value=\"true\"> \
{label}</label><p>{help}</p>{valid}<button type=\"submit\">{button}</button></form>",
            intro = w.t("page-access-intro", &[("company", company)]),
            label = w.t("page-access-share-label", &[("company", company)]),
            help = w.t("page-access-share-help", &[("company", company), ("email", email)]),
            button = w.t("page-access-button", &[]),
        ),
    };
    w.page(StatusCode::OK, "page-invitation-title", &[("company", company)], &body)
}

/// The page after accepting (T219): thanks in the person's language; with a `redirectUrl`, a
/// link on to it that the page follows after three seconds.
fn welcome(w: &Words<'_>, email: &str, redirect: Option<&talent_domain::invitation::RedirectUrl>) -> HttpResponse {
    let thanks = format!("<p>{}</p>", w.t("page-welcome-body", &[("email", TextArg::Text(email))]));
    match redirect {
        None => w.page(StatusCode::OK, "page-welcome-title", &[], &thanks),
        Some(r) => {
            let host = r.host();
            let link = format!(
                "<p><a href=\"{url}\" rel=\"noreferrer\">{label}</a></p>",
                url = esc(r.as_str()),
                label = w.t("page-continue", &[("host", TextArg::Text(&host))])
            );
            let head = format!("<meta http-equiv=\"refresh\" content=\"3;url={}\">", esc(r.as_str()));
            w.page_with(StatusCode::OK, &w.t("page-welcome-title", &[]), &format!("{thanks}{link}"), &head)
        }
    }
}

/// `POST /i/{token}` (D20, D43): accepts, or asks for the one-time code. Form fields: `share=true`
/// gives consent on an `access_request`; `code` is the code from the email. Whoever posts, with or
/// without an API key, the answer is the same: consent and rejoining need the code.
///
/// A code entry that fails (wrong, no longer valid, not six digits) takes one request from the
/// client address's budget of failed requests, the one a failed API key spends (D8, D53): the
/// page (422) carries that budget's rate-limit headers, and once it is spent the answer is 429
/// `rate_limited`; while the address is over it, every post is 429 before the token or the code
/// is looked up, the right code too.
pub async fn accept_page<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    if let Some(r) = refused_when_blocked(&state, &req).await {
        return r;
    }
    if token.len() > 200 {
        return plain(&state, &req).not_found_page();
    }
    let form = web::Query::<Vec<(String, String)>>::from_query(std::str::from_utf8(&body).unwrap_or(""))
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let share = form.iter().any(|(k, v)| k == "share" && (v == "true" || v == "on" || v == "1"));
    let code = form.iter().find(|(k, _)| k == "code").map(|(_, v)| v.as_str());
    let view = match state.svc.invitation_page(&token).await {
        Ok(v) => v,
        Err(e) => return plain(&state, &req).error_page(e),
    };
    let w = words_for(&state, &req, &view);
    let company = view.company_name.as_str();
    match state.svc.respond_by_token(&token, share, code, reader(&req)).await {
        Ok(PageAnswer::Accepted(accepted)) => {
            let inv = &accepted.0.invitation;
            welcome(&w, inv.email.as_str(), inv.candidate.redirect_url.as_ref())
        }
        Ok(PageAnswer::CodeSent(to)) => {
            w.code_page(company, share, &w.t("page-code-sent", &[("email", TextArg::Text(to.as_str()))]))
        }
        Ok(PageAnswer::CodeNotSent) => w.code_page(company, share, &w.t("page-code-not-sent", &[])),
        Ok(PageAnswer::Refused(r)) => {
            let note = match r {
                Refusal::TooManyCodes => w.t("page-code-too-many", &[]),
                Refusal::NoLiveCode => w.t("page-code-no-live", &[]),
                Refusal::WrongCode { tries_left } => {
                    w.t("page-code-wrong", &[("tries", TextArg::Number(i64::from(tries_left)))])
                }
                Refusal::Malformed => w.t("page-code-malformed", &[]),
            };
            let mut res = w.code_page(company, share, &note);
            if matches!(r, Refusal::TooManyCodes) {
                *res.status_mut() = StatusCode::TOO_MANY_REQUESTS;
                res
            } else {
                // A failed code entry (D53): the address's budget of failed requests.
                *res.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
                let ip = state.trusted_proxies.client_ip(req.peer_addr(), req.headers());
                crate::auth::spend_failure(&*state.limiter, RateSubject::Ip(ip), "ip", res).await
            }
        }
        Err(e) => {
            if e.code() == Some(Code::Conflict) {
                if let Ok(v) = state.svc.invitation_page(&token).await {
                    return w.status_page(v.status, &v.company_name);
                }
            }
            w.error_page(e)
        }
    }
}
