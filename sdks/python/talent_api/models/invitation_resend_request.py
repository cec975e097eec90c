from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from typing import cast


T = TypeVar("T", bound="InvitationResendRequest")


@_attrs_define
class InvitationResendRequest:
    """`POST /invitations/{id}/resend` body.

    Attributes:
        expires_in_days (int | None | Unset): A new expiry, in days from now.
    """

    expires_in_days: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expires_in_days is not UNSET:
            field_dict["expiresInDays"] = expires_in_days

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expiresInDays", UNSET))

        invitation_resend_request = cls(
            expires_in_days=expires_in_days,
        )

        return invitation_resend_request
