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
use talent_domain::ids::{PersonId, TeamId};
use talent_domain::organization::User;
use talent_domain::person::Team;
use talent_domain::ports::EmailRecord;
use talent_domain::results::Assessment;
use talent_domain::timefmt::format;
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
    pub name: Option<String>,
    pub scopes: Vec<String>,
}

impl CreatedApiKeyOut {
    /// The record `k` with its value `key`.
    pub fn new(k: &ApiKey, key: String) -> Self {
        let ApiKeyOut { created_at, expires_at, id, name, scopes, .. } = k.into();
        CreatedApiKeyOut { created_at, expires_at, id, key, name, scopes }
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
    pub data: Value,
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
            both(&CreatedApiKeyOut { created_at: s(), expires_at: o(), id: s(), key: s(), name: o(), scopes: vec![] }),
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
                    data: json!({}),
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
        ];
        for (typed, sorted) in bodies {
            assert_eq!(typed, sorted);
        }
    }
}
