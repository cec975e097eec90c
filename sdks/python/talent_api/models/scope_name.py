from enum import StrEnum


class ScopeName(StrEnum):
    INVITATIONSREAD = "invitations:read"
    INVITATIONSWRITE = "invitations:write"
    ORGANIZATIONREAD = "organization:read"
    PERSONSREAD = "persons:read"
    PERSONSWRITE = "persons:write"
    PROFILESREAD = "profiles:read"
    RESULTSREAD = "results:read"
    WEBHOOKSMANAGE = "webhooks:manage"

    def __str__(self) -> str:
        return str(self.value)
