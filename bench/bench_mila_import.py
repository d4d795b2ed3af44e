"""MILA's games through arbitre's import: games played IN MILA's engine, saved as MILA saves them, imported.

Plays ``--games`` seeded games of each kind in MILA's engine (``diplomacy.Game``):

- ``mila``: MILA's own random orders, one of ``game.get_all_possible_orders()`` for every orderable
  location of every power;
- ``busy``: the same orders, weighted toward what makes rulings differ: convoys and ``VIA`` moves,
  supports, and retreats rather than disbands; now and then a power gives no orders at all.

Each game runs to the end of ``--end-year`` (or its end), is saved with MILA's
``diplomacy.utils.export.to_saved_game_format`` and replayed by arbitre's import
(``arbitre.interface.mila.import_game``, the ``mila`` preset: what ``arbitre import`` does).  A
game whose import disagrees with the record is printed with the phase and the difference; the
saved file is kept in ``--keep DIR`` when asked.  With ``--export``, every imported game is also
exported again and handed to MILA's ``is_valid_saved_game``; ``--option NAME=VALUE`` imports with that
option over the preset (to see what an option of the preset changes).  Prints the counts; exits 1 when
a game diverges.

Run from the repository root (``diplomacy`` installed; the machine is shared, so ``nice``)::

    nice .venv/bin/python bench/bench_mila_import.py [--games 100] [--seed 0] [--end-year 1912]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from arbitre.interface.mila import MilaImportError, export_game, import_game

WEIGHTS = {" VIA": 6.0, " C ": 4.0, " S ": 2.0, " R ": 4.0}
"""``busy`` games: how much likelier an order containing these words is than a plain one."""


def _weight(order: str) -> float:
    return max([w for word, w in WEIGHTS.items() if word in order], default=1.0)


def mila_game(seed: int, kind: str, end_year: int) -> Any:
    """A game played in MILA's engine with seeded random orders of ``kind`` (``mila`` or ``busy``)."""
    from diplomacy import Game as MilaGame

    rng = random.Random(f"{kind}-{seed}")
    game = MilaGame()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= end_year:
        possible = game.get_all_possible_orders()
        for power in game.powers:
            if kind == "busy" and rng.random() < 0.04:
                continue  # civil disorder for this phase
            orders = []
            for loc in game.get_orderable_locations(power):
                choices = possible.get(loc) or []
                if not choices:
                    continue
                if kind == "busy":
                    orders.append(rng.choices(choices, weights=[_weight(o) for o in choices])[0])
                else:
                    orders.append(rng.choice(choices))
            game.set_orders(power, orders)
        game.process()
    return game


def run(
    seed: int, kind: str, end_year: int, export: bool, options: dict[str, str] | None = None
) -> tuple[dict[str, Any], str | None, int]:
    """(saved game, the first divergence or None, phases); with ``export``, also MILA's checker on our export.

    ``options``: arbitre's rule options for the import (default: the ``mila`` preset).
    """
    from diplomacy.utils.export import is_valid_saved_game, to_saved_game_format

    saved = json.loads(json.dumps(to_saved_game_format(mila_game(seed, kind, end_year))))
    try:
        game = import_game(saved, options)
    except MilaImportError as exc:
        return saved, str(exc), len(saved["phases"])
    if export and not is_valid_saved_game(export_game(game, f"{kind}-{seed}")):
        return saved, "our export of the imported game is refused by MILA's is_valid_saved_game", len(saved["phases"])
    return saved, None, len(saved["phases"])


def main(argv: list[str] | None = None) -> int:
    """Run the bench; print one line per diverging game and the counts."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games of each kind (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--end-year", type=int, default=1912)
    parser.add_argument("--kinds", default="mila,busy", help="comma-separated: mila, busy")
    parser.add_argument("--export", action="store_true", help="also export each imported game to MILA's checker")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option for the import, over the mila preset (to see what an option of the preset changes)",
    )
    parser.add_argument("--keep", type=Path, help="write each diverging saved game into this directory")
    args = parser.parse_args(argv)
    options = {"preset": "mila", **dict(o.split("=", 1) for o in args.option)}
    start = time.perf_counter()
    imported, phases, divergences = 0, 0, Counter[str]()
    for kind in args.kinds.split(","):
        for seed in range(args.seed, args.seed + args.games):
            saved, problem, n = run(seed, kind, args.end_year, args.export, options)
            phases += n
            if problem is None:
                imported += 1
                continue
            divergences[problem.split(":", 1)[-1].strip()[:60]] += 1
            print(f"{kind}-{seed}: {problem}", flush=True)
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / f"{kind}-{seed}.json").write_text(json.dumps(saved), encoding="utf-8")
    total = imported + sum(divergences.values())
    print(
        f"{imported} of {total} games imported with every phase agreeing ({phases} phases), "
        f"{sum(divergences.values())} diverging; {time.perf_counter() - start:.0f} s"
    )
    return 0 if not divergences else 1


if __name__ == "__main__":
    sys.exit(main())
