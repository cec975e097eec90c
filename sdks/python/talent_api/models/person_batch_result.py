from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


if TYPE_CHECKING:
    from ..models.person_batch_item import PersonBatchItem


T = TypeVar("T", bound="PersonBatchResult")


@_attrs_define
class PersonBatchResult:
    """The answer of `POST /persons/batch`: one result per item, in the order of `persons`.

    Attributes:
        results (list[PersonBatchItem]):
    """

    results: list[PersonBatchItem]

    def to_dict(self) -> dict[str, Any]:
        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.person_batch_item import PersonBatchItem  # noqa: PLC0415

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = PersonBatchItem.from_dict(results_item_data)

            results.append(results_item)

        person_batch_result = cls(
            results=results,
        )

        return person_batch_result
