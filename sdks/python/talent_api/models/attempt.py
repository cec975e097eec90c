from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast
import datetime


T = TypeVar("T", bound="Attempt")


@_attrs_define
class Attempt:
    """One attempt of a delivery (`attemptLog` of `GET.../deliveries/{deliveryId}`).

    Attributes:
        attempted_at (datetime.datetime):
        duration_ms (int): Milliseconds.
        error (None | str):
        response_body (None | str): First 1 KiB of the receiver's body.
        response_status (int | None): The receiver's status; null when no response arrived.
    """

    attempted_at: datetime.datetime
    duration_ms: int
    error: None | str
    response_body: None | str
    response_status: int | None

    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        response_body: None | str
        response_body = self.response_body

        response_status: int | None
        response_status = self.response_status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attemptedAt": attempted_at,
                "durationMs": duration_ms,
                "error": error,
                "responseBody": response_body,
                "responseStatus": response_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attemptedAt"))

        duration_ms = d.pop("durationMs")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("responseBody"))

        def _parse_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status = _parse_response_status(d.pop("responseStatus"))

        attempt = cls(
            attempted_at=attempted_at,
            duration_ms=duration_ms,
            error=error,
            response_body=response_body,
            response_status=response_status,
        )

        return attempt
