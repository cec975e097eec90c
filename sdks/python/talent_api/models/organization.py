from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from uuid import UUID
import datetime

if TYPE_CHECKING:
    from ..models.subscription import Subscription
    from ..models.usage import Usage


T = TypeVar("T", bound="Organization")


@_attrs_define
class Organization:
    """The key's organization.

    Attributes:
        company_name (str):
        created_at (datetime.datetime):
        email (str):
        id (UUID):
        subscription (Subscription): `subscription` of the Organization.
        usage (Usage): `usage` of the Organization.
    """

    company_name: str
    created_at: datetime.datetime
    email: str
    id: UUID
    subscription: Subscription
    usage: Usage

    def to_dict(self) -> dict[str, Any]:
        company_name = self.company_name

        created_at = self.created_at.isoformat()

        email = self.email

        id = str(self.id)

        subscription = self.subscription.to_dict()

        usage = self.usage.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "companyName": company_name,
                "createdAt": created_at,
                "email": email,
                "id": id,
                "subscription": subscription,
                "usage": usage,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription import Subscription  # noqa: PLC0415
        from ..models.usage import Usage  # noqa: PLC0415

        d = dict(src_dict)
        company_name = d.pop("companyName")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        email = d.pop("email")

        id = UUID(d.pop("id"))

        subscription = Subscription.from_dict(d.pop("subscription"))

        usage = Usage.from_dict(d.pop("usage"))

        organization = cls(
            company_name=company_name,
            created_at=created_at,
            email=email,
            id=id,
            subscription=subscription,
            usage=usage,
        )

        return organization
