"""Plain-text rendering for the terminal, always of a viewer's view (the master's by default).

Nothing here reads a position or a result directly: every line comes from a
:class:`~arbitre.views.View`, so ``--viewer FRANCE`` prints what France may
know and nothing more.
"""

from __future__ import annotations

from arbitre.judge import Accepts, Game
from arbitre.rules import RuleSet
from arbitre.views import MASTER, View
from arbitre.words.events import report_line_text


def view_text(view: View, game: Game | None = None) -> str:
    """A view's board as lines: phase, each power's centres and the units the viewer sees."""
    lines = [f"{view.phase}" + ("" if view.viewer == MASTER else f" — as {view.viewer} sees it")]
    powers = list(game.powers()) if game is not None else sorted(set(view.owners.values()) | set(view.unit_counts))
    for power in powers:
        seen = [f"{u.kind} {u.place}" + (" (submerged)" if u.hidden else "") for u in view.units if u.power == power]
        centers = sum(1 for p in view.owners.values() if p == power)
        count = view.unit_counts.get(power, 0)
        hidden = count - len(seen) - sum(1 for d in view.dislodged if d.unit.power == power)
        units = ", ".join(seen) or "-"
        if hidden > 0:
            units += f" (+{hidden} unseen)"
        lines.append(f"  {power:<10} {centers:>2} centres  units: {units}")
    contacts = [u.place for u in view.units if u.power is None]
    if contacts:
        lines.append(f"  sonar contacts (nationality unknown): {', '.join(contacts)}")
    if view.dislodged:
        lines.append("  dislodged:")
        for d in view.dislodged:
            origin = f" (from {d.attacker_from})" if d.attacker_from else ""
            lines.append(
                f"    {d.unit.power} {d.unit.kind} {d.unit.place}{origin} may retreat to "
                f"{', '.join(d.retreats or ()) or 'nowhere'}"
            )
    return "\n".join(lines)


def position_text(game: Game, viewer: str = MASTER) -> str:
    """The current phase as ``viewer`` sees it, with the game's step and status."""
    view = game.view(viewer)
    text = view_text(view, game).splitlines()
    text[0] = f"{game.position.phase.long_name} ({text[0]})"
    if game.current_step.accepts == Accepts.ONE_CHANGE:
        text[0] += f" — {game.step} step: each power may change one order"
    if game.is_over:
        text.append(f"  game {game.status}: {', '.join(game.winners)}")
    return "\n".join(text)


def results_text(view: View, rules: RuleSet) -> str:
    """The orders of an adjudicated phase the viewer may read (not the 'no order' holds), then its report."""
    lines = []
    for o in view.orders:
        if o.reason == "no_order":
            continue
        outcome = o.outcome if o.outcome is not None else "(result not told)"
        extra = f" ({o.reason})" if o.reason else ""
        if o.message:
            extra += f": {o.message}"
        lines.append(f"  {o.power or '?':<10} {o.text:<28} {outcome}{extra}")
    lines.extend(f"  * {report_line_text(rules, line, 'en')}" for line in view.report)
    return "\n".join(lines)


def last_phase_text(game: Game, viewer: str = MASTER) -> str:
    """The phase just adjudicated as ``viewer`` may see it."""
    if not game.history:
        return ""
    return results_text(game.phase_view(len(game.history) - 1, viewer), game.rules)


def history_text(game: Game, viewer: str = MASTER) -> str:
    """Every played phase with the results and reports ``viewer`` may read."""
    out = []
    for rec, view in zip(game.history, game.history_views(viewer), strict=True):
        out.append(f"{rec.position.phase.long_name}")
        out.append(results_text(view, game.rules) or "  (no orders)")
    return "\n".join(out) or "no phase played yet"
