from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.invitation import Invitation
from ...models.invitation_create_request import InvitationCreateRequest
from ...types import Unset


def _get_kwargs(
    *,
    body: InvitationCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/invitations",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Invitation | None:
    if response.status_code == 200:
        response_200 = Invitation.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Invitation.from_dict(response.json())

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
) -> Response[Error | Invitation]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: InvitationCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Invitation]:
    """Create a personal invitation (or return the pending one for this email)

     Invites a person to take the assessment (`assessment`) or, for a person who already has results
    elsewhere, to share them (`access_request`). With `sendEmail: true` the service emails the link;
    otherwise send the returned `url` yourself. When a pending invitation for the email exists, it is
    returned with 200 instead of a second one.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (InvitationCreateRequest): `POST /invitations` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Invitation]
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
    body: InvitationCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | Invitation | None:
    """Create a personal invitation (or return the pending one for this email)

     Invites a person to take the assessment (`assessment`) or, for a person who already has results
    elsewhere, to share them (`access_request`). With `sendEmail: true` the service emails the link;
    otherwise send the returned `url` yourself. When a pending invitation for the email exists, it is
    returned with 200 instead of a second one.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (InvitationCreateRequest): `POST /invitations` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Invitation
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: InvitationCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Invitation]:
    """Create a personal invitation (or return the pending one for this email)

     Invites a person to take the assessment (`assessment`) or, for a person who already has results
    elsewhere, to share them (`access_request`). With `sendEmail: true` the service emails the link;
    otherwise send the returned `url` yourself. When a pending invitation for the email exists, it is
    returned with 200 instead of a second one.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (InvitationCreateRequest): `POST /invitations` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Invitation]
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
    body: InvitationCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Error | Invitation | None:
    """Create a personal invitation (or return the pending one for this email)

     Invites a person to take the assessment (`assessment`) or, for a person who already has results
    elsewhere, to share them (`access_request`). With `sendEmail: true` the service emails the link;
    otherwise send the returned `url` yourself. When a pending invitation for the email exists, it is
    returned with 200 instead of a second one.

    Scope: `invitations:write`.

    Args:
        idempotency_key (str | Unset):
        body (InvitationCreateRequest): `POST /invitations` body.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Invitation
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
