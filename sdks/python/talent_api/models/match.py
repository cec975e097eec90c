from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from ..models.match_category import MatchCategory
from uuid import UUID


T = TypeVar("T", bound="Match")


@_attrs_define
class Match:
    """A profile match: only the aggregate, never a competency score.

    Attributes:
        category (MatchCategory): A match category (`high` >= 70, `moderate` 50..69, `low` < 50).
        percentage (int):
        person_id (UUID):
        profile_id (UUID):
    """

    category: MatchCategory
    percentage: int
    person_id: UUID
    profile_id: UUID

    def to_dict(self) -> dict[str, Any]:
        category = self.category.value

        percentage = self.percentage

        person_id = str(self.person_id)

        profile_id = str(self.profile_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "category": category,
                "percentage": percentage,
                "personId": person_id,
                "profileId": profile_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = MatchCategory(d.pop("category"))

        percentage = d.pop("percentage")

        person_id = UUID(d.pop("personId"))

        profile_id = UUID(d.pop("profileId"))

        match = cls(
            category=category,
            percentage=percentage,
            person_id=person_id,
            profile_id=profile_id,
        )

        return match
