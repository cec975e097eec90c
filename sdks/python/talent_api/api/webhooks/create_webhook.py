from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.webhook_endpoint_create_request import WebhookEndpointCreateRequest
from ...models.webhook_endpoint_with_secret import WebhookEndpointWithSecret
from ...types import Unset


def _get_kwargs(
    *,
    body: WebhookEndpointCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookEndpointWithSecret | None:
    if response.status_code == 201:
        response_201 = WebhookEndpointWithSecret.from_dict(response.json())

        return response_201

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
) -> Response[Error | WebhookEndpointWithSecret]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookEndpointCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookEndpointWithSecret]:
    """Register a webhook endpoint (its secret is shown once)

     Registers an https endpoint for the given event types (`*` for all, new types included). The answer
    carries the signing secret once: store it to verify deliveries. Refused with 409 past 10 endpoints.

    Scope: `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        body (WebhookEndpointCreateRequest): `POST /webhooks` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookEndpointWithSecret]
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
    body: WebhookEndpointCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookEndpointWithSecret | None:
    """Register a webhook endpoint (its secret is shown once)

     Registers an https endpoint for the given event types (`*` for all, new types included). The answer
    carries the signing secret once: store it to verify deliveries. Refused with 409 past 10 endpoints.

    Scope: `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        body (WebhookEndpointCreateRequest): `POST /webhooks` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookEndpointWithSecret
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookEndpointCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookEndpointWithSecret]:
    """Register a webhook endpoint (its secret is shown once)

     Registers an https endpoint for the given event types (`*` for all, new types included). The answer
    carries the signing secret once: store it to verify deliveries. Refused with 409 past 10 endpoints.

    Scope: `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        body (WebhookEndpointCreateRequest): `POST /webhooks` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookEndpointWithSecret]
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
    body: WebhookEndpointCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookEndpointWithSecret | None:
    """Register a webhook endpoint (its secret is shown once)

     Registers an https endpoint for the given event types (`*` for all, new types included). The answer
    carries the signing secret once: store it to verify deliveries. Refused with 409 past 10 endpoints.

    Scope: `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        body (WebhookEndpointCreateRequest): `POST /webhooks` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookEndpointWithSecret
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
