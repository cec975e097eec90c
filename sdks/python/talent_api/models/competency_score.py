from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from ..models.band import Band
from typing import cast
from uuid import UUID


T = TypeVar("T", bound="CompetencyScore")


@_attrs_define
class CompetencyScore:
    """One competency score: per-person only, never compared between persons.

    Attributes:
        band (Band): A competency band (half-open intervals on the unrounded score).
        competency_id (UUID):
        description (None | str):
        name (str):
        score (float): Aptitude 0 to 1, 0.5 neutral.
    """

    band: Band
    competency_id: UUID
    description: None | str
    name: str
    score: float

    def to_dict(self) -> dict[str, Any]:
        band = self.band.value

        competency_id = str(self.competency_id)

        description: None | str
        description = self.description

        name = self.name

        score = self.score

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "band": band,
                "competencyId": competency_id,
                "description": description,
                "name": name,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        band = Band(d.pop("band"))

        competency_id = UUID(d.pop("competencyId"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        name = d.pop("name")

        score = d.pop("score")

        competency_score = cls(
            band=band,
            competency_id=competency_id,
            description=description,
            name=name,
            score=score,
        )

        return competency_score
