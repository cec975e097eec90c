from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.invitation_page import InvitationPage
from ...models.invitation_status import InvitationStatus
from ...models.invitation_variant import InvitationVariant
from ...types import Unset
from uuid import UUID
import datetime


def _get_kwargs(
    *,
    status: InvitationStatus | Unset = UNSET,
    variant: InvitationVariant | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    person_id: UUID | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_variant: str | Unset = UNSET
    if not isinstance(variant, Unset):
        json_variant = variant.value

    params["variant"] = json_variant

    params["email"] = email

    params["externalId"] = external_id

    json_person_id: str | Unset = UNSET
    if not isinstance(person_id, Unset):
        json_person_id = str(person_id)
    params["personId"] = json_person_id

    json_updated_after: str | Unset = UNSET
    if not isinstance(updated_after, Unset):
        json_updated_after = updated_after.isoformat()
    params["updatedAfter"] = json_updated_after

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/invitations",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | InvitationPage | None:
    if response.status_code == 200:
        response_200 = InvitationPage.from_dict(response.json())

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
) -> Response[Error | InvitationPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: InvitationStatus | Unset = UNSET,
    variant: InvitationVariant | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    person_id: UUID | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | InvitationPage]:
    """List invitations, newest first

     The organization's invitations, newest first, in pages of `limit` with an opaque cursor. Filters
    combine; `updatedAfter` lists every invitation changed since, for a sync. `status` is the status as
    read now: a pending invitation past `expiresAt` reads `expired`.

    Scope: `invitations:read`.

    Args:
        status (InvitationStatus | Unset): An invitation's status.
        variant (InvitationVariant | Unset): An invitation's variant.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        person_id (UUID | Unset):
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | InvitationPage]
    """

    kwargs = _get_kwargs(
        status=status,
        variant=variant,
        email=email,
        external_id=external_id,
        person_id=person_id,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: InvitationStatus | Unset = UNSET,
    variant: InvitationVariant | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    person_id: UUID | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | InvitationPage | None:
    """List invitations, newest first

     The organization's invitations, newest first, in pages of `limit` with an opaque cursor. Filters
    combine; `updatedAfter` lists every invitation changed since, for a sync. `status` is the status as
    read now: a pending invitation past `expiresAt` reads `expired`.

    Scope: `invitations:read`.

    Args:
        status (InvitationStatus | Unset): An invitation's status.
        variant (InvitationVariant | Unset): An invitation's variant.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        person_id (UUID | Unset):
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | InvitationPage
    """

    return sync_detailed(
        client=client,
        status=status,
        variant=variant,
        email=email,
        external_id=external_id,
        person_id=person_id,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: InvitationStatus | Unset = UNSET,
    variant: InvitationVariant | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    person_id: UUID | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | InvitationPage]:
    """List invitations, newest first

     The organization's invitations, newest first, in pages of `limit` with an opaque cursor. Filters
    combine; `updatedAfter` lists every invitation changed since, for a sync. `status` is the status as
    read now: a pending invitation past `expiresAt` reads `expired`.

    Scope: `invitations:read`.

    Args:
        status (InvitationStatus | Unset): An invitation's status.
        variant (InvitationVariant | Unset): An invitation's variant.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        person_id (UUID | Unset):
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | InvitationPage]
    """

    kwargs = _get_kwargs(
        status=status,
        variant=variant,
        email=email,
        external_id=external_id,
        person_id=person_id,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: InvitationStatus | Unset = UNSET,
    variant: InvitationVariant | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    person_id: UUID | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | InvitationPage | None:
    """List invitations, newest first

     The organization's invitations, newest first, in pages of `limit` with an opaque cursor. Filters
    combine; `updatedAfter` lists every invitation changed since, for a sync. `status` is the status as
    read now: a pending invitation past `expiresAt` reads `expired`.

    Scope: `invitations:read`.

    Args:
        status (InvitationStatus | Unset): An invitation's status.
        variant (InvitationVariant | Unset): An invitation's variant.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        person_id (UUID | Unset):
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | InvitationPage
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            variant=variant,
            email=email,
            external_id=external_id,
            person_id=person_id,
            updated_after=updated_after,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
