from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from ..models.assessment_status import AssessmentStatus
from typing import cast
import datetime


T = TypeVar("T", bound="PersonAssessment")


@_attrs_define
class PersonAssessment:
    """The `assessment` summary of a Person: visible assessments only.

    Attributes:
        completed_at (datetime.datetime | None):
        count (int): Number of completed (visible) assessments.
        status (AssessmentStatus): A person's assessment status.
    """

    completed_at: datetime.datetime | None
    count: int
    status: AssessmentStatus

    def to_dict(self) -> dict[str, Any]:
        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        count = self.count

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "completedAt": completed_at,
                "count": count,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        count = d.pop("count")

        status = AssessmentStatus(d.pop("status"))

        person_assessment = cls(
            completed_at=completed_at,
            count=count,
            status=status,
        )

        return person_assessment
