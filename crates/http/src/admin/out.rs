//! The admin API's response bodies (D39, T179), typed like the public API's (`crate::out`).
//!
//! The admin API has always answered with objects whose members come in byte order (they were
//! `serde_json` maps, which sort their keys): each struct here declares its fields in that order,
//! so the bodies are byte for byte what they were. The published objects an admin body nests
//! (Organization, Person, Invitation, results, events' data) are their JSON values, as before.
//! `members_come_in_byte_order` checks every body.

use crate::out::PaginationOut;
use serde::Serialize;
use serde_json::Value;
use talent_domain::api_key::ApiKey;
use talent_domain::connector::{Connection, ConnectionError, Order, ReportOpening};
use talent_domain::ids::{PersonId, TeamId};
use talent_domain::organization::User;
use talent_domain::person::Team;
use talent_domain::ports::EmailRecord;
use talent_domain::results::Assessment;
use talent_domain::timefmt::format;
use talent_domain::webhook::{AttemptOutcome, Delivery};
use talent_domain::wire::to_value;

/// `{data, pagination: {hasMore, nextCursor}}` of an admin list.
#[derive(Serialize, Debug)]
pub struct AdminListOut<T> {
    /// The page, newest first.
    pub data: Vec<T>,
    /// Whether more follow, and the cursor of the next page.
    pub pagination: PaginationOut,
}

impl<T> AdminListOut<T> {
    /// A page; `next` is the next page's cursor, if any.
    pub fn new(data: Vec<T>, next: Option<String>) -> Self {
        AdminListOut { data, pagination: PaginationOut { has_more: next.is_some(), next_cursor: next } }
    }
}

/// A dashboard user.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct UserOut {
    pub created_at: String,
    pub email: String,
    pub id: String,
    pub organization_id: String,
    pub role: String,
}

impl From<&User> for UserOut {
    fn from(u: &User) -> Self {
        UserOut {
            created_at: format(u.created_at),
            email: u.email.as_str().to_string(),
            id: u.id.to_string(),
            organization_id: u.org_id.to_string(),
            role: u.role.as_str().to_string(),
        }
    }
}

/// An API key record: never its value (only its hash is stored, D41).
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyOut {
    pub created_at: String,
    pub expires_at: Option<String>,
    pub id: String,
    pub name: Option<String>,
    pub revoked_at: Option<String>,
    pub scopes: Vec<String>,
}

impl From<&ApiKey> for ApiKeyOut {
    fn from(k: &ApiKey) -> Self {
        ApiKeyOut {
            created_at: format(k.created_at),
            expires_at: k.expires_at.map(format),
            id: k.id.to_string(),
            name: k.name.clone(),
            revoked_at: k.revoked_at.map(format),
            scopes: k.scopes.to_strings(),
        }
    }
}

/// A new API key with its value, shown once (D39, D41).
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKeyOut {
    pub created_at: String,
    pub expires_at: Option<String>,
    pub id: String,
    pub key: String,
    /// `live`, or `test` for a key of the organization's test twin (D60).
    pub mode: &'static str,
    pub name: Option<String>,
    pub scopes: Vec<String>,
}

impl CreatedApiKeyOut {
    /// The record `k` with its value `key`.
    pub fn new(k: &ApiKey, key: String) -> Self {
        let mode = if key.starts_with(talent_domain::usecases::access::TEST_KEY_PREFIX) { "test" } else { "live" };
        let ApiKeyOut { created_at, expires_at, id, name, scopes, .. } = k.into();
        CreatedApiKeyOut { created_at, expires_at, id, key, mode, name, scopes }
    }
}

/// A team.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct TeamOut {
    pub created_at: String,
    pub id: String,
    pub name: String,
    pub organization_id: String,
}

impl From<&Team> for TeamOut {
    fn from(t: &Team) -> Self {
        TeamOut {
            created_at: format(t.created_at),
            id: t.id.to_string(),
            name: t.name.clone(),
            organization_id: t.org_id.to_string(),
        }
    }
}

