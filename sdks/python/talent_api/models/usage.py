from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


if TYPE_CHECKING:
    from ..models.person_usage import PersonUsage
    from ..models.profile_usage import ProfileUsage


T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """`usage` of the Organization.

    Attributes:
        persons (PersonUsage): `usage.persons` of the Organization.
        profiles (ProfileUsage): `usage.profiles` of the Organization.
    """

    persons: PersonUsage
    profiles: ProfileUsage

    def to_dict(self) -> dict[str, Any]:
        persons = self.persons.to_dict()

        profiles = self.profiles.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "persons": persons,
                "profiles": profiles,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.person_usage import PersonUsage  # noqa: PLC0415
        from ..models.profile_usage import ProfileUsage  # noqa: PLC0415

        d = dict(src_dict)
        persons = PersonUsage.from_dict(d.pop("persons"))

        profiles = ProfileUsage.from_dict(d.pop("profiles"))

        usage = cls(
            persons=persons,
            profiles=profiles,
        )

        return usage
