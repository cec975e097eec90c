//! The report link (D68): `/r/{token}` shows the person's report (the content of the PDF report)
//! to whoever holds the link an ATS was given, without an API key, and `/r/{token}/report.pdf`
//! downloads the PDF. Every opening is recorded (time, client address, user agent). An unknown
//! token is 404; a link that expired (180 days after completion), whose person was erased, or
//! whose results the organization no longer sees is 410. The pages carry the invitation pages'
//! security headers and are never cached or indexed. They are written in the reader's language
//! (`Accept-Language`), else the organization's (T217).

use crate::Partners;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use talent_domain::errors::UseCaseError;
use talent_domain::ports::{Store, TextArg, Texts};
use talent_domain::usecases::report_links::{ReportAccess, ReportView, Viewed};
use talent_domain::values::Locale;

/// Registers the routes; mount under `/r`.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("")
            .wrap(headers())
            .route("/{token}", web::get().to(page::<S>))
            .route("/{token}/report.pdf", web::get().to(pdf::<S>)),
    );
}

/// The invitation pages' headers (D68): nothing loads from elsewhere, no framing, no referrer, no
/// cache, no indexing.
fn headers() -> actix_web::middleware::DefaultHeaders {
    actix_web::middleware::DefaultHeaders::new()
        .add(("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"))
        .add(("X-Frame-Options", "DENY"))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "no-referrer"))
        .add(("Cache-Control", "no-store"))
        .add(("X-Robots-Tag", "noindex, nofollow"))
}

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The words of one page: its language and the texts (T217).
struct Words<'a> {
    texts: &'a dyn Texts,
    locale: Locale,
}

impl Words<'_> {
    /// The message `key`, HTML-escaped.
    fn t(&self, key: &str, args: &[(&str, TextArg<'_>)]) -> String {
        esc(&self.texts.message(self.locale, key, args))
    }

    /// A page: `title` is text, `body` HTML.
    fn html(&self, status: StatusCode, title: &str, body: &str) -> HttpResponse {
        let doc = format!(
            "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{t}</title><style>body{{font-family:system-ui,\"Noto Sans\",\"Noto Sans CJK JP\",\"Noto Sans CJK SC\",sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}}\
table{{border-collapse:collapse;width:100%}}td,th{{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd}}\
.note{{color:#555}}</style></head><body><main><h1>{t}</h1>{body}</main></body></html>",
            lang = self.locale.as_str(),
            t = esc(title)
        );
        HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .insert_header(("Content-Language", self.locale.as_str()))
            .insert_header(("Vary", "Accept-Language"))
            .body(doc)
    }

    fn message_page(&self, status: StatusCode, title: &str, body: &str) -> HttpResponse {
        self.html(status, &self.texts.message(self.locale, title, &[]), &format!("<p>{}</p>", self.t(body, &[])))
    }

    fn gone(&self) -> HttpResponse {
        self.message_page(StatusCode::GONE, "report-page-gone-title", "report-page-gone-body")
    }

    fn not_found(&self) -> HttpResponse {
        self.message_page(StatusCode::NOT_FOUND, "report-page-not-found-title", "report-page-not-found-body")
    }

    fn failure(&self, e: UseCaseError) -> HttpResponse {
        let c = crate::client_error(e);
        match c.code {
            talent_domain::errors::Code::NotFound => self.not_found(),
            _ if c.retry_after.is_some() => {
                self.message_page(StatusCode::SERVICE_UNAVAILABLE, "report-page-busy-title", "report-page-busy-body")
            }
            _ => self.message_page(StatusCode::INTERNAL_SERVER_ERROR, "page-error-title", "page-error-body"),
        }
    }

    fn body(&self, v: &ReportView, token: &str) -> String {
        let mut b = String::new();
        let date = self.texts.date(self.locale, &v.zone, v.completed_at);
        let shared = self
            .t("report-page-shared", &[("company", TextArg::Text(&v.company_name)), ("date", TextArg::Text(&date))]);
        b.push_str(&format!("<p class=\"note\">{shared}</p>"));
        if let Some((profile, m)) = &v.profile_match {
            b.push_str(&format!(
                "<h2>{}</h2><p><strong>{}%</strong> ({})</p>",
                self.t("report-page-match", &[("profile", TextArg::Text(profile))]),
                m.percentage,
                self.t("report-page-category", &[("category", TextArg::Text(m.category.as_str()))])
            ));
        }
        b.push_str(&format!(
            "<h2>{}</h2><table><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            self.t("report-competencies", &[]),
            self.t("report-page-competency", &[]),
            self.t("report-page-score", &[]),
            self.t("report-page-band", &[]),
        ));
        for c in &v.competencies {
            let band = self.t(&format!("report-band-{}", c.2), &[]);
            b.push_str(&format!("<tr><td>{}</td><td>{:.0}</td><td>{band}</td></tr>", esc(&c.0), c.1 * 100.0));
        }
        b.push_str(&format!("</tbody></table><h2>{}</h2>", self.t("report-personality", &[])));
        for para in v.personality.split("\n\n").filter(|s| !s.trim().is_empty()) {
            let text = para.trim().trim_start_matches('#').trim();
            b.push_str(&format!("<p>{}</p>", esc(text)));
        }
        b.push_str(&format!(
            "<p><a href=\"{}/report.pdf\">{}</a></p>",
            esc(token),
            self.t("report-page-download", &[])
        ));
        b
    }
}

/// The reader's language from `Accept-Language` (T217), if it names one Talent writes in.
fn reader(req: &HttpRequest) -> Option<Locale> {
    let h = req.headers().get(actix_web::http::header::ACCEPT_LANGUAGE)?;
    Locale::negotiate(&String::from_utf8_lossy(h.as_bytes()))
}

/// The words of a page that shows no report (an unknown link, a failure): the reader's
/// language, else English.
fn plain<'a, S: Store>(p: &'a Partners<S>, req: &HttpRequest) -> Words<'a> {
    Words { texts: &*p.svc.invites.texts, locale: reader(req).unwrap_or_default() }
}

