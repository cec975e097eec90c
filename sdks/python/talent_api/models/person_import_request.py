from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.label import Label
from typing import cast

if TYPE_CHECKING:
    from ..models.nested_invitation_request import NestedInvitationRequest


T = TypeVar("T", bound="PersonImportRequest")


@_attrs_define
class PersonImportRequest:
    """`POST /persons` body. Omitted `labels` on create means `["candidate"]` (plus the
    employee domain rule); `tags` are added to the person's.

        Attributes:
            email (str): An email address in a request (trimmed and lower-cased; at most 254 characters). An
                internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
                (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
                part before `@` is ASCII.
            external_id (None | str | Unset):
            first_name (None | str | Unset):
            invitation (NestedInvitationRequest | None | Unset):
            labels (list[Label] | None | Unset):
            last_name (None | str | Unset):
            tags (list[str] | None | Unset):
    """

    email: str
    external_id: None | str | Unset = UNSET
    first_name: None | str | Unset = UNSET
    invitation: NestedInvitationRequest | None | Unset = UNSET
    labels: list[Label] | None | Unset = UNSET
    last_name: None | str | Unset = UNSET
    tags: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.nested_invitation_request import NestedInvitationRequest  # noqa: PLC0415

        email = self.email

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

        invitation: dict[str, Any] | None | Unset
        if isinstance(self.invitation, Unset):
            invitation = UNSET
        elif isinstance(self.invitation, NestedInvitationRequest):
            invitation = self.invitation.to_dict()
        else:
            invitation = self.invitation

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

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = self.tags

        else:
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if invitation is not UNSET:
            field_dict["invitation"] = invitation
        if labels is not UNSET:
            field_dict["labels"] = labels
        if last_name is not UNSET:
            field_dict["lastName"] = last_name
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.nested_invitation_request import NestedInvitationRequest  # noqa: PLC0415

        d = dict(src_dict)
        email = d.pop("email")

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

        def _parse_invitation(data: object) -> NestedInvitationRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                invitation_type_0 = NestedInvitationRequest.from_dict(data)

                return invitation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NestedInvitationRequest | None | Unset, data)

        invitation = _parse_invitation(d.pop("invitation", UNSET))

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

        person_import_request = cls(
            email=email,
            external_id=external_id,
            first_name=first_name,
            invitation=invitation,
            labels=labels,
            last_name=last_name,
            tags=tags,
        )

        return person_import_request
