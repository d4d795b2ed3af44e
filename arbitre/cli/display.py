"""Plain-text rendering of positions, results and history for the terminal."""

from __future__ import annotations

from arbitre.adjudicator import OrderResult
from arbitre.judge import Game
from arbitre.state import Position


def position_text(game: Game, position: Position | None = None) -> str:
    """The position as lines: phase, each power's units and centres."""
    pos = position or game.position
    lines = [f"{pos.phase.long_name} ({pos.phase})"]
    if position is None and game.step != "orders":
        lines[0] += f" — {game.step} step: each power may change one order"
    for power in game.powers():
        units = ", ".join(str(u) for u in pos.units_of(power)) or "-"
        centers = pos.centers_of(power)
        lines.append(f"  {power:<10} {len(centers):>2} centres  units: {units}")
    if pos.dislodged:
        lines.append("  dislodged:")
        for d in pos.dislodged.values():
            lines.append(f"    {d.unit.power} {d.unit} (from {d.attacker_from}) may retreat to "
                         f"{', '.join(d.retreats or ()) or 'nowhere'}")
    if game.is_over:
        lines.append(f"  game {game.status}: {', '.join(game.winners)}")
    return "\n".join(lines)


def results_text(results: tuple[OrderResult, ...] | list[OrderResult]) -> str:
    """One line per order result."""
    lines = []
    for r in results:
        extra = f" ({r.reason})" if r.reason else ""
        if r.message:
            extra += f": {r.message}"
        lines.append(f"  {r.power:<10} {r.order_text:<28} {r.outcome}{extra}")
    return "\n".join(lines)


def history_text(game: Game) -> str:
    """Every played phase with its results."""
    out = []
    for rec in game.history:
        out.append(f"{rec.position.phase.long_name}")
        out.append(results_text([r for r in rec.results if r.reason != "no_order"]) or "  (no orders)")
    return "\n".join(out) or "no phase played yet"
