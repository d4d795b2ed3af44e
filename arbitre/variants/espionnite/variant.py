"""The Espionnite rule module: the hooks it overrides, and nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.orders import IllegalOrder, Order, tokenize
from arbitre.rules import RuleSet, Variant
from arbitre.rules.events import Wording
from arbitre.rules.facets import EventWords, OrderRules, StepRules
from arbitre.rules.kinds import OrderKind
from arbitre.rules.phase_steps import ORDERS, Accepts, AtEnd, Step
from arbitre.state import MOVEMENT, Position
from arbitre.variants.espionnite.espionage import resolve_espionage
from arbitre.variants.espionnite.kinds import KINDS
from arbitre.variants.espionnite.orders import mentions_espionage
from arbitre.variants.espionnite.reports import espionage_events
from arbitre.variants.espionnite.validation import check_espionage_list
from arbitre.variants.espionnite.wording import WORDINGS

CATCH_NOTICE = "espionnite_catch_notice"
"""Game setting: when true, a counter-spy's power is told that it caught a spy (default: false)."""

REACTION = Step("reaction", Accepts.ONE_CHANGE, AtEnd.ADJUDICATE, default_deadline=6 * 3600)
"""The reaction step: each power may replace the order of one of its units; then the adjudication."""
MOVEMENT_STEPS = (Step(ORDERS, Accepts.ORDERS, AtEnd.LOCK), REACTION)
"""The steps of a movement phase: orders (spies included), ending with the lock and reveal; the reaction."""

_TRUE = frozenset({"true", "yes", "on", "1", "oui", "vrai"})


def setting_is_on(value: object) -> bool:
    """Read a boolean game setting given as a bool or as text (``true``, ``yes``, ``on``, ``1``)."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in _TRUE


class Espionnite(Variant, OrderRules, StepRules, EventWords):
    """Spies and counter-spies, the private reveal at the lock, and the reaction step.

    ``catch_notice`` turns on the notice telling a counter-spying power that it
    caught a spy.
    """

    option_names = frozenset({CATCH_NOTICE})
    bot_advice = "arbitre.variants.espionnite.advice:ADVICE"
    declared_steps = (REACTION,)

    name = "espionnite"

    def __init__(self, catch_notice: bool = False) -> None:
        self.catch_notice = catch_notice

    def order_kinds(self) -> Sequence[OrderKind]:
        """``SPY``/``ESPION`` and ``COUNTERSPY``/``CONTRE-ESPION`` (each checks and lists itself)."""
        return KINDS

    def check_order_list(
        self, rules: RuleSet, position: Position, power: str, orders: Sequence[Order]
    ) -> Sequence[tuple[Order, IllegalOrder]]:
        """One spy and one counter-spy per power and phase."""
        return check_espionage_list(orders)

    def is_lock_order(self, rules: RuleSet, text: str) -> bool:
        """Spy and counter-spy orders act at the lock; they are never adjudicated nor published.

        A line that names a spy anywhere (a mistyped spy order) counts too, so a typo stays private.
        """
        return mentions_espionage(tokenize(text))

    def phase_steps(self, rules: RuleSet, position: Position) -> Sequence[Step]:
        """Movement phases: orders, then the lock and reveal, then the reaction step; others: as usual."""
        return MOVEMENT_STEPS if position.phase.kind == MOVEMENT else ()

    def on_lock(
        self, rules: RuleSet, position: Position, orders: Mapping[str, Sequence[str | Order]]
    ) -> Sequence[object]:
        """Resolve the espionage: a private report for each spy (and each catch, if the setting is on)."""
        if position.phase.kind != MOVEMENT:
            return ()
        return espionage_events(rules, position, resolve_espionage(rules, position, orders), self.catch_notice)

    def event_wordings(self) -> Mapping[str, Wording]:
        """The words of the spy reports."""
        return WORDINGS


def make_espionnite(options: Mapping[str, object]) -> Espionnite:
    """Registry factory: Espionnite with the game's settings."""
    return Espionnite(catch_notice=setting_is_on(options.get(CATCH_NOTICE, False)))
