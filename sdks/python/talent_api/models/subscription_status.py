from enum import StrEnum


class SubscriptionStatus(StrEnum):
    ACTIVE = "active"
    CANCELED = "canceled"
    NEEDS_PLAN = "needs_plan"
    PAST_DUE = "past_due"
    TRIALING = "trialing"
    TRIAL_EXPIRED = "trial_expired"

    def __str__(self) -> str:
        return str(self.value)
