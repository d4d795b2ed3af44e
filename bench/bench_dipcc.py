"""arbitre (pure and compiled) beside dipcc (Meta's C++ engine) and ``diplomacy`` 1.1.2, on the same work in one run.

Rows, each engine on the same positions or the same number of seeded games:

* **set orders + process** of a fresh movement position (µs per phase):
  arbitre ``adjudicate`` with nothing memoized (a fresh copy of the rule set)
  and as a first run (a long-lived rule set that has not seen the phase); the
  peers ``set_orders`` for the seven powers then ``process()`` on a game made
  from the position just before (not timed).
* **whole random games to 1910** (games per second): each engine lists its
  legal orders, picks one at random per orderable place, and processes, phase
  after phase (``bench_games.py``'s loop; dipcc the same with its own lists).
* **legal orders of the seven powers, as Python lists** (µs per position), on
  a position no call has seen (arbitre ``legal_orders`` per power; the peers'
  ``get_all_possible_orders()`` on a new game in the same state).
* **``arbitre adjudicate`` per phase** on a JSON Lines batch of phases of
  every kind (``bench_contract.py``'s batch), each build in fresh processes,
  start-up excluded: (CPU of the whole batch − CPU of a one-line batch) /
  (lines − 1), best of ``--reps``; against ``diplomacy``'s lean adapter
  (decode, set the state, set orders, process, encode) in process.

Every engine runs in its own child process (``--worker``), one after the
other, all timed as CPU time (this thread's, or the child's); the parent
prints the table and the ratios.  dipcc is imported as ``pydipcc`` from
``--dipcc DIR`` (or ``$DIPCC_PATH``); when it cannot be imported its column
says how to build it (bench/README.md, "dipcc") and the rest still runs.

    .venv/bin/python bench/bench_dipcc.py [--dipcc /tmp/dipcc-build] [--phases 300] [--games 10] [--batch 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from timing import cpu

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LAST_YEAR = 1910
ENGINES = ("arbitre pure", "arbitre compiled", "diplomacy 1.1.2", "dipcc")
BUILD_HINT = "dipcc not importable: build it (bench/README.md, 'dipcc') and pass --dipcc DIR"


def best(reps: int, call: Callable[[], Any]) -> float:
    """The best of ``reps`` runs of ``call``, CPU seconds."""
    return min(cpu(call) for _ in range(reps))


# --------------------------------------------------------------------------- workers (one engine each)
def work_arbitre(data: dict[str, Any], reps: int, games: int, seed: int) -> dict[str, float]:
    """arbitre's rows on this process's build (``ARBITRE_PURE`` decides)."""
    import bench_adjudication as ba
    import bench_games as bg

    from arbitre import compiled
    from arbitre.adjudicator import adjudicate
    from arbitre.rules import legal_orders
    from arbitre.variants import make_rules

    rules = make_rules("standard")
    moves = [(ba.to_position(ba.fresh_copy(m["state"], [])), m["orders"]) for m in data["moves"]]
    powers = rules.game_map.powers

    def no_memo() -> None:
        for position, orders in moves:
            adjudicate(replace(rules), position, orders)

    # replace(rules) is part of the no-memo figure: time it alone and take it off.
    copies = best(reps, lambda: [replace(rules) for _ in moves])

    def first_run() -> None:
        fresh = make_rules("standard")
        for position, orders in moves:
            adjudicate(fresh, position, orders)

    def legal() -> float:
        lists = [replace(p) for p, _ in moves]  # fresh copies: nothing remembered from an earlier rep
        return cpu(lambda: [[legal_orders(rules, p, power) for power in powers] for p in lists])

    n = len(moves)
    out = {
        "compiled": float(compiled()),
        "process": (best(reps, no_memo) - copies) / n,
        "process_first": best(reps, first_run) / n,
        "legal": min(legal() for _ in range(reps)) / n,  # best of reps, as the peers' rows
    }
    out["games"] = games / cpu(lambda: [bg.api_game(seed + k) for k in range(games)])
    return out


def work_mila(data: dict[str, Any], reps: int, games: int, seed: int) -> dict[str, float]:
    """``diplomacy`` 1.1.2's rows."""
    import bench_adjudication as ba
    import bench_contract as bc
    import bench_games as bg

    moves = data["moves"]

    def process() -> float:
        total = 0.0
        for m in moves:
            game = ba.fresh_copy(m["state"], [])
            total += cpu(lambda g=game, o=m["orders"]: (ba.submit(g, o), g.process()))
        return total

    def legal() -> float:
        total = 0.0
        for m in moves:
            game = ba.fresh_copy(m["state"], [])
            total += cpu(game.get_all_possible_orders)
        return total

    lines = [line.encode() for line in Path(data["peer_batch"]).read_text().splitlines()]
    n = len(moves)
    return {
        "process": min(process() for _ in range(reps)) / n,
        "legal": min(legal() for _ in range(reps)) / n,
        "games": games / cpu(lambda: [bg.peer_game(seed + k) for k in range(games)]),
        "contract": best(reps, lambda: [bc.peer_line(line) for line in lines]) / len(lines),
    }


