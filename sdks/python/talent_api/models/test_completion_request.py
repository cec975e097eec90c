from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from ..models.test_target_category import TestTargetCategory
from typing import cast
from uuid import UUID


T = TypeVar("T", bound="TestCompletionRequest")


@_attrs_define
class TestCompletionRequest:
    """The body of `POST /api/v1/test/persons/{id}/complete-assessment`; it may be left out.

    Attributes:
        profile_id (UUID | Unset): One of your organization's profiles (test data reads your live profiles); with
            `targetCategory`.
        seed (int | None | Unset): Generates the responses: the same seed gives the same results. Default: derived from
            the
            assessment's id.
        target_category (TestTargetCategory | Unset): A match category to steer a test completion to.
    """

    profile_id: UUID | Unset = UNSET
    seed: int | None | Unset = UNSET
    target_category: TestTargetCategory | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        profile_id: str | Unset = UNSET
        if not isinstance(self.profile_id, Unset):
            profile_id = str(self.profile_id)

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        target_category: str | Unset = UNSET
        if not isinstance(self.target_category, Unset):
            target_category = self.target_category.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if profile_id is not UNSET:
            field_dict["profileId"] = profile_id
        if seed is not UNSET:
            field_dict["seed"] = seed
        if target_category is not UNSET:
            field_dict["targetCategory"] = target_category

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _profile_id = d.pop("profileId", UNSET)
        profile_id: UUID | Unset
        if isinstance(_profile_id, Unset):
            profile_id = UNSET
        else:
            profile_id = UUID(_profile_id)

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        _target_category = d.pop("targetCategory", UNSET)
        target_category: TestTargetCategory | Unset
        if isinstance(_target_category, Unset):
            target_category = UNSET
        else:
            target_category = TestTargetCategory(_target_category)

        test_completion_request = cls(
            profile_id=profile_id,
            seed=seed,
            target_category=target_category,
        )

        return test_completion_request
