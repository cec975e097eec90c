from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.person_batch_request import PersonBatchRequest
from ...models.person_batch_result import PersonBatchResult
from ...types import Unset


def _get_kwargs(
    *,
    body: PersonBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/persons/batch",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PersonBatchResult | None:
    if response.status_code == 200:
        response_200 = PersonBatchResult.from_dict(response.json())

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
) -> Response[Error | PersonBatchResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PersonBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PersonBatchResult]:
    """Import up to 100 persons in one request

     Imports up to 100 persons in one request: each item is judged as `POST /api/v1/persons` would judge
    it, and the answer has one result per item in order, with the status and body (or error) the single
    call would have had. An item that is not an object fails the whole request with 400.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonBatchRequest): `POST /persons/batch` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersonBatchResult]
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
    body: PersonBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | PersonBatchResult | None:
    """Import up to 100 persons in one request

     Imports up to 100 persons in one request: each item is judged as `POST /api/v1/persons` would judge
    it, and the answer has one result per item in order, with the status and body (or error) the single
    call would have had. An item that is not an object fails the whole request with 400.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonBatchRequest): `POST /persons/batch` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersonBatchResult
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PersonBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PersonBatchResult]:
    """Import up to 100 persons in one request

     Imports up to 100 persons in one request: each item is judged as `POST /api/v1/persons` would judge
    it, and the answer has one result per item in order, with the status and body (or error) the single
    call would have had. An item that is not an object fails the whole request with 400.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonBatchRequest): `POST /persons/batch` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersonBatchResult]
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
    body: PersonBatchRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | PersonBatchResult | None:
    """Import up to 100 persons in one request

     Imports up to 100 persons in one request: each item is judged as `POST /api/v1/persons` would judge
    it, and the answer has one result per item in order, with the status and body (or error) the single
    call would have had. An item that is not an object fails the whole request with 400.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonBatchRequest): `POST /persons/batch` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersonBatchResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
