from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from ..models.invitation_status import InvitationStatus
from ..models.invitation_variant import InvitationVariant
from ..models.label import Label
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.accommodations import Accommodations


T = TypeVar("T", bound="Invitation")


@_attrs_define
class Invitation:
    """A personal assessment invitation.

    Attributes:
        accepted_at (datetime.datetime | None):
        accommodations (Accommodations | None):
        created_at (datetime.datetime):
        email (str): Lower-case; an internationalized domain in its ASCII form (`xn--…`).
        email_sent_at (datetime.datetime | None):
        expires_at (datetime.datetime):
        external_id (None | str):
        first_name (None | str):
        id (UUID):
        labels (list[Label] | None):
        last_name (None | str):
        locale (None | str): The language of the emails and pages (a shipped locale); null: the reader's browser
            language on the pages, else the organization's `locale`.
        message (None | str):
        person_id (None | UUID): Set at creation when known, otherwise at acceptance.
        redirect_url (None | str): Where the person goes after accepting; null: a thank-you page.
        revoked_at (datetime.datetime | None):
        status (InvitationStatus): An invitation's status.
        tags (list[str] | None):
        time_zone (None | str): The IANA time zone of the dates shown to the person; null: the organization's.
        updated_at (datetime.datetime):
        url (str): `{public_base_url}/i/{token}`.
        variant (InvitationVariant): An invitation's variant.
    """

    accepted_at: datetime.datetime | None
    accommodations: Accommodations | None
    created_at: datetime.datetime
    email: str
    email_sent_at: datetime.datetime | None
    expires_at: datetime.datetime
    external_id: None | str
    first_name: None | str
    id: UUID
    labels: list[Label] | None
    last_name: None | str
    locale: None | str
    message: None | str
    person_id: None | UUID
    redirect_url: None | str
    revoked_at: datetime.datetime | None
    status: InvitationStatus
    tags: list[str] | None
    time_zone: None | str
    updated_at: datetime.datetime
    url: str
    variant: InvitationVariant

    def to_dict(self) -> dict[str, Any]:
        from ..models.accommodations import Accommodations  # noqa: PLC0415

        accepted_at: None | str
        if isinstance(self.accepted_at, datetime.datetime):
            accepted_at = self.accepted_at.isoformat()
        else:
            accepted_at = self.accepted_at

        accommodations: dict[str, Any] | None
        if isinstance(self.accommodations, Accommodations):
            accommodations = self.accommodations.to_dict()
        else:
            accommodations = self.accommodations

        created_at = self.created_at.isoformat()

        email = self.email

        email_sent_at: None | str
        if isinstance(self.email_sent_at, datetime.datetime):
            email_sent_at = self.email_sent_at.isoformat()
        else:
            email_sent_at = self.email_sent_at

        expires_at = self.expires_at.isoformat()

        external_id: None | str
        external_id = self.external_id

        first_name: None | str
        first_name = self.first_name

        id = str(self.id)

        labels: list[str] | None
        if isinstance(self.labels, list):
            labels = []
            for labels_type_0_item_data in self.labels:
                labels_type_0_item = labels_type_0_item_data.value
                labels.append(labels_type_0_item)

        else:
            labels = self.labels

        last_name: None | str
        last_name = self.last_name

        locale: None | str
        locale = self.locale

        message: None | str
        message = self.message

        person_id: None | str
        if isinstance(self.person_id, UUID):
            person_id = str(self.person_id)
        else:
            person_id = self.person_id

        redirect_url: None | str
        redirect_url = self.redirect_url

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        status = self.status.value

        tags: list[str] | None
        if isinstance(self.tags, list):
            tags = self.tags

        else:
            tags = self.tags

        time_zone: None | str
        time_zone = self.time_zone

        updated_at = self.updated_at.isoformat()

        url = self.url

        variant = self.variant.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "acceptedAt": accepted_at,
                "accommodations": accommodations,
                "createdAt": created_at,
                "email": email,
                "emailSentAt": email_sent_at,
                "expiresAt": expires_at,
                "externalId": external_id,
                "firstName": first_name,
                "id": id,
                "labels": labels,
                "lastName": last_name,
                "locale": locale,
                "message": message,
                "personId": person_id,
                "redirectUrl": redirect_url,
                "revokedAt": revoked_at,
                "status": status,
                "tags": tags,
                "timeZone": time_zone,
                "updatedAt": updated_at,
                "url": url,
                "variant": variant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accommodations import Accommodations  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_accepted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accepted_at_type_0 = datetime.datetime.fromisoformat(data)

                return accepted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        accepted_at = _parse_accepted_at(d.pop("acceptedAt"))

        def _parse_accommodations(data: object) -> Accommodations | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                accommodations_type_0 = Accommodations.from_dict(data)

                return accommodations_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Accommodations | None, data)

        accommodations = _parse_accommodations(d.pop("accommodations"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        email = d.pop("email")

        def _parse_email_sent_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                email_sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return email_sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        email_sent_at = _parse_email_sent_at(d.pop("emailSentAt"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("externalId"))

        def _parse_first_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        first_name = _parse_first_name(d.pop("firstName"))

        id = UUID(d.pop("id"))

        def _parse_labels(data: object) -> list[Label] | None:
            if data is None:
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
            return cast(list[Label] | None, data)

        labels = _parse_labels(d.pop("labels"))

        def _parse_last_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_name = _parse_last_name(d.pop("lastName"))

        def _parse_locale(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        locale = _parse_locale(d.pop("locale"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        def _parse_person_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                person_id_type_0 = UUID(data)

                return person_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        person_id = _parse_person_id(d.pop("personId"))

        def _parse_redirect_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        redirect_url = _parse_redirect_url(d.pop("redirectUrl"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt"))

        status = InvitationStatus(d.pop("status"))

        def _parse_tags(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        tags = _parse_tags(d.pop("tags"))

        def _parse_time_zone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        time_zone = _parse_time_zone(d.pop("timeZone"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        url = d.pop("url")

        variant = InvitationVariant(d.pop("variant"))

        invitation = cls(
            accepted_at=accepted_at,
            accommodations=accommodations,
            created_at=created_at,
            email=email,
            email_sent_at=email_sent_at,
            expires_at=expires_at,
            external_id=external_id,
            first_name=first_name,
            id=id,
            labels=labels,
            last_name=last_name,
            locale=locale,
            message=message,
            person_id=person_id,
            redirect_url=redirect_url,
            revoked_at=revoked_at,
            status=status,
            tags=tags,
            time_zone=time_zone,
            updated_at=updated_at,
            url=url,
            variant=variant,
        )

        return invitation
