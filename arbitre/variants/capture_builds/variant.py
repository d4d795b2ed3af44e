"""The capture-builds rule module: one rule point changed, the build sites."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import Builds
from arbitre.state import Position


class CaptureBuilds(Variant, Builds):
    """Builds in any home centre a power owns, whoever's home it was (Munich for a France that holds it)."""

    name = "capture_builds"

    def build_sites(self, rules: RuleSet, power: str, position: Position, sites: tuple[str, ...]) -> tuple[str, ...]:
        """``sites``, then every other power's home centre that ``power`` owns (in the map's order)."""
        game_map = rules.game_map
        captured = [
            centre
            for other in game_map.powers
            if other != power
            for centre in game_map.home_centers(other)
            if position.owners.get(centre) == power and centre not in sites
        ]
        return (*sites, *captured)


def make_capture_builds(options: Mapping[str, object]) -> CaptureBuilds:
    """Registry factory: the module reads no option."""
    return CaptureBuilds()
