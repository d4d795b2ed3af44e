"""French Belgium: on the standard map, Belgium is France's from the start (it is still no home centre)."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import Setup


class FrenchBelgium(Variant, Setup):
    """The rule set asks ``initial_owners``: the home centres, and Belgium to France."""

    name = "french_belgium"

    def initial_owners(self, rules: RuleSet, owners: Mapping[str, str]) -> Mapping[str, str]:
        """The first owners, Belgium given to France."""
        return {**owners, "BEL": "FRANCE"}


def make_french_belgium(options: Mapping[str, object]) -> FrenchBelgium:
    """Registry factory: the module reads no option."""
    return FrenchBelgium()
