from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


if TYPE_CHECKING:
    from ..models.need import Need


T = TypeVar("T", bound="MotivationAxis")


@_attrs_define
class MotivationAxis:
    """A motivation axis with its needs.

    Attributes:
        code (str):
        name (str):
        needs (list[Need]):
    """

    code: str
    name: str
    needs: list[Need]

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        name = self.name

        needs = []
        for needs_item_data in self.needs:
            needs_item = needs_item_data.to_dict()
            needs.append(needs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "name": name,
                "needs": needs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.need import Need  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        name = d.pop("name")

        needs = []
        _needs = d.pop("needs")
        for needs_item_data in _needs:
            needs_item = Need.from_dict(needs_item_data)

            needs.append(needs_item)

        motivation_axis = cls(
            code=code,
            name=name,
            needs=needs,
        )

        return motivation_axis
