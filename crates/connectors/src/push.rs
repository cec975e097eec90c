//! Pushes to the ATSs (D69), rendered in each protocol: Greenhouse's completion `PATCH` (D74),
//! Ashby's `assessment.update` (D79, in the object form Ashby documents), and Workable's `PUT` to
//! the callback (D80). The delivery engine claims a push, asks [`Renderer`] for the request from
//! the order as it is then, and sends it with the webhooks' transport rules. Only the match
//! percentage of the ordered profile leaves, with its category as a label (D66).

use base64::Engine;
use serde_json::{json, Value};
use talent_domain::assessment::MatchCategory;
use talent_domain::connector::{Ats, Connection, OrderStatus, Test, TestRef};
use talent_domain::ports::{PushInput, PushRenderer, PushRequest};

/// The connector adapter's [`PushRenderer`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Renderer;

impl PushRenderer for Renderer {
    fn render(&self, input: &PushInput<'_>) -> Option<PushRequest> {
        match input.connection.ats {
            Ats::Greenhouse => greenhouse(input),
            Ats::Ashby => ashby(input),
            Ats::Workable => workable(input),
            Ats::Kombo => kombo(input),
        }
    }

    fn packages(&self, connection: &Connection, tests: &[Test]) -> Option<PushRequest> {
        match connection.ats {
            Ats::Kombo => kombo_packages(connection, tests),
            _ => None,
        }
    }
}

fn basic(user: &str) -> String {
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{user}:")))
}

/// D74: `PATCH {url}` without a body, HTTP Basic with the connection's key as user name; then
/// Greenhouse reads `test_status`.
fn greenhouse(i: &PushInput<'_>) -> Option<PushRequest> {
    let o = &i.report.order;
    if o.status != OrderStatus::Completed {
        return None;
    }
    Some(PushRequest {
        method: "PATCH",
        url: o.callback_url.clone()?,
        authorization: Some(basic(&i.connection.key)),
        headers: vec![],
        body: None,
        success_member: false,
    })
}

/// One of Ashby's `{identifier, label, type, value}` objects.
fn field(identifier: &str, label: &str, kind: &str, value: Value) -> Value {
    json!({"identifier": identifier, "label": label, "type": kind, "value": value})
}

/// Ashby's status objects and results (D79). Started: the status; completed: the status, the
/// profile link, the result (the match percentage as a numeric score for a profile test, else a
/// completion) and the category; expired or cancelled: the reason.
pub fn ashby_body(i: &PushInput<'_>) -> Option<Value> {
    let r = i.report;
    let o = &r.order;
    let mut body =
        json!({"assessment_id": o.id.to_string(), "timestamp": (i.at.unix_timestamp_nanos() / 1_000_000) as i64});
    match o.status {
        OrderStatus::Started => {
            body["assessment_status"] = field("status", "Status", "string", json!("Started"));
        }
        OrderStatus::Completed => {
            body["assessment_status"] = field("status", "Status", "string", json!("Completed"));
            if let Some(url) = i.report_url {
                body["assessment_profile_url"] = field("profile", "Talent report", "url", json!(url));
            }
            body["assessment_result"] = match (&r.profile, &r.result, o.test) {
                (Some(p), Some(m), TestRef::Profile(_)) => {
                    field("match", &format!("Match: {}", p.name), "numeric_score", json!(m.percentage))
                }
                _ => field("completed", "Completed", "boolean_success", json!(true)),
            };
            if let Some(m) = &r.result {
                body["metadata"] = json!([field("category", "Category", "string", json!(m.category.as_str()))]);
            }
        }
        OrderStatus::Expired => {
            body["cancelled_reason"] = field("cancelled_reason", "Cancelled", "string", json!("Expired"));
        }
        OrderStatus::Cancelled => {
            body["cancelled_reason"] = field("cancelled_reason", "Cancelled", "string", json!("Cancelled"));
        }
        OrderStatus::Sent => return None,
    }
    Some(body)
}

/// D79: `POST {baseUrl}/assessment.update`, HTTP Basic with the customer's Ashby key; a `200`
/// with `"success": false` is a failure.
fn ashby(i: &PushInput<'_>) -> Option<PushRequest> {
    let base = i.connection.base_url()?.trim_end_matches('/').to_string();
    Some(PushRequest {
        method: "POST",
        url: format!("{base}/assessment.update"),
        authorization: i.connection.settings.api_key.as_deref().map(basic),
        headers: vec![],
        body: Some(ashby_body(i)?.to_string()),
        success_member: true,
    })
}

/// Workable's grade of a match category (D80): low `failed`, moderate `passed`, high `excelled`.
pub fn grade(c: MatchCategory) -> &'static str {
    match c {
        MatchCategory::Low => "failed",
        MatchCategory::Moderate => "passed",
        MatchCategory::High => "excelled",
    }
}

