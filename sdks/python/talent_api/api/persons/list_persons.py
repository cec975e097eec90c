from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.assessment_status import AssessmentStatus
from ...models.error import Error
from ...models.label_filter import LabelFilter
from ...models.person_page import PersonPage
from ...models.person_status_filter import PersonStatusFilter
from ...types import Unset
import datetime


def _get_kwargs(
    *,
    q: str | Unset = UNSET,
    status: PersonStatusFilter | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    assessment_status: AssessmentStatus | Unset = UNSET,
    label: LabelFilter | Unset = UNSET,
    tag: str | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    params["q"] = q

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["email"] = email

    params["externalId"] = external_id

    json_assessment_status: str | Unset = UNSET
    if not isinstance(assessment_status, Unset):
        json_assessment_status = assessment_status.value

    params["assessmentStatus"] = json_assessment_status

    json_label: str | Unset = UNSET
    if not isinstance(label, Unset):
        json_label = label.value

    params["label"] = json_label

    params["tag"] = tag

    json_updated_after: str | Unset = UNSET
    if not isinstance(updated_after, Unset):
        json_updated_after = updated_after.isoformat()
    params["updatedAfter"] = json_updated_after

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/persons",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PersonPage | None:
    if response.status_code == 200:
        response_200 = PersonPage.from_dict(response.json())

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
) -> Response[Error | PersonPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    q: str | Unset = UNSET,
    status: PersonStatusFilter | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    assessment_status: AssessmentStatus | Unset = UNSET,
    label: LabelFilter | Unset = UNSET,
    tag: str | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | PersonPage]:
    """List persons, newest first

     The organization's persons, newest first, in pages of `limit` (1 to 100) with an opaque cursor; pass
    the same filters with each cursor. Filters combine. With `updatedAfter` the list holds every person
    changed since, archived and erased ones included, which is how an ATS keeps its copy current.

    Scope: `persons:read`.

    Args:
        q (str | Unset): The `q` search of `GET /persons`: at most 100 characters, one line.
        status (PersonStatusFilter | Unset): The `status` filter of `GET /persons`: `any` selects
            active and archived persons together.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        assessment_status (AssessmentStatus | Unset): A person's assessment status.
        label (LabelFilter | Unset): The `label` filter of `GET /persons`: `other` matches persons
            without any label.
        tag (str | Unset): A tag name in a query filter: as [`Tag`] but no control character at
            all.
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersonPage]
    """

    kwargs = _get_kwargs(
        q=q,
        status=status,
        email=email,
        external_id=external_id,
        assessment_status=assessment_status,
        label=label,
        tag=tag,
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
    q: str | Unset = UNSET,
    status: PersonStatusFilter | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    assessment_status: AssessmentStatus | Unset = UNSET,
    label: LabelFilter | Unset = UNSET,
    tag: str | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | PersonPage | None:
    """List persons, newest first

     The organization's persons, newest first, in pages of `limit` (1 to 100) with an opaque cursor; pass
    the same filters with each cursor. Filters combine. With `updatedAfter` the list holds every person
    changed since, archived and erased ones included, which is how an ATS keeps its copy current.

    Scope: `persons:read`.

    Args:
        q (str | Unset): The `q` search of `GET /persons`: at most 100 characters, one line.
        status (PersonStatusFilter | Unset): The `status` filter of `GET /persons`: `any` selects
            active and archived persons together.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        assessment_status (AssessmentStatus | Unset): A person's assessment status.
        label (LabelFilter | Unset): The `label` filter of `GET /persons`: `other` matches persons
            without any label.
        tag (str | Unset): A tag name in a query filter: as [`Tag`] but no control character at
            all.
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersonPage
    """

    return sync_detailed(
        client=client,
        q=q,
        status=status,
        email=email,
        external_id=external_id,
        assessment_status=assessment_status,
        label=label,
        tag=tag,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    q: str | Unset = UNSET,
    status: PersonStatusFilter | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    assessment_status: AssessmentStatus | Unset = UNSET,
    label: LabelFilter | Unset = UNSET,
    tag: str | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Response[Error | PersonPage]:
    """List persons, newest first

     The organization's persons, newest first, in pages of `limit` (1 to 100) with an opaque cursor; pass
    the same filters with each cursor. Filters combine. With `updatedAfter` the list holds every person
    changed since, archived and erased ones included, which is how an ATS keeps its copy current.

    Scope: `persons:read`.

    Args:
        q (str | Unset): The `q` search of `GET /persons`: at most 100 characters, one line.
        status (PersonStatusFilter | Unset): The `status` filter of `GET /persons`: `any` selects
            active and archived persons together.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        assessment_status (AssessmentStatus | Unset): A person's assessment status.
        label (LabelFilter | Unset): The `label` filter of `GET /persons`: `other` matches persons
            without any label.
        tag (str | Unset): A tag name in a query filter: as [`Tag`] but no control character at
            all.
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PersonPage]
    """

    kwargs = _get_kwargs(
        q=q,
        status=status,
        email=email,
        external_id=external_id,
        assessment_status=assessment_status,
        label=label,
        tag=tag,
        updated_after=updated_after,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    q: str | Unset = UNSET,
    status: PersonStatusFilter | Unset = UNSET,
    email: str | Unset = UNSET,
    external_id: str | Unset = UNSET,
    assessment_status: AssessmentStatus | Unset = UNSET,
    label: LabelFilter | Unset = UNSET,
    tag: str | Unset = UNSET,
    updated_after: datetime.datetime | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 25,
) -> Error | PersonPage | None:
    """List persons, newest first

     The organization's persons, newest first, in pages of `limit` (1 to 100) with an opaque cursor; pass
    the same filters with each cursor. Filters combine. With `updatedAfter` the list holds every person
    changed since, archived and erased ones included, which is how an ATS keeps its copy current.

    Scope: `persons:read`.

    Args:
        q (str | Unset): The `q` search of `GET /persons`: at most 100 characters, one line.
        status (PersonStatusFilter | Unset): The `status` filter of `GET /persons`: `any` selects
            active and archived persons together.
        email (str | Unset): An email address in a request (trimmed and lower-cased; at most 254
            characters). An
            internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
            (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form. The
            part before `@` is ASCII.
        external_id (str | Unset): One line of text in a query filter (`q`, `externalId`): no
            control character.
        assessment_status (AssessmentStatus | Unset): A person's assessment status.
        label (LabelFilter | Unset): The `label` filter of `GET /persons`: `other` matches persons
            without any label.
        tag (str | Unset): A tag name in a query filter: as [`Tag`] but no control character at
            all.
        updated_after (datetime.datetime | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PersonPage
    """

    return (
        await asyncio_detailed(
            client=client,
            q=q,
            status=status,
            email=email,
            external_id=external_id,
            assessment_status=assessment_status,
            label=label,
            tag=tag,
            updated_after=updated_after,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
