from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response
from ... import errors

from ...models.error import Error
from ...models.test_email_list import TestEmailList


def _get_kwargs() -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/test/emails",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TestEmailList | None:
    if response.status_code == 200:
        response_200 = TestEmailList.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

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
) -> Response[Error | TestEmailList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Error | TestEmailList]:
    """Test mode: the emails recorded instead of sent

     For test-mode keys only. Emails of your test data (invitations, reminders) are never sent: they are
    recorded, and listed here newest first (at most 200) with their links. A live key gets 403
    `test_key_required`.

    Scope: `invitations:read`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TestEmailList]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> Error | TestEmailList | None:
    """Test mode: the emails recorded instead of sent

     For test-mode keys only. Emails of your test data (invitations, reminders) are never sent: they are
    recorded, and listed here newest first (at most 200) with their links. A live key gets 403
    `test_key_required`.

    Scope: `invitations:read`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TestEmailList
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Error | TestEmailList]:
    """Test mode: the emails recorded instead of sent

     For test-mode keys only. Emails of your test data (invitations, reminders) are never sent: they are
    recorded, and listed here newest first (at most 200) with their links. A live key gets 403
    `test_key_required`.

    Scope: `invitations:read`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TestEmailList]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> Error | TestEmailList | None:
    """Test mode: the emails recorded instead of sent

     For test-mode keys only. Emails of your test data (invitations, reminders) are never sent: they are
    recorded, and listed here newest first (at most 200) with their links. A live key gets 403
    `test_key_required`.

    Scope: `invitations:read`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TestEmailList
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
