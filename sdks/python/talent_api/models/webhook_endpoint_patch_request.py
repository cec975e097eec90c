from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.event_type import EventType
from typing import cast
from typing import Literal


T = TypeVar("T", bound="WebhookEndpointPatchRequest")


@_attrs_define
class WebhookEndpointPatchRequest:
    """`PATCH /webhooks/{id}` body.

    Attributes:
        description (None | str | Unset): `null` clears it; at most 500 characters.
        enabled (bool | Unset): A disabled endpoint receives nothing.
        events (list[EventType | Literal['*']] | Unset):
        url (str | Unset): `https`, not resolving to a forbidden address.
    """

    description: None | str | Unset = UNSET
    enabled: bool | Unset = UNSET
    events: list[EventType | Literal["*"]] | Unset = UNSET
    url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled = self.enabled

        events: list[Literal["*"] | str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item: Literal["*"] | str
                if isinstance(events_item_data, EventType):
                    events_item = events_item_data.value
                else:
                    events_item = events_item_data
                events.append(events_item)

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if events is not UNSET:
            field_dict["events"] = events
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        enabled = d.pop("enabled", UNSET)

        _events = d.pop("events", UNSET)
        events: list[EventType | Literal["*"]] | Unset = UNSET
        if _events is not UNSET:
            events = []
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

        url = d.pop("url", UNSET)

        webhook_endpoint_patch_request = cls(
            description=description,
            enabled=enabled,
            events=events,
            url=url,
        )

        return webhook_endpoint_patch_request
