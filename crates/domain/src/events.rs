//! Outbox events and their types (spec, Events; D29).

use crate::ids::*;
use time::OffsetDateTime;

/// Event types (spec, Events).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EventType {
    /// `assessment.completed`
    AssessmentCompleted,
    /// `person.created`
    PersonCreated,
    /// `person.joined`
    PersonJoined,
    /// `person.archived`
    PersonArchived,
    /// `invitation.accepted`
    InvitationAccepted,
    /// `invitation.revoked`
    InvitationRevoked,
    /// `invitation.expired`
    InvitationExpired,
    /// `ping`
    Ping,
}

impl EventType {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AssessmentCompleted => "assessment.completed",
            Self::PersonCreated => "person.created",
            Self::PersonJoined => "person.joined",
            Self::PersonArchived => "person.archived",
            Self::InvitationAccepted => "invitation.accepted",
            Self::InvitationRevoked => "invitation.revoked",
            Self::InvitationExpired => "invitation.expired",
            Self::Ping => "ping",
        }
    }
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
    /// The envelope's `data` (D34: `person.*` carry the Person object).
    pub data: serde_json::Value,
    /// Creation time.
    pub created_at: OffsetDateTime,
}
