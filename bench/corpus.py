"""The equivalence corpus: JSON Lines requests with the answers the contract gave before the speed work.

``make`` plays seeded random games through the JSON contract itself (each
answer's ``next`` is the next request's position) on the standard map, the
Colonial map and the standard map with each rule module, with random legal
orders, some wrong orders and a viewer that is sometimes a power or an
observer; and, when the ``diplomacy`` package is installed, it adds the
movement phases of the peer's random games (the orders of ``bench/``'s
2,000-phase corpus, with ``VIA`` and supports of nothing).  Each request and
the answer ``arbitre.interface.process_bytes`` gives are written as one line
``{"request": ..., "answer": "<the printed line>", "ok": ...}`` of a gzipped file.

``check`` answers every request again and prints the first differences; it
exits 1 when any answer changed.  ``tests/test_corpus.py`` runs the same check.

Run from the repository root::

    .venv/bin/python bench/corpus.py make [--out tests/data/contract_corpus.jsonl.gz]
    .venv/bin/python bench/corpus.py check [--corpus tests/data/contract_corpus.jsonl.gz]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

from arbitre.interface import process_bytes
from arbitre.interface.text import dumps
from arbitre.rules import legal_orders
from arbitre.variants import make_rules

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "contract_corpus.jsonl.gz"

CONFIGS: list[tuple[str, list[str], dict[str, str]]] = [
    ("standard", [], {}),
    ("standard", [], {"preset": "1982"}),
    ("colonial", [], {}),
    ("standard", ["submarines"], {}),
    ("standard", ["no_convoys"], {}),
    ("standard", ["espionnite"], {}),
    ("colonial", ["submarines"], {"convoy_paradox": "all_hold"}),
]
"""Map, rule modules and options of the chained games."""

WRONG = ["A PAR - XYZ", "F LON S A WAL", "A MUN - KIE VIA", "BUILD A PAR", "F STP - BOT", "A BER H H", "WAIVE", ""]
"""Orders that are refused in most positions (unknown places, bad syntax, units that are not there)."""


def _request(config: tuple[str, list[str], dict[str, str]], position: dict[str, Any]) -> dict[str, Any]:
    gmap, modules, options = config
    req: dict[str, Any] = {"map": gmap, "phase": position["phase"], "units": position["units"]}
    if modules:
        req["rules"] = modules
    if options:
        req["options"] = options
    req["supply_centers"] = position["supply_centers"]
    if position.get("dislodged"):
        req["dislodged"] = position["dislodged"]
    if position.get("extras"):
        req["extras"] = position["extras"]
    return req


def _random_orders(rng: random.Random, req: dict[str, Any]) -> dict[str, list[str]]:
    """A random legal order for most units of every power, a wrong one now and then."""
    from arbitre.judge import position_from_data

    rules = make_rules(req["map"], req.get("rules", []), req.get("options", {}))
    position = position_from_data(
        rules, req["phase"], req["units"], req["supply_centers"], req.get("dislodged"), req.get("extras")
    )
    orders: dict[str, list[str]] = {}
    for power in sorted(rules.game_map.powers):
        chosen = []
        for _key, options in sorted(legal_orders(rules, position, power).items()):
            roll = rng.random()
            if roll < 0.05:
                continue  # no order: the unit holds (or the default applies)
            if roll < 0.09:
                chosen.append(rng.choice(WRONG))
            else:
                chosen.append(rng.choice(options))
        if chosen:
            orders[power] = chosen
    return orders


def _answer(req: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    [(out, ok)] = process_bytes(json.dumps(req).encode())
    return out, ok


def _broken(rng: random.Random, req: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``req`` with one mistake (the answer is an error object saying where)."""
    bad = json.loads(json.dumps(req))
    power = sorted(bad["units"])[0]
    what = rng.randrange(6)
    if what == 0:
        bad["units"][power].append("A XYZ")
    elif what == 1:
        bad["supply_centers"][power].append("NTH")
    elif what == 2:
        bad["phase"] = "X1901M"
    elif what == 3:
        bad["units"]["NOBODY"] = ["A PAR"]
    elif what == 4:
        bad["options"] = {"convoy_paradox": "never"}
    else:
        bad["units"][power].append(bad["units"][power][0])
    return bad


