"""The house bots' facet of a rule module: advice on the module's own whole-power order kinds.

The bots reason from the legal-order list and each order kind's declared
effect (:class:`~arbitre.rules.kinds.Effect`: it moves its unit, it strikes,
once a phase).  Orders that name no unit (a spy, a canal permission) have no
such general meaning: a rule module may advise on them with a
:class:`BotAdvice`, kept in its own folder (``arbitre/variants/<name>/advice.py``)
and named by the module's ``bot_advice`` (a dotted path the bots load), so
that neither the rules nor the bots' general code name a module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from arbitre.bots.rng import Rng
from arbitre.orders import Order
from arbitre.rules import RuleSet

if TYPE_CHECKING:
    from arbitre.bots.board import BotBoard
    from arbitre.bots.movement import Choice


class BotAdvice:
    """A rule module's advice to the house bots.  Every method has "no advice" as its default."""

    kinds: frozenset[str] = frozenset()
    """The names of the order kinds this advice is about."""

    def whole_orders(
        self,
        board: BotBoard,
        options: Sequence[tuple[str, Order]],
        chosen: Mapping[str, Choice],
        rng: Rng,
    ) -> list[str]:
        """The orders to give among ``options`` (one key of the legal-order list, all of this advice's
        kinds), knowing the units' chosen orders.  Default: none."""
        return []

    def reaction(self, board: BotBoard, parsed: Mapping[str, Sequence[tuple[str, Order]]]) -> str | None:
        """In a step that accepts one change: the change, or ``None``.  Default: none."""
        return None


@cache
def _load(where: str) -> BotAdvice:
    module, _, name = where.partition(":")
    advice = getattr(import_module(module), name)
    if not isinstance(advice, BotAdvice):
        raise TypeError(f"{where} is no BotAdvice")
    return advice


def advice_of(rules: RuleSet) -> tuple[BotAdvice, ...]:
    """The advice of the rule modules in play, in their order (loaded on first use)."""
    return tuple(_load(v.bot_advice) for v in rules.variants if v.bot_advice is not None)
