"""Views for one viewer, through the engine's allow-list builder, and their JSON form.

Every board, order list and report the server sends is built here from
``arbitre.views`` — never from a raw game or position.  While the engine's
builder (``arbitre.views.build``) is not installed, a standard-rules stand-in
is used, and only for games without hidden information.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from arbitre.judge import Game
from arbitre.views import MASTER, OBSERVER, View, VisibleDislodged, VisibleOrder, VisibleUnit

try:  # the engine's builder, when present
    from arbitre.views.build import build_view as _build_view
except ImportError:  # pragma: no cover - depends on the engine's progress
    _build_view = None

HIDDEN_INFO_RULES = frozenset({"submarines", "espionnite"})
"""Rule modules whose games need the engine's view builder (the stand-in would not hide enough)."""


class ViewUnavailable(RuntimeError):
    """Raised when a game's views need the engine's builder and it is not installed."""


def viewer_id(role: str, power: str | None) -> str:
    """The view builder's viewer id of a member: its power, ``master`` or ``observer``."""
    if role == "master":
        return MASTER
    if role == "player" and power:
        return power
    return OBSERVER


def current_view(game: Game, viewer: str) -> View:
    """The current phase as ``viewer`` sees it (no pending order of anyone is in it)."""
    view_fn = getattr(game, "view", None)
    if callable(view_fn) and _build_view is not None:
        view: View = view_fn(viewer)
        return view
    return phase_view(game, None, viewer)


def phase_view(game: Game, index: int | None, viewer: str) -> View:
    """Phase ``index`` of the history (``None``: the current phase) as ``viewer`` sees it."""
    if index is None:
        position, outcome = game.position, None
    else:
        record = game.history[index]
        position, outcome = record.position, record.outcome
    if _build_view is not None:
        return _build_view(game.rules, position, viewer, outcome)
    if HIDDEN_INFO_RULES & set(game.rules.variant_names):
        raise ViewUnavailable("this game's rules hide information and the view builder is not installed")
    return _standard_view(position, viewer, outcome)


def _standard_view(position: Any, viewer: str, outcome: Any) -> View:
    """Stand-in builder for rules where everything on the board and every adjudicated order is public."""
    units = tuple(VisibleUnit(u.power, u.kind, u.place) for u in position.units.values())
    dislodged = tuple(VisibleDislodged(VisibleUnit(d.unit.power, d.unit.kind, d.unit.place), d.attacker_from,
                                       tuple(d.retreats) if d.retreats is not None else None)
                      for d in position.dislodged.values())
    orders: tuple[VisibleOrder, ...] = ()
    bounced: tuple[str, ...] = ()
    if outcome is not None:
        orders = tuple(VisibleOrder(r.power, r.order_text, type(r.order).__name__.lower() if r.order else "invalid",
                                    (), r.outcome, r.reason) for r in outcome.results)
        bounced = tuple(sorted(outcome.bounced))
    return View(viewer, position.map_name, str(position.phase), units, dict(position.owners), dislodged, orders,
                (), bounced)


def view_data(view: View) -> dict[str, Any]:
    """The JSON form of a view (every field of the view, nothing else)."""
    return asdict(view)


def renderer_available() -> bool:
    """Is the map renderer (``arbitre.render``) installed?"""
    try:
        import arbitre.render  # noqa: F401
    except ImportError:
        return False
    return True


def map_svg(view: View) -> str | None:
    """The map of a view as SVG, when the renderer is installed; ``None`` otherwise."""
    try:
        from arbitre.render import render_svg
    except ImportError:
        return None
    try:
        return render_svg(view)
    except Exception:  # the map is an extra: a page without it still works
        return None
