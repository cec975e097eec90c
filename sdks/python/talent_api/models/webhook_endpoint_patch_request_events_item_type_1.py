from enum import StrEnum


class WebhookEndpointPatchRequestEventsItemType1(StrEnum):
    VALUE_0 = "*"

    def __str__(self) -> str:
        return str(self.value)
