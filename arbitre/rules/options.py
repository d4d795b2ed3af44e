"""Named rule options: every disputed rule the DATC lists is a choice here.

The defaults are the DATC v3.2 preferences.  Options are given by name in the
JSON interface (``"options": {"convoy_paradox": "all_hold"}``) and are checked
against :data:`OPTION_CHOICES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    # DATC 4.A.2: what breaks a convoy paradox.
    "convoy_paradox": ("szykman", "all_hold"),
    # DATC 4.A.1: a convoy with several routes fails when every route (v3) or any route (1971) is cut.
    "multi_route_convoy": ("all_routes", "any_route"),
    # DATC 4.A.3: when an army moving to an adjacent province goes by convoy.
    #   v3: 'via convoy' or a convoy order of its own power; explicit: only 'via convoy' (DPTG);
    #   any: any matching convoy order (1971, kidnapping allowed).
    "adjacent_convoy": ("v3", "explicit", "any"),
    # DATC 4.B.1: a fleet move to a two-coast province without a coast when only one coast is reachable.
    "missing_coast": ("allow_unique", "illegal"),
    # DATC 4.D.8: civil disorder removals by distance to owned centres (2023) or to home centres (2000).
    "civil_disorder": ("2023", "2000"),
    # DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's starting province.
    "retreat_to_convoy_origin": ("allowed", "forbidden"),
    # DATC 4.D.3: several different legal orders to one unit: all illegal (hold), first, or last counts.
    "multiple_orders": ("all_illegal", "first", "last"),
    # DATC 4.B.4: a support naming the coast of the supported move must match it, or the coast is ignored.
    "support_coast": ("must_match", "ignored"),
    # DATC 4.C.2: an order naming the wrong unit type (A for a fleet) is read for the real unit, or illegal.
    "wrong_unit_type": ("ignored", "illegal"),
    # DATC 4.D.4: more builds than allowed: the first ones count, or all of them are illegal.
    "too_many_builds": ("first", "all_illegal"),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The chosen option for each disputed rule (defaults: DATC v3.2 preferences)."""

    convoy_paradox: str = "szykman"
    multi_route_convoy: str = "all_routes"
    adjacent_convoy: str = "v3"
    missing_coast: str = "allow_unique"
    civil_disorder: str = "2023"
    retreat_to_convoy_origin: str = "allowed"
    multiple_orders: str = "all_illegal"
    support_coast: str = "must_match"
    wrong_unit_type: str = "ignored"
    too_many_builds: str = "first"

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> RuleOptions:
        """Build options from a name → choice mapping; unknown names are left to the caller."""
        known = {f.name for f in fields(cls)}
        chosen: dict[str, str] = {}
        for name, value in values.items():
            if name not in known:
                continue
            if value not in OPTION_CHOICES[name]:
                raise ValueError(
                    f"option {name!r} must be one of {', '.join(OPTION_CHOICES[name])}, not {value!r}"
                )
            chosen[name] = str(value)
        return replace(cls(), **chosen)
