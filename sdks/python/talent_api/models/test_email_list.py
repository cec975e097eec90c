from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


if TYPE_CHECKING:
    from ..models.test_email import TestEmail


T = TypeVar("T", bound="TestEmailList")


@_attrs_define
class TestEmailList:
    """The answer of `GET /api/v1/test/emails`.

    Attributes:
        data (list[TestEmail]): Newest first, at most 200.
    """

    data: list[TestEmail]

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_email import TestEmail  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = TestEmail.from_dict(data_item_data)

            data.append(data_item)

        test_email_list = cls(
            data=data,
        )

        return test_email_list