def chained(seed: int, phases: int) -> list[dict[str, Any]]:
    """Requests of random games played through the contract, ``phases`` per configuration."""
    out: list[dict[str, Any]] = []
    for c, config in enumerate(CONFIGS):
        rng = random.Random(seed * 100 + c)
        powers = sorted(make_rules(config[0], config[1], config[2]).game_map.powers)
        start = make_rules(config[0], config[1], config[2])
        home = {p: [] for p in powers}
        position: dict[str, Any] | None = None
        made = 0
        while made < phases:
            if position is None:
                position = _initial(start, home)
            req = _request(config, position)
            req["orders"] = _random_orders(rng, req)
            roll = rng.random()
            if roll < 0.2:
                req["viewer"] = rng.choice(powers)
            elif roll < 0.25:
                req["viewer"] = "observer"
            out.append(req)
            made += 1
            if rng.random() < 0.03:
                out.append(_broken(rng, req))
            master = {k: v for k, v in req.items() if k != "viewer"}
            answer, ok = _answer(master)
            if not ok or int(answer["next"]["phase"][1:5]) > 1915 or len(answer["next"]["units"]) <= 1:
                position = None  # a new game
            else:
                position = answer["next"]
    return out


def _initial(rules: Any, _home: dict[str, list[str]]) -> dict[str, Any]:
    from arbitre.judge import Game

    game = Game.new(rules.game_map.name, [v.name for v in rules.variants if v.name != rules.game_map.name])
    from arbitre.judge import position_to_data

    data = position_to_data(game.position, game.rules.game_map)
    if game.position.extras:
        data["extras"] = dict(game.position.extras)
    return data


def peer_phases(seed: int, phases: int) -> list[dict[str, Any]]:
    """Movement phases of the ``diplomacy`` package's random games, as requests (none without the package)."""
    try:
        from diplomacy import Game
    except ImportError:
        return []
    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < phases:
        rng = random.Random(seed * 1000 + k)
        game = Game(map_name="standard")
        k += 1
        while not game.is_game_done and len(out) < phases and int(game.get_current_phase()[1:5]) <= 1920:
            possible = game.get_all_possible_orders()
            orders: dict[str, list[str]] = {}
            for power in sorted(game.powers):
                orders[power] = [
                    rng.choice(sorted(possible[loc]))
                    for loc in sorted(game.get_orderable_locations(power))
                    if possible.get(loc)
                ]
            phase = game.get_current_phase()
            if phase.endswith("M"):
                units = {n: sorted(p.units) for n, p in game.powers.items() if p.units}
                centers = {n: sorted(p.centers) for n, p in game.powers.items() if p.centers}
                out.append(
                    {
                        "phase": phase,
                        "units": units,
                        "supply_centers": centers,
                        "orders": {p: o for p, o in orders.items() if o},
                    }
                )
            for power, power_orders in orders.items():
                game.set_orders(power, power_orders)
            game.process()
    return out


def load(path: Path) -> list[dict[str, Any]]:
    """The corpus entries: ``{"request", "answer", "ok"}`` (``answer`` as the text the command printed)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def differences(entries: list[dict[str, Any]]) -> list[str]:
    """One line per request whose answer is not the stored one."""
    out = []
    for i, entry in enumerate(entries):
        answer, ok = _answer(entry["request"])
        # The same objects with their keys in the same order (spacing may differ between encoders).
        if _ordered(json.loads(dumps(answer))) != _ordered(json.loads(entry["answer"])) or ok != entry["ok"]:
            out.append(f"entry {i}: {json.dumps(entry['request'])[:200]}")
    return out


def _ordered(value: Any) -> Any:
    """``value`` with every object turned into its list of items, so key order counts when compared."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def main() -> None:
    """``make`` or ``check`` the corpus."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("make", "check"))
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chained", type=int, default=120, help="phases per configuration of the chained games")
    ap.add_argument("--peer", type=int, default=300, help="movement phases of the peer's random games")
    args = ap.parse_args()
    if args.action == "make":
        requests = chained(args.seed, args.chained) + peer_phases(args.seed, args.peer)
        args.corpus.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(args.corpus, "wt", encoding="utf-8") as f:
            for req in requests:
                answer, ok = _answer(req)
                line = {"request": req, "answer": dumps(answer), "ok": ok}
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        print(f"{len(requests)} requests written to {args.corpus}")
        return
    entries = load(args.corpus)
    diffs = differences(entries)
    for line in diffs[:20]:
        print(line)
    print(f"{len(entries) - len(diffs)}/{len(entries)} answers identical")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
