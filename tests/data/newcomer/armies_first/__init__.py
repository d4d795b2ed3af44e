"""Armies first: a power in civil disorder loses its armies before its fleets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import CivilDisorder
from arbitre.state import Position, Unit


class ArmiesFirst(Variant, CivilDisorder):
    """The rule set asks ``removal_order``: the armies, then the fleets, each in the standard order."""

    name = "armies_first"

    def removal_order(self, rules: RuleSet, position: Position, power: str, units: Sequence[Unit]) -> Sequence[Unit]:
        """The standard order, armies moved ahead of fleets (a stable sort keeps the rest as it was)."""
        return sorted(units, key=lambda unit: unit.kind != "A")


def make_armies_first(options: Mapping[str, object]) -> ArmiesFirst:
    """Registry factory: the module reads no option."""
    return ArmiesFirst()
