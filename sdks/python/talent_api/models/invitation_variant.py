from enum import StrEnum


class InvitationVariant(StrEnum):
    ACCESS_REQUEST = "access_request"
    ASSESSMENT = "assessment"

    def __str__(self) -> str:
        return str(self.value)
