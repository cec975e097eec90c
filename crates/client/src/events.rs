//! Events as an integrator reads them: the typed `data` of every event type (every type the API
//! documents), and the events feed (`GET /api/v1/events`) with its
//! `sequence` checkpoint.
//!
//! ```no_run
//! use talent_client::{Client, events::{EventData, EventQuery}};
//! let api = Client::new("http://127.0.0.1:8080", "tk_...");
//! let mut after = 0; // the last sequence you stored
//! loop {
//!     let page = api.list_events(after, &EventQuery::default())?;
//!     for e in &page.data {
//!         match e.typed() {
//!             EventData::PersonUpdated { person, previous_attributes } => {
//!                 println!("{} changed: {:?}", person.id, previous_attributes.keys().collect::<Vec<_>>())
//!             }
//!             EventData::Other { event_type, .. } => println!("ignoring {event_type}"),
//!             other => println!("{other:?}"),
//!         }
//!         after = e.sequence; // store it with what you applied, in one transaction
//!     }
//!     if !page.pagination.has_more {
//!         break;
//!     }
//! }
//! # Ok::<(), talent_client::Error>(())
//! ```

use crate::models::{rfc3339_opt, Invitation, Person};
use serde::Deserialize;
use serde_json::{Map, Value};
use time::OffsetDateTime;
use uuid::Uuid;

/// An event's `data`, by its `type`. Receivers must ignore types they do not know: a type
/// newer than this client, or data that does not have its documented shape, is
/// [`EventData::Other`] with the raw JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum EventData {
    /// `person.created`: a person was added, or reactivated, through the API.
    PersonCreated(Person),
    /// `person.joined`: a person joined through an invitation.
    PersonJoined(Person),
    /// `person.updated`: the Person after the change, and the old values of the members that
    /// changed (`updatedAt` aside), e.g. `{"firstName": null}`.
    PersonUpdated {
        /// The Person after the change.
        person: Person,
        /// Member name to its value before the change.
        previous_attributes: Map<String, Value>,
    },
    /// `person.archived`: the Person as archived, and why: `api`, `withdrawn`, `deactivated` or
    /// `erased`.
    PersonArchived {
        /// The archived Person (an erased one carries no personal data).
        person: Person,
        /// `api`, `withdrawn`, `deactivated` or `erased`.
        archive_reason: String,
    },
    /// `invitation.created`.
    InvitationCreated(Invitation),
    /// `invitation.reminded`: sent again (the reminder after 3 days, or a resend).
    InvitationReminded(Invitation),
    /// `invitation.accepted`.
    InvitationAccepted(Invitation),
    /// `invitation.revoked`.
    InvitationRevoked(Invitation),
    /// `invitation.expired`.
    InvitationExpired(Invitation),
    /// `assessment.started`.
    AssessmentStarted(AssessmentEvent),
    /// `assessment.completed`.
    AssessmentCompleted(AssessmentEvent),
    /// `webhook.disabled`: one of the organization's endpoints was disabled after 3 days of
    /// failed deliveries.
    WebhookDisabled(WebhookDisabled),
    /// `ping`: `POST /api/v1/webhooks/{id}/test`.
    Ping {
        /// The tested endpoint.
        webhook_id: Uuid,
    },
    /// A type this client does not know, or data not of its documented shape.
    Other {
        /// The event type.
        event_type: String,
        /// The raw `data`.
        data: Value,
    },
}

/// `data` of `assessment.started` (with `started_at`) and `assessment.completed` (with
/// `completed_at`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssessmentEvent {
    /// The person in the organization's pool.
    pub person_id: Uuid,
    pub email: String,
    pub external_id: Option<String>,
    pub assessment_id: Uuid,
    /// `assessment.started`: when it started.
    #[serde(default, with = "rfc3339_opt")]
    pub started_at: Option<OffsetDateTime>,
    /// `assessment.completed`: when it was completed.
    #[serde(default, with = "rfc3339_opt")]
    pub completed_at: Option<OffsetDateTime>,
}

