"""What a player has still to do in the current step: the page's and the API's "what to do" answer.

Everything is read from the rule set and the phase's progress (the phase kind, the step's declaration),
never from a variant's name:

* ``kind``: the phase kind (``movement``, ``retreats``, ``adjustments``), ``step`` the current step and
  ``one_change`` whether this step takes one change to the locked orders (a rule module's extra step);
* ``missing``: the power's units that have no order among ``lines`` (movement and retreats; a dislodged
  unit with nowhere to go is not listed: it has no choice);
* in an adjustment phase, ``builds`` (``allowed``, ``given``) or ``disbands`` (``required``, ``given``) of
  the power itself;
* ``complete``: nothing is missing.

Each power's answer is built from its own units and counts only; :func:`given_state` is the one word
others may read of a power's orders (``none``, ``partly``, ``all``), when the game shows progress.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbitre.adjudicator import adjustment_counts
from arbitre.judge import Game
from arbitre.judge.steps import Accepts
from arbitre.orders import OrderError
from arbitre.rules.disclosure import unit_audience
from arbitre.rules.events import PUBLIC
from arbitre.server.answers import Builds, Disbands, ToDo
from arbitre.state import ADJUSTMENTS, MOVEMENT, RETREATS, Unit

KIND_NAMES = {MOVEMENT: "movement", RETREATS: "retreats", ADJUSTMENTS: "adjustments"}
"""The phase kinds by the name the answers use."""
NONE, PARTLY, ALL = "none", "partly", "all"
"""The words of :func:`given_state`."""


def _provinces(game: Game, lines: Sequence[str]) -> tuple[set[str], int]:
    """The provinces of the units ``lines`` order, and how many lines can be read at all."""
    out: set[str] = set()
    readable = 0
    for line in lines:
        text = line.strip()
        if not text:
            continue
        try:
            order = game.rules.parse(text)
        except OrderError:
            continue
        readable += 1
        if order.unit is not None:
            out.add(order.unit.province)
    return out, readable


def _units_to_order(game: Game, power: str) -> list[Unit]:
    """The units of ``power`` that take an order in a movement or retreat phase: all of them in a movement
    phase; in a retreat phase the dislodged ones that have a choice."""
    position = game.position
    if position.phase.kind == MOVEMENT:
        return [u for u in position.units.values() if u.power == power]
    legal = game.legal_orders(power)
    return [
        d.unit for d in position.dislodged.values() if d.unit.power == power and len(legal.get(d.unit.place, ())) > 1
    ]


def to_do(game: Game, power: str, lines: Sequence[str]) -> ToDo:
    """What ``power`` has still to do now, given the orders ``lines`` (its box, its draft or its submission)."""
    position = game.position
    kind = position.phase.kind
    step = game.progress.current_step
    one_change = step.accepts == Accepts.ONE_CHANGE
    if one_change:  # the orders are locked: one change is optional
        return ToDo(kind=KIND_NAMES[kind], step=step.name, one_change=True, missing=[], complete=True)
    covered, readable = _provinces(game, lines)
    if kind == ADJUSTMENTS:
        owed = adjustment_counts(game.rules, position).get(power, 0)
        given = min(readable, abs(owed))
        return ToDo(
            kind=KIND_NAMES[kind],
            step=step.name,
            one_change=False,
            missing=[],
            complete=given >= abs(owed),
            builds=Builds(allowed=owed, given=given) if owed > 0 else None,
            disbands=Disbands(required=-owed, given=given) if owed < 0 else None,
        )
    units = _units_to_order(game, power)
    missing = sorted(str(u) for u in units if u.place.split("/")[0] not in covered)
    return ToDo(kind=KIND_NAMES[kind], step=step.name, one_change=False, missing=missing, complete=not missing)


def given_state(game: Game, power: str, lines: Sequence[str]) -> str:
    """What others may read of ``power``'s submitted orders: ``none``, ``partly`` or ``all`` (no count).

    Judged only on the units every player may see: a unit some rule hides (and so its order, or that it
    has none) never changes the word, so the word tells nobody that a hidden unit exists or was ordered."""
    if not any(line.strip() for line in lines):
        return NONE
    if game.progress.current_step.accepts == Accepts.ONE_CHANGE:
        return ALL
    position = game.position
    if position.phase.kind == ADJUSTMENTS:  # the counts owed are public (centres and unit counts)
        return ALL if to_do(game, power, lines).complete else PARTLY
    rules = game.rules
    units = _units_to_order(game, power)
    public = {u.place.split("/")[0] for u in units if PUBLIC in unit_audience(rules, position, u)}
    covered, _readable = _provinces(game, lines)
    ordered = public & covered
    if not ordered:
        return NONE
    return ALL if ordered == public else PARTLY
