from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.label import Label
from typing import cast


T = TypeVar("T", bound="PersonPatchRequest")


@_attrs_define
class PersonPatchRequest:
    """`PATCH /persons/{id}` body: every field optional; only `externalId` may be null.

    Attributes:
        external_id (None | str | Unset):
        first_name (str | Unset): A person's first or last name in a request: 1 to 100 characters, not only white space,
            no
            control character but tab and line breaks around it, which are trimmed. Both the text as
            sent and the trimmed text have 1 to 100 characters.
        labels (list[Label] | Unset): At most 2 items; a repeated label counts once.
        last_name (str | Unset): A person's first or last name in a request: 1 to 100 characters, not only white space,
            no
            control character but tab and line breaks around it, which are trimmed. Both the text as
            sent and the trimmed text have 1 to 100 characters.
        tags (list[str] | Unset): Replaces the whole tag set.
    """

    external_id: None | str | Unset = UNSET
    first_name: str | Unset = UNSET
    labels: list[Label] | Unset = UNSET
    last_name: str | Unset = UNSET
    tags: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        first_name = self.first_name

        labels: list[str] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = []
            for labels_item_data in self.labels:
                labels_item = labels_item_data.value
                labels.append(labels_item)

        last_name = self.last_name

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if labels is not UNSET:
            field_dict["labels"] = labels
        if last_name is not UNSET:
            field_dict["lastName"] = last_name
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        first_name = d.pop("firstName", UNSET)

        _labels = d.pop("labels", UNSET)
        labels: list[Label] | Unset = UNSET
        if _labels is not UNSET:
            labels = []
            for labels_item_data in _labels:
                labels_item = Label(labels_item_data)

                labels.append(labels_item)

        last_name = d.pop("lastName", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        person_patch_request = cls(
            external_id=external_id,
            first_name=first_name,
            labels=labels,
            last_name=last_name,
            tags=tags,
        )

        return person_patch_request
