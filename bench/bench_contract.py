"""The JSON contract, bytes to bytes: a JSON Lines batch through arbitre and through ``diplomacy`` 1.1.2.

The batch is the phases of seeded random games of the ``diplomacy`` package
(every kind: movement, retreats, adjustments; a random possible order for
every orderable location), one request per line in arbitre's documented
shape.  arbitre answers the whole batch as ``arbitre adjudicate`` does
(``answer_lines``: one printed line per answer), inside this process, so
the interpreter's start-up is excluded.  The peer does the same work for each
line: decode the JSON, set the phase, units, centres (and dislodged units)
on a new game, set the orders, ``process()``, and encode the next position
and the orders' results as JSON.  Both are timed over the same lines, best
of ``--reps`` runs of the whole batch; the ratio is printed with the target.

Run from the repository root::

    .venv/bin/pip install -c requirements/lock.txt -e ".[bench]"     # diplomacy==1.1.2
    .venv/bin/python bench/bench_contract.py [--phases 2000] [--seed 0] [--reps 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
from typing import Any

try:
    from diplomacy import Game
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("the 'diplomacy' package is missing: run  .venv/bin/pip install -e .[bench]  (diplomacy==1.1.2)")

from timing import cpu as timed

from arbitre import compiled
from arbitre.interface.adjudicate import answer_lines

TARGET = 10.0
"""The contract must answer at least this many times faster than the peer per phase."""


def random_games(seed: int, phases: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(arbitre request, peer state) for ``phases`` phases of seeded random games."""
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    k = 0
    while len(out) < phases:
        rng = random.Random(seed * 1000 + k)
        game = Game(map_name="standard")
        k += 1
        while not game.is_game_done and len(out) < phases and int(game.get_current_phase()[1:5]) <= 1930:
            possible = game.get_all_possible_orders()
            orders = {
                power: [
                    rng.choice(sorted(possible[loc]))
                    for loc in sorted(game.get_orderable_locations(power))
                    if possible.get(loc)
                ]
                for power in sorted(game.powers)
            }
            request = _request(game, orders)
            if request is not None:
                out.append((request, {"state": game.get_state(), "orders": orders}))
            for power, power_orders in orders.items():
                game.set_orders(power, power_orders)
            game.process()
    return out


def _request(game: Game, orders: dict[str, list[str]]) -> dict[str, Any] | None:
    phase = game.get_current_phase()
    units = {n: sorted(p.units) for n, p in game.powers.items() if p.units}
    centers = {n: sorted(p.centers) for n, p in game.powers.items() if p.centers}
    req: dict[str, Any] = {"phase": phase, "units": units, "supply_centers": centers}
    if phase.endswith("R"):
        # diplomacy keeps the dislodged units in power.retreats ("A MUN": [places]) without the attacker.
        req["dislodged"] = {
            n: [{"unit": u, "retreats": sorted(r)} for u, r in sorted(p.retreats.items())]
            for n, p in game.powers.items()
            if p.retreats
        }
        # A dislodged unit's province may hold its attacker; arbitre's units list those that stand.
    req["orders"] = {p: o for p, o in orders.items() if o}
    return req


def arbitre_batch(batch: bytes) -> bytes:
    """What ``arbitre adjudicate`` prints for the batch (one line per answer)."""
    out = io.BytesIO()
    for line, _ in answer_lines(batch):
        out.write(line)
    return out.getvalue()


def peer_line(line: bytes) -> bytes:
    """The peer's answer to one line: decode, set the position and orders, process, encode."""
    data = json.loads(line)
    game = Game(map_name="standard")
    game.set_state(data["state"])
    for power, orders in data["orders"].items():
        game.set_orders(power, orders)
    game.process()
    state = game.get_state()
    results = {unit: [str(r) for r in codes] for unit, codes in game.result_history.last_value().items()}
    return json.dumps({"next": state, "results": results}, sort_keys=True).encode()


