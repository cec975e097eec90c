//! Greenhouse's Assessment Partner API, the partner's side (D71-D75): `list_tests`, `send_test`,
//! `test_status` and `response_error` under `/partners/greenhouse/`. Greenhouse authenticates with
//! HTTP Basic, the key as user name (D64); errors are the API's envelope (Greenhouse defines no
//! error body of its own). The completion `PATCH` to Greenhouse's `url` is a push (D74).

use crate::call::{authenticate, Call, Refused};
use crate::{client_error, envelope, optional_name, parse_body, reference, rename, Partners};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use talent_domain::connector::{Ats, NewOrder, OrderCandidate, OrderRefs, OrderStatus, TestRef};
use talent_domain::errors::ClientError;
use talent_domain::ids::OrderId;
use talent_domain::ports::Store;
use talent_domain::usecases::orders::OrderReport;
use talent_domain::values::{Email, FieldErrors, Scope};

/// Registers the routes; mount under `/partners/greenhouse`.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.route("/list_tests", web::get().to(list_tests::<S>))
        .route("/send_test", web::post().to(send_test::<S>))
        .route("/test_status", web::get().to(test_status::<S>))
        .route("/response_error", web::post().to(response_error::<S>));
}

fn refused(r: Refused) -> HttpResponse {
    let mut resp = envelope(&r.error);
    if r.basic && resp.status() == actix_web::http::StatusCode::UNAUTHORIZED {
        resp.headers_mut().insert(
            actix_web::http::header::WWW_AUTHENTICATE,
            actix_web::http::header::HeaderValue::from_static("Basic realm=\"talent\""),
        );
    }
    resp
}

async fn call<S: Store>(p: &Partners<S>, req: &HttpRequest, scope: Scope, write: bool) -> Result<Call, HttpResponse> {
    authenticate(p, req, Ats::Greenhouse, scope, write, true).await.map_err(refused)
}

/// One test of `list_tests` (D71).
#[derive(Serialize, Debug)]
pub struct TestOut {
    /// The profile id, or `talent-assessment` (D65).
    pub partner_test_id: String,
    /// Its name.
    pub partner_test_name: String,
}

/// `GET /partners/greenhouse/list_tests` → 200 `[{partner_test_id, partner_test_name}]` (D71).
pub async fn list_tests<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest) -> HttpResponse {
    let c = match call(&p, &req, Scope::ProfilesRead, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    match p.svc.connector_tests(c.connection.org_id).await {
        Ok(tests) => HttpResponse::Ok().json(
            tests
                .into_iter()
                .map(|t| TestOut { partner_test_id: t.test.id(), partner_test_name: t.name })
                .collect::<Vec<_>>(),
        ),
        Err(e) => envelope(&client_error(e)),
    }
}

/// The `candidate` of `send_test` (D72); members Greenhouse may add are ignored.
#[derive(Deserialize, Debug)]
pub struct CandidateIn {
    first_name: Option<String>,
    last_name: Option<String>,
    email: String,
    greenhouse_profile_url: Option<String>,
}

/// The body of `send_test` (D72).
#[derive(Deserialize, Debug)]
pub struct SendTestIn {
    partner_test_id: String,
    candidate: CandidateIn,
    url: String,
}

/// `POST /partners/greenhouse/send_test` → 200 `{"partner_interview_id"}` (D72): imports the
/// candidate and emails the invitation; the same `greenhouse_profile_url` and test while the order
/// is open returns the same id. Unknown test → 400 with the envelope.
pub async fn send_test<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let c = match call(&p, &req, Scope::PersonsWrite, true).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let i: SendTestIn = match parse_body(&body) {
        Ok(i) => i,
        Err(e) => return envelope(&e),
    };
    let mut errs = FieldErrors::default();
    let test = TestRef::parse(&i.partner_test_id);
    if test.is_none() {
        errs.push("partner_test_id", "is not a test of this organization");
    }
    let email = errs.take("candidate.email", Email::parse(&i.candidate.email));
    let first_name = optional_name(i.candidate.first_name.as_deref(), "candidate.first_name", &mut errs);
    let last_name = optional_name(i.candidate.last_name.as_deref(), "candidate.last_name", &mut errs);
    let profile_url =
        reference(i.candidate.greenhouse_profile_url.as_deref(), "candidate.greenhouse_profile_url", &mut errs);
    let url = reference(Some(&i.url), "url", &mut errs);
    if let Err(e) = errs.into_result() {
        return envelope(&ClientError::validation(&e));
    }
    let (Some(test), Some(email), Some(url)) = (test, email, url) else {
        return envelope(&ClientError::internal());
    };
    // A retry repeats the candidate's Greenhouse profile; without one, the callback URL (one per
    // test sent).
    let ats_key = profile_url.clone().unwrap_or_else(|| url.clone());
    let order = NewOrder {
        test,
        candidate: OrderCandidate { email, first_name, last_name },
        ats_key,
        refs: OrderRefs { profile_url, ..Default::default() },
        callback_url: Some(url),
    };
    match p.svc.place_order(&c.connection, order).await {
        Ok((o, _)) => HttpResponse::Ok().json(serde_json::json!({"partner_interview_id": o.id.to_string()})),
        Err(e) => {
            let mut e = client_error(e);
            rename(&mut e, "test", "partner_test_id");
            rename(&mut e, "callbackUrl", "url");
            envelope(&e)
        }
    }
}

