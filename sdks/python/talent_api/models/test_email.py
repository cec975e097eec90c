from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast
from uuid import UUID
import datetime


T = TypeVar("T", bound="TestEmail")


@_attrs_define
class TestEmail:
    """One email of the test twin, recorded instead of sent.

    Attributes:
        body (str):
        created_at (datetime.datetime):
        id (UUID):
        invitation_id (None | UUID): The invitation it belongs to, or null.
        invitation_url (None | str): The invitation link it carries, or null.
        sent_at (datetime.datetime | None): When it was recorded as sent; null while it waits (it never leaves the
            service).
        subject (str):
        to (str):
    """

    body: str
    created_at: datetime.datetime
    id: UUID
    invitation_id: None | UUID
    invitation_url: None | str
    sent_at: datetime.datetime | None
    subject: str
    to: str

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        created_at = self.created_at.isoformat()

        id = str(self.id)

        invitation_id: None | str
        if isinstance(self.invitation_id, UUID):
            invitation_id = str(self.invitation_id)
        else:
            invitation_id = self.invitation_id

        invitation_url: None | str
        invitation_url = self.invitation_url

        sent_at: None | str
        if isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        subject = self.subject

        to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "body": body,
                "createdAt": created_at,
                "id": id,
                "invitationId": invitation_id,
                "invitationUrl": invitation_url,
                "sentAt": sent_at,
                "subject": subject,
                "to": to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        body = d.pop("body")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        def _parse_invitation_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                invitation_id_type_0 = UUID(data)

                return invitation_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        invitation_id = _parse_invitation_id(d.pop("invitationId"))

        def _parse_invitation_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        invitation_url = _parse_invitation_url(d.pop("invitationUrl"))

        def _parse_sent_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        sent_at = _parse_sent_at(d.pop("sentAt"))

        subject = d.pop("subject")

        to = d.pop("to")

        test_email = cls(
            body=body,
            created_at=created_at,
            id=id,
            invitation_id=invitation_id,
            invitation_url=invitation_url,
            sent_at=sent_at,
            subject=subject,
            to=to,
        )

        return test_email
