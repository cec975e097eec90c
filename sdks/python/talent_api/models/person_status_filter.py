from enum import StrEnum


class PersonStatusFilter(StrEnum):
    ACTIVE = "active"
    ANY = "any"
    ARCHIVED = "archived"

    def __str__(self) -> str:
        return str(self.value)
