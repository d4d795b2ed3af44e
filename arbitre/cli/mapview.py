"""Views for ``arbitre map``: a game phase as one viewer sees it, or a position given as JSON.

Every map is drawn from :func:`arbitre.views.build.build_view`, so a player's map
holds only what that player may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.judge import Game
from arbitre.state import Position
from arbitre.views.build import build_view
from arbitre.views.model import MASTER, View


class ViewUnavailableError(ValueError):
    """Raised when the view asked for cannot be built (unknown phase or viewer)."""


def game_view(game: Game, viewer: str = MASTER, phase: str | None = None) -> View:
    """The view of ``viewer`` at ``phase`` (a played phase such as ``F1901M``, default the current one).

    A played phase is drawn with its orders and results; the current phase
    with the pending orders the viewer may see.
    """
    index = _phase_index(game, phase)
    try:
        if index is None:
            return build_view(game.rules, game.position, viewer, pending=game.pending)
        rec = game.history[index]
        return build_view(game.rules, rec.position, viewer, outcome=rec.outcome)
    except ValueError as err:
        raise ViewUnavailableError(str(err)) from err


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
    return str(pos.phase)


def phases(game: Game) -> Sequence[str]:
    """The phases of a game that can be drawn, oldest first."""
    return [_phase_code(r.position) for r in game.history] + [_phase_code(game.position)]


def position_view(data: Mapping[str, Any], viewer: str = MASTER) -> View:
    """The view of ``viewer`` of a position given like the JSON interface (``map``, ``phase``, ``units``…).

    Orders, if given, are adjudicated and drawn with their results.
    """
    from arbitre.judge import position_from_data

    game = Game.new(str(data.get("map", "standard")), data.get("rules", ()) or (), data.get("options") or {})
    if "phase" in data or "units" in data:
        game.position = position_from_data(
            game.rules,
            str(data.get("phase", game.position.phase)),
            data.get("units", {}),
            data.get("supply_centers"),
            data.get("dislodged"),
            game.position.extras,
        )
    orders = data.get("orders") or {}
    if orders:
        for power, lines in orders.items():
            game.set_orders(str(power).upper(), list(lines))
        game.advance()
        return game_view(game, viewer, str(game.history[-1].position.phase))
    return game_view(game, viewer)
