"""Views for ``arbitre map``: a game phase as one viewer sees it, or a position given as JSON.

The views builder (:mod:`arbitre.views.build`) is used when it is there.  Until
then only the game master's view is built here: the master sees everything, so
nothing can leak; any other viewer is refused rather than guessed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arbitre.adjudicator import OrderResult
from arbitre.judge import Game, PhaseRecord
from arbitre.state import Position
from arbitre.views.model import MASTER, View, VisibleDislodged, VisibleOrder, VisibleUnit

ORDER_KINDS = {
    "Hold": "hold",
    "Move": "move",
    "Support": "support",
    "Convoy": "convoy",
    "Retreat": "retreat",
    "Disband": "disband",
    "Build": "build",
    "Waive": "waive",
}


class ViewUnavailableError(ValueError):
    """Raised when the view asked for cannot be built here."""


def visible_order(result: OrderResult) -> VisibleOrder | None:
    """The drawing data of one adjudicated order (for the master's view)."""
    order = result.order
    if order is None:
        return None
    name = type(order).__name__
    declared: object = getattr(order, "kind", None)
    kind = ORDER_KINDS.get(name) or (declared if isinstance(declared, str) else name.lower())
    places: list[str] = []
    if order.unit is not None:
        places.append(order.unit.place)
    for attr in ("supported", "convoyed", "permitted"):
        ref: object = getattr(order, attr, None)
        place: object = getattr(ref, "place", None)
        if isinstance(place, str) and place:
            places.append(place)
    target = getattr(order, "target", None)
    if isinstance(target, str) and target:
        places.append(target)
    return VisibleOrder(result.power, order.format(), kind, tuple(places), result.outcome, result.reason,
                        getattr(result, "final_place", None))


def master_view_of_record(game: Game, record: PhaseRecord) -> View:
    """The master's view of a played phase: the position before, the orders and their results."""
    pos = record.position
    outcome = record.outcome
    units = tuple(VisibleUnit(u.power, u.kind, u.place) for u in pos.units.values())
    orders = tuple(o for o in (visible_order(r) for r in record.results
                               if r.reason != "no_order") if o is not None)
    dislodged = tuple(
        VisibleDislodged(VisibleUnit(d.unit.power, d.unit.kind, d.unit.place), d.attacker_from, d.retreats)
        for d in outcome.dislodged.values())
    if pos.phase.kind == "R":  # the units being retreated
        dislodged = tuple(
            VisibleDislodged(VisibleUnit(d.unit.power, d.unit.kind, d.unit.place), d.attacker_from, d.retreats)
            for d in pos.dislodged.values())
    return View(MASTER, game.map_name, str(pos.phase),
                units, dict(pos.owners), dislodged, orders, (), tuple(sorted(outcome.bounced)),
                {"powers": list(game.powers())})


def master_view_of_position(game: Game, pos: Position) -> View:
    """The master's view of a position with no orders yet."""
    units = tuple(VisibleUnit(u.power, u.kind, u.place) for u in pos.units.values())
    dislodged = tuple(
        VisibleDislodged(VisibleUnit(d.unit.power, d.unit.kind, d.unit.place), d.attacker_from, d.retreats)
        for d in pos.dislodged.values())
    return View(MASTER, game.map_name, str(pos.phase),
                units, dict(pos.owners), dislodged, extras={"powers": list(game.powers())})


def _builder() -> Callable[..., View] | None:
    try:
        module = importlib.import_module("arbitre.views.build")
    except ImportError:
        return None
    fn = getattr(module, "build_view", None)
    return fn if callable(fn) else None


def game_view(game: Game, viewer: str = MASTER, phase: str | None = None) -> View:
    """The view of ``viewer`` at ``phase`` (a played phase such as ``F1901M``, default the current one).

    A played phase is drawn with its orders and results; the current phase
    with the pending orders the viewer may see.
    """
    index = _phase_index(game, phase)
    build = _builder()
    if build is not None:
        try:
            if index is None:
                return build(game.rules, game.position, viewer, pending=game.pending)
            rec = game.history[index]
            return build(game.rules, rec.position, viewer, outcome=rec.outcome)
        except ValueError as err:
            raise ViewUnavailableError(str(err)) from err
    if viewer != MASTER:
        raise ViewUnavailableError(
            "only the game master's map can be drawn until the views builder (arbitre.views.build) exists")
    if index is None:
        return master_view_of_position(game, game.position)
    return master_view_of_record(game, game.history[index])


def _phase_index(game: Game, phase: str | None) -> int | None:
    if phase is None:
        return None
    wanted = phase.strip().upper()
    for i, rec in enumerate(game.history):
        if _phase_code(rec.position) == wanted:
            return i
    if _phase_code(game.position) == wanted:
        return None
    known = [_phase_code(r.position) for r in game.history] + [_phase_code(game.position)]
    raise ViewUnavailableError(f"no phase {phase!r} in this game ({', '.join(known)})")


def _phase_code(pos: Position) -> str:
    ph = pos.phase
    return str(getattr(ph, "code", None) or ph)


def phases(game: Game) -> Sequence[str]:
    """The phases of a game that can be drawn, oldest first."""
    return [_phase_code(r.position) for r in game.history] + [_phase_code(game.position)]


def position_view(data: Mapping[str, Any]) -> View:
    """The master's view of a position given like the JSON interface (``map``, ``phase``, ``units``…).

    Orders, if given, are adjudicated and drawn with their results.
    """
    from arbitre.judge import position_from_data

    game = Game.new(str(data.get("map", "standard")), data.get("rules", ()) or (), data.get("options") or {})
    if "phase" in data or "units" in data:
        game.position = position_from_data(game.rules, str(data.get("phase", game.position.phase)),
                                           data.get("units", {}), data.get("supply_centers"),
                                           data.get("dislodged"), game.position.extras)
    orders = data.get("orders") or {}
    if orders:
        for power, lines in orders.items():
            game.set_orders(str(power).upper(), list(lines))
        game.advance()
        return game_view(game, MASTER, str(game.history[-1].position.phase))
    return game_view(game, MASTER)
