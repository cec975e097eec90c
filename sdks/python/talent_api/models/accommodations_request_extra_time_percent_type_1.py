from enum import IntEnum


class AccommodationsRequestExtraTimePercentType1(IntEnum):
    VALUE_0 = 0
    VALUE_25 = 25
    VALUE_50 = 50
    VALUE_100 = 100

    def __str__(self) -> str:
        return str(self.value)
