from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast


T = TypeVar("T", bound="Pagination")


@_attrs_define
class Pagination:
    """The pagination object of every list.

    Attributes:
        has_more (bool):
        next_cursor (None | str): Opaque; pass as `cursor` (with the same filters) for the next page.
    """

    has_more: bool
    next_cursor: None | str

    def to_dict(self) -> dict[str, Any]:
        has_more = self.has_more

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "hasMore": has_more,
                "nextCursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        has_more = d.pop("hasMore")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        pagination = cls(
            has_more=has_more,
            next_cursor=next_cursor,
        )

        return pagination
