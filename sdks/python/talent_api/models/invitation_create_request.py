from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.label import Label
from ..models.locale_tag import LocaleTag
from typing import cast

if TYPE_CHECKING:
    from ..models.accommodations_request import AccommodationsRequest


T = TypeVar("T", bound="InvitationCreateRequest")


@_attrs_define
class InvitationCreateRequest:
    """`POST /invitations` body.

    Attributes:
        email (str): An email address in a request (trimmed and lower-cased; at most 254 characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        send_email (bool): `true`: Talent emails the invitation; `false`: the client sends `url` itself.
        accommodations (AccommodationsRequest | None | Unset):
        expires_in_days (int | None | Unset): Days until expiry; default 14.
        external_id (None | str | Unset):
        first_name (None | str | Unset):
        labels (list[Label] | None | Unset):
        last_name (None | str | Unset):
        locale (LocaleTag | None | Unset):
        message (None | str | Unset): A personal message in the email and its reminder; trimmed.
        redirect_url (None | str | Unset):
        tags (list[str] | None | Unset): Applied on acceptance.
        time_zone (None | str | Unset):
    """

    email: str
    send_email: bool
    accommodations: AccommodationsRequest | None | Unset = UNSET
    expires_in_days: int | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    first_name: None | str | Unset = UNSET
    labels: list[Label] | None | Unset = UNSET
    last_name: None | str | Unset = UNSET
    locale: LocaleTag | None | Unset = UNSET
    message: None | str | Unset = UNSET
    redirect_url: None | str | Unset = UNSET
    tags: list[str] | None | Unset = UNSET
    time_zone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.accommodations_request import AccommodationsRequest  # noqa: PLC0415

        email = self.email

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

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        first_name: None | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        labels: list[str] | None | Unset
        if isinstance(self.labels, Unset):
            labels = UNSET
        elif isinstance(self.labels, list):
            labels = []
            for labels_type_0_item_data in self.labels:
                labels_type_0_item = labels_type_0_item_data.value
                labels.append(labels_type_0_item)

        else:
            labels = self.labels

        last_name: None | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        locale: None | str | Unset
        if isinstance(self.locale, Unset):
            locale = UNSET
        elif isinstance(self.locale, LocaleTag):
            locale = self.locale.value
        else:
            locale = self.locale

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        redirect_url: None | str | Unset
        if isinstance(self.redirect_url, Unset):
            redirect_url = UNSET
        else:
            redirect_url = self.redirect_url

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = self.tags

        else:
            tags = self.tags

        time_zone: None | str | Unset
        if isinstance(self.time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = self.time_zone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "sendEmail": send_email,
            }
        )
        if accommodations is not UNSET:
            field_dict["accommodations"] = accommodations
        if expires_in_days is not UNSET:
            field_dict["expiresInDays"] = expires_in_days
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if labels is not UNSET:
            field_dict["labels"] = labels
        if last_name is not UNSET:
            field_dict["lastName"] = last_name
        if locale is not UNSET:
            field_dict["locale"] = locale
        if message is not UNSET:
            field_dict["message"] = message
        if redirect_url is not UNSET:
            field_dict["redirectUrl"] = redirect_url
        if tags is not UNSET:
            field_dict["tags"] = tags
        if time_zone is not UNSET:
            field_dict["timeZone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accommodations_request import AccommodationsRequest  # noqa: PLC0415

        d = dict(src_dict)
        email = d.pop("email")

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

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_first_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_name = _parse_first_name(d.pop("firstName", UNSET))

        def _parse_labels(data: object) -> list[Label] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                labels_type_0 = []
                _labels_type_0 = data
                for labels_type_0_item_data in _labels_type_0:
                    labels_type_0_item = Label(labels_type_0_item_data)

                    labels_type_0.append(labels_type_0_item)

                return labels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Label] | None | Unset, data)

        labels = _parse_labels(d.pop("labels", UNSET))

        def _parse_last_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_name = _parse_last_name(d.pop("lastName", UNSET))

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

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        def _parse_redirect_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        redirect_url = _parse_redirect_url(d.pop("redirectUrl", UNSET))

        def _parse_tags(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        def _parse_time_zone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        time_zone = _parse_time_zone(d.pop("timeZone", UNSET))

        invitation_create_request = cls(
            email=email,
            send_email=send_email,
            accommodations=accommodations,
            expires_in_days=expires_in_days,
            external_id=external_id,
            first_name=first_name,
            labels=labels,
            last_name=last_name,
            locale=locale,
            message=message,
            redirect_url=redirect_url,
            tags=tags,
            time_zone=time_zone,
        )

        return invitation_create_request
