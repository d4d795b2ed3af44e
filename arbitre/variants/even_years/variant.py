"""The even-years rule module: whether the adjustment phase is played."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import PhaseNeeds
from arbitre.state import Position


class EvenYears(Variant, PhaseNeeds):
    """The rule set asks ``needs_adjustments``: an odd year's winter is never played."""

    name = "even_years"

    def needs_adjustments(self, rules: RuleSet, position: Position, needed: bool) -> bool:
        """``needed`` in an even year; never in an odd one."""
        return needed and position.phase.year % 2 == 0


def make_even_years(options: Mapping[str, object]) -> EvenYears:
    """Registry factory: the module reads no option."""
    return EvenYears()
