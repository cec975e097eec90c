//! Test mode's sandbox actions under `/api/v1/test/` (D60): for test-mode keys (`tk_test_`) only;
//! a live key gets 403 `test_key_required`.

use crate::auth::authorize;
use crate::body::parse_json;
use crate::error::ApiError;
use crate::extract::{Body, PathId};
use crate::idempotency::{keyed, Reply};
use crate::out;
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use talent_domain::assessment::MatchCategory;
use talent_domain::ids::{PersonId, ProfileId};
use talent_domain::person::Person;
use talent_domain::ports::{EmailRecord, Store};
use talent_domain::results::Assessment;
use talent_domain::timefmt::format;
use talent_domain::usecases::test_mode::{ClockAdvanced, TestCompletion};
use talent_domain::values::Scope;
use utoipa::ToSchema;

/// The body of `POST /api/v1/test/persons/{id}/complete-assessment`; it may be left out.
#[derive(Deserialize, ToSchema, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = TestCompletionRequest)]
pub struct CompletionIn {
    /// Generates the responses: the same seed gives the same results. Default: derived from the
    /// assessment's id.
    #[schema(minimum = 0)]
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    seed: Option<i64>,
    /// One of your organization's profiles (test data reads your live profiles); with
    /// `targetCategory`.
    #[schema(nullable = false)]
    #[serde(default, deserialize_with = "crate::body::non_null")]
    profile_id: Option<uuid::Uuid>,
    /// Steers the responses so that the person's match with `profileId` falls in this category
    /// (high ≥ 70, moderate 50-69, low < 50); with `profileId`.
    #[schema(nullable = false)]
    #[serde(default, deserialize_with = "crate::body::non_null")]
    target_category: Option<TargetCategory>,
}

/// A match category to steer a test completion to.
#[derive(Deserialize, ToSchema, Debug, Clone, Copy)]
#[schema(as = TestTargetCategory)]
#[serde(rename_all = "lowercase")]
pub enum TargetCategory {
    Low,
    Moderate,
    High,
}

impl CompletionIn {
    /// The domain's request; `profileId` and `targetCategory` go together.
    fn into_domain(self) -> Result<TestCompletion, ApiError> {
        let target = match (self.profile_id, self.target_category) {
            (None, None) => None,
            (Some(p), Some(c)) => Some((
                ProfileId(p),
                match c {
                    TargetCategory::Low => MatchCategory::Low,
                    TargetCategory::Moderate => MatchCategory::Moderate,
                    TargetCategory::High => MatchCategory::High,
                },
            )),
            (Some(_), None) => return Err(ApiError::field("targetCategory", "is required with profileId")),
            (None, Some(_)) => return Err(ApiError::field("profileId", "is required with targetCategory")),
        };
        let seed = match self.seed {
            None => None,
            Some(s) => Some(u64::try_from(s).map_err(|_| ApiError::field("seed", "must be 0 or more"))?),
        };
        Ok(TestCompletion { seed, target })
    }
}

/// One email of the test twin, recorded instead of sent.
#[derive(Serialize, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
#[schema(as = TestEmail)]
pub struct TestEmailOut {
    pub id: uuid::Uuid,
    pub to: String,
    pub subject: String,
    pub body: String,
    /// The invitation link it carries, or null.
    pub invitation_url: Option<String>,
    /// The invitation it belongs to, or null.
    pub invitation_id: Option<uuid::Uuid>,
    /// When it was recorded as sent; null while it waits (it never leaves the service).
    #[schema(format = DateTime)]
    pub sent_at: Option<String>,
    #[schema(format = DateTime)]
    pub created_at: String,
}

impl From<&EmailRecord> for TestEmailOut {
    fn from(e: &EmailRecord) -> Self {
        TestEmailOut {
            id: e.id.0,
            to: e.to.as_str().to_string(),
            subject: e.subject.clone(),
            body: e.body.clone(),
            invitation_url: e.invitation_url.clone(),
            invitation_id: e.invitation_id.map(|i| i.0),
            sent_at: e.sent_at.map(format),
            created_at: format(e.created_at),
        }
    }
}

/// The answer of `GET /api/v1/test/emails`.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = TestEmailList)]
pub struct TestEmailsOut {
    /// Newest first, at most 200.
    pub data: Vec<TestEmailOut>,
}

/// `POST /api/v1/test/persons/{id}/complete-assessment` (D60, scope `persons:write`).
#[utoipa::path(post, path = "/api/v1/test/persons/{id}/complete-assessment", tag = "test mode",
    operation_id = "testCompleteAssessment",
    summary = "Test mode: the person completes an assessment now",
    description = "For test-mode keys only. The person of your test data completes an assessment now, with responses generated from `seed`, exactly as if they had taken it: results, matches, the PDF report and `assessment.completed` follow. With `profileId` and `targetCategory`, the responses are chosen so that the person's match with that profile falls in that category. A live key gets 403 `test_key_required`.",
    params(crate::api::PersonIdParam),
    request_body(content = CompletionIn, description = "May be left out."),
    responses(
        (status = 200, description = "The completion, as `assessment.completed` carries it.", body = out::AssessmentCompletedData),
        (status = 403, description = "`test_key_required`: a live key; or another 403 of the API.", body = out::ErrorOut),
        (status = 404, description = "`not_found`: not a person of your test data.", body = out::ErrorOut),
        (status = 400, description = "`validation_error`: `profileId` and `targetCategory` must come together; an unknown `profileId`; a category that profile cannot reach.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:write"])))]
