//! Ashby's assessment partner endpoints, the partner's side (D76-D78): `assessment.list`,
//! `assessment.start` and `assessment.cancel` under `/partners/ashby/`, each a `POST` answered
//! `{"success": true, "results": …}`. Refusals Ashby shows its user are 422 `{"message"}`; a
//! second start for an application while its order is open is 409. Ashby authenticates with HTTP
//! Basic, the key as user name (D64). The `assessment.update` calls to Ashby are pushes (D79).

use crate::call::{authenticate, Call};
use crate::{client_error, optional_name, parse_body, reference, status, Partners};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use talent_domain::connector::{Ats, NewOrder, OrderCandidate, OrderRefs, TestRef};
use talent_domain::errors::ClientError;
use talent_domain::ids::OrderId;
use talent_domain::ports::Store;
use talent_domain::values::{Email, FieldErrors, Scope};

/// Registers the routes; mount under `/partners/ashby`.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.route("/assessment.list", web::post().to(list::<S>))
        .route("/assessment.start", web::post().to(start::<S>))
        .route("/assessment.cancel", web::post().to(cancel::<S>));
}

/// Ashby's error body `{"message"}` with `status`; a 401 asks for HTTP Basic.
pub fn message(status: StatusCode, text: &str) -> HttpResponse {
    let mut r = HttpResponse::build(status);
    if status == StatusCode::UNAUTHORIZED {
        r.insert_header(("WWW-Authenticate", "Basic realm=\"talent\""));
    }
    r.json(json!({"message": text}))
}

/// A client error in Ashby's shape: its status, except that a refusal of the request's content
/// (validation, a limit, a conflict of state) is 422 so that Ashby shows the message (D77); the
/// message names the fields that failed.
fn refusal(e: &ClientError) -> HttpResponse {
    let st = status(e);
    let text = match e.details.as_ref().and_then(|d| d.get("fields")).and_then(|f| f.as_array()) {
        Some(fields) => {
            let parts: Vec<String> = fields
                .iter()
                .map(|f| format!("{} {}", f["field"].as_str().unwrap_or(""), f["message"].as_str().unwrap_or("")))
                .collect();
            format!("{}: {}", e.message, parts.join("; "))
        }
        None => e.message.clone(),
    };
    let st = match st {
        StatusCode::BAD_REQUEST | StatusCode::CONFLICT | StatusCode::FORBIDDEN => StatusCode::UNPROCESSABLE_ENTITY,
        other => other,
    };
    let mut r = message(st, &text);
    if let Some(s) = e.retry_after {
        r.headers_mut()
            .insert(actix_web::http::header::RETRY_AFTER, actix_web::http::header::HeaderValue::from(s.max(1)));
    }
    r
}

async fn call<S: Store>(p: &Partners<S>, req: &HttpRequest, scope: Scope, write: bool) -> Result<Call, HttpResponse> {
    authenticate(p, req, Ats::Ashby, scope, write, true).await.map_err(|r| {
        let mut resp = refusal(&r.error);
        // Authentication and authorization keep their own statuses (401, 403, 429).
        *resp.status_mut() = status(&r.error);
        if resp.status() == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                actix_web::http::header::WWW_AUTHENTICATE,
                actix_web::http::header::HeaderValue::from_static("Basic realm=\"talent\""),
            );
        }
        resp
    })
}

