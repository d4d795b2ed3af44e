"""Views for one viewer, built by the engine's allow-list builder, and their JSON form.

Every board, order list and report the server sends comes from
:meth:`arbitre.judge.Game.view` / :func:`arbitre.judge.game.record_view` (a played phase's record)
(:mod:`arbitre.views.build`) — never from a raw game or position.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from arbitre.judge import Game, PhaseRecord
from arbitre.judge.game import record_view
from arbitre.rules import RuleSet
from arbitre.server.boards import BOARDS, board_key
from arbitre.server.i18n import translator
from arbitre.views import MASTER, OBSERVER, View
from arbitre.words.events import report_words


def viewer_id(role: str, power: str | None) -> str:
    """The view builder's viewer id of a member: its power, ``master`` or ``observer``."""
    if role == "master":
        return MASTER
    if role == "player" and power:
        return power
    return OBSERVER


def current_view(game: Game, viewer: str) -> View:
    """The current phase as ``viewer`` sees it (once the orders locked: its own locked orders and reveal)."""
    return game.view(viewer)


def phase_view(rules: RuleSet, record: PhaseRecord, viewer: str) -> View:
    """A played phase, read from its record, as ``viewer`` sees it: orders, results, report."""
    return record_view(rules, record, viewer)


def view_data(view: View, rules: RuleSet) -> dict[str, Any]:
    """The JSON form of a view: every field of the view, and each report line's words (made from it alone)."""
    out = asdict(view)
    out["report"] = [
        {"key": line.key, **report_words(rules, line), "audience": list(line.audience), "data": dict(line.data)}
        for line in view.report
    ]
    return out


def renderer_available() -> bool:
    """Is the map renderer (``arbitre.render``) installed?"""
    try:
        import arbitre.render  # noqa: F401
    except ImportError:
        return False
    return True


def map_svg(view: View, lang: str = "en") -> str | None:
    """The map of a view as SVG (its legend in ``lang``), when the renderer is installed; ``None`` otherwise.

    Drawn once per process for each distinct (view, language): see :mod:`arbitre.server.boards`."""
    return BOARDS.get(board_key(view, lang, "svg"), lambda: draw_svg(view, lang))


def map_tag(view: View, lang: str = "en") -> str:
    """The entity tag of a view's map in ``lang``: a digest of exactly what is drawn (the view and its words).

    It changes when, and only when, the reader's own view changes: hidden state never moves it, so a map
    URL carrying it (``?v=``) names one picture for ever and may be cached as immutable."""
    return board_key(view, lang, "svg").hex()[:24]


def draw_svg(view: View, lang: str = "en") -> str | None:
    """The map of a view freshly drawn (no cache), or ``None`` without a renderer."""
    try:
        from arbitre.render import render_svg
    except ImportError:
        return None
    try:
        return render_svg(view, words=translator(lang))
    except Exception:  # the map is an extra: a page without it still works
        return None


def power_colour(power: str | None, map_name: str) -> str:
    """The colour the map gives ``power`` (order previews are drawn in it); "" without a renderer."""
    if not power:
        return ""
    try:
        from arbitre.render.svg import power_style
    except ImportError:
        return ""
    return power_style(power, map_name).colour


PAGE_IDS = ("units", "dislodged", "legend")
"""Ids of the map's layers that the page itself uses: renamed ``map-…`` when the page puts the map in itself
(the game page's script, ``static/js/mapfetch.js``, is told them)."""
