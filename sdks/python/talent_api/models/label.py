from enum import StrEnum


class Label(StrEnum):
    CANDIDATE = "candidate"
    EMPLOYEE = "employee"

    def __str__(self) -> str:
        return str(self.value)