pub async fn complete_assessment<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsWrite), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    // An empty body is the default.
    let i: CompletionIn =
        if body.iter().all(u8::is_ascii_whitespace) { CompletionIn::default() } else { parse_json(&req, &body)? };
    let c = i.into_domain()?;
    let org = p.ctx.org.clone();
    let answer = |(person, a): &(Person, Assessment)| {
        let done = out::AssessmentCompletedData {
            person_id: person.id.0,
            email: person.email.as_str().to_string(),
            external_id: person.external_id.as_ref().map(|e| e.as_str().to_string()),
            assessment_id: a.id.0,
            completed_at: a.completed_at.unwrap_or(a.started_at),
            accommodations: a.accommodations.as_ref().map(talent_domain::wire::AccommodationsOut::new),
        };
        Reply::new(StatusCode::OK, &done)
    };
    keyed(&state, &req, org.id, &body, answer, |claim| async {
        Ok(state.svc.test_complete_assessment_keyed(&org, id, c, claim).await?)
    })
    .await
}

/// `GET /api/v1/test/emails` (D60, scope `invitations:read`).
#[utoipa::path(get, path = "/api/v1/test/emails", tag = "test mode", operation_id = "listTestEmails",
    summary = "Test mode: the emails recorded instead of sent",
    description = "For test-mode keys only. Emails of your test data (invitations, reminders) are never sent: they are recorded, and listed here newest first (at most 200) with their links. A live key gets 403 `test_key_required`.",
    responses(
        (status = 200, description = "The recorded emails.", body = TestEmailsOut),
        (status = 403, description = "`test_key_required`: a live key; or another 403 of the API.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["invitations:read"])))]
pub async fn emails<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::InvitationsRead), false)?;
    crate::body::parse_query(&req, &[])?;
    let list = state.svc.test_emails(&p.ctx.org).await?;
    Ok(HttpResponse::Ok().json_body(TestEmailsOut { data: list.iter().map(TestEmailOut::from).collect() }))
}

/// The body of `POST /api/v1/test/clock/advance`.
#[derive(Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
#[schema(as = TestClockAdvanceRequest)]
pub struct ClockIn {
    /// How far to move the clock of your test data, in seconds (1 to 315360000, ten years).
    #[schema(minimum = 1, maximum = 315360000, example = 259200, value_type = i64, required = true)]
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    seconds: Option<i64>,
}

/// The answer of `POST /api/v1/test/clock/advance`.
#[derive(Serialize, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
#[schema(as = TestClockAdvance)]
pub struct ClockOut {
    /// How far the clock moved, in seconds.
    pub advanced_seconds: i64,
    /// Invitations that expired (each with `invitation.expired`).
    pub expired: u32,
    /// Invitations reminded (each with `invitation.reminded` and a recorded reminder email).
    pub reminded: u32,
}

/// `POST /api/v1/test/clock/advance` (D60, scope `invitations:write`).
#[utoipa::path(post, path = "/api/v1/test/clock/advance", tag = "test mode", operation_id = "advanceTestClock",
    summary = "Test mode: move the clock of your test data forward",
    description = "For test-mode keys only. Your test data ages by `seconds`: every time in it that a rule compares with the present (invitations' sending and expiry, emails, events, webhook deliveries and their retries, idempotency keys) moves that far into the past, so what would fall due in that time falls due now. Invitations that expired and reminders that fell due are processed before the answer, with their events and recorded emails; a webhook retry that fell due goes out at once; retention removes aged history at its next run. Persons' and assessments' times do not move. Your live data is never touched.",
    request_body = ClockIn,
    responses(
        (status = 200, description = "The clock moved; what fell due was processed.", body = ClockOut),
        (status = 400, description = "`validation_error`: `seconds` outside 1 to 315360000.", body = out::ErrorOut),
        (status = 403, description = "`test_key_required`: a live key; or another 403 of the API.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["invitations:write"])))]
pub async fn advance_clock<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::InvitationsWrite), true)?;
    let Body(body) = body?;
    let i: ClockIn = parse_json(&req, &body)?;
    let seconds = i.seconds.ok_or_else(|| ApiError::field("seconds", "is required"))?;
    let org = p.ctx.org.clone();
    let answer = |done: &ClockAdvanced| {
        let out = ClockOut { advanced_seconds: done.seconds, expired: done.expired, reminded: done.reminded };
        Reply::new(StatusCode::OK, &out)
    };
    keyed(&state, &req, org.id, &body, answer, |claim| async {
        Ok(state.svc.test_advance_clock_keyed(&org, seconds, claim).await?)
    })
    .await
}
