from enum import StrEnum


class ErrorCode(StrEnum):
    CONFLICT = "conflict"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INSUFFICIENT_SCOPE = "insufficient_scope"
    INTERNAL_ERROR = "internal_error"
    INVALID_TOKEN = "invalid_token"
    KEY_EXPIRED = "key_expired"
    KEY_REVOKED = "key_revoked"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_FOUND = "not_found"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    PERSON_DEACTIVATED = "person_deactivated"
    PERSON_LIMIT_REACHED = "person_limit_reached"
    PERSON_SELF_REVOKED = "person_self_revoked"
    PLAN_UPGRADE_REQUIRED = "plan_upgrade_required"
    RATE_LIMITED = "rate_limited"
    SUBSCRIPTION_INACTIVE = "subscription_inactive"
    TEST_KEY_REQUIRED = "test_key_required"
    UNAUTHORIZED = "unauthorized"
    VALIDATION_ERROR = "validation_error"

    def __str__(self) -> str:
        return str(self.value)
