"""Espionnite's order kinds, each declared once: spy and counter-spy orders."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.orders import Order
from arbitre.rules import RuleSet
from arbitre.rules.drawing import Drawing, Shape, Symbol
from arbitre.rules.facets import Disclosure
from arbitre.rules.kinds import OrderKind, Role
from arbitre.state import MOVEMENT, Position
from arbitre.variants.espionnite.orders import CounterSpy, Spy, parse_espionage
from arbitre.variants.espionnite.validation import check_counterspy, check_spy


def _check_spy(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, Spy)
    return check_spy(rules, position, power, order)


def _check_counterspy(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, CounterSpy)
    return check_counterspy(rules, position, power, order)


def _spy_orders(rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
    """Every spy ``power`` may give, under the key ``SPY``: only on units it can see (no hint of hidden ones)."""
    if position.phase.kind != MOVEMENT:
        return {}
    hiders = rules.implementing(Disclosure)
    foreign = sorted(
        u.place
        for u in position.units.values()
        if u.power != power
        and not any(v.hides_province(rules, position, rules.game_map.province_of[u.place], power) for v in hiders)
    )
    own = any(u.power == power for u in position.units.values())
    return {"SPY": [f"SPY {p}" for p in foreign]} if foreign and own else {}


def _counterspy_orders(rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
    """Every counter-spy ``power`` may give, under the key ``COUNTERSPY``."""
    if position.phase.kind != MOVEMENT:
        return {}
    own = sorted(u.place for u in position.units.values() if u.power == power)
    return {"COUNTERSPY": [f"COUNTERSPY {p}" for p in own]} if own else {}


EYE = Drawing(
    "spy",
    Shape.MARK,
    symbol=Symbol("M-7 0 Q0 -6 7 0 Q0 6 -7 0Z", fill="#FFFFFF", dot=2.6),
    offset=(-11.0, -11.0),
    rank=4,
)
"""An eye in the spying power's colour beside the watched unit."""

SHIELD = Drawing(
    "guard", Shape.MARK, symbol=Symbol("M-5 -6 h10 v5 Q5 5 0 7 Q-5 5 -5 -1Z"), offset=(11.0, -11.0), rank=4
)
"""A small shield in the guarding power's colour beside its own unit."""

SPY = OrderKind(
    "spy", Spy, EYE, Role.LOCK, parser=parse_espionage, check=_check_spy, legal=_spy_orders, above_units=True
)
"""``SPY PAR``: drawn as an eye on the watched unit."""

COUNTER_SPY = OrderKind(
    "counter_spy",
    CounterSpy,
    SHIELD,
    Role.LOCK,
    parser=parse_espionage,
    check=_check_counterspy,
    legal=_counterspy_orders,
    above_units=True,
)
"""``COUNTERSPY BER``: drawn as a shield on the guarded unit."""

KINDS = (SPY, COUNTER_SPY)
"""Espionnite's order kinds."""
