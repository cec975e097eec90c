from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from ..models.event_type import EventType
from typing import cast
from typing import Literal
from uuid import UUID
import datetime


T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """A webhook endpoint. The signing secret is only in `WebhookEndpointWithSecret`.

    Attributes:
        created_at (datetime.datetime):
        description (None | str):
        enabled (bool):
        events (list[EventType | Literal['*']]):
        id (UUID):
        updated_at (datetime.datetime):
        url (str):
    """

    created_at: datetime.datetime
    description: None | str
    enabled: bool
    events: list[EventType | Literal["*"]]
    id: UUID
    updated_at: datetime.datetime
    url: str

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        enabled = self.enabled

        events = []
        for events_item_data in self.events:
            events_item: Literal["*"] | str
            if isinstance(events_item_data, EventType):
                events_item = events_item_data.value
            else:
                events_item = events_item_data
            events.append(events_item)

        id = str(self.id)

        updated_at = self.updated_at.isoformat()

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "createdAt": created_at,
                "description": description,
                "enabled": enabled,
                "events": events,
                "id": id,
                "updatedAt": updated_at,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        enabled = d.pop("enabled")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:

            def _parse_events_item(data: object) -> EventType | Literal["*"]:
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    events_item_type_0 = EventType(data)

                    return events_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                events_item_type_1 = cast(Literal["*"], data)
                if events_item_type_1 != "*":
                    raise ValueError(
                        f"events_item_type_1 must match const '*', got '{events_item_type_1}'"
                    )
                return events_item_type_1

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)

        id = UUID(d.pop("id"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        url = d.pop("url")

        webhook_endpoint = cls(
            created_at=created_at,
            description=description,
            enabled=enabled,
            events=events,
            id=id,
            updated_at=updated_at,
            url=url,
        )

        return webhook_endpoint
