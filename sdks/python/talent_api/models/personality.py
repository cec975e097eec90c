from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define


import datetime


T = TypeVar("T", bound="Personality")


@_attrs_define
class Personality:
    """The personality description, in English whatever the person's language; the
    PDF report writes it in the report's language.

        Attributes:
            generated_at (datetime.datetime):
            markdown (str): Markdown composed from the person's own results only.
    """

    generated_at: datetime.datetime
    markdown: str

    def to_dict(self) -> dict[str, Any]:
        generated_at = self.generated_at.isoformat()

        markdown = self.markdown

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "generatedAt": generated_at,
                "markdown": markdown,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        generated_at = datetime.datetime.fromisoformat(d.pop("generatedAt"))

        markdown = d.pop("markdown")

        personality = cls(
            generated_at=generated_at,
            markdown=markdown,
        )

        return personality
