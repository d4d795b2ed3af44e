"""The steps of a phase between "orders are in" and "orders are resolved".

A phase normally has one step, ``orders``: the powers give orders, then the
phase is adjudicated.  A rule module may ask for a pause between the two
(:meth:`arbitre.rules.Variant.reaction_step`); Espionnite does, in every
movement phase.  The phase then goes:

1. ``orders`` — the powers give their orders (and their lock-step orders,
   such as Espionnite's spies) and confirm them;
2. the **lock** — when every power has confirmed, or the deadline passed: the
   orders are frozen and every rule module reports what the lock reveals
   (:meth:`~arbitre.rules.Variant.on_lock`), as events that name their
   audience;
3. ``reaction`` — each power may replace the order of one of its units with
   another legal order (or one order given with a unit, such as a Suez
   permission, see :attr:`~arbitre.rules.kinds.OrderKind.belongs_to`); a
   second change replaces the first;
4. the adjudication, with the locked orders, each power's change applied,
   and the lock-step orders taken out (they are never adjudicated nor
   published).

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
from arbitre.state import Position

ORDERS = "orders"
"""The step in which the powers give their orders."""
REACTION = "reaction"
"""The step between the lock and the adjudication (Espionnite)."""
STEPS = (ORDERS, REACTION)
"""Every step, in the order a phase goes through them."""


class StepError(RuntimeError):
    """An action that the current step does not allow (changing orders once they are locked…)."""


@dataclass(frozen=True)
class Lock:
    """Orders as locked: ``events`` are what the lock revealed, each naming its audience."""

    orders: dict[str, list[OrderInput]]
    events: tuple[object, ...]
    reaction: bool


def has_reaction_step(rules: RuleSet, position: Position) -> bool:
    """Does this phase pause for a reaction step between the lock and the adjudication?"""
    return any(v.reaction_step(rules, position) for v in rules.implementing(StepRules))


def _text(entry: OrderInput) -> str:
    return entry if isinstance(entry, str) else entry.format()


def is_lock_order(rules: RuleSet, entry: OrderInput) -> bool:
    """Is ``entry`` read only at the lock (a spy order), never adjudicated nor published?"""
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
    return Lock(frozen, tuple(events), has_reaction_step(rules, position))


def check_reaction(rules: RuleSet, position: Position, power: str, entry: OrderInput) -> Order:
    """Validate a reaction change: a legal order for one of ``power``'s units; return its normal form.

    Raises :class:`~arbitre.orders.OrderError` (invalid, illegal or ambiguous)
    with the reason in words.
    """
    text = _text(entry)
    if not text.strip():
        raise IllegalOrder("a reaction is one order for one of your units", text=text, reason="empty")
    order = rules.parse(entry) if isinstance(entry, str) else entry
    if rules.province_of_order(order) is None or is_lock_order(rules, text):
        raise IllegalOrder("a reaction replaces the order of one of your units; spy, counter-spy and "
                           "whole-power orders cannot be changed", text=text, reason="not_unit_order")
    return rules.check(position, power, order)


def _slot(rules: RuleSet, order: Order) -> tuple[str | None, str | None]:
    """What a change replaces: a unit's own order, or its whole-power orders of one kind (a permission)."""
    return rules.province_of_order(order), None if order.unit is not None else rules.kind_of(order).name


def apply_reactions(rules: RuleSet, position: Position, orders: Mapping[str, Sequence[OrderInput]],
                    reactions: Mapping[str, OrderInput]) -> dict[str, list[OrderInput]]:
    """The final orders: ``orders`` with, for each power, its one change (power → order) applied.

    A change replaces every order the power gave to that unit (an order that
    cannot be read stays, and is reported as before); a change that is a
    whole-power order given with a unit (Colonial's Suez permission, with the
    unit in Egypt) replaces the power's orders of that kind instead, and
    leaves the unit's own order.  Changes are validated
    again; an illegal one raises :class:`~arbitre.orders.OrderError`.
    """
    final = {p: list(o) for p, o in orders.items()}
    for power, entry in reactions.items():
        change = check_reaction(rules, position, power, entry)
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