/// `data` of `webhook.disabled`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDisabled {
    /// The endpoint that was disabled.
    pub webhook_id: Uuid,
    pub url: String,
    /// When the first delivery of the run of failures failed.
    #[serde(with = "time::serde::rfc3339")]
    pub failing_since: OffsetDateTime,
    /// Deliveries that failed (after all their retries) in that run.
    pub failed_deliveries: u32,
    #[serde(with = "time::serde::rfc3339")]
    pub disabled_at: OffsetDateTime,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PersonWith {
    #[serde(flatten)]
    person: Person,
    #[serde(default)]
    previous_attributes: Map<String, Value>,
    #[serde(default)]
    archive_reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PingData {
    webhook_id: Uuid,
}

impl EventData {
    /// Reads `data` as the documented shape of `event_type`; [`EventData::Other`] when the type
    /// is unknown or the data does not fit.
    pub fn parse(event_type: &str, data: &Value) -> EventData {
        fn de<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
            T::deserialize(v).ok()
        }
        let typed = match event_type {
            "person.created" => de(data).map(EventData::PersonCreated),
            "person.joined" => de(data).map(EventData::PersonJoined),
            "person.updated" => de::<PersonWith>(data)
                .map(|p| EventData::PersonUpdated { person: p.person, previous_attributes: p.previous_attributes }),
            "person.archived" => de::<PersonWith>(data).map(|p| EventData::PersonArchived {
                person: p.person,
                archive_reason: p.archive_reason.unwrap_or_else(|| "api".into()),
            }),
            "invitation.created" => de(data).map(EventData::InvitationCreated),
            "invitation.reminded" => de(data).map(EventData::InvitationReminded),
            "invitation.accepted" => de(data).map(EventData::InvitationAccepted),
            "invitation.revoked" => de(data).map(EventData::InvitationRevoked),
            "invitation.expired" => de(data).map(EventData::InvitationExpired),
            "assessment.started" => de(data).map(EventData::AssessmentStarted),
            "assessment.completed" => de(data).map(EventData::AssessmentCompleted),
            "webhook.disabled" => de(data).map(EventData::WebhookDisabled),
            "ping" => de::<PingData>(data).map(|p| EventData::Ping { webhook_id: p.webhook_id }),
            _ => None,
        };
        typed.unwrap_or_else(|| EventData::Other { event_type: event_type.to_string(), data: data.clone() })
    }
}

/// One event of the feed (`GET /api/v1/events`): the webhook envelope of the event with its
/// own event id, plus `sequence`, ascending in commit order and without gaps. Store the last
/// `sequence` you applied and pass it as `after`: you miss nothing and see nothing twice.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedEvent {
    /// The feed's cursor.
    pub sequence: u64,
    /// The event id.
    pub id: Uuid,
    /// The event type.
    #[serde(rename = "type")]
    pub event_type: String,
    /// When the change happened (not necessarily ascending in `sequence`: a transaction that
    /// commits late is numbered late).
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Always `v1`.
    pub api_version: String,
    /// The payload, as webhooks carry it.
    pub data: Value,
}

impl FeedEvent {
    /// The typed `data` ([`EventData::parse`]).
    pub fn typed(&self) -> EventData {
        EventData::parse(&self.event_type, &self.data)
    }
}

/// Filters of the feed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventQuery {
    /// Only these types (none: every type the key may read).
    pub types: Vec<String>,
    /// Page size, 1..100 (default 25).
    pub limit: Option<u32>,
}

/// The answer of `POST /api/v1/webhooks/{id}/replay`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayResult {
    /// Deliveries queued by this call.
    pub queued: u64,
    /// The sequence of the last event looked at; pass it as `after` while `has_more`.
    pub last_sequence: u64,
    /// More events wait after `last_sequence`.
    pub has_more: bool,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn person() -> Value {
        json!({"id": "0192d0c4-0000-7000-8000-000000000001", "email": "a@example.com", "firstName": "A",
               "lastName": null, "externalId": null, "status": "active", "labels": ["candidate"], "tags": [],
               "joinedVia": "api", "sharedExistingProfile": false,
               "assessment": {"status": "not_started", "completedAt": null, "count": 0},
               "memberSince": "2026-11-25T08:00:00Z", "updatedAt": "2026-11-25T08:00:00Z", "archivedAt": null})
    }

    #[test]
    fn each_type_parses_into_its_shape_and_an_unknown_one_is_other() {
        let mut updated = person();
        updated["previousAttributes"] = json!({"firstName": null});
        match EventData::parse("person.updated", &updated) {
            EventData::PersonUpdated { person, previous_attributes } => {
                assert_eq!(person.first_name.as_deref(), Some("A"));
                assert_eq!(previous_attributes.get("firstName"), Some(&Value::Null));
            }
            other => panic!("{other:?}"),
        }
        let mut archived = person();
        archived["archiveReason"] = json!("withdrawn");
        assert!(matches!(
            EventData::parse("person.archived", &archived),
            EventData::PersonArchived { archive_reason, .. } if archive_reason == "withdrawn"
        ));
        assert!(matches!(EventData::parse("person.created", &person()), EventData::PersonCreated(_)));
        let ping = json!({"webhookId": "0192d0c4-0000-7000-8000-000000000002"});
        assert!(matches!(EventData::parse("ping", &ping), EventData::Ping { .. }));
        assert!(matches!(
            EventData::parse("person.teleported", &person()),
            EventData::Other { event_type, .. } if event_type == "person.teleported"
        ));
        assert!(matches!(EventData::parse("person.created", &json!({"id": 1})), EventData::Other { .. }));
    }
}
