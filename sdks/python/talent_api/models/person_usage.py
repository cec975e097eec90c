from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


T = TypeVar("T", bound="PersonUsage")


@_attrs_define
class PersonUsage:
    """`usage.persons` of the Organization.

    Attributes:
        import_blocked (bool): Imports and invitations are refused (limit reached or subscription inactive).
        limit (int):
        used (int):
    """

    import_blocked: bool
    limit: int
    used: int

    def to_dict(self) -> dict[str, Any]:
        import_blocked = self.import_blocked

        limit = self.limit

        used = self.used

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "importBlocked": import_blocked,
                "limit": limit,
                "used": used,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        import_blocked = d.pop("importBlocked")

        limit = d.pop("limit")

        used = d.pop("used")

        person_usage = cls(
            import_blocked=import_blocked,
            limit=limit,
            used=used,
        )

        return person_usage
