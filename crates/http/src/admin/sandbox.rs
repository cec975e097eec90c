//! The sandbox's shortcuts (D39): assessments taken for a person, invitations accepted for
//! them, the recorded emails (D22), and the movable clock.

use super::out::{AcceptedOut, AdminAssessmentOut, ClockOut, EmailOut, EmailsOut};
use crate::body::parse_json;
use crate::error::ApiError;
use crate::extract::{Body, JsonIn, PathId};
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use talent_domain::errors::Code;
use talent_domain::ids::{InvitationId, PersonId};
use talent_domain::ports::Store;
use talent_domain::timefmt::format;
use talent_domain::values::Email;
use talent_domain::wire::person_json;

/// `POST /admin/v1/persons/{id}/assessments` body (D39).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AssessmentIn {
    complete: bool,
    responses: Option<Vec<talent_domain::assessment::Response>>,
    seed: Option<u64>,
}

/// `POST /admin/v1/persons/{id}/assessments`: starts (`complete: false`) or completes an
/// assessment from `responses` or a `seed` (D39). 200 `{id, personId, status, startedAt,
/// completedAt, responses}` (responses: how many).
pub async fn assessment<S: Store>(
    state: web::Data<ApiState<S>>,
    PathId(person): PathId<PersonId>,
    JsonIn(i): JsonIn<AssessmentIn>,
) -> Result<HttpResponse, ApiError> {
    let cmd = talent_domain::usecases::assessments::AssessmentCommand {
        complete: i.complete,
        responses: i.responses,
        seed: i.seed,
    };
    let a = state.svc.admin_assessment(person, cmd).await?;
    Ok(HttpResponse::Ok().json_body(AdminAssessmentOut::new(person, &a)))
}

/// `POST /admin/v1/invitations/{id}/accept` body (D39).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct AcceptIn {
    share: Option<bool>,
}

/// `POST /admin/v1/invitations/{id}/accept`: what the person's `POST` on the URL does (D39).
/// 200 `{invitation, person}`.
pub async fn accept_invitation<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    PathId(id): PathId<InvitationId>,
    Body(body): Body,
) -> Result<HttpResponse, ApiError> {
    let i: AcceptIn =
        if body.iter().all(u8::is_ascii_whitespace) { AcceptIn::default() } else { parse_json(&req, &body)? };
    let (view, person) = state.svc.accept_invitation(id, i.share.unwrap_or(false)).await?;
    Ok(HttpResponse::Ok().json_body(AcceptedOut { invitation: view.json(), person: person_json(&person) }))
}

/// `GET /admin/v1/emails?to=` (D22): recorded emails, newest first (at most 200).
pub async fn emails<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let pairs = crate::body::parse_query(&req, &["to"])?;
    let to = match pairs.iter().find(|(k, _)| k == "to") {
        Some((_, v)) => Some(Email::parse(v).map_err(|m| ApiError::field("to", m))?),
        None => None,
    };
    let list = state.svc.emails(to, 200).await?;
    Ok(HttpResponse::Ok().json_body(EmailsOut { data: list.iter().map(EmailOut::from).collect() }))
}

/// `POST /admin/v1/clock` body (D39).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClockIn {
    advance_seconds: i64,
}

/// `POST /admin/v1/clock` (sandbox only, else 404): moves the service clock forward, then runs
/// the invitation sweep, the email job and the webhook worker so expiry, reminders and retries
/// follow at once. 200 `{now, expired, reminded, deliveryAttempts}`.
pub async fn clock<S: Store>(
    state: web::Data<ApiState<S>>,
    body: Result<JsonIn<ClockIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Some(ctl) = state.clock_control.clone() else {
        return Err(ApiError::new(Code::NotFound, "The clock can be moved in sandbox mode only (TALENT_SANDBOX=1)"));
    };
    // The body's errors after the sandbox's 404.
    let JsonIn(i) = body?;
    if !(0..=10 * 365 * 86_400).contains(&i.advance_seconds) {
        return Err(ApiError::field(
            "advanceSeconds",
            "must be between 0 and 315360000 (the clock only moves forward)",
        ));
    }
    // What the email job would have sent before the jump goes out at the old time (after the
    // job's pass in flight, if any, has recorded what it sent: T180); the reminders the sweep
    // queues go out before the answer.
    let _passes = state.email_passes.lock().await;
    while state.svc.deliver_emails().await? > 0 {}
    ctl.advance(i.advance_seconds);
    let (expired, reminded) = state.svc.sweep_invitations().await?;
    while state.svc.deliver_emails().await? > 0 {}
    let mut delivered = 0;
    loop {
        let n = state.svc.run_deliveries(100).await?;
        delivered += n;
        if n == 0 {
            break;
        }
    }
    let now = format(state.svc.clock.now());
    Ok(HttpResponse::Ok().json_body(ClockOut { delivery_attempts: delivered, expired, now, reminded }))
}
