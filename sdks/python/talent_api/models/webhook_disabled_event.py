from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from typing import cast
from typing import Literal
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.webhook_disabled_data import WebhookDisabledData


T = TypeVar("T", bound="WebhookDisabledEvent")


@_attrs_define
class WebhookDisabledEvent:
    """The delivery envelope of `webhook.disabled`.

    Attributes:
        api_version (Literal['v1']):
        created_at (datetime.datetime):
        data (WebhookDisabledData): `data` of `webhook.disabled`, sent to the organization's other enabled endpoints.
        id (UUID): The delivery id; the same on every retry.
        type_ (Literal['webhook.disabled']):
    """

    api_version: Literal["v1"]
    created_at: datetime.datetime
    data: WebhookDisabledData
    id: UUID
    type_: Literal["webhook.disabled"]

    def to_dict(self) -> dict[str, Any]:
        api_version = self.api_version

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        id = str(self.id)

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apiVersion": api_version,
                "createdAt": created_at,
                "data": data,
                "id": id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_disabled_data import WebhookDisabledData  # noqa: PLC0415

        d = dict(src_dict)
        api_version = cast(Literal["v1"], d.pop("apiVersion"))
        if api_version != "v1":
            raise ValueError(f"apiVersion must match const 'v1', got '{api_version}'")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = WebhookDisabledData.from_dict(d.pop("data"))

        id = UUID(d.pop("id"))

        type_ = cast(Literal["webhook.disabled"], d.pop("type"))
        if type_ != "webhook.disabled":
            raise ValueError(f"type must match const 'webhook.disabled', got '{type_}'")

        webhook_disabled_event = cls(
            api_version=api_version,
            created_at=created_at,
            data=data,
            id=id,
            type_=type_,
        )

        return webhook_disabled_event