/// `POST /partners/ashby/assessment.list` → `{"success": true, "results": [{assessment_type_id,
/// name, description}]}` (D76).
pub async fn list<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest) -> HttpResponse {
    let c = match call(&p, &req, Scope::ProfilesRead, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    match p.svc.connector_tests(c.connection.org_id).await {
        Ok(tests) => {
            let results: Vec<_> = tests
                .into_iter()
                .map(|t| json!({"assessment_type_id": t.test.id(), "name": t.name, "description": t.description.unwrap_or_default()}))
                .collect();
            HttpResponse::Ok().json(json!({"success": true, "results": results}))
        }
        Err(e) => refusal(&client_error(e)),
    }
}

/// `candidate` of `assessment.start`.
#[derive(Deserialize, Debug)]
pub struct CandidateIn {
    ashby_id: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    email: String,
    ashby_profile_url: Option<String>,
}

/// `application` of `assessment.start`.
#[derive(Deserialize, Debug)]
pub struct ApplicationIn {
    ashby_id: String,
}

/// `job` of `assessment.start`.
#[derive(Deserialize, Debug)]
pub struct JobIn {
    ashby_id: Option<String>,
    name: Option<String>,
}

/// The body of `assessment.start` (D77); members Ashby may add are ignored.
#[derive(Deserialize, Debug)]
pub struct StartIn {
    assessment_type_id: String,
    candidate: CandidateIn,
    application: ApplicationIn,
    job: Option<JobIn>,
}

/// `POST /partners/ashby/assessment.start` → `{"success": true, "results": {"assessment_id"}}`
/// (D77): imports the candidate and emails the invitation. The same application and type while
/// the order is open → 409; an unknown type or a refusal (a plan limit) → 422 `{"message"}`.
pub async fn start<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let c = match call(&p, &req, Scope::PersonsWrite, true).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let i: StartIn = match parse_body(&body) {
        Ok(i) => i,
        Err(e) => return refusal(&e),
    };
    let mut errs = FieldErrors::default();
    let test = TestRef::parse(&i.assessment_type_id);
    if test.is_none() {
        errs.push("assessment_type_id", "is not an assessment type of this organization");
    }
    let email = errs.take("candidate.email", Email::parse(&i.candidate.email));
    let first_name = optional_name(i.candidate.first_name.as_deref(), "candidate.first_name", &mut errs);
    let last_name = optional_name(i.candidate.last_name.as_deref(), "candidate.last_name", &mut errs);
    let application = reference(Some(&i.application.ashby_id), "application.ashby_id", &mut errs);
    if application.is_none() && !errs.has("application.ashby_id") {
        errs.push("application.ashby_id", "is required");
    }
    let refs = OrderRefs {
        candidate: reference(i.candidate.ashby_id.as_deref(), "candidate.ashby_id", &mut errs),
        application: application.clone(),
        job: reference(i.job.as_ref().and_then(|j| j.ashby_id.as_deref()), "job.ashby_id", &mut errs),
        job_name: reference(i.job.as_ref().and_then(|j| j.name.as_deref()), "job.name", &mut errs),
        profile_url: reference(i.candidate.ashby_profile_url.as_deref(), "candidate.ashby_profile_url", &mut errs),
        ats_order: None,
    };
    if let Err(e) = errs.into_result() {
        return refusal(&ClientError::validation(&e));
    }
    let (Some(test), Some(email), Some(application)) = (test, email, application) else {
        return refusal(&ClientError::internal());
    };
    let order = NewOrder {
        test,
        candidate: OrderCandidate { email, first_name, last_name },
        ats_key: application,
        refs,
        callback_url: None,
    };
    match p.svc.place_order(&c.connection, order).await {
        Ok((_, false)) => {
            message(StatusCode::CONFLICT, "This application is already being assessed with this assessment type")
        }
        Ok((o, true)) => {
            HttpResponse::Ok().json(json!({"success": true, "results": {"assessment_id": o.id.to_string()}}))
        }
        Err(e) => refusal(&client_error(e)),
    }
}

/// The body of `assessment.cancel`.
#[derive(Deserialize, Debug)]
pub struct CancelIn {
    assessment_id: String,
}

/// `POST /partners/ashby/assessment.cancel` → `{"success": true, "results": {"assessment_id"}}`
/// (D78): a pending invitation is revoked and the order cancelled; an unknown id → 404
/// `{"message"}`.
pub async fn cancel<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let c = match call(&p, &req, Scope::InvitationsWrite, true).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let i: CancelIn = match parse_body(&body) {
        Ok(i) => i,
        Err(e) => return refusal(&e),
    };
    let Ok(id) = i.assessment_id.parse::<OrderId>() else {
        return message(StatusCode::NOT_FOUND, "Assessment not found");
    };
    match p.svc.cancel_order(c.connection.org_id, id).await {
        Ok(o) => HttpResponse::Ok().json(json!({"success": true, "results": {"assessment_id": o.id.to_string()}})),
        Err(e) => {
            let e = client_error(e);
            if e.code == talent_domain::errors::Code::NotFound {
                return message(StatusCode::NOT_FOUND, "Assessment not found");
            }
            refusal(&e)
        }
    }
}
