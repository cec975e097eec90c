from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


if TYPE_CHECKING:
    from ..models.competency_score import CompetencyScore


T = TypeVar("T", bound="Competencies")


@_attrs_define
class Competencies:
    """`competencies` of person results.

    Attributes:
        mapping_name (str):
        model_name (str):
        scores (list[CompetencyScore]):
    """

    mapping_name: str
    model_name: str
    scores: list[CompetencyScore]

    def to_dict(self) -> dict[str, Any]:
        mapping_name = self.mapping_name

        model_name = self.model_name

        scores = []
        for scores_item_data in self.scores:
            scores_item = scores_item_data.to_dict()
            scores.append(scores_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mappingName": mapping_name,
                "modelName": model_name,
                "scores": scores,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.competency_score import CompetencyScore  # noqa: PLC0415

        d = dict(src_dict)
        mapping_name = d.pop("mappingName")

        model_name = d.pop("modelName")

        scores = []
        _scores = d.pop("scores")
        for scores_item_data in _scores:
            scores_item = CompetencyScore.from_dict(scores_item_data)

            scores.append(scores_item)

        competencies = cls(
            mapping_name=mapping_name,
            model_name=model_name,
            scores=scores,
        )

        return competencies
