"""The any-owned-centre rule module: one rule point changed, the build sites."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import Builds
from arbitre.state import Position


class AnyOwnedCentre(Variant, Builds):
    """Builds in any owned centre.

    The rule set asks this one method for the build sites: the legality of a
    build, the legal-order list and whether the winter phase is played all
    follow from it.
    """

    name = "any_owned_centre"

    def build_sites(self, rules: RuleSet, power: str, position: Position, sites: tuple[str, ...]) -> tuple[str, ...]:
        """Every supply centre ``power`` owns (the home centres first, in the map's order)."""
        owned = sorted(c for c, p in position.owners.items() if p == power and c not in sites)
        return (*sites, *owned)


def make_any_owned_centre(options: Mapping[str, object]) -> AnyOwnedCentre:
    """Registry factory: the module reads no option."""
    return AnyOwnedCentre()
