"""The Italian-fleet rule module: the first owners and the starting position change."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import Setup
from arbitre.state import Position, make_unit

ITALY = "ITALY"
FLEET_AT = "VEN"
"""Where Italy's army becomes a fleet."""
TUNIS = "TUN"
"""The neutral centre Italy owns from the start."""


class ItalianFleet(Variant, Setup):
    """Italy's army in Venice starts as a fleet, and Tunis is Italian from the start (it is no home centre)."""

    name = "italian_fleet"

    def initial_owners(self, rules: RuleSet, owners: Mapping[str, str]) -> Mapping[str, str]:
        """The first owners, Tunis given to Italy."""
        return {**owners, TUNIS: ITALY}

    def starting_position(self, rules: RuleSet, position: Position) -> Position:
        """The map's start with a fleet in Venice in place of Italy's army."""
        units = dict(position.units)
        units[FLEET_AT] = make_unit(ITALY, "F", FLEET_AT)
        return Position(position.map_name, position.phase, units, position.owners)


def make_italian_fleet(options: Mapping[str, object]) -> ItalianFleet:
    """Registry factory: the module reads no option."""
    return ItalianFleet()
