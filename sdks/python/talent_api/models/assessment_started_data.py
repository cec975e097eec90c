from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast
from uuid import UUID
import datetime


T = TypeVar("T", bound="AssessmentStartedData")


@_attrs_define
class AssessmentStartedData:
    """`data` of `assessment.started`: the shape of `assessment.completed` with `startedAt`.

    Attributes:
        assessment_id (UUID):
        email (str):
        external_id (None | str):
        person_id (UUID):
        started_at (datetime.datetime):
    """

    assessment_id: UUID
    email: str
    external_id: None | str
    person_id: UUID
    started_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        assessment_id = str(self.assessment_id)

        email = self.email

        external_id: None | str
        external_id = self.external_id

        person_id = str(self.person_id)

        started_at = self.started_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assessmentId": assessment_id,
                "email": email,
                "externalId": external_id,
                "personId": person_id,
                "startedAt": started_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        assessment_id = UUID(d.pop("assessmentId"))

        email = d.pop("email")

        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("externalId"))

        person_id = UUID(d.pop("personId"))

        started_at = datetime.datetime.fromisoformat(d.pop("startedAt"))

        assessment_started_data = cls(
            assessment_id=assessment_id,
            email=email,
            external_id=external_id,
            person_id=person_id,
            started_at=started_at,
        )

        return assessment_started_data
