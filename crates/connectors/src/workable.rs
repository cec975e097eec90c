//! Workable's assessment-provider endpoints, the provider's side (D80): `GET /tests` and
//! `POST /assessments` under `/partners/workable/`. Workable authenticates with
//! `Authorization: Bearer <key>` (D64); errors are the API's envelope. The `PUT` to Workable's
//! `callback_url` is a push (D80).

use crate::call::{authenticate, Call};
use crate::{client_error, envelope, optional_name, parse_body, reference, rename, Partners};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use talent_domain::connector::{Ats, NewOrder, OrderCandidate, OrderRefs, TestRef};
use talent_domain::errors::ClientError;
use talent_domain::ports::Store;
use talent_domain::values::{Email, FieldErrors, Scope};

/// Registers the routes; mount under `/partners/workable`.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.route("/tests", web::get().to(tests::<S>)).route("/assessments", web::post().to(assessments::<S>));
}

async fn call<S: Store>(p: &Partners<S>, req: &HttpRequest, scope: Scope, write: bool) -> Result<Call, HttpResponse> {
    authenticate(p, req, Ats::Workable, scope, write, false).await.map_err(|r| envelope(&r.error))
}

/// `GET /partners/workable/tests` → 200 `{"tests": [{"id", "name"}]}` (D80).
pub async fn tests<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest) -> HttpResponse {
    let c = match call(&p, &req, Scope::ProfilesRead, false).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    match p.svc.connector_tests(c.connection.org_id).await {
        Ok(tests) => {
            let list: Vec<_> = tests.into_iter().map(|t| json!({"id": t.test.id(), "name": t.name})).collect();
            HttpResponse::Ok().json(json!({"tests": list}))
        }
        Err(e) => envelope(&client_error(e)),
    }
}

/// `candidate` of `POST /assessments`.
#[derive(Deserialize, Debug)]
pub struct CandidateIn {
    first_name: Option<String>,
    last_name: Option<String>,
    email: String,
}

/// The body of `POST /assessments` (D80); members Workable may add are ignored. `test_id` may be
/// a string or a number (Workable's own examples number tests).
#[derive(Deserialize, Debug)]
pub struct AssessmentIn {
    test_id: serde_json::Value,
    callback_url: String,
    candidate: CandidateIn,
    job_shortcode: Option<String>,
    job_title: Option<String>,
}

/// `POST /partners/workable/assessments` → 201 `{"assessment_id"}` (D80): imports the candidate
/// and emails the invitation. Workable's retry (the same `callback_url` and test while the order
/// is open) gets the same id, again 201.
pub async fn assessments<S: Store>(p: web::Data<Partners<S>>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let c = match call(&p, &req, Scope::PersonsWrite, true).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let i: AssessmentIn = match parse_body(&body) {
        Ok(i) => i,
        Err(e) => return envelope(&e),
    };
    let mut errs = FieldErrors::default();
    let test_id = match &i.test_id {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let test = TestRef::parse(&test_id);
    if test.is_none() {
        errs.push("test_id", "is not a test of this organization");
    }
    let email = errs.take("candidate.email", Email::parse(&i.candidate.email));
    let first_name = optional_name(i.candidate.first_name.as_deref(), "candidate.first_name", &mut errs);
    let last_name = optional_name(i.candidate.last_name.as_deref(), "candidate.last_name", &mut errs);
    let callback = reference(Some(&i.callback_url), "callback_url", &mut errs);
    if callback.is_none() && !errs.has("callback_url") {
        errs.push("callback_url", "is required");
    }
    let refs = OrderRefs {
        job: reference(i.job_shortcode.as_deref(), "job_shortcode", &mut errs),
        job_name: reference(i.job_title.as_deref(), "job_title", &mut errs),
        ..Default::default()
    };
    if let Err(e) = errs.into_result() {
        return envelope(&ClientError::validation(&e));
    }
    let (Some(test), Some(email), Some(callback)) = (test, email, callback) else {
        return envelope(&ClientError::internal());
    };
    let order = NewOrder {
        test,
        candidate: OrderCandidate { email, first_name, last_name },
        ats_key: callback.clone(),
        refs,
        callback_url: Some(callback),
    };
    match p.svc.place_order(&c.connection, order).await {
        Ok((o, _)) => HttpResponse::Created().json(json!({"assessment_id": o.id.to_string()})),
        Err(e) => {
            let mut e = client_error(e);
            rename(&mut e, "test", "test_id");
            rename(&mut e, "callbackUrl", "callback_url");
            envelope(&e)
        }
    }
}
