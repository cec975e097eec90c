from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


T = TypeVar("T", bound="ProfileUsage")


@_attrs_define
class ProfileUsage:
    """`usage.profiles` of the Organization.

    Attributes:
        limit (int):
        used (int):
    """

    limit: int
    used: int

    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        used = self.used

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "limit": limit,
                "used": used,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        limit = d.pop("limit")

        used = d.pop("used")

        profile_usage = cls(
            limit=limit,
            used=used,
        )

        return profile_usage
