"""Is a spy or counter-spy order allowed?  Clear errors that never reveal a hidden unit.

A spy must watch a unit of another power; a counter-spy guards one of the
power's own units; both only in movement phases, and one of each per power.

In a game with hidden units (a submerged submarine in Submarines), a power
may name a place it cannot see into.  Such an order is judged from what the
power can see: a spy on an unseen place is accepted whether or not a unit is
there (it learns nothing when the place is empty, exactly as when it is
counter-spied), and a counter-spy on a place without a unit of the power is
refused with the same words whether the place is empty or hides a foreign
unit.  What a power can see is asked of the variants through
:meth:`arbitre.rules.Variant.hides_province`.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbitre.orders import IllegalOrder, Order, UnitRef
from arbitre.rules import RuleSet
from arbitre.rules.facets import Disclosure
from arbitre.state import MOVEMENT, Position
from arbitre.variants.espionnite.orders import CounterSpy, Spy

RULE = "Espionnite"
"""How refusals name the rule module."""


def _illegal(order: Order, message: str, reason: str) -> IllegalOrder:
    return IllegalOrder(f"{RULE}: {message}", text=order.format(), reason=reason)


def is_hidden_from(rules: RuleSet, position: Position, province: str, power: str) -> bool:
    """May ``province`` hold a unit that ``power`` cannot see?  (Asked of every variant in play.)"""
    return any(v.hides_province(rules, position, province, power) for v in rules.implementing(Disclosure))


def check_spy(rules: RuleSet, position: Position, power: str, order: Spy) -> Spy:
    """Validate a spy order of ``power``; return its normal form or raise :class:`IllegalOrder`."""
    _check_phase(position, order)
    province = order.target.province
    unit = position.units.get(province)
    if unit is not None and unit.power == power:
        raise _illegal(order, f"the unit in {province} is yours; a spy watches a unit of another power", "own_unit")
    if is_hidden_from(rules, position, province, power):
        # Judged from what the power sees: accepted, whatever stands there.
        return Spy(None, UnitRef(None, order.target.place))
    if unit is None:
        raise _illegal(order, f"there is no unit in {province} to spy on", "no_unit")
    return Spy(None, UnitRef(unit.kind, unit.place))


def check_counterspy(rules: RuleSet, position: Position, power: str, order: CounterSpy) -> CounterSpy:
    """Validate a counter-spy order of ``power``; return its normal form or raise :class:`IllegalOrder`."""
    _check_phase(position, order)
    province = order.target.province
    unit = position.units.get(province)
    if unit is not None and unit.power == power:
        return CounterSpy(None, UnitRef(unit.kind, unit.place))
    if unit is None or is_hidden_from(rules, position, province, power):
        raise _illegal(order, f"you have no unit in {province}; a counter-spy guards one of your own units", "no_unit")
    raise _illegal(
        order,
        f"the unit in {province} belongs to {unit.power}; a counter-spy guards one of your own units",
        "not_own_unit",
    )


def _check_phase(position: Position, order: Order) -> None:
    if position.phase.kind != MOVEMENT:
        raise _illegal(
            order,
            "spies and counter-spies work only in movement phases (retreat and adjustment phases have no espionage)",
            "wrong_phase",
        )


def check_espionage_list(orders: Sequence[Order]) -> list[tuple[Order, IllegalOrder]]:
    """One spy and one counter-spy per power: the first of each counts, a different later one is illegal."""
    first: dict[type, Order] = {}
    out: list[tuple[Order, IllegalOrder]] = []
    for order in orders:
        if not isinstance(order, (Spy, CounterSpy)):
            continue
        kind = type(order)
        if kind not in first:
            first[kind] = order
        elif order != first[kind]:
            word = "spy" if kind is Spy else "counter-spy"
            out.append(
                (
                    order,
                    _illegal(
                        order, f"a power gives one {word} order per phase; {first[kind].format()} counts", "duplicate"
                    ),
                )
            )
    return out
