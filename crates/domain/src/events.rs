//! Outbox events and their types (spec, Events; D29).

use crate::ids::*;
use crate::values::Scope;
use time::OffsetDateTime;

/// Declares the event types once: each row is the variant, its wire name, the scope that reads it
/// in the events feed, the OpenAPI schema of its `data` and what happened. Everything else is
/// generated from the rows: the enum, [`EventType::ALL`] in the order of the rows (the spec's
/// eight, then D47's additions; [`crate::webhook::EVENT_TYPES`] is this list), [`EventType::as_str`],
/// [`EventType::read_scope`], [`EventType::data_schema`], [`EventType::envelope_schema`] and
/// [`EventType::description`]; the OpenAPI document's `EventType` enumeration and `webhooks`, and
/// the dashboard's event lists, are derived from those (T171).
macro_rules! event_types {
    ($($variant:ident = $name:literal, $scope:ident, $data:literal, $description:literal;)+) => {
        /// Event types (spec, Events).
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum EventType {
            $(#[doc = concat!("`", $name, "`: ", $description)] $variant,)+
        }

        impl EventType {
            /// Every event type an endpoint can subscribe to, in the order declared.
            pub const ALL: [EventType; [$($name),+].len()] = [$(EventType::$variant),+];

            /// The wire value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(EventType::$variant => $name,)+
                }
            }

            /// The scope that reads events of this type in the feed (D48): the read scope of the
            /// event's resource. `webhooks:manage` reads every type ([`Scope::WebhooksManage`]);
            /// `ping` (a delivery to one endpoint, not a change) is never in the feed.
            pub fn read_scope(self) -> Scope {
                match self {
                    $(EventType::$variant => Scope::$scope,)+
                }
            }

            /// The name of the OpenAPI schema of the event's `data` (D34: `person.*` carry the
            /// Person, `invitation.*` the Invitation).
            pub fn data_schema(self) -> &'static str {
                match self {
                    $(EventType::$variant => $data,)+
                }
            }

            /// The name of the OpenAPI schema of the event's delivery envelope.
            pub fn envelope_schema(self) -> &'static str {
                match self {
                    $(EventType::$variant => concat!(stringify!($variant), "Event"),)+
                }
            }

            /// What happened, in one sentence of public text.
            pub fn description(self) -> &'static str {
                match self {
                    $(EventType::$variant => $description,)+
                }
            }
        }
    };
}

event_types! {
    AssessmentCompleted = "assessment.completed", ResultsRead, "AssessmentCompletedData",
        "A person in the pool completed an assessment.";
    PersonCreated = "person.created", PersonsRead, "Person",
        "A person was added (or reactivated) through the API.";
    PersonJoined = "person.joined", PersonsRead, "Person",
        "A person linked themselves through an invitation.";
    PersonArchived = "person.archived", PersonsRead, "PersonArchivedData",
        "A person was archived; `archiveReason` says by whom.";
    InvitationAccepted = "invitation.accepted", InvitationsRead, "Invitation",
        "A personal invitation was accepted.";
    InvitationRevoked = "invitation.revoked", InvitationsRead, "Invitation",
        "An invitation was revoked.";
    InvitationExpired = "invitation.expired", InvitationsRead, "Invitation",
        "An invitation expired.";
    Ping = "ping", WebhooksManage, "PingData",
        "`POST /api/v1/webhooks/{id}/test` was called.";
    PersonUpdated = "person.updated", PersonsRead, "PersonUpdatedData",
        "A person's data changed (`PATCH`, an import that changed it, an invitation accepted by a member, a \
withdrawal); `previousAttributes` holds the old values of the changed members.";
    InvitationCreated = "invitation.created", InvitationsRead, "Invitation",
        "An invitation was created.";
    InvitationReminded = "invitation.reminded", InvitationsRead, "Invitation",
        "An invitation was sent again: the reminder 3 days after sending, or a resend.";
    AssessmentStarted = "assessment.started", ResultsRead, "AssessmentStartedData",
        "A person in the pool started an assessment.";
    WebhookDisabled = "webhook.disabled", WebhooksManage, "WebhookDisabledData",
        "One of the organization's endpoints was disabled after its deliveries failed for 3 days; sent to the \
other enabled endpoints.";
}

/// An event in the outbox, written in the same transaction as the change that emits it (D31).
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxEvent {
    /// Event id.
    pub id: EventId,
    /// Organization whose endpoints receive it.
    pub org_id: OrgId,
    /// Type.
    pub event_type: EventType,
    /// The envelope's `data` (D34: `person.*` carry the Person object), as JSON text.
    pub data: EventData,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// The `X-Request-Id` of the API or admin request whose transaction wrote it; `None` for
    /// background jobs (T121). Set by [`crate::outbox::append`] from its [`crate::outbox::EventSource`].
    pub request_id: Option<String>,
}

/// An event's `data` (D34) as JSON text, rendered once when the event is made (T290): its row
/// stores the text, each delivery's envelope and the events feed write it as it is, and nothing
/// builds a [`serde_json::Value`] of it on the way (an import did so three times, inside SQLite's
/// single write turn). [`EventData::value`] parses it where a member must be read.
#[derive(Clone, Debug)]
pub struct EventData(Box<serde_json::value::RawValue>);

impl EventData {
    /// `v` as JSON, its members in the order `v` serializes them (a struct's field order; a
    /// [`serde_json::Value`]'s keys sorted). A value that does not serialize (none of the event
    /// shapes: their maps have string keys) is `null`.
    pub fn of<T: serde::Serialize + ?Sized>(v: &T) -> EventData {
        EventData(serde_json::value::to_raw_value(v).unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned()))
    }

    /// Stored text read back. Errors: text that is not JSON (the row is corrupt).
    pub fn parse(text: String) -> Result<EventData, serde_json::Error> {
        serde_json::value::RawValue::from_string(text).map(EventData)
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// The data as a value (parsed; it is JSON by construction).
    pub fn value(&self) -> serde_json::Value {
        serde_json::from_str(self.0.get()).unwrap_or(serde_json::Value::Null)
    }
}

impl PartialEq for EventData {
    /// The same JSON value, whatever the order of the members in the two texts.
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str() || self.value() == other.value()
    }
}

impl serde::Serialize for EventData {
    /// Writes the text as it is (to a JSON serializer).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// An event with its place in the events feed (D48, T106): `sequence` is service-wide, ascending
/// in commit order, assigned after the event's transaction committed.
#[derive(Clone, Debug, PartialEq)]
pub struct SequencedEvent {
    /// Its sequence number (1, 2, ...; the feed's cursor `after`).
    pub sequence: u64,
    /// The event.
    pub event: OutboxEvent,
}

#[cfg(test)]
mod tests {
    use super::EventType;

    /// T171: the webhooks guide's table of event types lists exactly the declared types, and each
    /// declared name parses back to its type.
    #[test]
    fn the_webhooks_guide_lists_every_declared_event_type() {
        let guide = include_str!("../../../docs/webhooks.md");
        let mut listed: Vec<&str> = guide
            .lines()
            .skip_while(|l| !l.starts_with("| type | emitted when |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .filter_map(|l| l.strip_prefix("| `").and_then(|l| l.split('`').next()))
            .collect();
        let mut declared: Vec<&str> = EventType::ALL.iter().map(|t| t.as_str()).collect();
        listed.sort_unstable();
        declared.sort_unstable();
        assert_eq!(listed, declared);
        for t in EventType::ALL {
            assert_eq!(crate::webhook::parse_event_type(t.as_str()), Some(t));
        }
    }
}
