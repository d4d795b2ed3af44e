"""Colonial's advice to the house bots: a Suez permission for our own fleet going through the canal.

This module is the one part of Colonial that uses the bots' toolkit: the bots
load it by the module's ``bot_advice`` (its rules never import it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arbitre.bots.board import BotBoard
from arbitre.bots.facets import BotAdvice
from arbitre.bots.movement import Choice
from arbitre.bots.rng import Rng
from arbitre.orders import Order
from arbitre.variants.colonial.kinds import SUEZ_PERMISSION


def _fleet_key(order: Order) -> str:
    """The place of the fleet a permission names, or ``""``."""
    ref = getattr(order, "fleet", None)
    return str(ref.place) if ref is not None else ""


class ColonialAdvice(BotAdvice):
    """One permission a turn: for our own fleet whose chosen move goes through the canal."""

    kinds = frozenset({SUEZ_PERMISSION.name})

    def whole_orders(
        self, board: BotBoard, options: Sequence[tuple[str, Order]], chosen: Mapping[str, Choice], rng: Rng
    ) -> list[str]:
        """The first permission whose fleet we move to its target."""
        if {board.kind(o) for _, o in options} != {SUEZ_PERMISSION.name}:
            return []
        passing = [
            t
            for t, o in options
            if (c := chosen.get(_fleet_key(o))) is not None
            and c.kind == "move"
            and c.dest == board.province(str(getattr(o, "target", "")))
        ]
        return passing[:1]


ADVICE = ColonialAdvice()
"""Named by :attr:`Colonial.bot_advice <arbitre.variants.colonial.variant.Colonial.bot_advice>`."""
