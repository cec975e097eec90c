from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


if TYPE_CHECKING:
    from ..models.person_import_request import PersonImportRequest


T = TypeVar("T", bound="PersonBatchRequest")


@_attrs_define
class PersonBatchRequest:
    """`POST /persons/batch` body.

    Attributes:
        persons (list[PersonImportRequest]): 1 to 100 bodies of `POST /api/v1/persons`, imported in this order.
    """

    persons: list[PersonImportRequest]

    def to_dict(self) -> dict[str, Any]:
        persons = []
        for persons_item_data in self.persons:
            persons_item = persons_item_data.to_dict()
            persons.append(persons_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "persons": persons,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.person_import_request import PersonImportRequest  # noqa: PLC0415

        d = dict(src_dict)
        persons = []
        _persons = d.pop("persons")
        for persons_item_data in _persons:
            persons_item = PersonImportRequest.from_dict(persons_item_data)

            persons.append(persons_item)

        person_batch_request = cls(
            persons=persons,
        )

        return person_batch_request