def dipcc_game(pydipcc: Any, unit_state: dict[str, Any]) -> Any:
    """A dipcc game at a movement position given as ``diplomacy``'s state (phase, units, centres)."""
    state = {"name": unit_state["name"], "units": unit_state["units"], "centers": unit_state["centers"]}
    saved = {"phases": [{"name": state["name"], "state": state, "orders": {}}]}
    return pydipcc.Game.from_json(json.dumps(saved))


def dipcc_random_game(pydipcc: Any, seed: int) -> Any:
    """dipcc's random game to the end of 1910: its possible orders, a random one per orderable place, process."""
    rng = random.Random(seed)
    game = pydipcc.Game()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= LAST_YEAR:
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible.get(loc)])
        game.process()
    return game


def work_dipcc(data: dict[str, Any], reps: int, games: int, seed: int) -> dict[str, float]:
    """dipcc's rows (``pydipcc`` on ``sys.path``)."""
    import pydipcc

    moves = data["moves"]

    def process() -> float:
        total = 0.0
        for m in moves:
            game = dipcc_game(pydipcc, m["state"])

            def run(g: Any = game, orders: dict[str, list[str]] = m["orders"]) -> None:
                for power, texts in orders.items():
                    g.set_orders(power, texts)
                g.process()

            total += cpu(run)
        return total

    def legal() -> float:
        total = 0.0
        for m in moves:
            game = dipcc_game(pydipcc, m["state"])
            total += cpu(game.get_all_possible_orders)
        return total

    n = len(moves)
    return {
        "process": min(process() for _ in range(reps)) / n,
        "legal": min(legal() for _ in range(reps)) / n,
        "games": games / cpu(lambda: [dipcc_random_game(pydipcc, seed + k) for k in range(games)]),
    }


WORKERS = {"arbitre": work_arbitre, "mila": work_mila, "dipcc": work_dipcc}


