from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.webhook_replay import WebhookReplay
from ...models.webhook_replay_request import WebhookReplayRequest
from ...types import Unset
from uuid import UUID


def _get_kwargs(
    id: UUID,
    *,
    body: WebhookReplayRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/{id}/replay".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookReplay | None:
    if response.status_code == 202:
        response_202 = WebhookReplay.from_dict(response.json())

        return response_202

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
) -> Response[Error | WebhookReplay]:
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
    body: WebhookReplayRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookReplay]:
    """Queue the events after a sequence for this endpoint again (new deliveries)

     Queues a new delivery to this endpoint of every kept event after the `sequence` given that the
    endpoint subscribes to, oldest first, at most 1,000 per call; `hasMore` and `lastSequence` say where
    to go on.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (WebhookReplayRequest): `POST /webhooks/{id}/replay` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookReplay]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: WebhookReplayRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookReplay | None:
    """Queue the events after a sequence for this endpoint again (new deliveries)

     Queues a new delivery to this endpoint of every kept event after the `sequence` given that the
    endpoint subscribes to, oldest first, at most 1,000 per call; `hasMore` and `lastSequence` say where
    to go on.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (WebhookReplayRequest): `POST /webhooks/{id}/replay` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookReplay
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: WebhookReplayRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookReplay]:
    """Queue the events after a sequence for this endpoint again (new deliveries)

     Queues a new delivery to this endpoint of every kept event after the `sequence` given that the
    endpoint subscribes to, oldest first, at most 1,000 per call; `hasMore` and `lastSequence` say where
    to go on.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (WebhookReplayRequest): `POST /webhooks/{id}/replay` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookReplay]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: WebhookReplayRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookReplay | None:
    """Queue the events after a sequence for this endpoint again (new deliveries)

     Queues a new delivery to this endpoint of every kept event after the `sequence` given that the
    endpoint subscribes to, oldest first, at most 1,000 per call; `hasMore` and `lastSequence` say where
    to go on.

    Scope: `webhooks:manage`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (WebhookReplayRequest): `POST /webhooks/{id}/replay` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookReplay
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
