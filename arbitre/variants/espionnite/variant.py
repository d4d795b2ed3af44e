"""The Espionnite rule module: the hooks it overrides, and nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.orders import IllegalOrder, Order, tokenize
from arbitre.rules import RuleSet, Variant
from arbitre.rules.facets import OrderRules, StepRules
from arbitre.rules.kinds import OrderKind
from arbitre.state import MOVEMENT, Position
from arbitre.variants.espionnite.espionage import resolve_espionage
from arbitre.variants.espionnite.kinds import KINDS
from arbitre.variants.espionnite.orders import is_espionage_text
from arbitre.variants.espionnite.reports import espionage_events
from arbitre.variants.espionnite.validation import check_espionage_list

CATCH_NOTICE = "espionnite_catch_notice"
"""Game setting: when true, a counter-spy's power is told that it caught a spy (default: false)."""

_TRUE = frozenset({"true", "yes", "on", "1", "oui", "vrai"})


def setting_is_on(value: object) -> bool:
    """Read a boolean game setting given as a bool or as text (``true``, ``yes``, ``on``, ``1``)."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in _TRUE


class Espionnite(Variant, OrderRules, StepRules):
    """Spies and counter-spies, the private reveal at the lock, and the reaction step.

    ``catch_notice`` turns on the notice telling a counter-spying power that it
    caught a spy.
    """

    option_names = frozenset({CATCH_NOTICE})

    name = "espionnite"

    def __init__(self, catch_notice: bool = False) -> None:
        self.catch_notice = catch_notice

    def order_kinds(self) -> Sequence[OrderKind]:
        """``SPY``/``ESPION`` and ``COUNTERSPY``/``CONTRE-ESPION`` (each checks and lists itself)."""
        return KINDS

    def check_order_list(self, rules: RuleSet, position: Position, power: str,
                         orders: Sequence[Order]) -> Sequence[tuple[Order, IllegalOrder]]:
        """One spy and one counter-spy per power and phase."""
        return check_espionage_list(orders)

    def is_lock_order(self, rules: RuleSet, text: str) -> bool:
        """Spy and counter-spy orders act at the lock; they are never adjudicated nor published."""
        return is_espionage_text(tokenize(text))

    def reaction_step(self, rules: RuleSet, position: Position) -> bool:
        """Every movement phase has a reaction step; retreat and adjustment phases have no espionage."""
        return position.phase.kind == MOVEMENT

    def on_lock(self, rules: RuleSet, position: Position,
                orders: Mapping[str, Sequence[str | Order]]) -> Sequence[object]:
        """Resolve the espionage: a private report for each spy (and each catch, if the setting is on)."""
        if position.phase.kind != MOVEMENT:
            return ()
        return espionage_events(rules, position, resolve_espionage(rules, position, orders), self.catch_notice)


def make_espionnite(options: Mapping[str, object]) -> Espionnite:
    """Registry factory: Espionnite with the game's settings."""
    return Espionnite(catch_notice=setting_is_on(options.get(CATCH_NOTICE, False)))
