"""Submarines' order kinds, each declared once: torpedoes and supports given to them.

Submerging, surfacing and moving in the depths are ordinary moves (to or
from a depth place ``MED-1``): they are the standard ``move`` kind.
"""

from __future__ import annotations

from arbitre.orders import Order
from arbitre.rules import RuleSet
from arbitre.rules.kinds import DrawStyle, OrderKind, Role
from arbitre.state import Position
from arbitre.variants.submarines.orders import Torpedo, TorpedoSupport, parse_torpedo
from arbitre.variants.submarines.validation import check_torpedo, check_torpedo_support, extra_legal_orders


def _check_torpedo(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, Torpedo)
    return check_torpedo(rules, position, power, order)


def _check_torpedo_support(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, TorpedoSupport)
    return check_torpedo_support(rules, position, power, order)


TORPEDO = OrderKind(
    "torpedo",
    Torpedo,
    DrawStyle.TORPEDO,
    Role.HOLDS,
    parser=parse_torpedo,
    check=_check_torpedo,
    legal=extra_legal_orders,
    above_units=True,
)
"""``F MED Torp. MED-1``: the unit holds for the resolver and fires once the moves are resolved.

Its legal-order list also holds the supports of units in unseen depth places.
"""

TORPEDO_SUPPORT = OrderKind(
    "torpedo_support", TorpedoSupport, DrawStyle.SUPPORT, Role.HOLDS, parser=parse_torpedo, check=_check_torpedo_support
)
"""``F NTH S SM MAO-1 Torp. MAO``: legal and without effect; drawn like a support."""

KINDS = (TORPEDO, TORPEDO_SUPPORT)
"""Submarines' order kinds."""
