from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.assessment_completed_data import AssessmentCompletedData
from ...models.error import Error
from ...models.test_completion_request import TestCompletionRequest
from ...types import Unset
from uuid import UUID


def _get_kwargs(
    id: UUID,
    *,
    body: TestCompletionRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/test/persons/{id}/complete-assessment".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AssessmentCompletedData | Error | None:
    if response.status_code == 200:
        response_200 = AssessmentCompletedData.from_dict(response.json())

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
) -> Response[AssessmentCompletedData | Error]:
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
    body: TestCompletionRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[AssessmentCompletedData | Error]:
    """Test mode: the person completes an assessment now

     For test-mode keys only. The person of your test data completes an assessment now, with responses
    generated from `seed`, exactly as if they had taken it: results, matches, the PDF report and
    `assessment.completed` follow. With `profileId` and `targetCategory`, the responses are chosen so
    that the person's match with that profile falls in that category. A live key gets 403
    `test_key_required`.

    Scope: `persons:write`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (TestCompletionRequest | Unset): The body of `POST
            /api/v1/test/persons/{id}/complete-assessment`; it may be left out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssessmentCompletedData | Error]
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
    body: TestCompletionRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> AssessmentCompletedData | Error | None:
    """Test mode: the person completes an assessment now

     For test-mode keys only. The person of your test data completes an assessment now, with responses
    generated from `seed`, exactly as if they had taken it: results, matches, the PDF report and
    `assessment.completed` follow. With `profileId` and `targetCategory`, the responses are chosen so
    that the person's match with that profile falls in that category. A live key gets 403
    `test_key_required`.

    Scope: `persons:write`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (TestCompletionRequest | Unset): The body of `POST
            /api/v1/test/persons/{id}/complete-assessment`; it may be left out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssessmentCompletedData | Error
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
    body: TestCompletionRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[AssessmentCompletedData | Error]:
    """Test mode: the person completes an assessment now

     For test-mode keys only. The person of your test data completes an assessment now, with responses
    generated from `seed`, exactly as if they had taken it: results, matches, the PDF report and
    `assessment.completed` follow. With `profileId` and `targetCategory`, the responses are chosen so
    that the person's match with that profile falls in that category. A live key gets 403
    `test_key_required`.

    Scope: `persons:write`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (TestCompletionRequest | Unset): The body of `POST
            /api/v1/test/persons/{id}/complete-assessment`; it may be left out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssessmentCompletedData | Error]
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
    body: TestCompletionRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> AssessmentCompletedData | Error | None:
    """Test mode: the person completes an assessment now

     For test-mode keys only. The person of your test data completes an assessment now, with responses
    generated from `seed`, exactly as if they had taken it: results, matches, the PDF report and
    `assessment.completed` follow. With `profileId` and `targetCategory`, the responses are chosen so
    that the person's match with that profile falls in that category. A live key gets 403
    `test_key_required`.

    Scope: `persons:write`.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (TestCompletionRequest | Unset): The body of `POST
            /api/v1/test/persons/{id}/complete-assessment`; it may be left out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssessmentCompletedData | Error
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
