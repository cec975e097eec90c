from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from typing import cast


T = TypeVar("T", bound="TestCompletionRequest")


@_attrs_define
class TestCompletionRequest:
    """The body of `POST /api/v1/test/persons/{id}/complete-assessment`; it may be left out.

    Attributes:
        seed (int | None | Unset): Generates the responses: the same seed gives the same results. Default: derived from
            the
            assessment's id.
    """

    seed: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        test_completion_request = cls(
            seed=seed,
        )

        return test_completion_request
