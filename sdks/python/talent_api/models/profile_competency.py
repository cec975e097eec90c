from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from uuid import UUID


T = TypeVar("T", bound="ProfileCompetency")


@_attrs_define
class ProfileCompetency:
    """A weighted competency of a profile.

    Attributes:
        competency_id (UUID):
        name (str):
        weight (float):
    """

    competency_id: UUID
    name: str
    weight: float

    def to_dict(self) -> dict[str, Any]:
        competency_id = str(self.competency_id)

        name = self.name

        weight = self.weight

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "competencyId": competency_id,
                "name": name,
                "weight": weight,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        competency_id = UUID(d.pop("competencyId"))

        name = d.pop("name")

        weight = d.pop("weight")

        profile_competency = cls(
            competency_id=competency_id,
            name=name,
            weight=weight,
        )

        return profile_competency
