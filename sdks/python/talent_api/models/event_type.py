from enum import StrEnum


class EventType(StrEnum):
    ASSESSMENT_COMPLETED = "assessment.completed"
    ASSESSMENT_STARTED = "assessment.started"
    INVITATION_ACCEPTED = "invitation.accepted"
    INVITATION_CREATED = "invitation.created"
    INVITATION_EXPIRED = "invitation.expired"
    INVITATION_REMINDED = "invitation.reminded"
    INVITATION_REVOKED = "invitation.revoked"
    PERSON_ARCHIVED = "person.archived"
    PERSON_CREATED = "person.created"
    PERSON_JOINED = "person.joined"
    PERSON_UPDATED = "person.updated"
    PING = "ping"
    WEBHOOK_DISABLED = "webhook.disabled"

    def __str__(self) -> str:
        return str(self.value)
