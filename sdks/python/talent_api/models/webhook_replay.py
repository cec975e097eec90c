from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast


T = TypeVar("T", bound="WebhookReplay")


@_attrs_define
class WebhookReplay:
    """The answer of `POST /webhooks/{id}/replay`.

    Attributes:
        has_more (bool): More events follow: call again with `after` = `lastSequence`.
        last_sequence (int | None): The sequence of the last event queued; null when none was.
        queued (int): Deliveries queued by this call (at most 1,000).
    """

    has_more: bool
    last_sequence: int | None
    queued: int

    def to_dict(self) -> dict[str, Any]:
        has_more = self.has_more

        last_sequence: int | None
        last_sequence = self.last_sequence

        queued = self.queued

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "hasMore": has_more,
                "lastSequence": last_sequence,
                "queued": queued,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        has_more = d.pop("hasMore")

        def _parse_last_sequence(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_sequence = _parse_last_sequence(d.pop("lastSequence"))

        queued = d.pop("queued")

        webhook_replay = cls(
            has_more=has_more,
            last_sequence=last_sequence,
            queued=queued,
        )

        return webhook_replay
