//! Pushes to the ATSs (D69), rendered in each protocol: Greenhouse's completion `PATCH` (D74),
//! Ashby's `assessment.update` (D79, in the object form Ashby documents), and Workable's `PUT` to
//! the callback (D80). The delivery engine claims a push, asks [`Renderer`] for the request from
//! the order as it is then, and sends it with the webhooks' transport rules. Only the match
//! percentage of the ordered profile leaves, with its category as a label (D66).

use base64::Engine;
use serde_json::{json, Value};
use talent_domain::assessment::MatchCategory;
use talent_domain::connector::{Ats, OrderStatus, TestRef};
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
            Ats::Kombo => None,
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
        body: Some(workable_body(i)?.to_string()),
        success_member: false,
    })
}
