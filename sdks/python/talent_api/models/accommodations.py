from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast


T = TypeVar("T", bound="Accommodations")


@_attrs_define
class Accommodations:
    """What an invitation grants the person for the assessment. Never part of scoring.

    Attributes:
        breaks (bool): The person may pause between parts.
        extra_time_percent (int): Extra time in percent of the standard time: 0, 25, 50 or 100.
        notes (None | str): What else was agreed (1..500 characters).
        screen_reader (bool): The person uses a screen reader.
    """

    breaks: bool
    extra_time_percent: int
    notes: None | str
    screen_reader: bool

    def to_dict(self) -> dict[str, Any]:
        breaks = self.breaks

        extra_time_percent = self.extra_time_percent

        notes: None | str
        notes = self.notes

        screen_reader = self.screen_reader

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "breaks": breaks,
                "extraTimePercent": extra_time_percent,
                "notes": notes,
                "screenReader": screen_reader,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        breaks = d.pop("breaks")

        extra_time_percent = d.pop("extraTimePercent")

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        screen_reader = d.pop("screenReader")

        accommodations = cls(
            breaks=breaks,
            extra_time_percent=extra_time_percent,
            notes=notes,
            screen_reader=screen_reader,
        )

        return accommodations
