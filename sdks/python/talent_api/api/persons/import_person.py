from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.person_import_request import PersonImportRequest
from ...models.person_imported import PersonImported
from ...types import Unset


def _get_kwargs(
    *,
    body: PersonImportRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/persons",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PersonImported | None:
    if response.status_code == 200:
        response_200 = PersonImported.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = PersonImported.from_dict(response.json())

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
) -> Response[Error | PersonImported]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PersonImportRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PersonImported]:
    """Import (create or reactivate) a person; idempotent on email

     Adds a person to the talent pool, or answers with the existing one: the email is the identity (200
    when the person is already an active member, 201 when created or reactivated). Given fields update
    the person. The nested `invitation` creates an invitation in the same call. Refused with 409 when
    the plan's person limit is reached.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonImportRequest): `POST /persons` body. Omitted `labels` on create means
            `["candidate"]` (plus the
            employee domain rule); `tags` are added to the person's.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersonImported]
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
    body: PersonImportRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | PersonImported | None:
    """Import (create or reactivate) a person; idempotent on email

     Adds a person to the talent pool, or answers with the existing one: the email is the identity (200
    when the person is already an active member, 201 when created or reactivated). Given fields update
    the person. The nested `invitation` creates an invitation in the same call. Refused with 409 when
    the plan's person limit is reached.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonImportRequest): `POST /persons` body. Omitted `labels` on create means
            `["candidate"]` (plus the
            employee domain rule); `tags` are added to the person's.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersonImported
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PersonImportRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PersonImported]:
    """Import (create or reactivate) a person; idempotent on email

     Adds a person to the talent pool, or answers with the existing one: the email is the identity (200
    when the person is already an active member, 201 when created or reactivated). Given fields update
    the person. The nested `invitation` creates an invitation in the same call. Refused with 409 when
    the plan's person limit is reached.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonImportRequest): `POST /persons` body. Omitted `labels` on create means
            `["candidate"]` (plus the
            employee domain rule); `tags` are added to the person's.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersonImported]
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
    body: PersonImportRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | PersonImported | None:
    """Import (create or reactivate) a person; idempotent on email

     Adds a person to the talent pool, or answers with the existing one: the email is the identity (200
    when the person is already an active member, 201 when created or reactivated). Given fields update
    the person. The nested `invitation` creates an invitation in the same call. Refused with 409 when
    the plan's person limit is reached.

    Scope: `persons:write`.

    Args:
        idempotency_key (str | Unset):
        body (PersonImportRequest): `POST /persons` body. Omitted `labels` on create means
            `["candidate"]` (plus the
            employee domain rule); `tags` are added to the person's.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersonImported
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
