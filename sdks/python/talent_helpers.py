"""The hand-written layer over the generated `talent_api` client: a client that retries, typed
exceptions, and paging.

    from talent_helpers import connect, call, paginate, NotFound
    from talent_api.api.persons import get_person, list_persons

    api = connect("https://talent.example.com", api_key)
    for person in paginate(list_persons, api, status="active"):
        print(person.email)
    try:
        person = call(get_person, api, id=some_id)
    except NotFound:
        ...

`connect` returns the generated `AuthenticatedClient`, so every generated operation takes it. Its
requests are retried on 429 and 503, after `Retry-After` seconds (at most `max_wait`), up to
`max_retries` times, and every `POST` without an `Idempotency-Key` gets a new one, the same on its
retries, so a retried import or invitation is never made twice.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx

from talent_api import AuthenticatedClient
from talent_api.types import UNSET, File

RETRIED_STATUSES = (429, 503)


class TalentError(Exception):
    """An error answer of the API: its HTTP `status`, the envelope's `code`, `error` (the
    message) and `details` (field errors under `details["fields"]`, or `None`), and the
    `X-Request-Id` to quote to support."""

    def __init__(self, status: int, code: str, error: str, details: Any = None, request_id: str | None = None):
        super().__init__(f"{status} {code}: {error}")
        self.status = status
        self.code = code
        self.error = error
        self.details = details
        self.request_id = request_id


class ValidationError(TalentError):
    """400 `validation_error`: `details["fields"]` lists each field refused, as
    `{"field": ..., "message": ...}`."""


class Unauthorized(TalentError):
    """401: the key is missing, malformed, unknown, revoked or expired."""


class Forbidden(TalentError):
    """403: `insufficient_scope`, `plan_upgrade_required` or `subscription_inactive`."""


class NotFound(TalentError):
    """404: no such resource in the key's organization."""


class Conflict(TalentError):
    """409: `conflict`, `person_limit_reached`, `person_self_revoked`, `idempotency_key_reused`
    and the other conflicts of the API."""


class RateLimited(TalentError):
    """429 after the retries: the budget is still spent."""


class ServiceUnavailable(TalentError):
    """503 after the retries: the service cannot reach its database."""


_BY_STATUS: dict[int, type[TalentError]] = {
    400: ValidationError,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    429: RateLimited,
    503: ServiceUnavailable,
}


def error_of(response: httpx.Response) -> TalentError:
    """The typed exception of an error answer (a status of 400 or more)."""
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    kind = _BY_STATUS.get(response.status_code, TalentError)
    return kind(
        response.status_code,
        str(body.get("code", "unknown")),
        str(body.get("error", response.reason_phrase)),
        body.get("details"),
        response.headers.get("x-request-id"),
    )


class RetryTransport(httpx.BaseTransport):
    """An httpx transport that retries 429 and 503 after `Retry-After` and gives each `POST` an
    `Idempotency-Key`. `retries` counts the retries made, for tests and metrics."""

    def __init__(self, inner: httpx.BaseTransport | None = None, max_retries: int = 3, max_wait: float = 60.0):
        self.inner = inner or httpx.HTTPTransport()
        self.max_retries = max_retries
        self.max_wait = max_wait
        self.retries = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and "idempotency-key" not in request.headers:
            request.headers["Idempotency-Key"] = str(uuid.uuid4())
        request.read()
        attempt = 0
        while True:
            response = self.inner.handle_request(request)
            if response.status_code not in RETRIED_STATUSES or attempt >= self.max_retries:
                return response
            wait = _retry_after(response, attempt, self.max_wait)
            response.close()
            attempt += 1
            self.retries += 1
            time.sleep(wait)

    def close(self) -> None:
        self.inner.close()


def _retry_after(response: httpx.Response, attempt: int, max_wait: float) -> float:
    """`Retry-After` in seconds when the answer has one, else 1, 2, 4 … seconds; at most `max_wait`."""
    try:
        wait = float(response.headers.get("retry-after", ""))
    except ValueError:
        wait = float(2**attempt)
    return max(0.0, min(wait, max_wait))


def connect(
    base_url: str, api_key: str, *, transport: RetryTransport | None = None, timeout: float = 30.0
) -> AuthenticatedClient:
    """The generated client for `base_url` with `api_key`, whose requests go through `transport`
    (by default a new `RetryTransport()`: 3 retries, waits of at most 60 s)."""
    return AuthenticatedClient(
        base_url=base_url,
        token=api_key,
        timeout=httpx.Timeout(timeout),
        httpx_args={"transport": transport or RetryTransport()},
    )


def call(operation: Any, client: AuthenticatedClient, **kwargs: Any) -> Any:
    """Runs a generated operation (the module, e.g. `get_person`) and returns its parsed answer;
    an answer of 400 or more raises the `TalentError` of its status. A file (the PDF report) is
    returned as its bytes."""
    response = operation.sync_detailed(client=client, **kwargs)
    if response.status_code >= 400:
        raise error_of(httpx.Response(response.status_code, headers=response.headers, content=response.content))
    if isinstance(response.parsed, File) or response.parsed is None:
        return response.content
    return response.parsed


def paginate(operation: Any, client: AuthenticatedClient, **filters: Any) -> Iterator[Any]:
    """Every item of a paged list operation (e.g. `list_persons`), page after page, with the same
    `filters` on each; errors raise as in `call`."""
    cursor: Any = UNSET
    while True:
        page = call(operation, client, cursor=cursor, **filters)
        yield from page.data
        next_cursor = page.pagination.next_cursor
        if not next_cursor or next_cursor is UNSET:
            return
        cursor = next_cursor


__all__ = [
    "Conflict",
    "Forbidden",
    "NotFound",
    "RateLimited",
    "RetryTransport",
    "ServiceUnavailable",
    "TalentError",
    "Unauthorized",
    "ValidationError",
    "call",
    "connect",
    "error_of",
    "paginate",
]
