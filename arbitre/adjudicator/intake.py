"""Read a power's submitted orders: parse, validate, keep one order per unit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arbitre.adjudicator.results import FAILS, ILLEGAL, INVALID, OrderResult, order_result
from arbitre.orders import IllegalOrder, InvalidOrder, Order, OrderError
from arbitre.rules.disclosure import known_position
from arbitre.rules.legality import nationality_weak
from arbitre.rules.ruleset import RuleSet
from arbitre.state import MOVEMENT, Position

OrderInput = str | Order

FAILING_REASONS = frozenset({"wrong_coast", "build_coast_needed"})
"""Reasons that make an order fail rather than be illegal (DATC 6.B.11, 6.B.14)."""


@dataclass
class Intake:
    """Orders sorted out: legal ones by key, and results for the rejected ones."""

    by_unit: dict[str, tuple[str, str, Order]]
    whole_power: list[tuple[str, str, Order]]
    rejected: list[OrderResult]
    sequence: list[tuple[str, str, Order]]
    """Every accepted order in the order given, duplicates included (adjustments use it)."""


def read_orders(
    rules: RuleSet,
    position: Position,
    orders: Mapping[str, Sequence[OrderInput]],
    retreat_options: dict[str, tuple[str, ...]] | None = None,
    one_per_unit: bool = True,
) -> Intake:
    """Parse and check every order, keeping one order per unit (DATC 4.D.3 option).

    With ``one_per_unit=False`` (adjustments) every accepted order is only listed
    in ``sequence``: builds and disbands have their own rules (DATC 4.D.4-4.D.6).
    """
    by_unit: dict[str, tuple[str, str, Order]] = {}
    whole: list[tuple[str, str, Order]] = []
    rejected: list[OrderResult] = []
    conflicted: set[str] = set()
    sequence: list[tuple[str, str, Order]] = []
    undesignated: set[str] = set()
    unless_designated = rules.options.missing_unit_type == "unless_designated"
    by_nationality = "unless_designated" in (rules.options.missing_nationality, rules.options.wrong_nationality)
    designation: dict[str, bool | None] = {}
    # Movement without rule modules: a text the rule set's order table has read is looked up once, and
    # its entry checked against the board, as RuleSet.check would do after parsing it (the same verdict).
    table = rules.order_table.entries if position.phase.kind == MOVEMENT and not rules.variants else None
    units = position.units
    for power, entries in orders.items():
        for entry in entries:
            text = entry if isinstance(entry, str) else entry.format()
            static = table.get(text) if table is not None and isinstance(entry, str) else None
            known = static.check(units, power) if static is not None else None
            if known is not None:
                order = checked = known
            else:
                try:
                    order = rules.parse(entry) if isinstance(entry, str) else entry
                except OrderError as err:
                    kind = ILLEGAL if isinstance(err, IllegalOrder) else INVALID
                    rejected.append(order_result(power, text, None, kind, err.reason, err.describe()))
                    continue
                try:
                    checked = rules.check(
                        position, power, order, retreat_options, text=entry if isinstance(entry, str) else None
                    )
                except IllegalOrder as err:
                    # Some orders are read but cannot do anything: DATC calls them failed, not illegal.
                    outcome = FAILS if err.reason in FAILING_REASONS else ILLEGAL
                    rejected.append(order_result(power, text, order, outcome, err.reason, err.message))
                    continue
                except InvalidOrder as err:
                    rejected.append(order_result(power, text, order, INVALID, err.reason, err.message))
                    continue
            sequence.append((power, text, checked))
            if not one_per_unit:
                continue
            if checked.unit is None:
                whole.append((power, text, checked))
                continue
            key = checked.unit.province
            bare = order.unit is not None and order.unit.kind is None
            # Judged on what the power can see (a hidden unit has no nationality to name).
            weak = (
                nationality_weak(known_position(rules, position, power), power, order, rules.options)
                if by_nationality
                else None
            )
            if key not in by_unit:
                by_unit[key] = (power, text, checked)
                if bare:
                    undesignated.add(key)
                designation[key] = weak
                continue
            prev_power, prev_text, prev = by_unit[key]
            if prev == checked:
                continue  # the same order twice is just that order
            if unless_designated and bare != (key in undesignated):
                # DATC 4.C.1 c: an order without the unit type gives way to one that names it.
                why = "another order for this unit names its type (DATC 4.C.1)"
                if bare:
                    rejected.append(order_result(power, text, checked, ILLEGAL, "missing_unit_type", why))
                else:
                    rejected.append(order_result(prev_power, prev_text, prev, ILLEGAL, "missing_unit_type", why))
                    by_unit[key] = (power, text, checked)
                    undesignated.discard(key)
                    designation[key] = weak
                continue
            if {weak, designation.get(key)} == {True, False}:
                # DATC 4.C.5/4.C.6 c: an order without the right nationality gives way to one that names it.
                why = "another order for this unit names the right nationality (DATC 4.C.5, 4.C.6)"
                if weak:
                    rejected.append(order_result(power, text, checked, ILLEGAL, "nationality", why))
                else:
                    rejected.append(order_result(prev_power, prev_text, prev, ILLEGAL, "nationality", why))
                    by_unit[key] = (power, text, checked)
                    designation[key] = weak
                    if bare:
                        undesignated.add(key)
                    else:
                        undesignated.discard(key)
                continue
            rule = rules.options.multiple_orders
            if rule == "first":
                rejected.append(
                    order_result(
                        power, text, checked, ILLEGAL, "duplicate", "an earlier order for the same unit counts"
                    )
                )
            elif rule == "last":
                rejected.append(
                    order_result(
                        prev_power, prev_text, prev, ILLEGAL, "duplicate", "a later order for the same unit counts"
                    )
                )
                by_unit[key] = (power, text, checked)
            else:
                conflicted.add(key)
                rejected.append(
                    order_result(
                        power,
                        text,
                        checked,
                        ILLEGAL,
                        "duplicate",
                        "several different orders for one unit: the unit holds",
                    )
                )
    for key in conflicted:
        p, t, o = by_unit.pop(key)
        rejected.append(
            order_result(p, t, o, ILLEGAL, "duplicate", "several different orders for one unit: the unit holds")
        )
    return Intake(by_unit, whole, rejected, sequence)