/// The query of `test_status`.
#[derive(Deserialize, Debug)]
pub struct StatusQuery {
    partner_interview_id: Option<String>,
}

/// `partner_status` of an order (D73): Greenhouse knows `complete`; the others say where it is.
pub fn partner_status(s: OrderStatus) -> &'static str {
    match s {
        OrderStatus::Completed => "complete",
        other => other.as_str(),
    }
}

/// The `test_status` answer (D73) for `r`, with `profile_url` the link to the person's report
/// when there is one: `metadata` is flat (strings and numbers only).
pub fn status_body(r: &OrderReport, profile_url: Option<&str>) -> Value {
    let complete = r.order.status == OrderStatus::Completed;
    let mut metadata = Map::new();
    if let Some(pr) = &r.profile {
        metadata.insert("Profile".into(), Value::String(pr.name.clone()));
    }
    if let Some(m) = &r.result {
        metadata.insert("Category".into(), Value::String(m.category.as_str().into()));
    }
    if let Some(t) = r.order.completed_at.filter(|_| complete) {
        metadata.insert("Completed At".into(), Value::String(talent_domain::timefmt::format(t)));
    }
    serde_json::json!({
        "partner_status": partner_status(r.order.status),
        "partner_profile_url": profile_url.filter(|_| complete),
        "partner_score": r.result.as_ref().map(|m| m.percentage),
        "metadata": metadata,
    })
}

/// `GET /partners/greenhouse/test_status?partner_interview_id=…` → 200 (D73); an unknown id or
/// another organization's → 404.
pub async fn test_status<S: Store>(
    p: web::Data<Partners<S>>,
    req: HttpRequest,
    q: Result<web::Query<StatusQuery>, actix_web::Error>,
) -> HttpResponse {
    let c = match call(&p, &req, Scope::ResultsRead, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let id = q.ok().and_then(|q| q.into_inner().partner_interview_id);
    let Some(id) = id.and_then(|s| s.parse::<OrderId>().ok()) else {
        return envelope(&ClientError::not_found("Order"));
    };
    match p.svc.order_report(c.connection.org_id, id).await {
        Ok(r) => HttpResponse::Ok().json(status_body(&r, p.svc.report_url(&r.order).as_deref())),
        Err(e) => envelope(&client_error(e)),
    }
}

/// The body of `response_error` (D75): only `api_call` and `errors` are certain.
#[derive(Deserialize, Debug)]
pub struct ResponseErrorIn {
    api_call: Option<String>,
    errors: Option<Value>,
    partner_interview_id: Option<String>,
}

/// `POST /partners/greenhouse/response_error` → 200 `{"status": 200}` (D75): recorded on the
/// connection (shown in the dashboard, logged at warn), nothing else changes.
pub async fn response_error<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let c = match call(&p, &req, Scope::PersonsWrite, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let i: ResponseErrorIn = match parse_body(&body) {
        Ok(i) => i,
        Err(e) => return envelope(&e),
    };
    let api_call = i.api_call.unwrap_or_default();
    let errors = i.errors.map(|e| e.to_string()).unwrap_or_default();
    let order = i.partner_interview_id.and_then(|s| s.parse::<OrderId>().ok());
    tracing::warn!(connection = %c.connection.id, api_call = %api_call, "Greenhouse reported an error");
    match p.svc.record_connection_error(c.connection.id, &api_call, &errors, order).await {
        Ok(_) => HttpResponse::Ok().json(serde_json::json!({"status": 200})),
        Err(e) => envelope(&client_error(e)),
    }
}
