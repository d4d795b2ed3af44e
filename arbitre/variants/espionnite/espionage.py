"""Resolve espionage when the orders lock: which spies succeed, and what they learn.

A spy whose target is counter-spied fails; every other spy on an existing
foreign unit succeeds, however many spies chose that unit.  A successful spy
learns the spied unit's order as it stood at the lock, in the judge's normal
form; a unit without a (legal) order is reported as holding, since that is
what it would do.  The whole-power orders its power gave with that unit
(:attr:`~arbitre.rules.kinds.OrderKind.belongs_to`: Colonial's Suez
permission, given with the unit in Egypt) are learnt with it.  A spy on a place that turns out to hold no foreign unit
(possible only for a place its power could not see) learns nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbitre.adjudicator.intake import OrderInput, read_orders
from arbitre.orders import Hold, Order, UnitRef
from arbitre.rules import RuleSet
from arbitre.state import Position, Unit
from arbitre.variants.espionnite.orders import CounterSpy, Spy


@dataclass(frozen=True, slots=True)
class SpyResult:
    """What one power's spy brought back.

    ``unit`` and ``order`` are set only when the spy succeeded: the unit spied
    on and its order as locked (:class:`~arbitre.orders.Hold` when it had none);
    ``given_with`` the whole-power orders its power gave with that unit.
    """

    power: str
    target: str
    unit: Unit | None = None
    order: Order | None = None
    given_with: tuple[Order, ...] = ()

    @property
    def succeeded(self) -> bool:
        """True when the spy learnt the order of the unit it watched."""
        return self.order is not None


@dataclass(frozen=True, slots=True)
class Catch:
    """A counter-spy that stopped ``spies`` spies watching its power's unit on ``place``."""

    power: str
    place: str
    spies: int


@dataclass(frozen=True)
class Espionage:
    """The espionage of one phase: the orders that counted, each spy's result, the catches."""

    spies: Mapping[str, Spy]
    counterspies: Mapping[str, CounterSpy]
    results: tuple[SpyResult, ...]
    catches: tuple[Catch, ...]

    def result_of(self, power: str) -> SpyResult | None:
        """The result of ``power``'s spy, or ``None`` if it sent none."""
        for r in self.results:
            if r.power == power:
                return r
        return None


def resolve_espionage(rules: RuleSet, position: Position, orders: Mapping[str, Sequence[OrderInput]]) -> Espionage:
    """Resolve the spies and counter-spies among the locked ``orders`` (power → orders).

    Only legal espionage orders count, and only the first spy and the first
    counter-spy of each power (see :func:`check_espionage_list`).
    """
    intake = read_orders(rules, position, orders)
    spies: dict[str, Spy] = {}
    counters: dict[str, CounterSpy] = {}
    for power, _, order in intake.whole_power:
        if isinstance(order, Spy):
            spies.setdefault(power, order)
        elif isinstance(order, CounterSpy):
            counters.setdefault(power, order)
    guarded = {c.target.province: (power, c.target.place) for power, c in counters.items()}
    results: list[SpyResult] = []
    caught: dict[str, int] = {}
    for power in sorted(spies):
        spy = spies[power]
        province = spy.target.province
        unit = position.units.get(province)
        if unit is None or unit.power == power:
            results.append(SpyResult(power, spy.target.place))
        elif province in guarded:
            caught[province] = caught.get(province, 0) + 1
            results.append(SpyResult(power, spy.target.place))
        else:
            entry = intake.by_unit.get(province)
            order = entry[2] if entry is not None else Hold(UnitRef(unit.kind, unit.place))
            with_it = tuple(
                dict.fromkeys(
                    o for p, _, o in intake.whole_power if p == unit.power and rules.province_of_order(o) == province
                )
            )
            results.append(SpyResult(power, spy.target.place, unit, order, with_it))
    catches = tuple(Catch(*guarded[p], n) for p, n in sorted(caught.items()))
    return Espionage(spies, counters, tuple(results), catches)
