from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

from typing import cast


T = TypeVar("T", bound="WebhookReplayRequest")


@_attrs_define
class WebhookReplayRequest:
    """`POST /webhooks/{id}/replay` body.

    Attributes:
        after (int | None | Unset): Queue the events after this sequence. Absent or `0`: every event kept (30 days).
    """

    after: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        after: int | None | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        else:
            after = self.after

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if after is not UNSET:
            field_dict["after"] = after

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_after(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        after = _parse_after(d.pop("after", UNSET))

        webhook_replay_request = cls(
            after=after,
        )

        return webhook_replay_request
