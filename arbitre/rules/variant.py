"""A rule module: a name, the options it reads, and the facets it implements.

A variant is a value, not a subclass of the board.  The :class:`RuleSet` of a
game carries the map, the options and an ordered list of variants.  What a
module changes is split into small typed facets (:mod:`arbitre.rules.facets`
for the rules layer, :mod:`arbitre.adjudicator.facets` for the adjudicator),
each asked by the layer that needs it; a module declares the facets it
implements by subclassing them::

    class NoConvoys(Variant, OrderRules):
        name = "no_convoys"
        def check_order(self, rules, position, power, order): ...

A module that implements a facet costs something only where that facet is
asked, and only for the rule sets it is in.
"""

from __future__ import annotations


class Variant:
    """Base class of rule modules (Colonial rules, Submarines, Espionnite…): a name and its options."""

    name: str = "standard"
    option_names: frozenset[str] = frozenset()
    """Names of the game options this rule module reads (others are refused as unknown)."""
    bot_advice: str | None = None
    """Where the house bots' advice for this module's own order kinds is (``"package.module:NAME"``, an
    :class:`arbitre.bots.facets.BotAdvice`); loaded by the bots only, so the rules never import it."""
