from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.accommodations import Accommodations


T = TypeVar("T", bound="AssessmentStartedData")


@_attrs_define
class AssessmentStartedData:
    """`data` of `assessment.started`: the shape of `assessment.completed` with `startedAt`.

    Attributes:
        accommodations (Accommodations | None):
        assessment_id (UUID):
        email (str):
        external_id (None | str):
        person_id (UUID):
        started_at (datetime.datetime):
    """

    accommodations: Accommodations | None
    assessment_id: UUID
    email: str
    external_id: None | str
    person_id: UUID
    started_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.accommodations import Accommodations  # noqa: PLC0415

        accommodations: dict[str, Any] | None
        if isinstance(self.accommodations, Accommodations):
            accommodations = self.accommodations.to_dict()
        else:
            accommodations = self.accommodations

        assessment_id = str(self.assessment_id)

        email = self.email

        external_id: None | str
        external_id = self.external_id

        person_id = str(self.person_id)

        started_at = self.started_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accommodations": accommodations,
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
        from ..models.accommodations import Accommodations  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_accommodations(data: object) -> Accommodations | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                accommodations_type_0 = Accommodations.from_dict(data)

                return accommodations_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Accommodations | None, data)

        accommodations = _parse_accommodations(d.pop("accommodations"))

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
            accommodations=accommodations,
            assessment_id=assessment_id,
            email=email,
            external_id=external_id,
            person_id=person_id,
            started_at=started_at,
        )

        return assessment_started_data
