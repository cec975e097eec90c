from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.event_type import EventType
from typing import cast
from typing import Literal


T = TypeVar("T", bound="WebhookEndpointCreateRequest")


@_attrs_define
class WebhookEndpointCreateRequest:
    """`POST /webhooks` body.

    Attributes:
        events (list[EventType | Literal['*']]):
        url (str): `https`, not resolving to an address that is not globally reachable (loopback, private,
            link-local, multicast, and every other special-purpose address).
        description (None | str | Unset): Trimmed; at most 500 characters.
    """

    events: list[EventType | Literal["*"]]
    url: str
    description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item: Literal["*"] | str
            if isinstance(events_item_data, EventType):
                events_item = events_item_data.value
            else:
                events_item = events_item_data
            events.append(events_item)

        url = self.url

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "url": url,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
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

        url = d.pop("url")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        webhook_endpoint_create_request = cls(
            events=events,
            url=url,
            description=description,
        )

        return webhook_endpoint_create_request
