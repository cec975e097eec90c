from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.locale_tag import LocaleTag
from ...types import File
from ...types import Unset
from io import BytesIO
from uuid import UUID


def _get_kwargs(
    id: UUID,
    *,
    locale: LocaleTag | Unset = UNSET,
) -> dict[str, Any]:
    params: dict[str, Any] = {}

    json_locale: str | Unset = UNSET
    if not isinstance(locale, Unset):
        json_locale = locale.value

    params["locale"] = json_locale

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/persons/{id}/report".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | File | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

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
) -> Response[Error | File]:
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
    locale: LocaleTag | Unset = UNSET,
) -> Response[Error | File]:
    """A person's PDF report (one person; never a comparison)

     The person's results as a PDF (`application/pdf`), about this one person only; 404 while they have
    no results the organization may see.

    Scope: `results:read`.

    Args:
        id (UUID):
        locale (LocaleTag | Unset): A locale Talent writes in, as a BCP 47 language tag: `en`,
            `de`, `fr`, `es`, `nl`,
            `pt-BR`, `it`, `pl`, `ja`, `zh-Hans`. Other tags of these languages are accepted too and
            resolve by their language (`de-AT` is `de`, any Portuguese `pt-BR`, Chinese in the
            simplified script `zh-Hans`); answered as the resolved locale. Any other language is 400
            `validation_error`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | File]
    """

    kwargs = _get_kwargs(
        id=id,
        locale=locale,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    locale: LocaleTag | Unset = UNSET,
) -> Error | File | None:
    """A person's PDF report (one person; never a comparison)

     The person's results as a PDF (`application/pdf`), about this one person only; 404 while they have
    no results the organization may see.

    Scope: `results:read`.

    Args:
        id (UUID):
        locale (LocaleTag | Unset): A locale Talent writes in, as a BCP 47 language tag: `en`,
            `de`, `fr`, `es`, `nl`,
            `pt-BR`, `it`, `pl`, `ja`, `zh-Hans`. Other tags of these languages are accepted too and
            resolve by their language (`de-AT` is `de`, any Portuguese `pt-BR`, Chinese in the
            simplified script `zh-Hans`); answered as the resolved locale. Any other language is 400
            `validation_error`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | File
    """

    return sync_detailed(
        id=id,
        client=client,
        locale=locale,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    locale: LocaleTag | Unset = UNSET,
) -> Response[Error | File]:
    """A person's PDF report (one person; never a comparison)

     The person's results as a PDF (`application/pdf`), about this one person only; 404 while they have
    no results the organization may see.

    Scope: `results:read`.

    Args:
        id (UUID):
        locale (LocaleTag | Unset): A locale Talent writes in, as a BCP 47 language tag: `en`,
            `de`, `fr`, `es`, `nl`,
            `pt-BR`, `it`, `pl`, `ja`, `zh-Hans`. Other tags of these languages are accepted too and
            resolve by their language (`de-AT` is `de`, any Portuguese `pt-BR`, Chinese in the
            simplified script `zh-Hans`); answered as the resolved locale. Any other language is 400
            `validation_error`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | File]
    """

    kwargs = _get_kwargs(
        id=id,
        locale=locale,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    locale: LocaleTag | Unset = UNSET,
) -> Error | File | None:
    """A person's PDF report (one person; never a comparison)

     The person's results as a PDF (`application/pdf`), about this one person only; 404 while they have
    no results the organization may see.

    Scope: `results:read`.

    Args:
        id (UUID):
        locale (LocaleTag | Unset): A locale Talent writes in, as a BCP 47 language tag: `en`,
            `de`, `fr`, `es`, `nl`,
            `pt-BR`, `it`, `pl`, `ja`, `zh-Hans`. Other tags of these languages are accepted too and
            resolve by their language (`de-AT` is `de`, any Portuguese `pt-BR`, Chinese in the
            simplified script `zh-Hans`); answered as the resolved locale. Any other language is 400
            `validation_error`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | File
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            locale=locale,
        )
    ).parsed
