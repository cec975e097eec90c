from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from typing import cast

if TYPE_CHECKING:
    from ..models.error import Error
    from ..models.person_imported import PersonImported


T = TypeVar("T", bound="PersonBatchItem")


@_attrs_define
class PersonBatchItem:
    """One item of the answer of `POST /persons/batch`: what `POST /persons` would have
    answered for `persons[index]`.

        Attributes:
            error (Error | None):
            index (int): The item's position in `persons`, from 0.
            person (None | PersonImported):
            status (int): The HTTP status the single call would have had: 201 created or reactivated, 200 already
                a member, or the error's status (400, 409,...).
    """

    error: Error | None
    index: int
    person: None | PersonImported
    status: int

    def to_dict(self) -> dict[str, Any]:
        from ..models.error import Error  # noqa: PLC0415
        from ..models.person_imported import PersonImported  # noqa: PLC0415

        error: dict[str, Any] | None
        if isinstance(self.error, Error):
            error = self.error.to_dict()
        else:
            error = self.error

        index = self.index

        person: dict[str, Any] | None
        if isinstance(self.person, PersonImported):
            person = self.person.to_dict()
        else:
            person = self.person

        status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error": error,
                "index": index,
                "person": person,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error import Error  # noqa: PLC0415
        from ..models.person_imported import PersonImported  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_error(data: object) -> Error | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = Error.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Error | None, data)

        error = _parse_error(d.pop("error"))

        index = d.pop("index")

        def _parse_person(data: object) -> None | PersonImported:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                person_type_0 = PersonImported.from_dict(data)

                return person_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PersonImported, data)

        person = _parse_person(d.pop("person"))

        status = d.pop("status")

        person_batch_item = cls(
            error=error,
            index=index,
            person=person,
            status=status,
        )

        return person_batch_item
