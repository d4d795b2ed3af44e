"""The JSON interface's steps for rules with a reaction step (Espionnite).

* ``"step": "reveal"`` — the orders (spy and counter-spy orders included) lock;
  the answer holds, for each power the viewer may read, its private reports,
  and the viewer's refused orders.  Nothing is adjudicated.
* ``"step": "resolve"`` — the locked orders, each power's one change from
  ``"reactions"`` applied and the spy orders taken out, are adjudicated; the
  answer is the ordinary outcome object.

Documented in ``docs/json-interface.md`` ("Espionnite: the reveal and the
reaction").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.adjudicator.intake import OrderInput
from arbitre.judge import check_orders
from arbitre.judge.steps import apply_reactions, has_reaction_step, lock_orders, without_lock_orders
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


def _require_reaction_step(rules: RuleSet, position: Position, step: str) -> None:
    if not has_reaction_step(rules, position):
        raise StepRequestError("step", f"step {step!r} needs a phase with a reaction step: a movement phase "
                                       "with \"rules\": [\"espionnite\"]")


def reveal_step(rules: RuleSet, position: Position, orders: Mapping[str, Sequence[str]],
                viewer: str) -> dict[str, Any]:
    """Lock ``orders`` and return what the lock told each power, as ``viewer`` may read it."""
    _require_reaction_step(rules, position, "reveal")
    try:
        who = check_viewer(rules, viewer)
    except ValueError as err:
        raise StepRequestError("viewer", str(err)) from err
    lock = lock_orders(rules, position, orders)
    # What is printed comes from the viewer's view of the reaction step.
    seen = build_view(rules, position, who, events=lock.events)
    reveals: dict[str, list[dict[str, str]]] = {}
    for line in seen.report:
        for power in line.audience or (who,):
            reveals.setdefault(power, []).append({"kind": line.key, "en": line.en, "fr": line.fr})
    rejected = []
    for power, given in orders.items():
        if who not in (MASTER, power):
            continue
        for r in check_orders(rules, position, power, given):
            rejected.append({"power": r.power, "order": r.order_text, "outcome": r.outcome, "reason": r.reason,
                             **({"message": r.message} if r.message else {})})
    return {"phase": str(position.phase), "step": "reveal", "reveals": dict(sorted(reveals.items())),
            "rejected": rejected}


def resolve_orders(rules: RuleSet, position: Position, orders: Mapping[str, Sequence[OrderInput]],
                   reactions: Mapping[str, str]) -> dict[str, list[OrderInput]]:
    """The orders to adjudicate: spy orders out, each power's one change applied (checked)."""
    if reactions:
        _require_reaction_step(rules, position, "resolve")
    changes: dict[str, str] = {}
    for power, change in reactions.items():
        if power.upper() not in rules.game_map.powers:
            raise StepRequestError(f"reactions.{power}", f"{power!r} is not a power of the {rules.game_map.name} map")
        changes[power.upper()] = change
    base = without_lock_orders(rules, orders)
    for power, change in changes.items():
        try:
            base = apply_reactions(rules, position, base, {power: change})
        except OrderError as err:
            raise StepRequestError(f"reactions.{power}", f"{err.kind} change: {err.describe()}") from err
    return base
