"""The house bot: plays any map and rule module from its power's view and legal-order list only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from arbitre.bots.adjust import adjustment_orders, retreat_orders
from arbitre.bots.board import BotBoard
from arbitre.bots.facets import advice_of
from arbitre.bots.movement import movement_orders
from arbitre.bots.rng import derive
from arbitre.rules import RuleSet
from arbitre.views import View


class Bot(Protocol):
    """What the judge's callers (CLI, server, benchmarks) need of a bot."""

    name: str

    def orders(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> list[str]:
        """The orders of ``view.viewer`` for the current step, chosen from ``legal``."""

    def reaction(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> str | None:
        """In a step that accepts one change: the change, or ``None``."""


class HouseBot:
    """DumbBot-style play (see :mod:`arbitre.bots.values`), deterministic for its seed.

    It reads nothing but ``view`` (its power's view), ``legal`` (its legal
    orders, which the judge builds from what the power knows) and the rule
    set's public map and declarations; the seed with the phase and power names
    every random draw.  Orders that name no unit are given on the advice of
    the rule module whose kinds they are (:mod:`arbitre.bots.facets`).
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
        advices = advice_of(rules) if whole else ()
        for key in sorted(whole):
            kinds = {board.kind(o) for _, o in whole[key]}
            for advice in advices:
                if kinds <= advice.kinds:
                    out.extend(advice.whole_orders(board, whole[key], chosen, rng))
                    break
        return out

    def reaction(self, rules: RuleSet, view: View, legal: Mapping[str, Sequence[str]]) -> str | None:
        """The one change after the lock's reports, or ``None``."""
        board = BotBoard.of(rules, view)
        parsed = board.parse_legal(legal)
        for advice in advice_of(rules):
            change = advice.reaction(board, parsed)
            if change is not None:
                return change
        return None
