from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


T = TypeVar("T", bound="TestClockAdvanceRequest")


@_attrs_define
class TestClockAdvanceRequest:
    """The body of `POST /api/v1/test/clock/advance`.

    Attributes:
        seconds (int): How far to move the clock of your test data, in seconds (1 to 315360000, ten years). Example:
            259200.
    """

    seconds: int

    def to_dict(self) -> dict[str, Any]:
        seconds = self.seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seconds": seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seconds = d.pop("seconds")

        test_clock_advance_request = cls(
            seconds=seconds,
        )

        return test_clock_advance_request
