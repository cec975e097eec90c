from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from ..models.delivery_status import DeliveryStatus
from ..models.event_type import EventType
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.attempt import Attempt


T = TypeVar("T", bound="DeliveryDetail")


@_attrs_define
class DeliveryDetail:
    """A delivery record with its attempts (`GET /webhooks/{id}/deliveries/{deliveryId}`).

    Attributes:
        attempt_log (list[Attempt]): Oldest first.
        attempts (int):
        created_at (datetime.datetime):
        id (UUID):
        last_attempt_at (datetime.datetime | None):
        last_error (None | str):
        last_response_status (int | None):
        next_attempt_at (datetime.datetime | None):
        request_id (None | str): The `X-Request-Id` of the API request that caused the event (the `/test` request for a
            ping); null when a background job did (an expiry, a reminder, an automatic disable).
            Quote it to support with the delivery id.
        status (DeliveryStatus): A delivery's status.
        type_ (EventType): A webhook event type.
    """

    attempt_log: list[Attempt]
    attempts: int
    created_at: datetime.datetime
    id: UUID
    last_attempt_at: datetime.datetime | None
    last_error: None | str
    last_response_status: int | None
    next_attempt_at: datetime.datetime | None
    request_id: None | str
    status: DeliveryStatus
    type_: EventType

    def to_dict(self) -> dict[str, Any]:
        attempt_log = []
        for attempt_log_item_data in self.attempt_log:
            attempt_log_item = attempt_log_item_data.to_dict()
            attempt_log.append(attempt_log_item)

        attempts = self.attempts

        created_at = self.created_at.isoformat()

        id = str(self.id)

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        last_error: None | str
        last_error = self.last_error

        last_response_status: int | None
        last_response_status = self.last_response_status

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        request_id: None | str
        request_id = self.request_id

        status = self.status.value

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attemptLog": attempt_log,
                "attempts": attempts,
                "createdAt": created_at,
                "id": id,
                "lastAttemptAt": last_attempt_at,
                "lastError": last_error,
                "lastResponseStatus": last_response_status,
                "nextAttemptAt": next_attempt_at,
                "requestId": request_id,
                "status": status,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt import Attempt  # noqa: PLC0415

        d = dict(src_dict)
        attempt_log = []
        _attempt_log = d.pop("attemptLog")
        for attempt_log_item_data in _attempt_log:
            attempt_log_item = Attempt.from_dict(attempt_log_item_data)

            attempt_log.append(attempt_log_item)

        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("lastAttemptAt"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        def _parse_last_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_response_status = _parse_last_response_status(d.pop("lastResponseStatus"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("requestId"))

        status = DeliveryStatus(d.pop("status"))

        type_ = EventType(d.pop("type"))

        delivery_detail = cls(
            attempt_log=attempt_log,
            attempts=attempts,
            created_at=created_at,
            id=id,
            last_attempt_at=last_attempt_at,
            last_error=last_error,
            last_response_status=last_response_status,
            next_attempt_at=next_attempt_at,
            request_id=request_id,
            status=status,
            type_=type_,
        )

        return delivery_detail
