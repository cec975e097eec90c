from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from typing import cast
from typing import Literal
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.assessment_started_data import AssessmentStartedData


T = TypeVar("T", bound="AssessmentStartedEvent")


@_attrs_define
class AssessmentStartedEvent:
    """The delivery envelope of `assessment.started`.

    Attributes:
        api_version (Literal['v1']):
        created_at (datetime.datetime):
        data (AssessmentStartedData): `data` of `assessment.started`: the shape of `assessment.completed` with
            `startedAt`.
        event_id (UUID): The event's id: the `id` of its item in `GET /api/v1/events`, the same on every retry,
            redelivery and replay. Deduplicate on it.
        id (UUID): The delivery id; the same on every retry of this delivery.
        sequence (int | None): The event's number in the organization's events feed (1, 2, 3,...); null for the ping of
            `POST /api/v1/webhooks/{id}/test`, which is no event of the feed.
        type_ (Literal['assessment.started']):
    """

    api_version: Literal["v1"]
    created_at: datetime.datetime
    data: AssessmentStartedData
    event_id: UUID
    id: UUID
    sequence: int | None
    type_: Literal["assessment.started"]

    def to_dict(self) -> dict[str, Any]:
        api_version = self.api_version

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        event_id = str(self.event_id)

        id = str(self.id)

        sequence: int | None
        sequence = self.sequence

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apiVersion": api_version,
                "createdAt": created_at,
                "data": data,
                "eventId": event_id,
                "id": id,
                "sequence": sequence,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assessment_started_data import AssessmentStartedData  # noqa: PLC0415

        d = dict(src_dict)
        api_version = cast(Literal["v1"], d.pop("apiVersion"))
        if api_version != "v1":
            raise ValueError(f"apiVersion must match const 'v1', got '{api_version}'")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = AssessmentStartedData.from_dict(d.pop("data"))

        event_id = UUID(d.pop("eventId"))

        id = UUID(d.pop("id"))

        def _parse_sequence(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        sequence = _parse_sequence(d.pop("sequence"))

        type_ = cast(Literal["assessment.started"], d.pop("type"))
        if type_ != "assessment.started":
            raise ValueError(
                f"type must match const 'assessment.started', got '{type_}'"
            )

        assessment_started_event = cls(
            api_version=api_version,
            created_at=created_at,
            data=data,
            event_id=event_id,
            id=id,
            sequence=sequence,
            type_=type_,
        )

        return assessment_started_event
