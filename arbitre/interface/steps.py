"""The JSON interface's steps, for phases whose rules declare a lock (:mod:`arbitre.rules.phase_steps`).

* ``"step": "reveal"`` — the steps that end with a lock are run: the orders
  (lock-step orders included) lock; the answer holds, for each power the
  viewer may read, what the lock told it, and the viewer's refused orders.
  Nothing is adjudicated.
* ``"step": "resolve"`` — the locked orders, each power's one change from
  ``"reactions"`` applied (in a phase with a step that accepts one change) and
  the lock-step orders taken out, are adjudicated; the answer is the ordinary
  outcome object.

Documented in ``docs/json-interface.md`` ("Steps: the reveal and the changes").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.adjudicator.intake import OrderInput
from arbitre.judge import check_orders
from arbitre.judge.steps import apply_changes, change_step, has_lock, lock_orders, without_lock_orders
from arbitre.orders import OrderError
from arbitre.rules import RuleSet
from arbitre.state import Position
from arbitre.views import MASTER, build_view, check_viewer


class StepRequestError(ValueError):
    """A step request that cannot be run; ``where`` names the field."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _require_lock(rules: RuleSet, position: Position, step: str) -> None:
    if not has_lock(rules, position):
        raise StepRequestError(
            "step",
            f"step {step!r} needs a phase whose rules lock the orders before "
            "adjudicating them (see docs/json-interface.md)",
        )


def _require_change_step(rules: RuleSet, position: Position) -> None:
    if change_step(rules, position) is None:
        raise StepRequestError(
            "step",
            '"reactions" need a phase with a step in which each power changes one order (see docs/json-interface.md)',
        )


def reveal_step(rules: RuleSet, position: Position, orders: Mapping[str, Sequence[str]], viewer: str) -> dict[str, Any]:
    """Lock ``orders`` and return what the lock told each power, as ``viewer`` may read it."""
    from arbitre.words.events import report_words  # only a step reveal words a report (start-up counts)

    _require_lock(rules, position, "reveal")
    try:
        who = check_viewer(rules, viewer)
    except ValueError as err:
        raise StepRequestError("viewer", str(err)) from err
    lock = lock_orders(rules, position, orders)
    # What is printed comes from the viewer's view of the step after the lock.
    seen = build_view(rules, position, who, events=lock.events)
    reveals: dict[str, list[dict[str, str]]] = {}
    for line in seen.report:
        for power in line.audience or (who,):
            reveals.setdefault(power, []).append({"kind": line.key, **report_words(rules, line)})
    rejected = []
    for power, given in orders.items():
        if who not in (MASTER, power):
            continue
        for r in check_orders(rules, position, power, given):
            rejected.append(
                {
                    "power": r.power,
                    "order": r.order_text,
                    "outcome": r.outcome,
                    "reason": r.reason,
                    **({"message": r.message} if r.message else {}),
                }
            )
    return {
        "phase": str(position.phase),
        "step": "reveal",
        "reveals": dict(sorted(reveals.items())),
        "rejected": rejected,
    }


def resolve_orders(
    rules: RuleSet, position: Position, orders: Mapping[str, Sequence[OrderInput]], reactions: Mapping[str, str]
) -> dict[str, list[OrderInput]]:
    """The orders to adjudicate: lock-step orders out, each power's one change applied (checked)."""
    if reactions:
        _require_change_step(rules, position)
    changes: dict[str, str] = {}
    for power, change in reactions.items():
        if power.upper() not in rules.game_map.powers:
            raise StepRequestError(f"reactions.{power}", f"{power!r} is not a power of the {rules.game_map.name} map")
        changes[power.upper()] = change
    base = without_lock_orders(rules, orders)
    for power, change in changes.items():
        try:
            base = apply_changes(rules, position, base, {power: change})
        except OrderError as err:
            raise StepRequestError(f"reactions.{power}", f"{err.kind} change: {err.describe()}") from err
    return base
