from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from uuid import UUID


T = TypeVar("T", bound="PingData")


@_attrs_define
class PingData:
    """`data` of `ping`.

    Attributes:
        webhook_id (UUID):
    """

    webhook_id: UUID

    def to_dict(self) -> dict[str, Any]:
        webhook_id = str(self.webhook_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "webhookId": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        webhook_id = UUID(d.pop("webhookId"))

        ping_data = cls(
            webhook_id=webhook_id,
        )

        return ping_data
