"""Espionnite's advice to the house bots: whom to spy on, which unit to guard, the one change after the reports.

The spy watches the foreign unit that threatens most of what we hold; the
counter-spy guards our unit with the most valuable move.  In the reaction
step the bot reads its own report (the view's report lines) and, when a spied
move goes into a province of ours or into the target of one of our moves,
changes one idle unit's order into a support that answers it.

This module is the one part of Espionnite that uses the bots' toolkit: the
bots load it by the module's ``bot_advice`` (its rules never import it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.bots.board import BotBoard
from arbitre.bots.facets import BotAdvice
from arbitre.bots.movement import Choice
from arbitre.bots.rng import Rng
from arbitre.orders import Order, OrderError
from arbitre.variants.espionnite.kinds import COUNTER_SPY, SPY
from arbitre.variants.espionnite.wording import SPY_SUCCEEDED


def _moves(board: BotBoard, order: Order | None) -> bool:
    """Does ``order`` take its unit somewhere (its kind's declared effect)?"""
    return board.rules.kind_of(order).effect.moves


def spy_order(board: BotBoard, options: Sequence[tuple[str, Order]], rng: Rng) -> str | None:
    """The spy order: the foreign unit that can reach most of our units and centres."""
    nb = board.gmap.province_neighbours
    ours = set(board.mine) | {c for c, p in board.view.owners.items() if p == board.me}
    best: tuple[float, str] | None = None
    for text, order in options:
        ref = getattr(order, "target", None)
        if ref is None:
            continue
        seen = board.units.get(board.province(ref.place))
        if seen is None:
            continue
        reach = nb.get(seen[1], {}).get(seen[2], frozenset())
        score = len(reach & ours) + rng.random() * 0.5
        if best is None or score > best[0]:
            best = (score, text)
    return best[1] if best else None


def counter_spy_order(
    board: BotBoard, options: Sequence[tuple[str, Order]], chosen: Mapping[str, Choice]
) -> str | None:
    """The counter-spy order: guard our unit whose chosen order is worth most."""
    by_place = {board.province(k): c for k, c in chosen.items()}
    best: tuple[float, str] | None = None
    for text, order in options:
        ref = getattr(order, "target", None)
        if ref is None:
            continue
        c = by_place.get(board.province(ref.place))
        score = abs(c.value) if c is not None else 0.0
        if best is None or (score, text) > best:
            best = (score, text)
    return best[1] if best else None


def spied_orders(board: BotBoard) -> list[Order]:
    """The foreign orders our spy reported (read from the view's report lines)."""
    out: list[Order] = []
    for line in board.view.report:
        if line.key != SPY_SUCCEEDED:
            continue
        text = str(line.data.get("order", "")).split("; ")[0]  # the unit's own order (then any given with it)
        try:
            out.append(board.rules.parse(text))
        except OrderError:
            continue
    return out


def reaction(board: BotBoard, parsed: Mapping[str, Sequence[tuple[str, Order]]]) -> str | None:
    """The one change answering a spied move, or ``None`` to keep the locked orders."""
    mine: dict[str, Order] = {}
    for vo in board.view.orders:
        if vo.power != board.me:
            continue
        try:
            order = board.rules.parse(vo.text)
        except OrderError:
            continue
        if order.unit is not None:
            mine[board.province(order.unit.place)] = order
    for spied in spied_orders(board):
        if not _moves(board, spied):
            continue
        target = board.province(str(getattr(spied, "target", "")))
        wanted: tuple[str, str | None] | None = None
        if target in board.mine and not _moves(board, mine.get(target)):
            wanted = (target, None)
        else:
            for prov, order in mine.items():
                if board.kind(order) == "move" and board.province(str(getattr(order, "target", ""))) == target:
                    wanted = (prov, target)
        if wanted is None:
            continue
        idle_first = sorted(
            parsed, key=lambda k: (board.kind(mine.get(board.province(k))) not in ("hold", "invalid"), k)
        )
        for key in idle_first:
            prov = board.province(key)
            if prov == wanted[0]:
                continue
            for text, order in parsed[key]:
                ref = getattr(order, "supported", None)
                if board.kind(order) != "support" or ref is None or board.province(ref.place) != wanted[0]:
                    continue
                to = getattr(order, "target", None)
                if (board.province(to) if to else None) == wanted[1]:
                    return text
    return None


class EspionniteAdvice(BotAdvice):
    """Spy on the most threatening foreign unit, guard the most valuable own unit, answer a spied move."""

    kinds = frozenset({SPY.name, COUNTER_SPY.name})

    def whole_orders(
        self, board: BotBoard, options: Sequence[tuple[str, Order]], chosen: Mapping[str, Choice], rng: Rng
    ) -> list[str]:
        """The spy order for the spy key, the counter-spy order for the counter-spy key."""
        kinds = {board.kind(o) for _, o in options}
        if kinds == {SPY.name}:
            spy = spy_order(board, options, rng)
            return [spy] if spy else []
        if kinds == {COUNTER_SPY.name}:
            guard = counter_spy_order(board, options, chosen)
            return [guard] if guard else []
        return []

    def reaction(self, board: BotBoard, parsed: Mapping[str, Sequence[tuple[str, Order]]]) -> str | None:
        """The one change answering a spied move, or ``None``."""
        return reaction(board, parsed)


ADVICE = EspionniteAdvice()
"""Named by :attr:`Espionnite.bot_advice <arbitre.variants.espionnite.variant.Espionnite.bot_advice>`."""
