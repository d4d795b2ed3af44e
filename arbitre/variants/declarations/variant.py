"""The declarations rule module: a step of its own, an order kind read at the lock and the public event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.adjudicator.intake import read_orders
from arbitre.orders import IllegalOrder, Order, tokenize
from arbitre.rules import RuleSet, Variant
from arbitre.rules.events import EVERYONE, Event, Speech, Wording
from arbitre.rules.facets import EventWords, OrderRules, StepRules
from arbitre.rules.kinds import OrderKind
from arbitre.rules.phase_steps import ORDERS, Accepts, AtEnd, Step
from arbitre.state import MOVEMENT, Position
from arbitre.variants.declarations.kinds import DECLARATION
from arbitre.variants.declarations.orders import Declare, is_declaration


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; it is translated where it is shown."""
    return message


MOVES = Step("moves", Accepts.ORDERS, AtEnd.ADJUDICATE, default_deadline=12 * 3600)
"""After the declarations are read, every power gives its orders again (the last list stands); then the moves."""
MOVEMENT_STEPS = (Step(ORDERS, Accepts.ORDERS, AtEnd.LOCK), MOVES)
"""A movement phase: declarations (and first orders) lock, everyone reads them; the moves step."""
STEP_WORDS = (N_("moves"), N_("declared"))
"""The step's name and the pennant's title, as the pages and maps show them (translated there)."""
DECLARED = "declarations.declared"
"""Event kind: a power's public declaration."""


def declared(data: Mapping[str, object], _: Speech) -> str:
    """The words of a declaration, for everyone."""
    return _.gettext("{power} declares it will enter {place}.").format(
        power=_.power(str(data["power"])), place=data["place"]
    )


class Declarations(Variant, OrderRules, StepRules, EventWords):
    """Public declarations before the moves: one per power and phase, read by everyone at the lock."""

    name = "declarations"
    declared_steps = (MOVES,)

    def order_kinds(self) -> Sequence[OrderKind]:
        """``DECLARE BUR``."""
        return (DECLARATION,)

    def check_order_list(
        self, rules: RuleSet, position: Position, power: str, orders: Sequence[Order]
    ) -> Sequence[tuple[Order, IllegalOrder]]:
        """One declaration per power and phase: the later ones are refused."""
        made = [o for o in orders if isinstance(o, Declare)]
        return [
            (o, IllegalOrder("one declaration per phase", text=o.format(), reason="one_declaration")) for o in made[1:]
        ]

    def is_lock_order(self, rules: RuleSet, text: str) -> bool:
        """A declaration is read at the lock; it is never adjudicated."""
        return is_declaration(tokenize(text))

    def phase_steps(self, rules: RuleSet, position: Position) -> Sequence[Step]:
        """Movement phases: declarations, then the moves; other phases as usual."""
        return MOVEMENT_STEPS if position.phase.kind == MOVEMENT else ()

    def on_lock(
        self, rules: RuleSet, position: Position, orders: Mapping[str, Sequence[str | Order]]
    ) -> Sequence[object]:
        """Each power's (first legal) declaration, told to everyone."""
        if position.phase.kind != MOVEMENT:
            return ()
        intake = read_orders(rules, position, orders)
        first: dict[str, str] = {}
        for power, _, order in intake.whole_power:
            if isinstance(order, Declare):
                first.setdefault(power, order.target)
        return tuple(Event(DECLARED, EVERYONE, {"power": p, "place": first[p]}) for p in sorted(first))

    def event_wordings(self) -> Mapping[str, Wording]:
        """The words of a declaration."""
        return {DECLARED: declared}


def make_declarations(options: Mapping[str, object]) -> Declarations:
    """Registry factory: the module reads no option."""
    return Declarations()
