"""The no-convoys rule module: it takes the ``convoy`` order kind out of the game."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.rules import Variant
from arbitre.rules.facets import OrderRules


class NoConvoys(Variant, OrderRules):
    """Convoy orders are illegal: they are refused with their reason and never listed as legal.

    An army may still be ordered to move over sea; with no convoy it fails.
    """

    name = "no_convoys"

    def withdrawn_kinds(self) -> frozenset[str]:
        """The ``convoy`` kind is not part of this game."""
        return frozenset({"convoy"})


def make_no_convoys(options: Mapping[str, object]) -> NoConvoys:
    """Registry factory: the module reads no option."""
    return NoConvoys()
