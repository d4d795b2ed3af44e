"""The house bot: plays any map and rule module from its power's view and legal-order list only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from arbitre.bots.adjust import adjustment_orders, retreat_orders
from arbitre.bots.board import BotBoard
from arbitre.bots.espionage import counter_spy_order, reaction, spy_order
from arbitre.bots.movement import movement_orders
from arbitre.bots.rng import derive
from arbitre.orders import Order
from arbitre.rules import RuleSet
from arbitre.views import View


class Bot(Protocol):
    """What the judge's callers (CLI, server, benchmarks) need of a bot."""

    name: str

    def orders(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> list[str]:
        """The orders of ``view.viewer`` for the current step, chosen from ``legal``."""

    def reaction(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> str | None:
        """In a reaction step (Espionnite): the one change, or ``None``."""


class HouseBot:
    """DumbBot-style play (see :mod:`arbitre.bots.values`), deterministic for its seed.

    It reads nothing but ``view`` (its power's view), ``legal`` (its legal
    orders, which the judge builds from what the power knows) and the rule
    set's public map; the seed with the phase and power names every random draw.
    """

    name = "house"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def orders(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> list[str]:
        """The bot's orders for the phase ``view`` shows."""
        rng = derive(self.seed, view.phase, view.viewer, "orders")
        board = BotBoard.of(rules, view)
        parsed = board.parse_legal(legal)
        kind = view.phase[-1]
        if kind == "R":
            return retreat_orders(board, parsed, rng)
        if kind == "A":
            return adjustment_orders(board, parsed, rng)
        chosen = movement_orders(board, parsed, rng)
        out = [c.text for c in chosen.values()]
        whole = {k: opts for k, opts in parsed.items() if opts and all(o.unit is None for _, o in opts)}
        for key in sorted(whole):
            kinds = {board.kind(o) for _, o in whole[key]}
            if kinds == {"spy"}:
                spy = spy_order(board, whole[key], rng)
                if spy:
                    out.append(spy)
            elif kinds == {"counter_spy"}:
                guard = counter_spy_order(board, whole[key], chosen)
                if guard:
                    out.append(guard)
            elif kinds == {"suez_permission"}:
                passing = [
                    t
                    for t, o in whole[key]
                    if (c := chosen.get(_fleet_key(board, o))) is not None
                    and c.kind == "move"
                    and c.dest == board.province(str(getattr(o, "target", "")))
                ]
                out.extend(passing[:1])  # one permission a turn: for our own fleet going through
        return out

    def reaction(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> str | None:
        """The one change after the lock's reports, or ``None``."""
        board = BotBoard.of(rules, view)
        return reaction(board, board.parse_legal(legal))


def _fleet_key(board: BotBoard, order: Order) -> str:
    """The place of the fleet a whole-power order names (a Suez permission), or ``""``."""
    ref = getattr(order, "fleet", None)
    return str(ref.place) if ref is not None else ""
