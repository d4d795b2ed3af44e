"""Named rule options: every disputed rule the DATC lists is a choice here.

The defaults are the DATC v3.2 preferences.  Options are given by name in the
JSON interface (``"options": {"convoy_paradox": "all_hold"}``) and are checked
against :data:`OPTION_CHOICES`.  Each option's values are a ``StrEnum``: a
member *is* its text, so JSON and comparisons with plain strings are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum


class ConvoyParadox(StrEnum):
    """DATC 4.A.2: what breaks a convoy paradox."""

    SZYKMAN = "szykman"
    ALL_HOLD = "all_hold"


class MultiRouteConvoy(StrEnum):
    """DATC 4.A.1: a convoy with several routes fails when every route (v3) or any route (1971) is cut."""

    ALL_ROUTES = "all_routes"
    ANY_ROUTE = "any_route"


class AdjacentConvoy(StrEnum):
    """DATC 4.A.3: when an army moving to an adjacent province goes by convoy.

    ``v3``: 'via convoy' or a convoy order of its own power; ``explicit``: only
    'via convoy' (DPTG); ``any``: any matching convoy order (1971, kidnapping allowed).
    """

    V3 = "v3"
    EXPLICIT = "explicit"
    ANY = "any"


class MissingCoast(StrEnum):
    """DATC 4.B.1: a fleet move to a two-coast province without a coast when only one coast is reachable."""

    ALLOW_UNIQUE = "allow_unique"
    ILLEGAL = "illegal"


class CivilDisorder(StrEnum):
    """DATC 4.D.8: civil disorder removals by distance to owned centres (2023) or to home centres (2000)."""

    V2023 = "2023"
    V2000 = "2000"


class RetreatToConvoyOrigin(StrEnum):
    """DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's starting province."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class MultipleOrders(StrEnum):
    """DATC 4.D.3: several different legal orders to one unit: all illegal (hold), first, or last counts."""

    ALL_ILLEGAL = "all_illegal"
    FIRST = "first"
    LAST = "last"


class SupportCoast(StrEnum):
    """DATC 4.B.4: a support naming the coast of the supported move must match it, or the coast is ignored."""

    MUST_MATCH = "must_match"
    IGNORED = "ignored"


class WrongUnitType(StrEnum):
    """DATC 4.C.2: an order naming the wrong unit type (A for a fleet) is read for the real unit, or illegal."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class TooManyBuilds(StrEnum):
    """DATC 4.D.4: more builds than allowed: the first ones count, or all of them are illegal."""

    FIRST = "first"
    ALL_ILLEGAL = "all_illegal"


OPTION_ENUMS: dict[str, type[StrEnum]] = {
    "convoy_paradox": ConvoyParadox,
    "multi_route_convoy": MultiRouteConvoy,
    "adjacent_convoy": AdjacentConvoy,
    "missing_coast": MissingCoast,
    "civil_disorder": CivilDisorder,
    "retreat_to_convoy_origin": RetreatToConvoyOrigin,
    "multiple_orders": MultipleOrders,
    "support_coast": SupportCoast,
    "wrong_unit_type": WrongUnitType,
    "too_many_builds": TooManyBuilds,
}
"""Option name → the enum of its values."""

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    name: tuple(str(member) for member in enum) for name, enum in OPTION_ENUMS.items()
}
"""Option name → its allowed values as text, the default first."""


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The chosen option for each disputed rule (defaults: DATC v3.2 preferences)."""

    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN
    multi_route_convoy: MultiRouteConvoy = MultiRouteConvoy.ALL_ROUTES
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.V3
    missing_coast: MissingCoast = MissingCoast.ALLOW_UNIQUE
    civil_disorder: CivilDisorder = CivilDisorder.V2023
    retreat_to_convoy_origin: RetreatToConvoyOrigin = RetreatToConvoyOrigin.ALLOWED
    multiple_orders: MultipleOrders = MultipleOrders.ALL_ILLEGAL
    support_coast: SupportCoast = SupportCoast.MUST_MATCH
    wrong_unit_type: WrongUnitType = WrongUnitType.IGNORED
    too_many_builds: TooManyBuilds = TooManyBuilds.FIRST

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> RuleOptions:
        """Build options from a name → choice mapping; unknown names are left to the caller."""
        known = {f.name for f in fields(cls)}
        chosen: dict[str, StrEnum] = {}
        for name, value in values.items():
            if name not in known:
                continue
            if value not in OPTION_CHOICES[name]:
                raise ValueError(
                    f"option {name!r} must be one of {', '.join(OPTION_CHOICES[name])}, not {value!r}"
                )
            chosen[name] = OPTION_ENUMS[name](value)
        return replace(cls(), **chosen)  # type: ignore[arg-type]
