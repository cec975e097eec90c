from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.accommodations_request_extra_time_percent_type_1 import (
    AccommodationsRequestExtraTimePercentType1,
)
from ..models.accommodations_request_extra_time_percent_type_2_type_1 import (
    AccommodationsRequestExtraTimePercentType2Type1,
)
from ..models.accommodations_request_extra_time_percent_type_3_type_1 import (
    AccommodationsRequestExtraTimePercentType3Type1,
)
from typing import cast


T = TypeVar("T", bound="AccommodationsRequest")


@_attrs_define
class AccommodationsRequest:
    """`accommodations` of an invitation: what the person is granted for the assessment.
    Absent members are `0`, `false` and no notes. They never change scores.

        Attributes:
            breaks (bool | Unset): The person may pause between parts; default false.
            extra_time_percent (AccommodationsRequestExtraTimePercentType1 | AccommodationsRequestExtraTimePercentType2Type1
                | AccommodationsRequestExtraTimePercentType3Type1 | None | Unset): Extra time in percent of the standard time:
                0, 25, 50 or 100; default 0.
            notes (None | str | Unset): What else was agreed, shown to the person as written: 1 to 500 characters.
            screen_reader (bool | Unset): The person uses a screen reader; default false.
    """

    breaks: bool | Unset = UNSET
    extra_time_percent: (
        AccommodationsRequestExtraTimePercentType1
        | AccommodationsRequestExtraTimePercentType2Type1
        | AccommodationsRequestExtraTimePercentType3Type1
        | None
        | Unset
    ) = UNSET
    notes: None | str | Unset = UNSET
    screen_reader: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        breaks = self.breaks

        extra_time_percent: int | None | Unset
        if isinstance(self.extra_time_percent, Unset):
            extra_time_percent = UNSET
        elif isinstance(
            self.extra_time_percent, AccommodationsRequestExtraTimePercentType1
        ):
            extra_time_percent = self.extra_time_percent.value
        elif isinstance(
            self.extra_time_percent, AccommodationsRequestExtraTimePercentType2Type1
        ):
            extra_time_percent = self.extra_time_percent.value
        elif isinstance(
            self.extra_time_percent, AccommodationsRequestExtraTimePercentType3Type1
        ):
            extra_time_percent = self.extra_time_percent.value
        else:
            extra_time_percent = self.extra_time_percent

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        screen_reader = self.screen_reader

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if breaks is not UNSET:
            field_dict["breaks"] = breaks
        if extra_time_percent is not UNSET:
            field_dict["extraTimePercent"] = extra_time_percent
        if notes is not UNSET:
            field_dict["notes"] = notes
        if screen_reader is not UNSET:
            field_dict["screenReader"] = screen_reader

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        breaks = d.pop("breaks", UNSET)

        def _parse_extra_time_percent(
            data: object,
        ) -> (
            AccommodationsRequestExtraTimePercentType1
            | AccommodationsRequestExtraTimePercentType2Type1
            | AccommodationsRequestExtraTimePercentType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, int):
                    raise TypeError()
                extra_time_percent_type_1 = AccommodationsRequestExtraTimePercentType1(
                    data
                )

                return extra_time_percent_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, int):
                    raise TypeError()
                extra_time_percent_type_2_type_1 = (
                    AccommodationsRequestExtraTimePercentType2Type1(data)
                )

                return extra_time_percent_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, int):
                    raise TypeError()
                extra_time_percent_type_3_type_1 = (
                    AccommodationsRequestExtraTimePercentType3Type1(data)
                )

                return extra_time_percent_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AccommodationsRequestExtraTimePercentType1
                | AccommodationsRequestExtraTimePercentType2Type1
                | AccommodationsRequestExtraTimePercentType3Type1
                | None
                | Unset,
                data,
            )

        extra_time_percent = _parse_extra_time_percent(d.pop("extraTimePercent", UNSET))

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        screen_reader = d.pop("screenReader", UNSET)

        accommodations_request = cls(
            breaks=breaks,
            extra_time_percent=extra_time_percent,
            notes=notes,
            screen_reader=screen_reader,
        )

        return accommodations_request
