from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.match_page import MatchPage
from ...types import Unset
from uuid import UUID


def _get_kwargs(
    id: UUID,
    *,
    person_id: UUID | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_person_id: str | Unset = UNSET
    if not isinstance(person_id, Unset):
        json_person_id = str(person_id)
    params["personId"] = json_person_id

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/profiles/{id}/matches".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | MatchPage | None:
    if response.status_code == 200:
        response_200 = MatchPage.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Error | MatchPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    person_id: UUID | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | MatchPage]:
    """Matches of persons with results to a profile, highest percentage first

     The persons with results ranked by how well they fit the profile, highest percentage first, in
    pages; `personId` gives one person's match.

    Scope: `results:read`.

    Args:
        id (UUID):
        person_id (UUID | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | MatchPage]
    """

    kwargs = _get_kwargs(
        id=id,
        person_id=person_id,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    person_id: UUID | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | MatchPage | None:
    """Matches of persons with results to a profile, highest percentage first

     The persons with results ranked by how well they fit the profile, highest percentage first, in
    pages; `personId` gives one person's match.

    Scope: `results:read`.

    Args:
        id (UUID):
        person_id (UUID | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | MatchPage
    """

    return sync_detailed(
        id=id,
        client=client,
        person_id=person_id,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    person_id: UUID | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | MatchPage]:
    """Matches of persons with results to a profile, highest percentage first

     The persons with results ranked by how well they fit the profile, highest percentage first, in
    pages; `personId` gives one person's match.

    Scope: `results:read`.

    Args:
        id (UUID):
        person_id (UUID | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | MatchPage]
    """

    kwargs = _get_kwargs(
        id=id,
        person_id=person_id,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    person_id: UUID | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | MatchPage | None:
    """Matches of persons with results to a profile, highest percentage first

     The persons with results ranked by how well they fit the profile, highest percentage first, in
    pages; `personId` gives one person's match.

    Scope: `results:read`.

    Args:
        id (UUID):
        person_id (UUID | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | MatchPage
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            person_id=person_id,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
