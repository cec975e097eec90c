from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from typing import cast


T = TypeVar("T", bound="NestedInvitationRequest")


@_attrs_define
class NestedInvitationRequest:
    """The nested `invitation` of `POST /persons`: creates the invitation in the same call.

    Attributes:
        create (bool):
        send_email (bool): `true`: Talent emails the invitation; `false`: the client sends the returned `url` itself.
        expires_in_days (int | None | Unset): Days until expiry; default 14.
    """

    create: bool
    send_email: bool
    expires_in_days: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        create = self.create

        send_email = self.send_email

        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "create": create,
                "sendEmail": send_email,
            }
        )
        if expires_in_days is not UNSET:
            field_dict["expiresInDays"] = expires_in_days

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        create = d.pop("create")

        send_email = d.pop("sendEmail")

        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expiresInDays", UNSET))

        nested_invitation_request = cls(
            create=create,
            send_email=send_email,
            expires_in_days=expires_in_days,
        )

        return nested_invitation_request
