from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


if TYPE_CHECKING:
    from ..models.pagination import Pagination
    from ..models.person import Person


T = TypeVar("T", bound="PersonPage")


@_attrs_define
class PersonPage:
    """A page of persons, newest first.

    Attributes:
        data (list[Person]):
        pagination (Pagination): The pagination object of every list.
    """

    data: list[Person]
    pagination: Pagination

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        pagination = self.pagination.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "pagination": pagination,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pagination import Pagination  # noqa: PLC0415
        from ..models.person import Person  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Person.from_dict(data_item_data)

            data.append(data_item)

        pagination = Pagination.from_dict(d.pop("pagination"))

        person_page = cls(
            data=data,
            pagination=pagination,
        )

        return person_page
