"""Submarines' order kinds, each declared once: torpedoes and supports given to them.

Submerging, surfacing and moving in the depths are ordinary moves (to or
from a depth place ``MED-1``): they are the standard ``move`` kind.
"""

from __future__ import annotations

from arbitre.orders import Order
from arbitre.rules import RuleSet
from arbitre.rules.drawing import SUPPORT, Drawing, Line, Shape, Symbol, UnitShape
from arbitre.rules.kinds import Effect, OrderKind, Role, UnitKind
from arbitre.state import Position
from arbitre.variants.submarines.layers import SUB
from arbitre.variants.submarines.orders import Torpedo, TorpedoSupport, parse_torpedo
from arbitre.variants.submarines.validation import check_torpedo, check_torpedo_support, extra_legal_orders
from arbitre.variants.submarines.words import N_


def _check_torpedo(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, Torpedo)
    return check_torpedo(rules, position, power, order)


def _check_torpedo_support(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, TorpedoSupport)
    return check_torpedo_support(rules, position, power, order)


SUBMARINE = UnitKind(
    SUB,
    N_("submarine"),
    UnitShape(
        "M-4 -5 L-3 -10 L3 -10 L4 -5 Z M-7.5 -5 H7.5 A5.5 5.5 0 0 1 7.5 6 H-7.5 A5.5 5.5 0 0 1 -7.5 -5 Z",
        words=N_("submerged"),
    ),
)
"""The submarine: a hull with a conning tower; a submerged one is titled so for its owner."""

TORPEDO_DRAWING = Drawing(
    "torpedo",
    Shape.ARROW,
    Line(2.2, "4 2", colour="#7A0A0A", casing="#FFFFFF", bend=0.25),
    symbol=Symbol(
        "M5 0.0 L2.6 1.5 L2.5 4.3 L0 3.0 L-2.5 4.3 L-2.6 1.5 L-5 0.0 L-2.6 -1.5 L-2.5 -4.3 L0 -3.0 L2.5 -4.3 L2.6 -1.5Z",
        fill="#FFFFFF",
        stroke="#7A0A0A",
        width=1.4,
    ),
    hit=Symbol(
        "M9 0.0 L3.5 2.0 L4.5 7.8 L0 4.0 L-4.5 7.8 L-3.5 2.0 L-9 0.0 L-3.5 -2.0 L-4.5 -7.8 L0 -4.0 L4.5 -7.8 L3.5 -2.0Z",
        fill="#F28C28",
        stroke="#7A0A0A",
        width=1.4,
    ),
    words=N_("torpedo miss"),
    words_hit=N_("torpedo hit"),
    rank=4,
)
"""A dark red dashed line to the target, with a burst on it (large and orange on a hit)."""

TORPEDO = OrderKind(
    "torpedo",
    Torpedo,
    TORPEDO_DRAWING,
    Role.HOLDS,
    parser=parse_torpedo,
    check=_check_torpedo,
    legal=extra_legal_orders,
    above_units=True,
    effect=Effect(strikes=True),
)
"""``F MED Torp. MED-1``: the unit holds for the resolver and fires once the moves are resolved.

Its legal-order list also holds the supports of units in unseen depth places.
"""

TORPEDO_SUPPORT = OrderKind(
    "torpedo_support", TorpedoSupport, SUPPORT, Role.HOLDS, parser=parse_torpedo, check=_check_torpedo_support
)
"""``F NTH S SM MAO-1 Torp. MAO``: legal and without effect; drawn like a support."""

KINDS = (TORPEDO, TORPEDO_SUPPORT)
"""Submarines' order kinds."""
