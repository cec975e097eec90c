from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from uuid import UUID
import datetime


T = TypeVar("T", bound="WebhookDisabledData")


@_attrs_define
class WebhookDisabledData:
    """`data` of `webhook.disabled`, sent to the organization's other enabled endpoints.

    Attributes:
        disabled_at (datetime.datetime):
        failed_deliveries (int): Deliveries that failed for good in that run.
        failing_since (datetime.datetime): When the first of its deliveries that failed for good without a success since
            failed.
        url (str):
        webhook_id (UUID): The endpoint that was disabled.
    """

    disabled_at: datetime.datetime
    failed_deliveries: int
    failing_since: datetime.datetime
    url: str
    webhook_id: UUID

    def to_dict(self) -> dict[str, Any]:
        disabled_at = self.disabled_at.isoformat()

        failed_deliveries = self.failed_deliveries

        failing_since = self.failing_since.isoformat()

        url = self.url

        webhook_id = str(self.webhook_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "disabledAt": disabled_at,
                "failedDeliveries": failed_deliveries,
                "failingSince": failing_since,
                "url": url,
                "webhookId": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        disabled_at = datetime.datetime.fromisoformat(d.pop("disabledAt"))

        failed_deliveries = d.pop("failedDeliveries")

        failing_since = datetime.datetime.fromisoformat(d.pop("failingSince"))

        url = d.pop("url")

        webhook_id = UUID(d.pop("webhookId"))

        webhook_disabled_data = cls(
            disabled_at=disabled_at,
            failed_deliveries=failed_deliveries,
            failing_since=failing_since,
            url=url,
            webhook_id=webhook_id,
        )

        return webhook_disabled_data