/// A team's members.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct TeamMembersOut {
    pub person_ids: Vec<String>,
    pub team_id: String,
}

impl TeamMembersOut {
    /// The members `persons` of `team`.
    pub fn new(team: TeamId, persons: &[PersonId]) -> Self {
        TeamMembersOut { person_ids: persons.iter().map(ToString::to_string).collect(), team_id: team.to_string() }
    }
}

/// An assessment started or completed by the admin API: `responses` counts them.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct AdminAssessmentOut {
    pub completed_at: Option<String>,
    pub id: String,
    pub person_id: String,
    pub responses: usize,
    pub started_at: String,
    pub status: String,
}

impl AdminAssessmentOut {
    /// Assessment `a` of `person`.
    pub fn new(person: PersonId, a: &Assessment) -> Self {
        AdminAssessmentOut {
            completed_at: a.completed_at.map(format),
            id: a.id.to_string(),
            person_id: person.to_string(),
            responses: a.responses.len(),
            started_at: format(a.started_at),
            status: a.state.as_str().to_string(),
        }
    }
}

/// An invitation accepted by the admin API and the membership it made.
#[derive(Serialize, Debug)]
pub struct AcceptedOut {
    /// The Invitation object.
    pub invitation: Value,
    /// The Person object.
    pub person: Value,
}

/// `GET /admin/v1/emails`.
#[derive(Serialize, Debug)]
pub struct EmailsOut {
    /// The recorded emails, newest first.
    pub data: Vec<EmailOut>,
}

/// One recorded email.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct EmailOut {
    pub body: String,
    pub invitation_url: Option<String>,
    pub sent_at: Option<String>,
    pub subject: String,
    pub to: String,
}

impl From<&EmailRecord> for EmailOut {
    fn from(e: &EmailRecord) -> Self {
        EmailOut {
            body: e.body.clone(),
            invitation_url: e.invitation_url.clone(),
            sent_at: e.sent_at.map(format),
            subject: e.subject.clone(),
            to: e.to.as_str().to_string(),
        }
    }
}

/// `GET /admin/v1/humans/export` (D45): every record held about one address.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct HumanExportOut {
    pub assessments: Vec<ExportedAssessmentOut>,
    pub email: String,
    pub emails: Vec<ExportedEmailOut>,
    pub events: Vec<ExportedEventOut>,
    pub exported_at: String,
    /// Invitation objects.
    pub invitations: Vec<Value>,
    pub memberships: Vec<ExportedMembershipOut>,
}

/// A membership of an export: the organization, the Person object and its visible results.
#[derive(Serialize, Debug)]
pub struct ExportedMembershipOut {
    pub organization: OrganizationRefOut,
    pub person: Value,
    pub results: Option<Value>,
}

/// The organization of an exported membership.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct OrganizationRefOut {
    pub company_name: String,
    pub id: String,
}

/// An exported assessment with its responses.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ExportedAssessmentOut {
    pub completed_at: Option<String>,
    pub id: String,
    pub responses: Value,
    pub started_at: String,
    pub state: String,
}

impl From<&Assessment> for ExportedAssessmentOut {
    fn from(a: &Assessment) -> Self {
        ExportedAssessmentOut {
            completed_at: a.completed_at.map(format),
            id: a.id.to_string(),
            responses: to_value(&a.responses),
            started_at: format(a.started_at),
            state: a.state.as_str().to_string(),
        }
    }
}

/// An exported email.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ExportedEmailOut {
    pub body: String,
    pub created_at: String,
    pub sent_at: Option<String>,
    pub subject: String,
    pub to: String,
}

impl From<&EmailRecord> for ExportedEmailOut {
    fn from(e: &EmailRecord) -> Self {
        ExportedEmailOut {
            body: e.body.clone(),
            created_at: format(e.created_at),
            sent_at: e.sent_at.map(format),
            subject: e.subject.clone(),
            to: e.to.as_str().to_string(),
        }
    }
}

