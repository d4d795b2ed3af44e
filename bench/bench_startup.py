"""Start-up: ``arbitre adjudicate`` on one small position and ``arbitre orders FILE --json``, as fresh processes.

A script that calls ``arbitre adjudicate`` once per batch (or a bot that asks
``arbitre orders`` once per turn) waits for the interpreter to start and for
the program to import what it needs; this bench measures that whole wait.
Each command is run ``--runs`` times as a new process on a small input (the
standard S1901M position with an order for every unit; a new standard game
for ``orders``), and the bench prints the wall time (min and median) and the
process's CPU time (user + system, min and median) next to two references
measured in the same run: the bare interpreter (``python -c pass``) and the
peer, ``diplomacy`` 1.1.2, importing its ``Game`` and processing the same
phase.  The target is a median wall time under 100 ms; the CPU time is the
figure that load on the machine inflates least.

By default the bytecode cache is warmed first (as a normal install or any
earlier run leaves it); ``--cold`` measures without it (no ``.pyc`` read or
written: a first run after an editable install with ``PYTHONDONTWRITEBYTECODE``).

Run from the repository root::

    .venv/bin/python bench/bench_startup.py [--runs 20] [--cold]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from arbitre import compiled

TARGET_MS = 100.0
"""``arbitre adjudicate`` and ``arbitre orders --json`` must start, answer and exit within this (median wall)."""

ORDERS = {
    "AUSTRIA": ["A BUD - SER", "F TRI - ALB", "A VIE - GAL"],
    "ENGLAND": ["F EDI - NWG", "F LON - NTH", "A LVP - YOR"],
    "FRANCE": ["F BRE - MAO", "A MAR - SPA", "A PAR - BUR"],
    "GERMANY": ["A BER - KIE", "F KIE - DEN", "A MUN - RUH"],
    "ITALY": ["F NAP - ION", "A ROM - APU", "A VEN H"],
    "RUSSIA": ["A MOS - UKR", "F SEV - BLA", "F STP/SC - BOT", "A WAR - GAL"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - ARM"],
}
"""The orders of the small input: the opening position, every unit ordered."""

PEER = """
from diplomacy import Game
game = Game(map_name="standard")
for power, orders in {orders!r}.items():
    game.set_orders(power, orders)
game.process()
"""


def _request() -> dict[str, object]:
    """The standard S1901M position with :data:`ORDERS`, as a contract request."""
    from arbitre.judge import position_to_data, start_position
    from arbitre.variants import make_rules

    rules = make_rules("standard")
    data = position_to_data(start_position(rules), rules.game_map)
    return {
        "map": "standard",
        "phase": data["phase"],
        "units": data["units"],
        "supply_centers": data["supply_centers"],
        "orders": ORDERS,
    }


def time_command(cmd: Sequence[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``runs`` runs of ``cmd`` (its output discarded; it must succeed)."""
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, env=env, check=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return walls, cpus


def _ms(values: list[float]) -> str:
    return f"{min(values) * 1000:7.1f} {statistics.median(values) * 1000:7.1f}"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line of the bench."""
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument("--runs", type=int, default=20, help="processes started per command")
    p.add_argument("--cold", action="store_true", help="no bytecode cache (no .pyc read or written)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the bench and print the table; exit status 0 even when a target is missed."""
    args = parse_args(argv)
    arbitre = str(Path(sys.executable).with_name("arbitre"))
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        request = Path(tmp, "one.json")
        request.write_text(json.dumps(_request()) + "\n", encoding="utf-8")
        game = Path(tmp, "game.json")
        subprocess.run([arbitre, "new", str(game)], stdout=subprocess.DEVNULL, check=True)
        if args.cold:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp, "no-pycache"))  # an empty cache: nothing read
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        commands: list[tuple[str, list[str]]] = [
            ("python -c pass", [sys.executable, "-c", "pass"]),
            ("arbitre adjudicate one.json", [arbitre, "adjudicate", str(request)]),
            ("arbitre orders game.json --json", [arbitre, "orders", str(game), "--json"]),
        ]
        if importlib.util.find_spec("diplomacy") is None:
            print("(the 'diplomacy' package is missing: no peer; .venv/bin/pip install -e .[bench])")
        else:
            commands.append(("diplomacy: import, one phase", [sys.executable, "-c", PEER.format(orders=ORDERS)]))
        for _, cmd in commands:  # warm the file cache (and, unless --cold, the bytecode cache)
            subprocess.run(cmd, stdout=subprocess.DEVNULL, env=env, check=True)
        load = os.getloadavg()
        print(f"start-up, {args.runs} runs each, {'no' if args.cold else 'warm'} bytecode cache")
        print(f"core: {'compiled (mypyc, scripts/build-compiled)' if compiled() else 'pure Python'}")
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        print(f"{'command':34} {'wall min':>8} {'median':>7} {'cpu min':>8} {'median':>7}   (ms)")
        results: dict[str, float] = {}
        for name, cmd in commands:
            walls, cpus = time_command(cmd, args.runs, env)
            results[name] = statistics.median(walls)
            print(f"{name:34} {_ms(walls)}  {_ms(cpus)}")
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for name in ("arbitre adjudicate one.json", "arbitre orders game.json --json"):
        met = results[name] * 1000 < TARGET_MS
        print(
            f"{name}: median {results[name] * 1000:.1f} ms, target < {TARGET_MS:.0f} ms: {'met' if met else 'NOT met'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
