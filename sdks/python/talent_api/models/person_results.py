from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, TYPE_CHECKING

from attrs import define as _attrs_define


from typing import cast
from uuid import UUID

if TYPE_CHECKING:
    from ..models.accommodations import Accommodations
    from ..models.competencies import Competencies
    from ..models.motivation_axis import MotivationAxis
    from ..models.personality import Personality
    from ..models.totals import Totals


T = TypeVar("T", bound="PersonResults")


@_attrs_define
class PersonResults:
    """A person's cumulative results. Without a completed visible assessment:
    `hasResults: false` and every other member null.

        Attributes:
            accommodations (Accommodations | None):
            competencies (Competencies | None):
            has_results (bool):
            motivation_axes (list[MotivationAxis] | None):
            person_id (UUID):
            personality (None | Personality):
            totals (None | Totals):
    """

    accommodations: Accommodations | None
    competencies: Competencies | None
    has_results: bool
    motivation_axes: list[MotivationAxis] | None
    person_id: UUID
    personality: None | Personality
    totals: None | Totals

    def to_dict(self) -> dict[str, Any]:
        from ..models.accommodations import Accommodations  # noqa: PLC0415
        from ..models.competencies import Competencies  # noqa: PLC0415
        from ..models.personality import Personality  # noqa: PLC0415
        from ..models.totals import Totals  # noqa: PLC0415

        accommodations: dict[str, Any] | None
        if isinstance(self.accommodations, Accommodations):
            accommodations = self.accommodations.to_dict()
        else:
            accommodations = self.accommodations

        competencies: dict[str, Any] | None
        if isinstance(self.competencies, Competencies):
            competencies = self.competencies.to_dict()
        else:
            competencies = self.competencies

        has_results = self.has_results

        motivation_axes: list[dict[str, Any]] | None
        if isinstance(self.motivation_axes, list):
            motivation_axes = []
            for motivation_axes_type_0_item_data in self.motivation_axes:
                motivation_axes_type_0_item = motivation_axes_type_0_item_data.to_dict()
                motivation_axes.append(motivation_axes_type_0_item)

        else:
            motivation_axes = self.motivation_axes

        person_id = str(self.person_id)

        personality: dict[str, Any] | None
        if isinstance(self.personality, Personality):
            personality = self.personality.to_dict()
        else:
            personality = self.personality

        totals: dict[str, Any] | None
        if isinstance(self.totals, Totals):
            totals = self.totals.to_dict()
        else:
            totals = self.totals

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "accommodations": accommodations,
                "competencies": competencies,
                "hasResults": has_results,
                "motivationAxes": motivation_axes,
                "personId": person_id,
                "personality": personality,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accommodations import Accommodations  # noqa: PLC0415
        from ..models.competencies import Competencies  # noqa: PLC0415
        from ..models.motivation_axis import MotivationAxis  # noqa: PLC0415
        from ..models.personality import Personality  # noqa: PLC0415
        from ..models.totals import Totals  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_accommodations(data: object) -> Accommodations | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                accommodations_type_0 = Accommodations.from_dict(data)

                return accommodations_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Accommodations | None, data)

        accommodations = _parse_accommodations(d.pop("accommodations"))

        def _parse_competencies(data: object) -> Competencies | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                competencies_type_0 = Competencies.from_dict(data)

                return competencies_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Competencies | None, data)

        competencies = _parse_competencies(d.pop("competencies"))

        has_results = d.pop("hasResults")

        def _parse_motivation_axes(data: object) -> list[MotivationAxis] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                motivation_axes_type_0 = []
                _motivation_axes_type_0 = data
                for motivation_axes_type_0_item_data in _motivation_axes_type_0:
                    motivation_axes_type_0_item = MotivationAxis.from_dict(
                        motivation_axes_type_0_item_data
                    )

                    motivation_axes_type_0.append(motivation_axes_type_0_item)

                return motivation_axes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[MotivationAxis] | None, data)

        motivation_axes = _parse_motivation_axes(d.pop("motivationAxes"))

        person_id = UUID(d.pop("personId"))

        def _parse_personality(data: object) -> None | Personality:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                personality_type_0 = Personality.from_dict(data)

                return personality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Personality, data)

        personality = _parse_personality(d.pop("personality"))

        def _parse_totals(data: object) -> None | Totals:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                totals_type_0 = Totals.from_dict(data)

                return totals_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Totals, data)

        totals = _parse_totals(d.pop("totals"))

        person_results = cls(
            accommodations=accommodations,
            competencies=competencies,
            has_results=has_results,
            motivation_axes=motivation_axes,
            person_id=person_id,
            personality=personality,
            totals=totals,
        )

        return person_results
