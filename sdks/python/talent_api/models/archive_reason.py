from enum import StrEnum


class ArchiveReason(StrEnum):
    API = "api"
    DEACTIVATED = "deactivated"
    ERASED = "erased"
    WITHDRAWN = "withdrawn"

    def __str__(self) -> str:
        return str(self.value)
