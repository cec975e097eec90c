from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from ..models.event_type import EventType
from typing import cast
from typing import Literal
from uuid import UUID
import datetime


T = TypeVar("T", bound="WebhookEndpointWithSecret")


@_attrs_define
class WebhookEndpointWithSecret:
    """A webhook endpoint with its signing secret: only in the answers of `POST /webhooks` and
    `POST /webhooks/{id}/rotate-secret`.

        Attributes:
            created_at (datetime.datetime):
            description (None | str):
            enabled (bool):
            events (list[EventType | Literal['*']]):
            id (UUID):
            secret (str): `whsec_` + 32 random bytes in standard base64: the whole string is the key of
                `Talent-Signature`, the decoded bytes after `whsec_` the key of `webhook-signature`.
            updated_at (datetime.datetime):
            url (str):
    """

    created_at: datetime.datetime
    description: None | str
    enabled: bool
    events: list[EventType | Literal["*"]]
    id: UUID
    secret: str
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

        secret = self.secret

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
                "secret": secret,
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

        secret = d.pop("secret")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        url = d.pop("url")

        webhook_endpoint_with_secret = cls(
            created_at=created_at,
            description=description,
            enabled=enabled,
            events=events,
            id=id,
            secret=secret,
            updated_at=updated_at,
            url=url,
        )

        return webhook_endpoint_with_secret
