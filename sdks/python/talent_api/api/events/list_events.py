from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.event_page import EventPage
from ...models.event_type import EventType
from ...types import Unset


def _get_kwargs(
    *,
    after: int | Unset = UNSET,
    type_: list[EventType] | Unset = UNSET,
    limit: int | Unset = 25,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["after"] = after

    json_type_: list[str] | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = []
        for type_item_data in type_:
            type_item = type_item_data.value
            json_type_.append(type_item)

    params["type"] = json_type_

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | EventPage | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())

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
) -> Response[Error | EventPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    type_: list[EventType] | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | EventPage]:
    """The events feed, in commit order (sequence ascending)

     Every event of the organization in the order its changes committed, ascending by `sequence` (the
    organization's own count, 1, 2, 3, … without gaps). Store the last `sequence` you processed and pass
    it as `after` to get what follows; `type` (repeatable) narrows the types. A key reads the events of
    the resources its scopes cover. Events are kept for the retention window (30 days by default).

    Scopes: any one of `persons:read`, `invitations:read`, `results:read`, `webhooks:manage`.

    Args:
        after (int | Unset):
        type_ (list[EventType] | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventPage]
    """

    kwargs = _get_kwargs(
        after=after,
        type_=type_,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    type_: list[EventType] | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | EventPage | None:
    """The events feed, in commit order (sequence ascending)

     Every event of the organization in the order its changes committed, ascending by `sequence` (the
    organization's own count, 1, 2, 3, … without gaps). Store the last `sequence` you processed and pass
    it as `after` to get what follows; `type` (repeatable) narrows the types. A key reads the events of
    the resources its scopes cover. Events are kept for the retention window (30 days by default).

    Scopes: any one of `persons:read`, `invitations:read`, `results:read`, `webhooks:manage`.

    Args:
        after (int | Unset):
        type_ (list[EventType] | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventPage
    """

    return sync_detailed(
        client=client,
        after=after,
        type_=type_,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    type_: list[EventType] | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | EventPage]:
    """The events feed, in commit order (sequence ascending)

     Every event of the organization in the order its changes committed, ascending by `sequence` (the
    organization's own count, 1, 2, 3, … without gaps). Store the last `sequence` you processed and pass
    it as `after` to get what follows; `type` (repeatable) narrows the types. A key reads the events of
    the resources its scopes cover. Events are kept for the retention window (30 days by default).

    Scopes: any one of `persons:read`, `invitations:read`, `results:read`, `webhooks:manage`.

    Args:
        after (int | Unset):
        type_ (list[EventType] | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventPage]
    """

    kwargs = _get_kwargs(
        after=after,
        type_=type_,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    type_: list[EventType] | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | EventPage | None:
    """The events feed, in commit order (sequence ascending)

     Every event of the organization in the order its changes committed, ascending by `sequence` (the
    organization's own count, 1, 2, 3, … without gaps). Store the last `sequence` you processed and pass
    it as `after` to get what follows; `type` (repeatable) narrows the types. A key reads the events of
    the resources its scopes cover. Events are kept for the retention window (30 days by default).

    Scopes: any one of `persons:read`, `invitations:read`, `results:read`, `webhooks:manage`.

    Args:
        after (int | Unset):
        type_ (list[EventType] | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventPage
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            type_=type_,
            limit=limit,
        )
    ).parsed
