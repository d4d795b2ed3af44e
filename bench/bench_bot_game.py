"""Speed of the house bot: whole 7-bot standard games to the end of 1910, wall time per game.

Each game seats seven house bots (seeds ``seed .. seed+games-1``) and plays
every phase from Spring 1901 to Winter 1910 (views, legal orders, the bots'
choices and the adjudication all included); the draw rule of bot games ends
it after 1910.  Prints the median and the slowest game, and the share of the
time spent choosing orders.

Run from the repository root::

    .venv/bin/python bench/bench_bot_game.py [--games 5] [--seed 0] [--map standard] [--rules submarines,espionnite]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from arbitre.bots import HouseBot, play_game
from arbitre.judge import Game
from arbitre.rules import RuleSet
from arbitre.views import View


class Timed:
    """A house bot that adds the time it spends choosing to a shared counter."""

    def __init__(self, seed: int, spent: list[float]) -> None:
        self.name = "house"
        self.bot = HouseBot(seed)
        self.spent = spent

    def orders(self, rules: RuleSet, view: View, legal: Any) -> list[str]:
        start = time.perf_counter()
        try:
            return self.bot.orders(rules, view, legal)
        finally:
            self.spent[0] += time.perf_counter() - start

    def reaction(self, rules: RuleSet, view: View, legal: Any) -> str | None:
        start = time.perf_counter()
        try:
            return self.bot.reaction(rules, view, legal)
        finally:
            self.spent[0] += time.perf_counter() - start


def main() -> None:
    """Play the games and print the timings."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--map", default="standard")
    ap.add_argument("--rules", default="")
    ap.add_argument("--years", type=int, default=10)
    args = ap.parse_args()
    rules = [r for r in args.rules.split(",") if r]
    times, bot_times, phases = [], [], []
    for i in range(args.games):
        game = Game.new(args.map, rules)
        spent = [0.0]
        bots = {p: Timed(args.seed + i, spent) for p in game.powers()}
        start = time.perf_counter()
        play_game(game, bots, end_year=game.phase.year + args.years - 1)
        times.append(time.perf_counter() - start)
        bot_times.append(spent[0])
        phases.append(len(game.history))
    label = "+".join([args.map, *rules])
    print(
        f"{label}: {args.games} games of 7 house bots, {args.years} years "
        f"({statistics.median(phases):.0f} phases): median {statistics.median(times):.2f} s per game, "
        f"slowest {max(times):.2f} s; choosing orders {statistics.median(bot_times):.2f} s of it"
    )


if __name__ == "__main__":
    main()
