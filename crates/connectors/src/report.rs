//! The report link (D68): `/r/{token}` shows the person's report (the content of the PDF report)
//! to whoever holds the link an ATS was given, without an API key, and `/r/{token}/report.pdf`
//! downloads the PDF. Every opening is recorded (time, client address, user agent). An unknown
//! token is 404; a link that expired (180 days after completion), whose person was erased, or
//! whose results the organization no longer sees is 410. The pages carry the invitation pages'
//! security headers and are never cached or indexed.

use crate::Partners;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use talent_domain::errors::UseCaseError;
use talent_domain::ports::Store;
use talent_domain::usecases::connectors::{ReportAccess, ReportView, Viewed};

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

fn html(status: StatusCode, title: &str, body: &str) -> HttpResponse {
    let doc = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{t}</title><style>body{{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}}\
table{{border-collapse:collapse;width:100%}}td,th{{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd}}\
.note{{color:#555}}</style></head><body><main><h1>{t}</h1>{body}</main></body></html>",
        t = esc(title)
    );
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(doc)
}

fn gone() -> HttpResponse {
    html(
        StatusCode::GONE,
        "This report is no longer available",
        "<p>The link has expired, or the report was withdrawn. Ask the organization that sent it for a new one.</p>",
    )
}

fn not_found() -> HttpResponse {
    html(StatusCode::NOT_FOUND, "Report not found", "<p>This link is not valid.</p>")
}

fn failure(e: UseCaseError) -> HttpResponse {
    let c = crate::client_error(e);
    match c.code {
        talent_domain::errors::Code::NotFound => not_found(),
        _ if c.retry_after.is_some() => html(
            StatusCode::SERVICE_UNAVAILABLE,
            "Please try again",
            "<p>The report cannot be shown right now. Try again in a minute.</p>",
        ),
        _ => html(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "<p>Try again later.</p>"),
    }
}

fn viewed<S: Store>(p: &Partners<S>, req: &HttpRequest) -> Viewed {
    let agent = req.headers().get("user-agent").and_then(|v| v.to_str().ok());
    Viewed { client_ip: (p.client_ip)(req).to_string(), user_agent: agent.map(|a| a.chars().take(300).collect()) }
}

fn body(v: &ReportView, token: &str) -> String {
    let mut b = String::new();
    b.push_str(&format!(
        "<p class=\"note\">Shared by {} through its applicant tracking system. Completed {}.</p>",
        esc(&v.company_name),
        esc(&talent_domain::timefmt::format(v.completed_at)),
    ));
    if let Some((profile, m)) = &v.profile_match {
        b.push_str(&format!(
            "<h2>Match with {}</h2><p><strong>{}%</strong> ({})</p>",
            esc(profile),
            m.percentage,
            esc(m.category.as_str())
        ));
    }
    b.push_str(
        "<h2>Competencies</h2><table><thead><tr><th>Competency</th><th>Score</th><th>Band</th></tr></thead><tbody>",
    );
    for c in &v.competencies {
        b.push_str(&format!("<tr><td>{}</td><td>{:.0}</td><td>{}</td></tr>", esc(&c.0), c.1 * 100.0, esc(c.2)));
    }
    b.push_str("</tbody></table><h2>Personality</h2>");
    for para in v.personality.split("\n\n").filter(|s| !s.trim().is_empty()) {
        let text = para.trim().trim_start_matches('#').trim();
        b.push_str(&format!("<p>{}</p>", esc(text)));
    }
    b.push_str(&format!("<p><a href=\"{}/report.pdf\">Download the PDF report</a></p>", esc(token)));
    b
}

/// `GET /r/{token}` → 200 the report page, 404, or 410 (D68); the opening is recorded.
pub async fn page<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, token: web::Path<String>) -> HttpResponse {
    let token = token.into_inner();
    match p.svc.open_report(&token, viewed(&p, &req), false).await {
        Ok(ReportAccess::Open(v)) => html(StatusCode::OK, &v.person_name, &body(&v, &token)),
        Ok(ReportAccess::Gone) => gone(),
        Err(e) => failure(e),
    }
}

/// `GET /r/{token}/report.pdf` → the PDF report, 404, or 410 (D68); the opening is recorded.
pub async fn pdf<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, token: web::Path<(String,)>) -> HttpResponse {
    let token = token.into_inner().0;
    match p.svc.open_report(&token, viewed(&p, &req), true).await {
        Ok(ReportAccess::Open(v)) => match v.pdf {
            Some(bytes) => HttpResponse::Ok()
                .content_type("application/pdf")
                .insert_header(("Content-Disposition", "attachment; filename=\"report.pdf\""))
                .body(bytes),
            None => gone(),
        },
        Ok(ReportAccess::Gone) => gone(),
        Err(e) => failure(e),
    }
}
