from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.delivery_page import DeliveryPage
from ...models.delivery_status import DeliveryStatus
from ...models.error import Error
from ...types import Unset
from uuid import UUID


def _get_kwargs(
    id: UUID,
    *,
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/webhooks/{id}/deliveries".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeliveryPage | Error | None:
    if response.status_code == 200:
        response_200 = DeliveryPage.from_dict(response.json())

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
) -> Response[DeliveryPage | Error]:
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
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[DeliveryPage | Error]:
    """Recent deliveries to an endpoint, newest first

     The deliveries to the endpoint within the retention window, newest first, in pages; `status` narrows
    them (`pending`, `succeeded`, `failed`).

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        status (DeliveryStatus | Unset): A delivery's status.
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryPage | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        status=status,
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
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> DeliveryPage | Error | None:
    """Recent deliveries to an endpoint, newest first

     The deliveries to the endpoint within the retention window, newest first, in pages; `status` narrows
    them (`pending`, `succeeded`, `failed`).

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        status (DeliveryStatus | Unset): A delivery's status.
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryPage | Error
    """

    return sync_detailed(
        id=id,
        client=client,
        status=status,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[DeliveryPage | Error]:
    """Recent deliveries to an endpoint, newest first

     The deliveries to the endpoint within the retention window, newest first, in pages; `status` narrows
    them (`pending`, `succeeded`, `failed`).

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        status (DeliveryStatus | Unset): A delivery's status.
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryPage | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        status=status,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    status: DeliveryStatus | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> DeliveryPage | Error | None:
    """Recent deliveries to an endpoint, newest first

     The deliveries to the endpoint within the retention window, newest first, in pages; `status` narrows
    them (`pending`, `succeeded`, `failed`).

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        status (DeliveryStatus | Unset): A delivery's status.
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryPage | Error
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            status=status,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
