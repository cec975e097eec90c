from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


T = TypeVar("T", bound="Totals")


@_attrs_define
class Totals:
    """`totals` of person results.

    Attributes:
        assessments (int): Completed visible assessments.
        responses (int): Forced-choice responses over them.
    """

    assessments: int
    responses: int

    def to_dict(self) -> dict[str, Any]:
        assessments = self.assessments

        responses = self.responses

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assessments": assessments,
                "responses": responses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        assessments = d.pop("assessments")

        responses = d.pop("responses")

        totals = cls(
            assessments=assessments,
            responses=responses,
        )

        return totals
