"""Orders of retreat and adjustment phases: retreat to the best free place, build where it counts.

Retreats go to the most valuable place no other retreat of ours takes (or the
unit disbands).  Builds go on the home centres with the best value for the
unit kind built there; disbands remove the units standing on the least
valuable places.  How many builds are owed is read from the view: centres
owned (as the rule modules count them for builds) minus units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.bots.board import BotBoard
from arbitre.bots.rng import Rng
from arbitre.bots.values import BUILD, RETREAT, place_values
from arbitre.orders import Order
from arbitre.state import Phase, Position, Unit


def retreat_orders(board: BotBoard, parsed: Mapping[str, Sequence[tuple[str, Order]]], rng: Rng) -> list[str]:
    """One retreat or disband per dislodged unit of ours."""
    values = place_values(board, RETREAT)
    taken: set[str] = set()
    out: list[str] = []
    for key in rng.shuffled(sorted(parsed)):
        best: tuple[float, str, str] | None = None
        fallback = None
        for text, order in parsed[key]:
            kind = board.kind(order)
            if kind == "disband":
                fallback = text
            elif kind == "retreat" and order.unit is not None:
                target = str(getattr(order, "target", ""))
                prov = board.province(target)
                if prov in taken:
                    continue
                value = values.get(order.unit.kind or "A", {}).get(target, 0.0)
                if best is None or (value, text) > (best[0], best[1]):
                    best = (value, text, prov)
        if best is not None:
            taken.add(best[2])
            out.append(best[1])
        elif fallback is not None:
            out.append(fallback)
    return sorted(out)


def owed_builds(board: BotBoard) -> int:
    """Builds (positive) or disbands (negative) this power owes, from its view."""
    rules = board.rules
    units = {board.province(u.place): Unit(u.power or "?", u.kind, u.place) for u in board.view.units}
    position = Position(board.view.map_name, Phase.parse(board.view.phase), units, dict(board.view.owners))
    return rules.build_centers(board.me, position) - board.view.unit_counts.get(board.me, 0)


def adjustment_orders(board: BotBoard, parsed: Mapping[str, Sequence[tuple[str, Order]]], rng: Rng) -> list[str]:
    """Builds on the best home centres, or disbands of the least useful units."""
    values = place_values(board, BUILD)
    owed = owed_builds(board)
    if owed > 0:
        options: list[tuple[float, str, str]] = []
        for key, opts in parsed.items():
            for text, order in opts:
                if board.kind(order) == "build" and order.unit is not None:
                    place = order.unit.place
                    kind = order.unit.kind or "A"
                    jitter = rng.random() * 1e-6
                    options.append((values.get(kind, {}).get(place, 0.0) * _kind_bias(kind, rng) + jitter, key, text))
        options.sort(key=lambda o: (-o[0], o[2]))
        used: set[str] = set()
        out: list[str] = []
        for _, key, text in options:
            if key in used or len(out) >= owed:
                continue
            used.add(key)
            out.append(text)
        return sorted(out)
    if owed < 0:
        ranked: list[tuple[float, str]] = []
        for _key, opts in parsed.items():
            for text, order in opts:
                if board.kind(order) == "disband" and order.unit is not None:
                    kind = order.unit.kind or "A"
                    ranked.append((values.get(kind, {}).get(order.unit.place, 0.0), text))
        ranked.sort()
        return sorted(text for _, text in ranked[:-owed])
    return []


def _kind_bias(kind: str, rng: Rng) -> float:
    """Armies and fleets are valued as they are; other kinds (submarines) are built now and then."""
    if kind in ("A", "F"):
        return 1.0
    return 1.05 if rng.random() < 0.5 else 0.8