/// An exported event.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ExportedEventOut {
    pub created_at: String,
    pub data: talent_domain::events::EventData,
    pub id: String,
    pub organization_id: String,
    #[serde(rename = "type")]
    pub event_type: String,
}

/// `POST /admin/v1/humans/erase` (D45): what was removed.
#[derive(Serialize, Debug)]
pub struct HumanErasureOut {
    pub assessments: u64,
    pub emails: u64,
    pub invitations: u32,
    pub memberships: u32,
    pub texts: u32,
}

/// `POST /admin/v1/clock` (D39).
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ClockOut {
    pub delivery_attempts: u32,
    pub expired: u32,
    pub now: String,
    pub reminded: u32,
}

/// A connection to an ATS (D63). Its credentials never leave: `settings` says whether each is
/// set. `key` only in the answer that creates it.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionOut {
    pub ats: &'static str,
    pub created_at: String,
    pub enabled: bool,
    pub failed_pushes: u64,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    pub last_activity_at: Option<String>,
    /// The language of the invitations its orders send (T221); null: the organization's.
    pub locale: Option<&'static str>,
    pub name: String,
    pub orders: u64,
    pub organization_id: String,
    pub settings: ConnectionSettingsOut,
    pub updated_at: String,
}

/// The settings of a connection as shown: the base URL and integration id, and whether each
/// credential is set.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionSettingsOut {
    pub api_key_set: bool,
    pub base_url: Option<String>,
    pub integration_id: Option<String>,
    pub webhook_secret_set: bool,
}

impl ConnectionOut {
    /// `c` with its order and failed push counts; `key` the minted key's value on creation.
    pub fn new(c: &Connection, (orders, failed_pushes): (u64, u64), key: Option<String>) -> Self {
        let s = &c.settings;
        ConnectionOut {
            ats: c.ats.as_str(),
            created_at: format(c.created_at),
            enabled: c.enabled,
            failed_pushes,
            id: c.id.to_string(),
            key,
            last_activity_at: c.last_activity_at.map(format),
            locale: c.locale.map(|l| l.as_str()),
            name: c.name.clone(),
            orders,
            organization_id: c.org_id.to_string(),
            settings: ConnectionSettingsOut {
                api_key_set: s.api_key.is_some(),
                base_url: s.base_url.clone(),
                integration_id: s.integration_id.clone(),
                webhook_secret_set: s.webhook_secret.is_some(),
            },
            updated_at: format(c.updated_at),
        }
    }
}

/// An order an ATS placed (D67).
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct OrderOut {
    pub assessment_id: Option<String>,
    pub ats_refs: OrderRefsOut,
    pub callback_url: Option<String>,
    pub completed_at: Option<String>,
    pub connection_id: String,
    pub created_at: String,
    pub id: String,
    pub invitation_id: String,
    pub person_id: String,
    pub started_at: Option<String>,
    pub status: &'static str,
    pub test: String,
    pub updated_at: String,
}

/// The ATS-side ids and links of an order.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct OrderRefsOut {
    pub application: Option<String>,
    pub candidate: Option<String>,
    pub job: Option<String>,
    pub job_name: Option<String>,
    pub order: Option<String>,
    pub profile_url: Option<String>,
}

impl From<&Order> for OrderOut {
    fn from(o: &Order) -> Self {
        let r = &o.refs;
        OrderOut {
            assessment_id: o.assessment_id.map(|a| a.to_string()),
            ats_refs: OrderRefsOut {
                application: r.application.clone(),
                candidate: r.candidate.clone(),
                job: r.job.clone(),
                job_name: r.job_name.clone(),
                order: r.ats_order.clone(),
                profile_url: r.profile_url.clone(),
            },
            callback_url: o.callback_url.clone(),
            completed_at: o.completed_at.map(format),
            connection_id: o.connection_id.to_string(),
            created_at: format(o.created_at),
            id: o.id.to_string(),
            invitation_id: o.invitation_id.to_string(),
            person_id: o.person_id.to_string(),
            started_at: o.started_at.map(format),
            status: o.status.as_str(),
            test: o.test.id(),
            updated_at: format(o.updated_at),
        }
    }
}

