from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response
from ... import errors

from ...models.error import Error
from ...models.webhook_endpoint import WebhookEndpoint
from ...models.webhook_endpoint_patch_request import WebhookEndpointPatchRequest
from uuid import UUID


def _get_kwargs(
    id: UUID,
    *,
    body: WebhookEndpointPatchRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/webhooks/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookEndpoint | None:
    if response.status_code == 200:
        response_200 = WebhookEndpoint.from_dict(response.json())

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
) -> Response[Error | WebhookEndpoint]:
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
    body: WebhookEndpointPatchRequest,
) -> Response[Error | WebhookEndpoint]:
    """Update a webhook endpoint

     Changes an endpoint's URL, event types, description or `enabled`. Re-enabling a disabled endpoint
    sends the deliveries that waited for it.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        body (WebhookEndpointPatchRequest): `PATCH /webhooks/{id}` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookEndpoint]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: WebhookEndpointPatchRequest,
) -> Error | WebhookEndpoint | None:
    """Update a webhook endpoint

     Changes an endpoint's URL, event types, description or `enabled`. Re-enabling a disabled endpoint
    sends the deliveries that waited for it.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        body (WebhookEndpointPatchRequest): `PATCH /webhooks/{id}` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookEndpoint
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: WebhookEndpointPatchRequest,
) -> Response[Error | WebhookEndpoint]:
    """Update a webhook endpoint

     Changes an endpoint's URL, event types, description or `enabled`. Re-enabling a disabled endpoint
    sends the deliveries that waited for it.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        body (WebhookEndpointPatchRequest): `PATCH /webhooks/{id}` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookEndpoint]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: WebhookEndpointPatchRequest,
) -> Error | WebhookEndpoint | None:
    """Update a webhook endpoint

     Changes an endpoint's URL, event types, description or `enabled`. Re-enabling a disabled endpoint
    sends the deliveries that waited for it.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        body (WebhookEndpointPatchRequest): `PATCH /webhooks/{id}` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookEndpoint
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
