from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.error_code import ErrorCode
from typing import cast

if TYPE_CHECKING:
    from ..models.error_details_type_0 import ErrorDetailsType0


T = TypeVar("T", bound="Error")


@_attrs_define
class Error:
    """The error envelope: `error`, `code`, optional `details`, nothing else.
    `validation_error` details: `{"fields":[{"field","message"}]}`; `person_limit_reached`:
    `{used, limit, plan}`.

        Attributes:
            code (ErrorCode): Every error code.
            error (str): Human-readable English message.
            details (ErrorDetailsType0 | None | Unset): Structured context; absent when there is none.
    """

    code: ErrorCode
    error: str
    details: ErrorDetailsType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.error_details_type_0 import ErrorDetailsType0  # noqa: PLC0415

        code = self.code.value

        error = self.error

        details: dict[str, Any] | None | Unset
        if isinstance(self.details, Unset):
            details = UNSET
        elif isinstance(self.details, ErrorDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "error": error,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_details_type_0 import ErrorDetailsType0  # noqa: PLC0415

        d = dict(src_dict)
        code = ErrorCode(d.pop("code"))

        error = d.pop("error")

        def _parse_details(data: object) -> ErrorDetailsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = ErrorDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorDetailsType0 | None | Unset, data)

        details = _parse_details(d.pop("details", UNSET))

        error = cls(
            code=code,
            error=error,
            details=details,
        )

        error.additional_properties = d
        return error

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
