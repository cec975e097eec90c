from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.locale_tag import LocaleTag
from typing import cast

if TYPE_CHECKING:
    from ..models.accommodations_request import AccommodationsRequest


T = TypeVar("T", bound="NestedInvitationRequest")


@_attrs_define
class NestedInvitationRequest:
    """The nested `invitation` of `POST /persons`: creates the invitation in the same call.

    Attributes:
        create (bool):
        send_email (bool): `true`: Talent emails the invitation; `false`: the client sends the returned `url` itself.
        accommodations (AccommodationsRequest | None | Unset):
        expires_in_days (int | None | Unset): Days until expiry; default 14.
        locale (LocaleTag | None | Unset):
        redirect_url (None | str | Unset):
        time_zone (None | str | Unset):
    """

    create: bool
    send_email: bool
    accommodations: AccommodationsRequest | None | Unset = UNSET
    expires_in_days: int | None | Unset = UNSET
    locale: LocaleTag | None | Unset = UNSET
    redirect_url: None | str | Unset = UNSET
    time_zone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.accommodations_request import AccommodationsRequest  # noqa: PLC0415

        create = self.create

        send_email = self.send_email

        accommodations: dict[str, Any] | None | Unset
        if isinstance(self.accommodations, Unset):
            accommodations = UNSET
        elif isinstance(self.accommodations, AccommodationsRequest):
            accommodations = self.accommodations.to_dict()
        else:
            accommodations = self.accommodations

        expires_in_days: int | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        locale: None | str | Unset
        if isinstance(self.locale, Unset):
            locale = UNSET
        elif isinstance(self.locale, LocaleTag):
            locale = self.locale.value
        else:
            locale = self.locale

        redirect_url: None | str | Unset
        if isinstance(self.redirect_url, Unset):
            redirect_url = UNSET
        else:
            redirect_url = self.redirect_url

        time_zone: None | str | Unset
        if isinstance(self.time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = self.time_zone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "create": create,
                "sendEmail": send_email,
            }
        )
        if accommodations is not UNSET:
            field_dict["accommodations"] = accommodations
        if expires_in_days is not UNSET:
            field_dict["expiresInDays"] = expires_in_days
        if locale is not UNSET:
            field_dict["locale"] = locale
        if redirect_url is not UNSET:
            field_dict["redirectUrl"] = redirect_url
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accommodations_request import AccommodationsRequest  # noqa: PLC0415

        d = dict(src_dict)
        create = d.pop("create")

        send_email = d.pop("sendEmail")

        def _parse_accommodations(data: object) -> AccommodationsRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                accommodations_type_0 = AccommodationsRequest.from_dict(data)

                return accommodations_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccommodationsRequest | None | Unset, data)

        accommodations = _parse_accommodations(d.pop("accommodations", UNSET))

        def _parse_expires_in_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expiresInDays", UNSET))

        def _parse_locale(data: object) -> LocaleTag | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                locale_type_0 = LocaleTag(data)

                return locale_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LocaleTag | None | Unset, data)

        locale = _parse_locale(d.pop("locale", UNSET))

        def _parse_redirect_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        redirect_url = _parse_redirect_url(d.pop("redirectUrl", UNSET))

        def _parse_time_zone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        time_zone = _parse_time_zone(d.pop("timeZone", UNSET))

        nested_invitation_request = cls(
            create=create,
            send_email=send_email,
            accommodations=accommodations,
            expires_in_days=expires_in_days,
            locale=locale,
            redirect_url=redirect_url,
            time_zone=time_zone,
        )

        return nested_invitation_request
