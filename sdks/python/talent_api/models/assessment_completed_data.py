from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast
from uuid import UUID
import datetime


T = TypeVar("T", bound="AssessmentCompletedData")


@_attrs_define
class AssessmentCompletedData:
    """`data` of `assessment.completed`.

    Attributes:
        assessment_id (UUID):
        completed_at (datetime.datetime):
        email (str):
        external_id (None | str):
        person_id (UUID):
    """

    assessment_id: UUID
    completed_at: datetime.datetime
    email: str
    external_id: None | str
    person_id: UUID

    def to_dict(self) -> dict[str, Any]:
        assessment_id = str(self.assessment_id)

        completed_at = self.completed_at.isoformat()

        email = self.email

        external_id: None | str
        external_id = self.external_id

        person_id = str(self.person_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assessmentId": assessment_id,
                "completedAt": completed_at,
                "email": email,
                "externalId": external_id,
                "personId": person_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        assessment_id = UUID(d.pop("assessmentId"))

        completed_at = datetime.datetime.fromisoformat(d.pop("completedAt"))

        email = d.pop("email")

        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("externalId"))

        person_id = UUID(d.pop("personId"))

        assessment_completed_data = cls(
            assessment_id=assessment_id,
            completed_at=completed_at,
            email=email,
            external_id=external_id,
            person_id=person_id,
        )

        return assessment_completed_data