def main() -> int:
    """Build the batch, time both, print per-phase figures and the ratio against the target."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="cProfile arbitre's batch and print the top functions")
    ap.add_argument(
        "--fresh",
        action="store_true",
        help="time `arbitre adjudicate` in fresh processes instead (batch − one line: start-up excluded, "
        "nothing memoized before the batch), this build only; target 25x (issue 28)",
    )
    args = ap.parse_args()
    print(
        f"core: {'compiled (mypyc, scripts/build-compiled)' if compiled() else 'pure Python'}, load average {os.getloadavg()[0]:.2f}"
    )
    pairs = random_games(args.seed, args.phases)
    batch = "\n".join(json.dumps(req) for req, _ in pairs).encode()
    peer_lines = [json.dumps(state).encode() for _, state in pairs]
    answers = arbitre_batch(batch).decode().splitlines()
    refused = sum(1 for a in answers if a.startswith('{"error"'))
    kinds = {k: sum(1 for r, _ in pairs if r["phase"].endswith(k)) for k in "MRA"}
    print(
        f"{len(pairs)} phases of seeded random games (movement {kinds['M']}, retreats {kinds['R']}, "
        f"adjustments {kinds['A']}); {refused} answered with an error object; batch {len(batch) / 1e6:.1f} MB"
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(arbitre_batch, batch)
        pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats("tottime").print_stats(30)
    if args.fresh:
        return fresh(pairs, peer_lines, args.reps)
    ours = min(timed(lambda: arbitre_batch(batch)) for _ in range(args.reps))
    peer = min(timed(lambda: [peer_line(line) for line in peer_lines]) for _ in range(args.reps))
    n = len(pairs)
    moves = [i for i, (r, _) in enumerate(pairs) if r["phase"].endswith("M")]
    move_batch = "\n".join(json.dumps(pairs[i][0]) for i in moves).encode()
    ours_m = min(timed(lambda: arbitre_batch(move_batch)) for _ in range(args.reps))
    peer_m = min(timed(lambda: [peer_line(peer_lines[i]) for i in moves]) for _ in range(args.reps))
    ratio, ratio_m = peer / ours, peer_m / ours_m
    print(f"best of {args.reps} runs of the whole batch, start-up excluded, thread CPU µs per phase:")
    print(f"  {'':<34}{'all':>10}{'movement':>10}")
    print(f"  {'arbitre answer_lines + write':<34}{ours / n * 1e6:>10.0f}{ours_m / len(moves) * 1e6:>10.0f}")
    print(f"  {'diplomacy json + set + process()':<34}{peer / n * 1e6:>10.0f}{peer_m / len(moves) * 1e6:>10.0f}")
    print(f"  {'ratio':<34}{ratio:>9.1f}x{ratio_m:>9.1f}x")
    met = ratio >= TARGET
    print(f"target: contract at least {TARGET:.0f}x the peer per phase: {'met' if met else 'NOT met'} ({ratio:.1f}x)")
    return 0


FRESH_TARGET = 25.0
"""Issue 28: ``arbitre adjudicate`` in a fresh process, start-up excluded, at least this many times the peer."""


def fresh(pairs: list[tuple[dict[str, Any], dict[str, Any]]], peer_lines: list[bytes], reps: int) -> int:
    """``arbitre adjudicate`` per phase in fresh processes (``bench_dipcc.py``'s contract row, this build
    only) against the peer in this process; prints the ratio against :data:`FRESH_TARGET`."""
    import tempfile
    from pathlib import Path

    from bench_dipcc import cli_per_phase

    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        batch, one = Path(tmp) / "batch.jsonl", Path(tmp) / "one.jsonl"
        batch.write_text("\n".join(json.dumps(req) for req, _ in pairs) + "\n")
        one.write_text(json.dumps(pairs[0][0]) + "\n")
        ours = cli_per_phase(batch, one, len(pairs), env, reps)
    peer = min(timed(lambda: [peer_line(line) for line in peer_lines]) for _ in range(reps)) / len(pairs)
    ratio = peer / ours
    print(
        f"`arbitre adjudicate`, fresh process, {len(pairs)} phases, start-up excluded (batch − one line), best of {reps}:"
    )
    print(f"  arbitre {ours * 1e6:,.0f} µs per phase (process CPU); diplomacy 1.1.2 {peer * 1e6:,.0f} µs (thread CPU)")
    print(f"  load average at end {os.getloadavg()[0]:.2f}")
    met = ratio >= FRESH_TARGET
    print(f"target: at least {FRESH_TARGET:.0f}x the peer per phase: {'met' if met else 'NOT met'} ({ratio:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