# --------------------------------------------------------------------------- the parent
def child_cpu(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process, run to the end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_per_phase(batch: Path, one: Path, lines: int, env: dict[str, str], reps: int) -> float:
    """``arbitre adjudicate`` CPU per phase in fresh processes, start-up excluded (whole batch − one line)."""
    exe = [str(ROOT / ".venv" / "bin" / "arbitre"), "adjudicate"]
    whole = min(child_cpu([*exe, str(batch)], env) for _ in range(reps))
    single = min(child_cpu([*exe, str(one)], env) for _ in range(reps))
    return (whole - single) / (lines - 1)


def run_worker(kind: str, data: Path, args: argparse.Namespace, env: dict[str, str]) -> dict[str, float] | str:
    """One engine's rows from a child process, or why it could not run."""
    cmd = [sys.executable, __file__, "--worker", kind, "--data", str(data), "--reps", str(args.reps)]
    cmd += ["--games", str(args.games), "--seed", str(args.seed)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["(no message)"]
        return BUILD_HINT if kind == "dipcc" and "pydipcc" in done.stderr else f"failed: {tail[0]}"
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def collect(args: argparse.Namespace, folder: Path) -> tuple[Path, int]:
    """Write the movement positions and the JSON Lines batches; the data file and the batch's line count."""
    import bench_contract as bc

    pairs = bc.random_games(args.seed, args.batch)
    (folder / "batch.jsonl").write_text("\n".join(json.dumps(req) for req, _ in pairs) + "\n")
    (folder / "one.jsonl").write_text(json.dumps(pairs[0][0]) + "\n")
    (folder / "peer.jsonl").write_text("\n".join(json.dumps(state) for _, state in pairs) + "\n")
    moves = [
        {"state": state["state"], "orders": state["orders"]} for req, state in pairs if req["phase"].endswith("M")
    ][: args.phases]
    data = folder / "data.json"
    data.write_text(json.dumps({"moves": moves, "peer_batch": str(folder / "peer.jsonl")}))
    return data, len(pairs)


def cell(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    return f"{value * 1e6:,.0f} µs" if unit == "us" else f"{value:,.1f}/s"


def main(argv: list[str] | None = None) -> int:
    """Collect the work, run every engine's worker, print the table and the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=300, help="movement positions for the process and legal rows")
    ap.add_argument("--batch", type=int, default=2000, help="lines of the JSON Lines batch (phases of every kind)")
    ap.add_argument("--games", type=int, default=10, help="whole random games to 1910 per engine")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dipcc", default=os.environ.get("DIPCC_PATH", ""), help="folder holding pydipcc*.so")
    ap.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        data = json.loads(Path(args.data).read_text())
        print(json.dumps(WORKERS[args.worker](data, args.reps, args.games, args.seed)))
        return 0

    base = {k: v for k, v in os.environ.items() if k != "ARBITRE_PURE"}
    base["GLOG_minloglevel"] = "2"
    if args.dipcc:
        base["PYTHONPATH"] = os.pathsep.join(filter(None, [args.dipcc, base.get("PYTHONPATH", "")]))
    print(f"load average at start {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        data, lines = collect(args, Path(tmp))
        batch, one = Path(tmp) / "batch.jsonl", Path(tmp) / "one.jsonl"
        results: dict[str, dict[str, float] | str] = {
            "arbitre pure": run_worker("arbitre", data, args, {**base, "ARBITRE_PURE": "1"}),
            "arbitre compiled": run_worker("arbitre", data, args, base),
            "diplomacy 1.1.2": run_worker("mila", data, args, base),
            "dipcc": run_worker("dipcc", data, args, base),
        }
        for name, env in (("arbitre pure", {**base, "ARBITRE_PURE": "1"}), ("arbitre compiled", base)):
            row = results[name]
            if isinstance(row, dict):
                row["contract"] = cli_per_phase(batch, one, lines, env, args.reps)
    compiled_row = results["arbitre compiled"]
    if isinstance(compiled_row, dict) and not compiled_row.get("compiled"):
        results["arbitre compiled"] = "not built (./scripts/build-compiled)"
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    rows = [
        ("process", "us", f"set orders + process, fresh movement position ({args.phases} positions)"),
        ("process_first", "us", "  arbitre first run (long-lived rule set)"),
        ("games", "gps", f"whole random games to {LAST_YEAR} ({args.games} per engine)"),
        ("legal", "us", "legal orders of 7 powers, as Python lists"),
        ("contract", "us", f"`arbitre adjudicate`, fresh process, {lines} phases, per phase"),
    ]
    width = max(len(r[2]) for r in rows) + 2
    print(f"{'':<{width}}" + "".join(f"{e:>18}" for e in ENGINES))
    for key, unit, title in rows:
        cells = []
        for engine in ENGINES:
            row = results[engine]
            cells.append(cell(row.get(key) if isinstance(row, dict) else None, unit))
        print(f"{title:<{width}}" + "".join(f"{c:>18}" for c in cells))
    for engine in ENGINES:
        if isinstance(results[engine], str):
            print(f"{engine}: {results[engine]}")
    print("ratios (how many times faster arbitre is; < 1 means slower):")
    for build in ("arbitre pure", "arbitre compiled"):
        ours = results[build]
        if not isinstance(ours, dict):
            continue
        for peer in ("diplomacy 1.1.2", "dipcc"):
            theirs = results[peer]
            if not isinstance(theirs, dict):
                continue
            parts = []
            for key, unit, _ in rows:
                if key in ours and key in theirs and key != "process_first":
                    ratio = ours[key] / theirs[key] if unit == "gps" else theirs[key] / ours[key]
                    parts.append(f"{key} {ratio:.2f}x")
            print(f"  {build} vs {peer}: {', '.join(parts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
