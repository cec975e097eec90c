from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from ..models.event_type import EventType
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.event_data import EventData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """An event of the feed: the webhook envelope of the event (its own id, type, time,
    version and data) plus its `sequence`.

        Attributes:
            api_version (str): `v1`.
            created_at (datetime.datetime):
            data (EventData): As in the webhook delivery of the event (see `webhooks`).
            id (UUID): The event's id (one event, however many deliveries carry it).
            sequence (int): The organization's own count of its events, 1, 2, 3, … in commit order: the feed's
                cursor (`after`).
            type_ (EventType): A webhook event type.
    """

    api_version: str
    created_at: datetime.datetime
    data: EventData
    id: UUID
    sequence: int
    type_: EventType

    def to_dict(self) -> dict[str, Any]:
        api_version = self.api_version

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        id = str(self.id)

        sequence = self.sequence

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apiVersion": api_version,
                "createdAt": created_at,
                "data": data,
                "id": id,
                "sequence": sequence,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_data import EventData  # noqa: PLC0415

        d = dict(src_dict)
        api_version = d.pop("apiVersion")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = EventData.from_dict(d.pop("data"))

        id = UUID(d.pop("id"))

        sequence = d.pop("sequence")

        type_ = EventType(d.pop("type"))

        event = cls(
            api_version=api_version,
            created_at=created_at,
            data=data,
            id=id,
            sequence=sequence,
            type_=type_,
        )

        return event
