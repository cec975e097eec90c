from enum import StrEnum


class Band(StrEnum):
    HIGH = "high"
    LIMITED = "limited"
    MODERATE = "moderate"
    SOME = "some"

    def __str__(self) -> str:
        return str(self.value)
