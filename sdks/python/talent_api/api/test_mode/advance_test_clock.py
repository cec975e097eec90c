from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.test_clock_advance import TestClockAdvance
from ...models.test_clock_advance_request import TestClockAdvanceRequest
from ...types import Unset


def _get_kwargs(
    *,
    body: TestClockAdvanceRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/test/clock/advance",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TestClockAdvance | None:
    if response.status_code == 200:
        response_200 = TestClockAdvance.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | TestClockAdvance]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TestClockAdvanceRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | TestClockAdvance]:
    """Test mode: move the clock of your test data forward

     For test-mode keys only. Your test data ages by `seconds`: every time in it that a rule compares
    with the present (invitations' sending and expiry, emails, events, webhook deliveries and their
    retries, idempotency keys) moves that far into the past, so what would fall due in that time falls
    due now. Invitations that expired and reminders that fell due are processed before the answer, with
    their events and recorded emails; a webhook retry that fell due goes out at once; retention removes
    aged history at its next run. Persons' and assessments' times do not move. Your live data is never
    touched.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvanceRequest): The body of `POST /api/v1/test/clock/advance`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TestClockAdvance]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: TestClockAdvanceRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | TestClockAdvance | None:
    """Test mode: move the clock of your test data forward

     For test-mode keys only. Your test data ages by `seconds`: every time in it that a rule compares
    with the present (invitations' sending and expiry, emails, events, webhook deliveries and their
    retries, idempotency keys) moves that far into the past, so what would fall due in that time falls
    due now. Invitations that expired and reminders that fell due are processed before the answer, with
    their events and recorded emails; a webhook retry that fell due goes out at once; retention removes
    aged history at its next run. Persons' and assessments' times do not move. Your live data is never
    touched.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvanceRequest): The body of `POST /api/v1/test/clock/advance`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TestClockAdvance
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TestClockAdvanceRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | TestClockAdvance]:
    """Test mode: move the clock of your test data forward

     For test-mode keys only. Your test data ages by `seconds`: every time in it that a rule compares
    with the present (invitations' sending and expiry, emails, events, webhook deliveries and their
    retries, idempotency keys) moves that far into the past, so what would fall due in that time falls
    due now. Invitations that expired and reminders that fell due are processed before the answer, with
    their events and recorded emails; a webhook retry that fell due goes out at once; retention removes
    aged history at its next run. Persons' and assessments' times do not move. Your live data is never
    touched.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvanceRequest): The body of `POST /api/v1/test/clock/advance`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TestClockAdvance]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TestClockAdvanceRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | TestClockAdvance | None:
    """Test mode: move the clock of your test data forward

     For test-mode keys only. Your test data ages by `seconds`: every time in it that a rule compares
    with the present (invitations' sending and expiry, emails, events, webhook deliveries and their
    retries, idempotency keys) moves that far into the past, so what would fall due in that time falls
    due now. Invitations that expired and reminders that fell due are processed before the answer, with
    their events and recorded emails; a webhook retry that fell due goes out at once; retention removes
    aged history at its next run. Persons' and assessments' times do not move. Your live data is never
    touched.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvanceRequest): The body of `POST /api/v1/test/clock/advance`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TestClockAdvance
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
