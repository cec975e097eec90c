from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.profile_competency import ProfileCompetency


T = TypeVar("T", bound="Profile")


@_attrs_define
class Profile:
    """A competency profile.

    Attributes:
        competencies (list[ProfileCompetency]):
        created_at (datetime.datetime):
        description (None | str):
        id (UUID):
        name (str):
        updated_at (datetime.datetime):
    """

    competencies: list[ProfileCompetency]
    created_at: datetime.datetime
    description: None | str
    id: UUID
    name: str
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        competencies = []
        for competencies_item_data in self.competencies:
            competencies_item = competencies_item_data.to_dict()
            competencies.append(competencies_item)

        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        id = str(self.id)

        name = self.name

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "competencies": competencies,
                "createdAt": created_at,
                "description": description,
                "id": id,
                "name": name,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.profile_competency import ProfileCompetency  # noqa: PLC0415

        d = dict(src_dict)
        competencies = []
        _competencies = d.pop("competencies")
        for competencies_item_data in _competencies:
            competencies_item = ProfileCompetency.from_dict(competencies_item_data)

            competencies.append(competencies_item)

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        profile = cls(
            competencies=competencies,
            created_at=created_at,
            description=description,
            id=id,
            name=name,
            updated_at=updated_at,
        )

        return profile