fn viewed<S: Store>(p: &Partners<S>, req: &HttpRequest) -> Viewed {
    let agent = req.headers().get("user-agent").and_then(|v| v.to_str().ok());
    Viewed { client_ip: (p.client_ip)(req).to_string(), user_agent: agent.map(|a| a.chars().take(300).collect()) }
}

/// `GET /r/{token}` → 200 the report page, 404, or 410 (D68); the opening is recorded.
pub async fn page<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, token: web::Path<String>) -> HttpResponse {
    let token = token.into_inner();
    match p.svc.open_report(&token, viewed(&p, &req), false, reader(&req)).await {
        Ok(ReportAccess::Open(v)) => {
            let w = Words { texts: &*p.svc.invites.texts, locale: v.locale };
            w.html(StatusCode::OK, &v.person_name, &w.body(&v, &token))
        }
        Ok(ReportAccess::Gone) => plain(&p, &req).gone(),
        Err(e) => plain(&p, &req).failure(e),
    }
}

/// `GET /r/{token}/report.pdf` → the PDF report, 404, or 410 (D68); the opening is recorded.
pub async fn pdf<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, token: web::Path<(String,)>) -> HttpResponse {
    let token = token.into_inner().0;
    match p.svc.open_report(&token, viewed(&p, &req), true, reader(&req)).await {
        Ok(ReportAccess::Open(v)) => match v.pdf {
            Some(bytes) => HttpResponse::Ok()
                .content_type("application/pdf")
                .insert_header(("Content-Disposition", "attachment; filename=\"report.pdf\""))
                .body(bytes),
            None => plain(&p, &req).gone(),
        },
        Ok(ReportAccess::Gone) => plain(&p, &req).gone(),
        Err(e) => plain(&p, &req).failure(e),
    }
}
