from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from ..models.joined_via import JoinedVia
from ..models.label import Label
from ..models.person_status import PersonStatus
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.invitation import Invitation
    from ..models.person_assessment import PersonAssessment


T = TypeVar("T", bound="PersonImported")


@_attrs_define
class PersonImported:
    """The answer of `POST /persons`: the Person plus `invitation`.

    Attributes:
        archived_at (datetime.datetime | None):
        assessment (PersonAssessment): The `assessment` summary of a Person: visible assessments only.
        email (str): Lower-case; an internationalized domain in its ASCII form (`xn--…`).
        external_id (None | str): The client's own identifier.
        first_name (None | str):
        id (UUID):
        invitation (Invitation | None):
        joined_via (JoinedVia): How the person entered the pool.
        labels (list[Label]):
        last_name (None | str):
        member_since (datetime.datetime):
        shared_existing_profile (bool): Consent to share results from assessments taken before joining.
        status (PersonStatus): A person's status.
        tags (list[str]): Sorted case-insensitively.
        updated_at (datetime.datetime):
    """

    archived_at: datetime.datetime | None
    assessment: PersonAssessment
    email: str
    external_id: None | str
    first_name: None | str
    id: UUID
    invitation: Invitation | None
    joined_via: JoinedVia
    labels: list[Label]
    last_name: None | str
    member_since: datetime.datetime
    shared_existing_profile: bool
    status: PersonStatus
    tags: list[str]
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.invitation import Invitation  # noqa: PLC0415

        archived_at: None | str
        if isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        assessment = self.assessment.to_dict()

        email = self.email

        external_id: None | str
        external_id = self.external_id

        first_name: None | str
        first_name = self.first_name

        id = str(self.id)

        invitation: dict[str, Any] | None
        if isinstance(self.invitation, Invitation):
            invitation = self.invitation.to_dict()
        else:
            invitation = self.invitation

        joined_via = self.joined_via.value

        labels = []
        for labels_item_data in self.labels:
            labels_item = labels_item_data.value
            labels.append(labels_item)

        last_name: None | str
        last_name = self.last_name

        member_since = self.member_since.isoformat()

        shared_existing_profile = self.shared_existing_profile

        status = self.status.value

        tags = self.tags

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "archivedAt": archived_at,
                "assessment": assessment,
                "email": email,
                "externalId": external_id,
                "firstName": first_name,
                "id": id,
                "invitation": invitation,
                "joinedVia": joined_via,
                "labels": labels,
                "lastName": last_name,
                "memberSince": member_since,
                "sharedExistingProfile": shared_existing_profile,
                "status": status,
                "tags": tags,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.invitation import Invitation  # noqa: PLC0415
        from ..models.person_assessment import PersonAssessment  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_archived_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                archived_at_type_0 = datetime.datetime.fromisoformat(data)

                return archived_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        archived_at = _parse_archived_at(d.pop("archivedAt"))

        assessment = PersonAssessment.from_dict(d.pop("assessment"))

        email = d.pop("email")

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

        def _parse_invitation(data: object) -> Invitation | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                invitation_type_0 = Invitation.from_dict(data)

                return invitation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Invitation | None, data)

        invitation = _parse_invitation(d.pop("invitation"))

        joined_via = JoinedVia(d.pop("joinedVia"))

        labels = []
        _labels = d.pop("labels")
        for labels_item_data in _labels:
            labels_item = Label(labels_item_data)

            labels.append(labels_item)

        def _parse_last_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_name = _parse_last_name(d.pop("lastName"))

        member_since = datetime.datetime.fromisoformat(d.pop("memberSince"))

        shared_existing_profile = d.pop("sharedExistingProfile")

        status = PersonStatus(d.pop("status"))

        tags = cast(list[str], d.pop("tags"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        person_imported = cls(
            archived_at=archived_at,
            assessment=assessment,
            email=email,
            external_id=external_id,
            first_name=first_name,
            id=id,
            invitation=invitation,
            joined_via=joined_via,
            labels=labels,
            last_name=last_name,
            member_since=member_since,
            shared_existing_profile=shared_existing_profile,
            status=status,
            tags=tags,
            updated_at=updated_at,
        )

        return person_imported
