"""Strength of the house bot: one house bot against six baseline players, on the standard map.

For each pairing (``random``: random legal orders; ``hold``: a bot that holds
and builds), ``--games`` seeded games are played; game ``i`` seats the house
bot as power ``i mod 7`` (so every power is played as often), the six others
are the baseline with seeds derived from ``i``.  A game ends with a solo
victory (18 centres) or, after ``--end-year``, as a draw (the bots' end rule).
The table gives the house bot's share of wins and its mean share of the 34
centres at the end, with 95% confidence intervals (Wilson for wins, normal
approximation of the mean for centres).  Equal strength would be a win share
of about 1/7 at most and a centre share of about 1/7 (14%).

Run from the repository root::

    .venv/bin/python bench/bench_bot_strength.py [--games 100] [--end-year 1920] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from arbitre.bots import Bot, HoldBot, HouseBot, RandomBot, play_game
from arbitre.judge import WON, Game


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and normal-approximation confidence interval."""
    m = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return m, m - half, m + half


def play(seed: int, baseline: type[RandomBot] | type[HoldBot], end_year: int) -> tuple[str, bool, float, bool]:
    """One game: (house power, house won, house centre share, someone else won)."""
    game = Game.new("standard")
    powers = game.powers()
    house = powers[seed % len(powers)]
    bots: dict[str, Bot] = {p: baseline(seed * 31 + i) for i, p in enumerate(powers)}
    bots[house] = HouseBot(seed)
    play_game(game, bots, end_year=end_year)
    total = len(game.rules.game_map.supply_centers)
    won = game.status == WON and house in game.winners
    other = game.status == WON and house not in game.winners
    return house, won, game.centers(house) / total, other


def main() -> None:
    """Play the pairings and print the table (Markdown)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--end-year", type=int, default=1920)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = []
    for name, baseline in (("random legal orders", RandomBot), ("holding bot", HoldBot)):
        start = time.perf_counter()
        results = [play(args.seed + i, baseline, args.end_year) for i in range(args.games)]
        wins = sum(1 for _, w, _, _ in results if w)
        lost = sum(1 for _, _, _, o in results if o)
        shares = [s for _, _, s, _ in results]
        lo, hi = wilson(wins, len(results))
        m, mlo, mhi = mean_ci(shares)
        rows.append((name, len(results), wins / len(results), lo, hi, m, mlo, mhi, lost, time.perf_counter() - start))
    print(
        f"House bot (1 seat) vs 6 baseline seats, standard map, {args.games} games per pairing, "
        f"draw after {args.end_year}; 95% CI. Equal strength: ~14% of the centres.\n"
    )
    print("| opponents | games | house wins (95% CI) | house centre share (95% CI) | a baseline won | time |")
    print("|---|---|---|---|---|---|")
    for name, n, w, lo, hi, m, mlo, mhi, lost, secs in rows:
        print(f"| {name} | {n} | {w:.0%} ({lo:.0%}–{hi:.0%}) | {m:.0%} ({mlo:.0%}–{mhi:.0%}) | {lost} | {secs:.0f} s |")


if __name__ == "__main__":
    main()
