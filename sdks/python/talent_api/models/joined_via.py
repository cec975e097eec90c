from enum import StrEnum


class JoinedVia(StrEnum):
    API = "api"
    INVITATION_LINK = "invitation_link"
    INVITATION_PERSONAL = "invitation_personal"

    def __str__(self) -> str:
        return str(self.value)