/// D80's bodies: completed with the results link and, for a profile test, the score, grade and
/// a summary; expired.
pub fn workable_body(i: &PushInput<'_>) -> Option<Value> {
    let r = i.report;
    match r.order.status {
        OrderStatus::Completed => {
            let assessment = match (&r.profile, &r.result) {
                (Some(p), Some(m)) => json!({
                    "score": m.percentage,
                    "grade": grade(m.category),
                    "summary": format!("{}: {}% ({})", p.name, m.percentage, m.category.as_str()),
                }),
                _ => json!({"summary": "Talent assessment completed"}),
            };
            Some(json!({"status": "completed", "results_url": i.report_url, "assessment": assessment}))
        }
        OrderStatus::Expired => Some(json!({"status": "expired"})),
        _ => None,
    }
}

/// D80: `PUT {callback_url}` with `Authorization: Bearer <Workable token>`.
fn workable(i: &PushInput<'_>) -> Option<PushRequest> {
    Some(PushRequest {
        method: "PUT",
        url: i.report.order.callback_url.clone()?,
        authorization: i.connection.settings.api_key.as_deref().map(|t| format!("Bearer {t}")),
        headers: vec![],
        body: Some(workable_body(i)?.to_string()),
        success_member: false,
    })
}

/// A call to Kombo's API (D81-D83): `{baseUrl}{path}` with `Authorization: Bearer <Kombo API
/// key>` and `X-Integration-Id`.
pub fn kombo_request(c: &Connection, method: &'static str, path: &str, body: Option<String>) -> Option<PushRequest> {
    let base = c.base_url()?.trim_end_matches('/');
    Some(PushRequest {
        method,
        url: format!("{base}{path}"),
        authorization: c.settings.api_key.as_deref().map(|k| format!("Bearer {k}")),
        headers: c.settings.integration_id.iter().map(|i| ("X-Integration-Id", i.clone())).collect(),
        body,
        success_member: false,
    })
}

/// D81's body: every test as a package of type `BEHAVIORAL` (Kombo replaces the whole list, so
/// all are sent each time); a test without a description is described by its name.
pub fn kombo_packages_body(tests: &[Test]) -> Value {
    let packages: Vec<Value> = tests
        .iter()
        .map(|t| {
            json!({
                "id": t.test.id(),
                "type": "BEHAVIORAL",
                "name": t.name,
                "description": t.description.clone().unwrap_or_else(|| t.name.clone()),
            })
        })
        .collect();
    json!({ "packages": packages })
}

/// D81: `PUT {baseUrl}/assessment/packages`.
fn kombo_packages(c: &Connection, tests: &[Test]) -> Option<PushRequest> {
    kombo_request(c, "PUT", "/assessment/packages", Some(kombo_packages_body(tests).to_string()))
}

/// D83's bodies. Completed: `COMPLETED` with the completion time, the report link, for a profile
/// test the match percentage as `score` of `max_score` 100 with the category as a `TEXT`
/// attribute, and the PDF report as an attachment when the organization sees the results.
/// Expired or cancelled: `CANCELLED`, with the time the push was written and the link.
pub fn kombo_body(i: &PushInput<'_>) -> Option<Value> {
    let r = i.report;
    let o = &r.order;
    let fmt = |t: time::OffsetDateTime| t.format(&time::format_description::well_known::Rfc3339).ok();
    match o.status {
        OrderStatus::Completed => {
            let mut body = json!({
                "status": "COMPLETED",
                "completed_at": fmt(o.completed_at.unwrap_or(i.at)),
                "result_url": i.report_url,
            });
            if let (Some(m), TestRef::Profile(_)) = (&r.result, o.test) {
                body["score"] = json!(m.percentage);
                body["max_score"] = json!(100);
            }
            body["attributes"] = match &r.result {
                Some(m) => json!([{"type": "TEXT", "label": "Category", "value": m.category.as_str()}]),
                None => json!([]),
            };
            body["attachments"] = match i.pdf {
                Some(pdf) => json!([{
                    "name": "report.pdf",
                    "content_type": "application/pdf",
                    "data": base64::engine::general_purpose::STANDARD.encode(pdf),
                }]),
                None => json!([]),
            };
            Some(body)
        }
        OrderStatus::Expired | OrderStatus::Cancelled => {
            Some(json!({"status": "CANCELLED", "completed_at": fmt(i.at), "result_url": i.report_url}))
        }
        OrderStatus::Sent | OrderStatus::Started => None,
    }
}

/// D83: `PUT {baseUrl}/assessment/orders/{Kombo order id}/result`.
fn kombo(i: &PushInput<'_>) -> Option<PushRequest> {
    let path = format!("/assessment/orders/{}/result", encode_segment(&i.report.order.ats_key));
    kombo_request(i.connection, "PUT", &path, Some(kombo_body(i)?.to_string()))
}

/// A path segment or query value with everything but unreserved characters percent-encoded
/// (Kombo's ids and cursors are alphanumeric; anything else must not change the URL).
pub(crate) fn encode_segment(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}
