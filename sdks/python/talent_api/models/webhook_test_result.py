from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from typing import cast
from uuid import UUID


T = TypeVar("T", bound="WebhookTestResult")


@_attrs_define
class WebhookTestResult:
    """The answer of `POST /webhooks/{id}/test`.

    Attributes:
        delivery_id (UUID):
        duration_ms (int): Milliseconds.
        error (None | str):
        response_body (None | str): First 1 KiB.
        response_status (int | None):
        success (bool):
    """

    delivery_id: UUID
    duration_ms: int
    error: None | str
    response_body: None | str
    response_status: int | None
    success: bool

    def to_dict(self) -> dict[str, Any]:
        delivery_id = str(self.delivery_id)

        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        response_body: None | str
        response_body = self.response_body

        response_status: int | None
        response_status = self.response_status

        success = self.success

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deliveryId": delivery_id,
                "durationMs": duration_ms,
                "error": error,
                "responseBody": response_body,
                "responseStatus": response_status,
                "success": success,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delivery_id = UUID(d.pop("deliveryId"))

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

        success = d.pop("success")

        webhook_test_result = cls(
            delivery_id=delivery_id,
            duration_ms=duration_ms,
            error=error,
            response_body=response_body,
            response_status=response_status,
            success=success,
        )

        return webhook_test_result
