from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


T = TypeVar("T", bound="Need")


@_attrs_define
class Need:
    """One need of a motivation axis.

    Attributes:
        definition (str):
        exposure (int): How often the need was shown.
        is_anchor (bool):
        name (str):
        score (float): Smoothed share of choices, 0 to 1, cumulative over visible assessments.
    """

    definition: str
    exposure: int
    is_anchor: bool
    name: str
    score: float

    def to_dict(self) -> dict[str, Any]:
        definition = self.definition

        exposure = self.exposure

        is_anchor = self.is_anchor

        name = self.name

        score = self.score

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "definition": definition,
                "exposure": exposure,
                "isAnchor": is_anchor,
                "name": name,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        definition = d.pop("definition")

        exposure = d.pop("exposure")

        is_anchor = d.pop("isAnchor")

        name = d.pop("name")

        score = d.pop("score")

        need = cls(
            definition=definition,
            exposure=exposure,
            is_anchor=is_anchor,
            name=name,
            score=score,
        )

        return need
