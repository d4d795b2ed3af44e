"""arbitre's games through MILA's own checker: exported saved games that ``is_valid_saved_game`` accepts.

Plays ``--games`` seeded games of seven house bots and as many games of
random legal orders (every unit ordered, every build and disband owed given),
on the standard map with the ``mila`` preset, to the end of ``--end-year``;
exports each with ``arbitre.interface.mila.export_game`` and hands it to
MILA's unmodified ``diplomacy.utils.export.is_valid_saved_game`` (which replays
every phase with MILA's engine and checks orders, next states and its state
hash).  Each game is then imported back (``import_game``).  Prints one line per
game and the counts; exits 1 when a game is refused.  A refused game is
explained phase by phase with ``--explain``.

Run from the repository root (``diplomacy`` installed, pinned by the lock file)::

    .venv/bin/python bench/bench_mila_export.py [--games 20] [--seed 0] [--end-year 1910]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from arbitre.adjudicator import adjustment_counts
from arbitre.bots import HouseBot, play_game
from arbitre.interface.mila import export_game, import_game
from arbitre.judge import Game

OPTIONS = {"preset": "mila"}


def house_game(seed: int, end_year: int) -> Game:
    """Seven house bots (seeds ``seed*7 .. seed*7+6``) to the end of ``end_year``."""
    game = Game.new("standard", options=OPTIONS)
    bots = {p: HouseBot(seed * 7 + i) for i, p in enumerate(sorted(game.powers()))}
    return play_game(game, bots, end_year=end_year)


def random_game(seed: int, end_year: int) -> Game:
    """Random legal orders for every unit, and exactly the builds or disbands owed (no waives)."""
    rng = random.Random(seed)
    game = Game.new("standard", options=OPTIONS, last_year=end_year)
    while not game.is_over:
        for power in game.powers_to_order():
            legal = game.legal_orders(power)
            if game.phase.kind == "A":
                owed = abs(adjustment_counts(game.rules, game.position)[power])
                keys = sorted(k for k in legal if k != "WAIVE")
                rng.shuffle(keys)
                orders: list[str] = []
                for key in keys:
                    choices = [o for o in legal[key] if o != "WAIVE"]
                    if choices and len(orders) < owed:
                        orders.append(rng.choice(choices))
                game.set_orders(power, orders)
            else:
                game.set_orders(power, [rng.choice(v) for _, v in sorted(legal.items()) if v])
        game.advance()
    return game


def check(game: Game, game_id: str) -> tuple[bool, dict[str, Any]]:
    """Export ``game`` and ask MILA's checker; the verdict and the saved game (as JSON would carry it)."""
    from diplomacy.utils.export import is_valid_saved_game

    saved = json.loads(json.dumps(export_game(game, game_id)))
    return bool(is_valid_saved_game(saved)), saved


def explain(saved: dict[str, Any]) -> str:
    """The first phase MILA's engine plays otherwise than the record (what ``is_valid_saved_game`` refused)."""
    from diplomacy import Game as MilaGame
    from diplomacy.utils.game_phase_data import GamePhaseData

    phases = saved["phases"]
    for i in range(len(phases) - 1):
        mila = MilaGame(saved["id"], map_name="standard", rules=["SOLITAIRE", *saved["rules"]])
        mila.set_phase_data(GamePhaseData.from_dict(phases[i]))
        mila.clear_orders()
        for power, orders in phases[i]["orders"].items():
            mila.set_orders(power, orders)
        kept = mila.get_orders()
        for power, orders in kept.items():
            if sorted(orders) != sorted(phases[i]["orders"][power]):
                return f"{phases[i]['name']}: MILA refuses orders of {power}"
        mila.process()
        nxt = phases[i + 1]["state"]
        if mila.get_current_phase() != nxt["name"]:
            return f"{phases[i]['name']}: MILA reaches {mila.get_current_phase()}, arbitre {nxt['name']}"
        for power, units in mila.get_units().items():
            if sorted(units) != sorted(nxt["units"][power]):
                return f"{phases[i]['name']}: units of {power}: MILA {sorted(units)}, arbitre {sorted(nxt['units'][power])}"
        if mila.get_hash() != nxt["zobrist_hash"]:
            return f"{phases[i]['name']}: state hash"
    return "no difference found"


def main(argv: list[str] | None = None) -> int:
    """Play, export, check and import the games; print the counts."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games of each kind (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--end-year", type=int, default=1910)
    parser.add_argument("--explain", action="store_true", help="say where MILA's engine differs in a refused game")
    args = parser.parse_args(argv)
    counts = {"house": [0, 0], "random": [0, 0]}
    imported = 0
    for kind, make in (("house", house_game), ("random", random_game)):
        for k in range(args.games):
            seed = args.seed + k
            start = time.perf_counter()
            game = make(seed, args.end_year)
            valid, saved = check(game, f"{kind}-{seed}")
            counts[kind][0] += valid
            counts[kind][1] += 1
            import_game(saved)
            imported += 1
            line = f"{kind} seed {seed}: {len(saved['phases'])} phases, valid={valid} ({time.perf_counter() - start:.1f} s)"
            if not valid and args.explain:
                line += f"  {explain(saved)}"
            print(line, flush=True)
    total = sum(v for v, _ in counts.values())
    print(
        f"is_valid_saved_game: house {counts['house'][0]}/{counts['house'][1]}, "
        f"random {counts['random'][0]}/{counts['random'][1]}, total {total}/{2 * args.games}; "
        f"imported back {imported}/{2 * args.games}"
    )
    return 0 if total == 2 * args.games else 1


if __name__ == "__main__":
    sys.exit(main())
