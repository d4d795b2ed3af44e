"""Whole random games to the end of 1910, and legal orders, against ``diplomacy`` 1.1.2 in the same run.

* **Games**: seven seeded :class:`~arbitre.bots.RandomBot` seats play a standard
  game through the judge's own loop (each power's view and legal orders, its
  orders set and checked, the phase adjudicated) from Spring 1901 to the end of
  1910 or a win.  The peer plays the same kind of game: for each phase
  ``get_all_possible_orders()``, a random possible order for every orderable
  location, ``set_orders`` and ``process()``.  Games per second, on this
  thread's CPU time.
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
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

try:
    from diplomacy import Game as PeerGame
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("the 'diplomacy' package is missing: run  .venv/bin/pip install -e .[bench]  (diplomacy==1.1.2)")

from arbitre.bots import RandomBot, play_game
from arbitre.judge import Game
from arbitre.rules import legal_orders
from arbitre.state import MOVEMENT, Position

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
    seeds = range(args.seed, args.seed + args.games)
    positions: list[Position] = []
    states: list[dict[str, Any]] = []
    ours, games = cpu(lambda: [arbitre_game(s, positions if s == args.seed else None) for s in seeds])
    peer, _ = cpu(lambda: [peer_game(s, states if s == args.seed else None) for s in seeds])
    phases = sum(len(g.history) for g in games)
    print(f"{args.games} random games of seven powers to the end of {LAST_YEAR} ({phases} phases in arbitre's)")
    print(f"  arbitre   {args.games / ours:8.1f} games/s   ({ours / phases * 1e6:.0f} µs per phase, thread CPU)")
    print(f"  diplomacy {args.games / peer:8.1f} games/s")
    print(f"  ratio     {peer / ours:8.1f}x")
    met = args.games / ours >= GAMES_TARGET
    print(f"target: at least {GAMES_TARGET:.0f} games/s: {'met' if met else 'NOT met'} ({args.games / ours:.1f}/s)")

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
