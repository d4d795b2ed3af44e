"""The fifteen-centres rule module: the victory count changes."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import Victory

TARGET = 15
"""Centres that win the game."""


class FifteenCentres(Variant, Victory):
    """The rule set asks ``victory_target``: fifteen centres win, whatever the map says."""

    name = "fifteen_centres"

    def victory_target(self, rules: RuleSet, target: int) -> int:
        """Fifteen, or fewer if an earlier module already asks for fewer."""
        return min(target, TARGET)


def make_fifteen_centres(options: Mapping[str, object]) -> FifteenCentres:
    """Registry factory: the module reads no option."""
    return FifteenCentres()
