//! Data-subject requests (D45): everything held about an address, exported or erased.

use super::out::{
    ExportedAssessmentOut, ExportedEmailOut, ExportedEventOut, ExportedMembershipOut, HumanErasureOut, HumanExportOut,
    OrganizationRefOut,
};
use crate::error::ApiError;
use crate::extract::JsonIn;
use crate::out::JsonBody as _;
use crate::state::ApiState;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use talent_domain::ports::Store;
use talent_domain::timefmt::format;
use talent_domain::values::Email;
use talent_domain::wire::{person_json, to_value};

/// The `email` of a data-subject request (D45): required, a valid address.
fn subject_email(pairs: &[(String, String)]) -> Result<Email, ApiError> {
    match pairs.iter().find(|(k, _)| k == "email") {
        Some((_, v)) => Email::parse(v).map_err(|m| ApiError::field("email", m)),
        None => Err(ApiError::field("email", "is required")),
    }
}

/// `GET /admin/v1/humans/export?email=` (D45): every record held about the address as one JSON
/// document: `{email, exportedAt, memberships: [{organization: {id, companyName}, person,
/// results}], assessments: [{id, state, startedAt, completedAt, responses}], invitations,
/// emails: [{to, subject, body, sentAt, createdAt}], events: [{id, type, organizationId, data,
/// createdAt}]}`. Errors: 400 (email), 404 when nothing is held. The address is never logged.
pub async fn export_human<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let pairs = crate::body::parse_query(&req, &["email"])?;
    let email = subject_email(&pairs)?;
    let x = state.svc.export_human(email.clone()).await?;
    let model = &state.svc.assessment.model;
    let memberships = x.memberships.iter().map(|m| ExportedMembershipOut {
        organization: OrganizationRefOut {
            company_name: m.organization.company_name.clone(),
            id: m.organization.id.to_string(),
        },
        person: person_json(&m.person),
        results: m.results.as_ref().map(|r| to_value(&crate::out::PersonResultsOut::new(model, r))),
    });
    let events = x.events.iter().map(|e| ExportedEventOut {
        created_at: format(e.created_at),
        data: e.data.clone(),
        id: e.id.to_string(),
        organization_id: e.org_id.to_string(),
        event_type: e.event_type.as_str().to_string(),
    });
    Ok(HttpResponse::Ok().json_body(HumanExportOut {
        assessments: x.assessments.iter().map(ExportedAssessmentOut::from).collect(),
        email: email.as_str().to_string(),
        emails: x.emails.iter().map(ExportedEmailOut::from).collect(),
        events: events.collect(),
        exported_at: format(x.exported_at),
        invitations: x.invitations.iter().map(|v| v.json()).collect(),
        memberships: memberships.collect(),
    }))
}

/// `POST /admin/v1/humans/erase` body (D45).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EraseHumanIn {
    /// The address.
    pub email: String,
}

/// `POST /admin/v1/humans/erase` `{email}` (D45): erases everything held about the address and
/// answers what was removed: `{memberships, assessments, invitations, emails, texts}`. Safe to
/// repeat (then every count is 0). Errors: 400 (email). The address is never logged.
pub async fn erase_human<S: Store>(
    state: web::Data<ApiState<S>>,
    JsonIn(i): JsonIn<EraseHumanIn>,
) -> Result<HttpResponse, ApiError> {
    let email = Email::parse(&i.email).map_err(|m| ApiError::field("email", m))?;
    let r = state.svc.erase_human(email).await?;
    Ok(HttpResponse::Ok().json_body(HumanErasureOut {
        assessments: r.assessments,
        emails: r.emails,
        invitations: r.invitations,
        memberships: r.memberships,
        texts: r.texts,
    }))
}
