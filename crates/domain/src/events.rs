//! Outbox events and their types (spec, Events; D29).

use crate::ids::*;
use crate::values::Scope;
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
    /// `person.updated` (D47): a PATCH, or an import that changed a person; `data` is the Person
    /// plus `previousAttributes`.
    PersonUpdated,
    /// `invitation.created` (D47).
    InvitationCreated,
    /// `invitation.reminded` (D47): the reminder after 3 days (D21) or a resend.
    InvitationReminded,
    /// `assessment.started` (D47).
    AssessmentStarted,
    /// `webhook.disabled` (D47, D50): to the organization's other enabled endpoints.
    WebhookDisabled,
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
            Self::PersonUpdated => "person.updated",
            Self::InvitationCreated => "invitation.created",
            Self::InvitationReminded => "invitation.reminded",
            Self::AssessmentStarted => "assessment.started",
            Self::WebhookDisabled => "webhook.disabled",
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
    /// The `X-Request-Id` of the API or admin request whose transaction wrote it; `None` for
    /// background jobs (T121). Set by [`crate::outbox::append`] from its [`crate::outbox::EventSource`].
    pub request_id: Option<String>,
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

impl EventType {
    /// The scope that reads events of this type in the feed (D48): the read scope of the event's
    /// resource. `webhooks:manage` reads every type ([`Scope::WebhooksManage`]); `ping` (a
    /// delivery to one endpoint, not a change) is never in the feed.
    pub fn read_scope(self) -> Scope {
        match self {
            EventType::PersonCreated
            | EventType::PersonJoined
            | EventType::PersonArchived
            | EventType::PersonUpdated => Scope::PersonsRead,
            EventType::InvitationAccepted
            | EventType::InvitationRevoked
            | EventType::InvitationExpired
            | EventType::InvitationCreated
            | EventType::InvitationReminded => Scope::InvitationsRead,
            EventType::AssessmentCompleted | EventType::AssessmentStarted => Scope::ResultsRead,
            EventType::Ping | EventType::WebhookDisabled => Scope::WebhooksManage,
        }
    }
}