/// A push to an ATS (D69): the event that caused it (`packages` for Kombo's list of tests, D81),
/// the order, and its delivery state.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PushOut {
    pub attempts: u32,
    pub created_at: String,
    pub event: &'static str,
    pub id: String,
    pub last_attempt_at: Option<String>,
    pub last_error: Option<String>,
    pub last_response_status: Option<u16>,
    pub next_attempt_at: Option<String>,
    pub order_id: Option<String>,
    pub status: &'static str,
}

impl From<&Delivery> for PushOut {
    fn from(d: &Delivery) -> Self {
        PushOut {
            attempts: d.attempts,
            created_at: format(d.created_at),
            event: talent_domain::connector::push_about(d),
            id: d.id.to_string(),
            last_attempt_at: d.last_attempt_at.map(format),
            last_error: d.last_error.clone(),
            last_response_status: d.last_response_status,
            next_attempt_at: d.next_attempt_at.map(format),
            order_id: talent_domain::connector::pushed_order(&d.payload).map(|o| o.to_string()),
            status: d.status.as_str(),
        }
    }
}

/// A push with its attempts: status, response code, the first KiB of the answer, error.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PushDetailOut {
    pub attempt_log: Vec<PushAttemptOut>,
    pub push: PushOut,
}

/// One attempt of a push.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct PushAttemptOut {
    pub attempted_at: String,
    pub duration_ms: u64,
    pub error: Option<String>,
    pub response_body: Option<String>,
    pub response_status: Option<u16>,
}

impl PushAttemptOut {
    /// The attempt made at `at` with `o`.
    pub fn new(at: time::OffsetDateTime, o: &AttemptOutcome) -> Self {
        PushAttemptOut {
            attempted_at: format(at),
            duration_ms: o.duration_ms,
            error: o.error.clone(),
            response_body: o.response_body.clone(),
            response_status: o.status,
        }
    }
}

/// An opening of an order's report link (D68).
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ReportOpeningOut {
    pub client_ip: String,
    pub id: String,
    pub opened_at: String,
    pub pdf: bool,
    pub user_agent: Option<String>,
}

impl From<&ReportOpening> for ReportOpeningOut {
    fn from(o: &ReportOpening) -> Self {
        ReportOpeningOut {
            client_ip: o.client_ip.clone(),
            id: o.id.to_string(),
            opened_at: format(o.opened_at),
            pdf: o.pdf,
            user_agent: o.user_agent.clone(),
        }
    }
}

/// An error an ATS reported (D75).
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct AtsErrorOut {
    pub api_call: String,
    pub created_at: String,
    pub errors: String,
    pub id: String,
    pub order_id: Option<String>,
}

