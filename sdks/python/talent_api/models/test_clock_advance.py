from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


T = TypeVar("T", bound="TestClockAdvance")


@_attrs_define
class TestClockAdvance:
    """The answer of `POST /api/v1/test/clock/advance`.

    Attributes:
        advanced_seconds (int): How far the clock moved, in seconds.
        expired (int): Invitations that expired (each with `invitation.expired`).
        reminded (int): Invitations reminded (each with `invitation.reminded` and a recorded reminder email).
    """

    advanced_seconds: int
    expired: int
    reminded: int

    def to_dict(self) -> dict[str, Any]:
        advanced_seconds = self.advanced_seconds

        expired = self.expired

        reminded = self.reminded

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "advancedSeconds": advanced_seconds,
                "expired": expired,
                "reminded": reminded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        advanced_seconds = d.pop("advancedSeconds")

        expired = d.pop("expired")

        reminded = d.pop("reminded")

        test_clock_advance = cls(
            advanced_seconds=advanced_seconds,
            expired=expired,
            reminded=reminded,
        )

        return test_clock_advance
