"""The declaration's order kind, declared once: grammar, check, legal list, drawing (data), read at the lock."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.orders import IllegalOrder, Order
from arbitre.rules import RuleSet
from arbitre.rules.drawing import Drawing, Shape, Symbol
from arbitre.rules.kinds import OrderKind, Role
from arbitre.state import MOVEMENT, Position
from arbitre.variants.declarations.orders import Declare, parse_declaration


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; it is translated where it is shown."""
    return message


ORDER_MESSAGES = (
    N_("a declaration is made before the moves of a movement phase"),
    N_("none of your units could enter {place} this phase"),
    N_("one declaration per phase"),
)
"""The refusals the declaration's checks write, as message ids: the edge translates them."""

KEY = "DECLARE"
"""The key of the declarations in the legal-order list."""


def reachable(rules: RuleSet, position: Position, power: str) -> list[str]:
    """The provinces ``power``'s units could enter this phase, sorted: what it may declare."""
    gmap = rules.game_map
    out: set[str] = set()
    for unit in position.units.values():
        if unit.power == power:
            out.update(gmap.province_neighbours.get(unit.kind, {}).get(unit.place, ()))
    return sorted(out)


def check_declaration(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    """A declaration is given in a movement phase, for a province one of the power's units could enter."""
    assert isinstance(order, Declare)
    if position.phase.kind != MOVEMENT:
        raise IllegalOrder(
            "a declaration is made before the moves of a movement phase", text=order.format(), reason="wrong_phase"
        )
    if order.target not in reachable(rules, position, power):
        raise IllegalOrder(
            f"none of your units could enter {order.target} this phase", text=order.format(), reason="not_reachable"
        )
    return order


def declarations(rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
    """Every declaration ``power`` may make, under :data:`KEY`."""
    if position.phase.kind != MOVEMENT:
        return {}
    targets = reachable(rules, position, power)
    return {KEY: [f"DECLARE {t}" for t in targets]} if targets else {}


FLAG = Drawing(
    "declaration",
    Shape.MARK,
    symbol=Symbol("M-4 8 V-9 L8 -5 L-4 -1", width=1.6),
    offset=(0.0, -14.0),
    words="declared",
    rank=4,
)
"""A pennant in the declaring power's colours over the declared province."""

DECLARATION = OrderKind(
    "declaration",
    Declare,
    FLAG,
    Role.LOCK,
    parser=parse_declaration,
    check=check_declaration,
    legal=declarations,
    places=lambda order: (order.target,) if isinstance(order, Declare) else (),
    above_units=True,
)
"""``DECLARE BUR``: read at the lock, never adjudicated; drawn as a pennant over Burgundy."""
