from enum import StrEnum


class LabelFilter(StrEnum):
    CANDIDATE = "candidate"
    EMPLOYEE = "employee"
    OTHER = "other"

    def __str__(self) -> str:
        return str(self.value)