impl From<&ConnectionError> for AtsErrorOut {
    fn from(e: &ConnectionError) -> Self {
        AtsErrorOut {
            api_call: e.api_call.clone(),
            created_at: format(e.created_at),
            errors: e.errors.clone(),
            id: e.id.to_string(),
            order_id: e.order_id.map(|o| o.to_string()),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The text of `v`, and the text of the same value with every object's members sorted (as
    /// the admin API wrote them before its types, T179).
    fn both(v: &impl Serialize) -> (String, String) {
        let typed = serde_json::to_string(v).unwrap();
        let sorted = serde_json::to_string(&serde_json::from_str::<Value>(&typed).unwrap()).unwrap();
        (typed, sorted)
    }

    #[test]
    fn members_come_in_byte_order() {
        let s = || "x".to_string();
        let o = || Some("x".to_string());
        let bodies = [
            both(&AdminListOut::new(vec![json!({"b": 1, "a": 2})], Some(s()))),
            both(&UserOut { created_at: s(), email: s(), id: s(), organization_id: s(), role: s() }),
            both(&ApiKeyOut {
                created_at: s(),
                expires_at: o(),
                id: s(),
                name: o(),
                revoked_at: o(),
                scopes: vec![s()],
            }),
            both(&CreatedApiKeyOut {
                created_at: s(),
                expires_at: o(),
                id: s(),
                key: s(),
                mode: "live",
                name: o(),
                scopes: vec![],
            }),
            both(&TeamOut { created_at: s(), id: s(), name: s(), organization_id: s() }),
            both(&TeamMembersOut { person_ids: vec![s()], team_id: s() }),
            both(&AdminAssessmentOut {
                completed_at: o(),
                id: s(),
                person_id: s(),
                responses: 3,
                started_at: s(),
                status: s(),
            }),
            both(&AcceptedOut { invitation: json!({}), person: json!({}) }),
            both(&EmailsOut {
                data: vec![EmailOut { body: s(), invitation_url: o(), sent_at: o(), subject: s(), to: s() }],
            }),
            both(&HumanExportOut {
                assessments: vec![ExportedAssessmentOut {
                    completed_at: o(),
                    id: s(),
                    responses: json!([]),
                    started_at: s(),
                    state: s(),
                }],
                email: s(),
                emails: vec![ExportedEmailOut { body: s(), created_at: s(), sent_at: o(), subject: s(), to: s() }],
                events: vec![ExportedEventOut {
                    created_at: s(),
                    data: talent_domain::events::EventData::of(&json!({})),
                    id: s(),
                    organization_id: s(),
                    event_type: s(),
                }],
                exported_at: s(),
                invitations: vec![],
                memberships: vec![ExportedMembershipOut {
                    organization: OrganizationRefOut { company_name: s(), id: s() },
                    person: json!({}),
                    results: None,
                }],
            }),
            both(&HumanErasureOut { assessments: 1, emails: 2, invitations: 3, memberships: 4, texts: 5 }),
            both(&ClockOut { delivery_attempts: 1, expired: 2, now: s(), reminded: 3 }),
            both(&ConnectionOut {
                ats: "kombo",
                created_at: s(),
                enabled: true,
                failed_pushes: 2,
                id: s(),
                key: o(),
                last_activity_at: o(),
                locale: Some("de"),
                name: s(),
                orders: 1,
                organization_id: s(),
                settings: ConnectionSettingsOut {
                    api_key_set: true,
                    base_url: o(),
                    integration_id: o(),
                    webhook_secret_set: false,
                },
                updated_at: s(),
            }),
            both(&OrderOut {
                assessment_id: o(),
                ats_refs: OrderRefsOut {
                    application: o(),
                    candidate: o(),
                    job: o(),
                    job_name: o(),
                    order: o(),
                    profile_url: o(),
                },
                callback_url: o(),
                completed_at: o(),
                connection_id: s(),
                created_at: s(),
                id: s(),
                invitation_id: s(),
                person_id: s(),
                started_at: o(),
                status: "sent",
                test: s(),
                updated_at: s(),
            }),
            both(&AtsErrorOut { api_call: s(), created_at: s(), errors: s(), id: s(), order_id: o() }),
            both(&ReportOpeningOut { client_ip: s(), id: s(), opened_at: s(), pdf: true, user_agent: o() }),
            both(&PushDetailOut {
                attempt_log: vec![PushAttemptOut {
                    attempted_at: s(),
                    duration_ms: 3,
                    error: o(),
                    response_body: o(),
                    response_status: Some(200),
                }],
                push: PushOut {
                    attempts: 1,
                    created_at: s(),
                    event: "assessment.completed",
                    id: s(),
                    last_attempt_at: o(),
                    last_error: o(),
                    last_response_status: Some(500),
                    next_attempt_at: o(),
                    order_id: o(),
                    status: "pending",
                },
            }),
        ];
        for (typed, sorted) in bodies {
            assert_eq!(typed, sorted);
        }
    }
}
