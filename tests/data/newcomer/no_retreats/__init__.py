"""No retreats: a dislodged unit is destroyed at once, and no retreat phase is ever played."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import PhaseNeeds
from arbitre.state import Position


class NoRetreats(Variant, PhaseNeeds):
    """The rule set asks ``needs_retreats``: never.  The dislodged units are then gone from the next phase."""

    name = "no_retreats"

    def needs_retreats(self, rules: RuleSet, position: Position, needed: bool) -> bool:
        """No retreat phase, whatever was dislodged."""
        return False


def make_no_retreats(options: Mapping[str, object]) -> NoRetreats:
    """Registry factory: the module reads no option."""
    return NoRetreats()
