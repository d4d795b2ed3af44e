"""Whole random games to the end of 1910, and legal orders, against ``diplomacy`` 1.1.2 in the same run.

* **Games**: random standard games from Spring 1901 to the end of 1910 (or a
  win).  The peer, for each phase: ``get_all_possible_orders()``, a random
  possible order for every orderable location, ``set_orders`` and
  ``process()``.  arbitre does the same work through its API: each power's
  ``legal_orders``, a random one per unit (or build site), ``adjudicate``.
  Also timed: the judge's whole bot loop (seven :class:`~arbitre.bots.RandomBot`
  seats: each power's view and legal orders, its orders set and checked, the
  phase adjudicated), which does more than the peer.  Games per second, on
  this thread's CPU time.
* **Legal orders**: on the movement positions those games pass through, every
  power's legal orders (arbitre: ``legal_orders`` for each of the seven powers
  on a fresh copy of the position, so nothing is remembered from an earlier
  call) against the peer's ``get_all_possible_orders()`` on a fresh game in the
  same state.

Run from the repository root::

    .venv/bin/pip install -c requirements/lock.txt -e ".[bench]"     # diplomacy==1.1.2
    .venv/bin/python bench/bench_games.py [--games 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

try:
    from diplomacy import Game as PeerGame
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("the 'diplomacy' package is missing: run  .venv/bin/pip install -e .[bench]  (diplomacy==1.1.2)")

from arbitre import compiled
from arbitre.adjudicator import adjudicate
from arbitre.bots import RandomBot, play_game
from arbitre.judge import Game, start_position
from arbitre.rules import legal_orders
from arbitre.state import MOVEMENT, Position
from arbitre.variants import make_rules

LAST_YEAR = 1910
GAMES_TARGET = 100.0
"""Whole random games to 1910 per second the judge must reach."""


def cpu(call: Callable[[], Any]) -> tuple[float, Any]:
    """This thread's CPU seconds for one call (the garbage collector left on: games allocate a lot)."""
    start = time.thread_time()
    value = call()
    return time.thread_time() - start, value


def arbitre_game(seed: int, positions: list[Position] | None = None) -> Game:
    """One game of seven random bots to the end of 1910; ``positions`` collects its movement positions."""
    game = Game.new("standard")
    bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(game.powers())}

    def keep(g: Game) -> None:
        if positions is not None and g.position.phase.kind == MOVEMENT:
            positions.append(g.position)

    return play_game(game, bots, end_year=LAST_YEAR, on_phase=keep)


def api_game(seed: int) -> Position:
    """A random game through the API to the end of 1910 (or a win): legal orders, a random pick, adjudicate."""
    rng = random.Random(seed)
    rules = make_rules("standard")
    position = start_position(rules)
    target = rules.game_map.victory_centers
    while position.phase.year <= LAST_YEAR:
        orders: dict[str, list[str]] = {}
        for power in rules.game_map.powers:
            legal = legal_orders(rules, position, power)
            orders[power] = [rng.choice(legal[key]) for key in sorted(legal) if key != "WAIVE" and legal[key]]
        position = adjudicate(rules, position, orders).after
        counts = Counter(position.owners.values())
        if counts and max(counts.values()) >= target and position.phase.kind != "R":
            break
    return position


def peer_game(seed: int, states: list[dict[str, Any]] | None = None) -> PeerGame:
    """The peer's random game to the end of 1910; ``states`` collects its movement states."""
    rng = random.Random(seed)
    game = PeerGame(map_name="standard")
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= LAST_YEAR:
        if states is not None and game.get_current_phase().endswith("M"):
            states.append(game.get_state())
        possible = game.get_all_possible_orders()
        for power in game.powers:
            game.set_orders(
                power,
                [rng.choice(possible[loc]) for loc in game.get_orderable_locations(power) if possible.get(loc)],
            )
        game.process()
    return game


def main() -> int:
    """Time both, print games per second, legal orders per position and the targets."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(
        f"core: {'compiled (mypyc, scripts/build-compiled)' if compiled() else 'pure Python'}, load average {os.getloadavg()[0]:.2f}"
    )
    seeds = range(args.seed, args.seed + args.games)
    positions: list[Position] = []
    states: list[dict[str, Any]] = []
    api, _ = cpu(lambda: [api_game(s) for s in seeds])
    bots, games = cpu(lambda: [arbitre_game(s, positions if s == args.seed else None) for s in seeds])
    peer, _ = cpu(lambda: [peer_game(s, states if s == args.seed else None) for s in seeds])
    phases = sum(len(g.history) for g in games)
    n = args.games
    print(f"{n} random games of seven powers to the end of {LAST_YEAR}, games per second (thread CPU):")
    print(f"  arbitre API (legal_orders + adjudicate) {n / api:8.1f}   ratio to diplomacy {peer / api:5.1f}x")
    print(f"  arbitre bot loop (views, bots, checks)  {n / bots:8.1f}   ratio to diplomacy {peer / bots:5.1f}x")
    print(f"  diplomacy (possible orders + process)   {n / peer:8.1f}")
    print(f"  ({phases} phases in the bot games: {bots / phases * 1e6:.0f} µs per phase)")
    met = n / api >= GAMES_TARGET
    print(f"target: at least {GAMES_TARGET:.0f} games/s: {'met' if met else 'NOT met'} (API loop {n / api:.1f}/s)")

    # Legal orders: every power, on positions no call has seen (a fresh copy drops the per-position memo).
    fresh = [replace(p) for p in positions for _ in range(3)]
    rules = games[0].rules
    gc.collect()
    ours_l, _ = cpu(lambda: [[legal_orders(rules, p, power) for power in rules.game_map.powers] for p in fresh])
    peer_games = []
    for state in states:
        g = PeerGame(map_name="standard")
        g.set_state(state)
        peer_games.append(g)
    peer_l, _ = cpu(lambda: [[g.get_all_possible_orders() for _ in range(3)] for g in peer_games])
    per_ours, per_peer = ours_l / len(fresh) * 1e6, peer_l / (3 * len(peer_games)) * 1e6
    print(f"legal orders of all seven powers per movement position ({len(positions)} and {len(states)} positions):")
    print(f"  arbitre {per_ours:8.0f} µs   diplomacy {per_peer:8.0f} µs   ratio {per_peer / per_ours:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
