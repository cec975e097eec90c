from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from ..models.subscription_status import SubscriptionStatus
from typing import cast
import datetime


T = TypeVar("T", bound="Subscription")


@_attrs_define
class Subscription:
    """`subscription` of the Organization.

    Attributes:
        current_period_end (datetime.datetime | None):
        plan (str): Plan id, e.g. `professional`.
        status (SubscriptionStatus): A subscription's status.
        trial_ends_at (datetime.datetime | None):
    """

    current_period_end: datetime.datetime | None
    plan: str
    status: SubscriptionStatus
    trial_ends_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        current_period_end: None | str
        if isinstance(self.current_period_end, datetime.datetime):
            current_period_end = self.current_period_end.isoformat()
        else:
            current_period_end = self.current_period_end

        plan = self.plan

        status = self.status.value

        trial_ends_at: None | str
        if isinstance(self.trial_ends_at, datetime.datetime):
            trial_ends_at = self.trial_ends_at.isoformat()
        else:
            trial_ends_at = self.trial_ends_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "currentPeriodEnd": current_period_end,
                "plan": plan,
                "status": status,
                "trialEndsAt": trial_ends_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_current_period_end(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                current_period_end_type_0 = datetime.datetime.fromisoformat(data)

                return current_period_end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        current_period_end = _parse_current_period_end(d.pop("currentPeriodEnd"))

        plan = d.pop("plan")

        status = SubscriptionStatus(d.pop("status"))

        def _parse_trial_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                trial_ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return trial_ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        trial_ends_at = _parse_trial_ends_at(d.pop("trialEndsAt"))

        subscription = cls(
            current_period_end=current_period_end,
            plan=plan,
            status=status,
            trial_ends_at=trial_ends_at,
        )

        return subscription
