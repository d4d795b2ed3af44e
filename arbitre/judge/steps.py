"""The steps of a phase between "orders are in" and "orders are resolved", run from their declaration.

A rule module declares the steps of each phase as data
(:mod:`arbitre.rules.phase_steps`); with none, a phase has one step,
``orders``, that ends with the adjudication.  What each step accepts and what
its end does is generic:

* a step that accepts :attr:`~arbitre.rules.phase_steps.Accepts.ORDERS` takes
  each power's whole list of orders (lock-step orders, such as a rule
  module's spies, included);
* a step that accepts :attr:`~arbitre.rules.phase_steps.Accepts.ONE_CHANGE`
  takes, from each power, one legal order replacing the locked order of one of
  its units (or one order given with a unit, such as a Suez permission, see
  :attr:`~arbitre.rules.kinds.OrderKind.belongs_to`); a second change replaces
  the first;
* at a :attr:`~arbitre.rules.phase_steps.AtEnd.LOCK` end the orders are frozen
  and every rule module reports what the lock reveals, as events that name
  their audience; the next step opens;
* at an :attr:`~arbitre.rules.phase_steps.AtEnd.ADJUDICATE` end the phase is
  adjudicated with the locked orders, each power's change applied and the
  lock-step orders taken out (they are never adjudicated nor published).

These functions are pure; :class:`arbitre.judge.Game` keeps the state and the
JSON interface uses them directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbitre.adjudicator.intake import OrderInput
from arbitre.orders import IllegalOrder, Order, OrderError
from arbitre.rules import RuleSet
from arbitre.rules.facets import StepRules
from arbitre.rules.phase_steps import ORDERS, Accepts, AtEnd, Step
from arbitre.state import Position

__all__ = [
    "ORDERS",
    "Accepts",
    "AtEnd",
    "Lock",
    "Step",
    "StepError",
    "apply_changes",
    "change_step",
    "check_change",
    "has_lock",
    "is_lock_order",
    "lock_orders",
    "phase_steps",
    "without_lock_orders",
]


class StepError(RuntimeError):
    """An action that the current step does not allow (changing orders once they are locked…)."""


@dataclass(frozen=True)
class Lock:
    """Orders as locked: ``events`` are what the lock revealed, each naming its audience."""

    orders: dict[str, list[OrderInput]]
    events: tuple[object, ...]


def phase_steps(rules: RuleSet, position: Position) -> tuple[Step, ...]:
    """The steps of the phase of ``position`` (:meth:`~arbitre.rules.RuleSet.phase_steps`)."""
    return rules.phase_steps(position)


def has_lock(rules: RuleSet, position: Position) -> bool:
    """Does a step of this phase end with a lock (so that a later step comes before the adjudication)?"""
    return any(s.at_end == AtEnd.LOCK for s in phase_steps(rules, position))


def change_step(rules: RuleSet, position: Position) -> Step | None:
    """The step of this phase in which each power may change one order, if it has one."""
    return next((s for s in phase_steps(rules, position) if s.accepts == Accepts.ONE_CHANGE), None)


def _text(entry: OrderInput) -> str:
    return entry if isinstance(entry, str) else entry.format()


def is_lock_order(rules: RuleSet, entry: OrderInput) -> bool:
    """Is ``entry`` read only at the lock (a rule module's lock-step order), never adjudicated nor published?"""
    return any(v.is_lock_order(rules, _text(entry)) for v in rules.implementing(StepRules))


def without_lock_orders(rules: RuleSet, orders: Mapping[str, Sequence[OrderInput]]) -> dict[str, list[OrderInput]]:
    """The orders to adjudicate: ``orders`` without the lock-step ones."""
    if not rules.implementing(StepRules):
        return {p: list(o) for p, o in orders.items()}
    return {p: [e for e in o if not is_lock_order(rules, e)] for p, o in orders.items()}


def lock_orders(rules: RuleSet, position: Position, orders: Mapping[str, Sequence[OrderInput]]) -> Lock:
    """Lock ``orders`` (power → orders): collect what every rule module reveals at the lock."""
    frozen = {p: list(o) for p, o in orders.items()}
    events: list[object] = []
    for v in rules.implementing(StepRules):
        events.extend(v.on_lock(rules, position, frozen))
    return Lock(frozen, tuple(events))


def check_change(rules: RuleSet, position: Position, power: str, entry: OrderInput) -> Order:
    """Validate a change: a legal order for one of ``power``'s units; return its normal form.

    Raises :class:`~arbitre.orders.OrderError` (invalid, illegal or ambiguous)
    with the reason in words.
    """
    text = _text(entry)
    if not text.strip():
        raise IllegalOrder("a change is one order for one of your units", text=text, reason="empty")
    order = rules.parse(entry) if isinstance(entry, str) else entry
    if rules.province_of_order(order) is None or is_lock_order(rules, text):
        raise IllegalOrder(
            "a change replaces the order of one of your units; lock-step and whole-power orders cannot be changed",
            text=text,
            reason="not_unit_order",
        )
    return rules.check(position, power, order)


def _slot(rules: RuleSet, order: Order) -> tuple[str | None, str | None]:
    """What a change replaces: a unit's own order, or its whole-power orders of one kind (a permission)."""
    return rules.province_of_order(order), None if order.unit is not None else rules.kind_of(order).name


def apply_changes(
    rules: RuleSet, position: Position, orders: Mapping[str, Sequence[OrderInput]], changes: Mapping[str, OrderInput]
) -> dict[str, list[OrderInput]]:
    """The final orders: ``orders`` with, for each power, its one change (power → order) applied.

    A change replaces every order the power gave to that unit (an order that
    cannot be read stays, and is reported as before); a change that is a
    whole-power order given with a unit (Colonial's Suez permission, with the
    unit in Egypt) replaces the power's orders of that kind instead, and
    leaves the unit's own order.  Changes are validated
    again; an illegal one raises :class:`~arbitre.orders.OrderError`.
    """
    final = {p: list(o) for p, o in orders.items()}
    for power, entry in changes.items():
        change = check_change(rules, position, power, entry)
        slot = _slot(rules, change)
        kept: list[OrderInput] = []
        for given in final.get(power, []):
            try:
                order = rules.parse(given) if isinstance(given, str) else given
            except OrderError:
                kept.append(given)
                continue
            if _slot(rules, order) != slot:
                kept.append(given)
        kept.append(change.format())
        final[power] = kept
    return final
