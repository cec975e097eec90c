from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


from ..models.organization_role import OrganizationRole
from ..models.scope_name import ScopeName
from uuid import UUID


T = TypeVar("T", bound="KeyIdentity")


@_attrs_define
class KeyIdentity:
    """The calling key's identity.

    Attributes:
        mode (str): `live`, or `test` for a `tk_test_` key, which acts on the organization's test data only.
        organization_id (UUID):
        organization_role (OrganizationRole): A user's role in the organization.
        plan (str): Current plan id.
        scopes (list[ScopeName]):
        user_id (UUID):
    """

    mode: str
    organization_id: UUID
    organization_role: OrganizationRole
    plan: str
    scopes: list[ScopeName]
    user_id: UUID

    def to_dict(self) -> dict[str, Any]:
        mode = self.mode

        organization_id = str(self.organization_id)

        organization_role = self.organization_role.value

        plan = self.plan

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        user_id = str(self.user_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mode": mode,
                "organizationId": organization_id,
                "organizationRole": organization_role,
                "plan": plan,
                "scopes": scopes,
                "userId": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = d.pop("mode")

        organization_id = UUID(d.pop("organizationId"))

        organization_role = OrganizationRole(d.pop("organizationRole"))

        plan = d.pop("plan")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = ScopeName(scopes_item_data)

            scopes.append(scopes_item)

        user_id = UUID(d.pop("userId"))

        key_identity = cls(
            mode=mode,
            organization_id=organization_id,
            organization_role=organization_role,
            plan=plan,
            scopes=scopes,
            user_id=user_id,
        )

        return key_identity
