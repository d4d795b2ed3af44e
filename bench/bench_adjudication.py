"""Benchmark arbitre's movement adjudication against the ``diplomacy`` package (MILA).

The script plays seeded random games with ``diplomacy`` 1.1.2 (a random legal
order for every orderable location of every power, in every phase: movement,
retreats and adjustments), for at most ``--max-years`` years per game, until
``--min-phases`` movement phases have been collected.  For every movement phase
it:

* converts the ``diplomacy`` state (units, supply centres, phase) and the chosen
  orders into an arbitre :class:`~arbitre.state.Position` and order texts;
* times arbitre's ``adjudicate(rules, position, orders)``, both with nothing
  memoized (a fresh rule set) and with the long-lived rule set whose memos of
  parsed and checked orders already hold the phase's orders;
* times the ``diplomacy`` package on the same phase, on a fresh copy of the
  game, as ``set_orders`` for every power + ``process()`` and also ``process()``
  alone;
* compares the outcomes: units on the board after the phase and the units
  dislodged (plus, separately, the retreat options of the dislodged units), and
  sorts each disagreement into a known pattern (:data:`PATTERNS`).

Each measurement is repeated ``--reps`` times per phase (the runs of the
engines alternate), with the garbage collector disabled around the timed call,
on two clocks: wall time (``perf_counter_ns``) and the thread's CPU time
(``thread_time_ns``, which preemption on a loaded machine does not inflate).
The per-phase figure is the minimum of the repetitions, and the summary is the
median over phases.  See ``bench/README.md`` for exactly what each timing
covers and for the diagnosis of the disagreements.

Run from the repository root::

    .venv/bin/pip install -e .[bench]        # diplomacy==1.1.2
    .venv/bin/python bench/bench_adjudication.py [--games N] [--seed S] [--min-phases 2000] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from hashlib import sha256
from importlib.metadata import version
from itertools import combinations
from pathlib import Path
from typing import Any

try:
    from diplomacy import Game
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("the 'diplomacy' package is missing: run  .venv/bin/pip install -e .[bench]  (diplomacy==1.1.2)")

from arbitre import compiled
from arbitre.adjudicator import FAILS, SUCCEEDS, PhaseOutcome, adjudicate
from arbitre.orders import Convoy, Move
from arbitre.rules import RuleSet, clear_caches
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules

MAP_NAME = "standard"
START_YEAR = 1901

Orders = dict[str, list[str]]
UnitKey = tuple[str, str, str]
"""A unit as (power, kind, place), e.g. ("RUSSIA", "F", "STP/SC")."""

PATTERNS: dict[str, str] = {
    "land-fallback": "diplomacy moves an army by land when its convoy intent (VIA, or a convoy order by its own "
    "fleet) has no route of ordered convoys; DATC v3.2 6.G.8 / issue 4.A.3: no fallback, "
    "the move fails (arbitre right)",
    "support-coast": "diplomacy ignores the coast named in a support (F MAR S F POR - SPA/NC also supports "
    "F POR - SPA/SC); DATC 6.B.9 / issue 4.B.4: the support is invalid (arbitre right)",
    "own-unit-support": "diplomacy counts a power's support for a foreign attack on the power's own unit when a "
    "convoy is involved: a convoyed army dislodges with it, or it disrupts the power's own "
    "convoying fleet that is not dislodged; DATC 6.D.12 (such a support does not count) and "
    "6.F.4 (only a dislodged fleet disrupts a convoy) (arbitre right)",
    "retreat-occupied": "after a dislodgement by a convoyed army, diplomacy offers retreats into occupied or "
    "standoff provinces (operator precedence in Game._move_results); DATC 6.H.6 and the "
    "basic retreat rule forbid them, 6.H.11 only allows the attacker's origin (arbitre right)",
    "unexplained": "no known pattern: diagnose by hand",
}
"""Known reasons why the engines disagree (see bench/README.md for the reproductions)."""


# --------------------------------------------------------------------------- data
@dataclass(frozen=True)
class Timing:
    """A duration measured on two clocks: wall (``perf_counter_ns``) and this thread's CPU (``thread_time_ns``)."""

    wall_ns: int
    cpu_ns: int

    def __add__(self, other: Timing) -> Timing:
        return Timing(self.wall_ns + other.wall_ns, self.cpu_ns + other.cpu_ns)

    def best(self, other: Timing | None) -> Timing:
        """The smaller of two timings, clock by clock."""
        if other is None:
            return self
        return Timing(min(self.wall_ns, other.wall_ns), min(self.cpu_ns, other.cpu_ns))


@dataclass(frozen=True)
class BoardResult:
    """What a movement phase produced, in engine-neutral terms."""

    units: frozenset[UnitKey]
    dislodged: frozenset[UnitKey]
    retreats: dict[UnitKey, frozenset[str]] = field(compare=False)

    def same_board(self, other: BoardResult) -> bool:
        """Do both results have the same units on the board and the same dislodged units?"""
        return self.units == other.units and self.dislodged == other.dislodged

    def same_retreats(self, other: BoardResult) -> bool:
        """Do both results give every dislodged unit the same retreat options?"""
        return self.retreats == other.retreats


@dataclass
class PhaseRecord:
    """One adjudicated movement phase: inputs, best timings and both engines' results."""

    game: int
    phase: str
    position: Position
    orders: Orders
    times: dict[str, Timing]
    """Best timing of each measurement, keyed as in :data:`TIMED`."""
    arbitre: BoardResult
    digest: str
    """Digest of arbitre's whole result: every order's outcome and reason, the next position, retreats."""
    diplomacy: BoardResult
    copy_consistent: bool
    rejected: list[tuple[str, str, str]]
    """Orders arbitre refused: (order text, outcome, reason)."""
    patterns: list[str] = field(default_factory=list)
    """Why the engines disagree (keys of PATTERNS); filled in by :func:`classify`."""


# --------------------------------------------------------------------------- command line
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the command line."""
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument(
        "--min-phases",
        type=int,
        default=2000,
        help="stop once this many movement phases have been collected (0: no limit, needs --games)",
    )
    p.add_argument(
        "--games", type=int, default=None, help="also stop after this many games (none: as many as --min-phases needs)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random games (game k uses seed*1000+k)")
    p.add_argument("--max-years", type=int, default=30, help="years played per game at most")
    p.add_argument("--reps", type=int, default=5, help="timed repetitions per phase and engine (min is kept)")
    p.add_argument(
        "--show", type=int, default=None, help="print at most this many disagreements of each kind (none: all)"
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="run cProfile on arbitre's adjudication of every collected phase (without and with memos) "
        "and print the top functions",
    )
    p.add_argument(
        "--results",
        type=Path,
        default=None,
        help="digest of arbitre's result of every phase: written when the file is missing, else compared "
        "(bench/results_seed0.txt holds the digests of the default run, made before the speed work)",
    )
    p.add_argument("--profile-top", type=int, default=25, help="how many functions the profile prints")
    p.add_argument(
        "--profile-sort",
        default="tottime",
        choices=("tottime", "cumulative", "ncalls"),
        help="sort key of the profile listing",
    )
    args = p.parse_args(argv)
    if args.min_phases <= 0 and args.games is None:
        p.error("--min-phases 0 needs --games")
    if args.reps < 1:
        p.error("--reps must be at least 1")
    return args


# --------------------------------------------------------------------------- random play
def random_orders(game: Game, rng: random.Random) -> Orders:
    """A random possible order for every orderable location of every power.

    Locations and orders are sorted before choosing, so the choice depends only
    on the seed (``diplomacy`` builds them from sets, whose order varies with
    ``PYTHONHASHSEED``).
    """
    possible = game.get_all_possible_orders()
    orders: Orders = {}
    for power in sorted(game.powers):
        chosen = []
        for loc in sorted(game.get_orderable_locations(power)):
            if possible.get(loc):
                chosen.append(rng.choice(sorted(possible[loc])))
        orders[power] = chosen
    return orders


def submit(game: Game, orders: Orders) -> None:
    """Give every power its orders."""
    for power, power_orders in orders.items():
        game.set_orders(power, power_orders)


def fresh_copy(state: dict[str, Any], rules: list[str]) -> Game:
    """A new game in the given state, with no history (cheap, unlike deepcopy of a long game)."""
    copy = Game(map_name=MAP_NAME, rules=rules)
    copy.set_state(state)
    return copy


# --------------------------------------------------------------------------- conversion
def to_position(game: Game) -> Position:
    """The arbitre position of the ``diplomacy`` game's current (movement) phase."""
    units: dict[str, Unit] = {}
    owners: dict[str, str] = {}
    for name, power in game.powers.items():
        for text in power.units:
            kind, place = text.split()
            units[place[:3]] = Unit(name, kind, place)
        for center in power.centers:
            owners[center] = name
    return Position(MAP_NAME, Phase.parse(game.get_current_phase()), units, owners)


def diplomacy_board(game: Game, phase: str, before: Position) -> BoardResult:
    """The result of the movement phase ``phase`` that ``game`` has just processed.

    Units are read from the game's new state.  Dislodged units are those whose
    result for ``phase`` includes ``dislodged`` (``diplomacy`` removes a
    dislodged unit with nowhere to go at once, so the retreat phase does not
    list it); their retreat options are the powers' ``retreats`` (empty when
    there are none).  ``before`` gives the owner of each dislodged unit.
    """
    units: set[UnitKey] = set()
    options: dict[str, frozenset[str]] = {}
    for name, power in game.powers.items():
        for text in power.units:
            kind, place = text.split()
            units.add((name, kind, place))
        for text, where in power.retreats.items():
            options[text] = frozenset(where)
    retreats: dict[UnitKey, frozenset[str]] = {}
    for text, codes in game.result_history[phase].items():
        if any(str(code) == "dislodged" for code in codes):
            kind, place = text.split()
            owner = before.units[place[:3]].power
            retreats[(owner, kind, place)] = options.get(text, frozenset())
    return BoardResult(frozenset(units), frozenset(retreats), retreats)


def same_result(a: BoardResult, b: BoardResult) -> bool:
    """Same board, same dislodged units and same retreat options."""
    return a.same_board(b) and a.same_retreats(b)


def arbitre_board(outcome: PhaseOutcome) -> BoardResult:
    """The result of an arbitre movement adjudication."""
    units = frozenset((u.power, u.kind, u.place) for u in outcome.after.units.values())
    retreats = {
        (d.unit.power, d.unit.kind, d.unit.place): frozenset(d.retreats or ()) for d in outcome.dislodged.values()
    }
    return BoardResult(units, frozenset(retreats), retreats)


def outcome_digest(outcome: PhaseOutcome) -> str:
    """A short digest of everything ``adjudicate`` decided: equal digests, equal results."""
    after = outcome.after
    text = repr(
        (
            [(r.power, r.text, r.outcome, r.reason) for r in outcome.results],
            str(after.phase),
            sorted((p, u.power, u.kind, u.place) for p, u in after.units.items()),
            sorted(after.owners.items()),
            sorted(
                (p, d.unit.power, d.unit.kind, d.unit.place, d.attacker_from, d.retreats)
                for p, d in outcome.dislodged.items()
            ),
        )
    )
    return sha256(text.encode()).hexdigest()[:16]


def check_results(path: Path, records: list[PhaseRecord]) -> bool:
    """Write the digests to ``path`` when it is missing, else compare them; print what changed."""
    lines = [f"{r.game} {r.phase} {r.digest}" for r in records]
    if not path.exists():
        path.write_text("\n".join(lines) + "\n")
        print(f"\nResults: {len(lines)} digests written to {path}")
        return True
    stored = path.read_text().split("\n")
    changed = [line for line, old in zip(lines, stored, strict=False) if line != old]
    print(f"\nResults: {len(lines) - len(changed)} of {len(lines)} phases identical to {path}")
    for line in changed[:10]:
        print(f"    changed: {line}")
    return not changed


def rejected_orders(outcome: PhaseOutcome) -> list[tuple[str, str, str]]:
    """Orders arbitre did not accept (illegal or invalid), with the reason."""
    return [
        (r.text, r.outcome, r.reason or "")
        for r in outcome.results
        if r.order is None or r.outcome not in (SUCCEEDS, FAILS)
    ]


# --------------------------------------------------------------------------- timing
def timed(call: Callable[[], Any]) -> tuple[Timing, Any]:
    """Run ``call`` once with the garbage collector off; return its timing and its value."""
    gc.disable()
    try:
        wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
        value = call()
        cpu, wall = time.thread_time_ns() - cpu, time.perf_counter_ns() - wall
    finally:
        gc.enable()
    return Timing(wall, cpu), value


def run_arbitre(rules: RuleSet, position: Position, orders: Orders) -> tuple[Timing, PhaseOutcome]:
    """One timed ``adjudicate``: parse + check the order texts, resolve, build the next position."""
    return timed(lambda: adjudicate(rules, position, orders))


def run_diplomacy(state: dict[str, Any], rules: list[str], orders: Orders) -> tuple[Timing, Timing, Game]:
    """One timed run on a fresh copy: (``set_orders`` + ``process()``, ``process()`` alone, the copy).

    The copy is made outside the timed region.  ``set_orders`` is where
    ``diplomacy`` parses and validates the order texts, which arbitre does
    inside ``adjudicate``; ``process()`` resolves the phase and advances the game.
    """
    copy = fresh_copy(state, rules)
    submitted, _ = timed(lambda: submit(copy, orders))
    processed, _ = timed(copy.process)
    return submitted + processed, processed, copy


# --------------------------------------------------------------------------- collection
def play_game(
    index: int, seed: int, args: argparse.Namespace, rules: RuleSet, records: list[PhaseRecord], wanted: int
) -> None:
    """Play one random game, appending a record for each movement phase until ``wanted`` are collected."""
    rng = random.Random(seed * 1000 + index)
    game = Game(map_name=MAP_NAME)
    last_year = START_YEAR + args.max_years - 1
    while not game.is_game_done and len(records) < wanted:
        phase = game.get_current_phase()
        if int(phase[1:5]) > last_year:
            break
        orders = random_orders(game, rng)
        if phase.endswith("M"):
            records.append(measure_phase(index, game, orders, rules, args.reps))
        else:
            submit(game, orders)
            game.process()


def measure_phase(index: int, game: Game, orders: Orders, rules: RuleSet, reps: int) -> PhaseRecord:
    """Time and compare both engines on one movement phase, then advance ``game`` past it.

    arbitre runs twice per repetition: with a fresh copy of ``rules`` made
    outside the timed region, where nothing is memoized (``cold``), and with
    ``rules`` itself, the rule set kept for the whole run (as a server or a bot
    keeps it), whose memos of parsed and checked orders hold every order of the
    phase once it has been adjudicated (``warm``; an untimed run warms them
    first, and gives the outcome compared with ``diplomacy``'s).  The runs of the engines alternate so that all see the
    same machine load; each timing kept is the best of ``reps`` runs.
    """
    phase = game.get_current_phase()
    position = to_position(game)
    state, game_rules = game.get_state(), list(game.rules)
    best: dict[str, Timing] = {}

    def keep(key: str, timing: Timing) -> None:
        best[key] = timing.best(best.get(key))

    # The first run of this phase on the long-lived rule set: its memos hold only what earlier
    # phases taught them, as in a bot or server that keeps its rule set. Timed once here; the
    # figure printed is the best of --reps whole streams (see time_streams).
    first, outcome = run_arbitre(rules, position, orders)
    keep("arbitre_stream", first)
    for _ in range(reps):
        clear_caches()  # convoy routes are memoized module-wide: a cold run starts without them
        keep("arbitre_cold", run_arbitre(replace(rules), position, orders)[0])
        keep("arbitre_warm", run_arbitre(rules, position, orders)[0])
        total, processed, copy = run_diplomacy(state, game_rules, orders)
        keep("diplomacy", total)
        keep("diplomacy_process", processed)
    submit(game, orders)
    game.process()
    reference = diplomacy_board(game, phase, position)
    return PhaseRecord(
        game=index,
        phase=phase,
        position=position,
        orders=orders,
        times=best,
        arbitre=arbitre_board(outcome),
        digest=outcome_digest(outcome),
        diplomacy=reference,
        copy_consistent=same_result(diplomacy_board(copy, phase, position), reference),
        rejected=rejected_orders(outcome),
    )


def time_streams(records: list[PhaseRecord], reps: int) -> None:
    """Time the first run of every phase again, as ``reps`` whole streams: each stream starts from a new
    rule set and empty convoy caches and adjudicates every phase once, in order (its memos hold only what
    earlier phases taught them); each phase keeps its best first run, as the other rows keep their best."""
    best: list[Timing | None] = [None] * len(records)
    for _ in range(reps):
        clear_caches()
        stream_rules = make_rules(MAP_NAME)
        for i, record in enumerate(records):
            timing, _ = run_arbitre(stream_rules, record.position, record.orders)
            best[i] = timing.best(best[i])
    for record, timing in zip(records, best, strict=True):
        assert timing is not None
        record.times["arbitre_stream"] = timing


def collect(args: argparse.Namespace, rules: RuleSet) -> tuple[list[PhaseRecord], int]:
    """Play games until enough movement phases (or games) are collected; return the records and the games played."""
    records: list[PhaseRecord] = []
    wanted = args.min_phases if args.min_phases > 0 else sys.maxsize
    games = 0
    while len(records) < wanted and (args.games is None or games < args.games):
        play_game(games, args.seed, args, rules, records, wanted)
        games += 1
        print(f"  game {games}: {len(records)} movement phases so far", file=sys.stderr)
    return records, games


# --------------------------------------------------------------------------- diagnosis
def land_fallback_reading(rules: RuleSet, position: Position, orders: Orders) -> Orders:
    """The orders as ``diplomacy`` reads them when a convoy route is missing (pattern ``land-fallback``).

    Every army move that arbitre voids for want of a convoy route although the
    army could go by land becomes a plain land move, and the convoy orders for
    it become holds (a convoy order that is on no route has no other effect).
    """
    outcome = adjudicate(rules, position, orders)
    gmap = rules.game_map
    rewrite: dict[str, str] = {}
    stranded: set[str] = set()
    for r in outcome.results:
        order = r.order
        if (
            isinstance(order, Move)
            and order.unit is not None
            and order.unit.kind == "A"
            and r.outcome != SUCCEEDS
            and r.reason == "void"
            and gmap.can_move("A", order.unit.place, order.target)
        ):
            rewrite[r.text] = f"A {order.unit.place} - {order.target}"
            stranded.add(order.unit.province)
    for r in outcome.results:
        order = r.order
        if isinstance(order, Convoy) and order.unit is not None and order.convoyed.province in stranded:
            rewrite[r.text] = f"{order.unit.kind} {order.unit.place} H"
    return {power: [rewrite.get(text, text) for text in texts] for power, texts in orders.items()}


def coastless_support_reading(rules: RuleSet, position: Position, orders: Orders) -> Orders:
    """The orders with the coast dropped from every supported move (pattern ``support-coast``).

    ``diplomacy`` ignores the coast named in a support, so ``F MAR S F POR -
    SPA/NC`` also supports ``F POR - SPA/SC``.
    """

    def drop_coast(text: str) -> str:
        words = text.split()
        if len(words) == 7 and words[2] == "S" and "/" in words[6]:
            words[6] = words[6][:3]
        return " ".join(words)

    return {power: [drop_coast(text) for text in texts] for power, texts in orders.items()}


READINGS: dict[str, Callable[[RuleSet, Position, Orders], Orders]] = {
    "land-fallback": land_fallback_reading,
    "support-coast": coastless_support_reading,
}
"""Patterns that are confirmed by replaying arbitre with the orders rewritten as ``diplomacy`` reads them."""


def explaining_readings(rules: RuleSet, record: PhaseRecord) -> tuple[list[str], list[str]]:
    """(the smallest set of readings under which arbitre matches ``diplomacy``, or [], the readings that apply)."""
    applicable = [
        label for label, read in READINGS.items() if read(rules, record.position, record.orders) != record.orders
    ]
    for size in range(1, len(applicable) + 1):
        for labels in combinations(applicable, size):
            orders = record.orders
            for label in labels:
                orders = READINGS[label](rules, record.position, orders)
            if arbitre_board(adjudicate(rules, record.position, orders)).same_board(record.diplomacy):
                return list(labels), applicable
    return [], applicable


def supports_against_own_units(record: PhaseRecord) -> list[str]:
    """Orders by which a power supports a foreign unit's move into a province holding one of its own units."""
    units = record.position.units
    found = []
    for power, texts in record.orders.items():
        for text in texts:
            words = text.split()
            if len(words) != 7 or words[2] != "S" or words[5] != "-":
                continue
            mover, victim = units.get(words[4][:3]), units.get(words[6][:3])
            if mover is not None and victim is not None and mover.power != power and victim.power == power:
                found.append(text)
    return found


def retreats_into_taken_places(rules: RuleSet, record: PhaseRecord) -> bool:
    """Are all the extra retreat options ``diplomacy`` gives occupied or standoff provinces?"""
    occupied = {place[:3] for _, _, place in record.arbitre.units}
    bounced = adjudicate(rules, record.position, record.orders).bounced
    extra = {
        p
        for unit, options in record.diplomacy.retreats.items()
        for p in options - record.arbitre.retreats.get(unit, frozenset())
    }
    missing = any(record.arbitre.retreats.get(u, frozenset()) - o for u, o in record.diplomacy.retreats.items())
    return bool(extra) and not missing and all(p[:3] in occupied or p[:3] in bounced for p in extra)


def classify(rules: RuleSet, record: PhaseRecord) -> list[str]:
    """The known patterns (keys of :data:`PATTERNS`) behind a disagreement; empty when the engines agree.

    The patterns of :data:`READINGS` are confirmed by a replay; the others are
    recognised from the orders and results.  When no replay matches, every
    reading that applies is listed along with the pattern recognised.
    """
    if record.arbitre.same_board(record.diplomacy):
        if record.arbitre.same_retreats(record.diplomacy):
            return []
        return ["retreat-occupied" if retreats_into_taken_places(rules, record) else "unexplained"]
    confirmed, applicable = explaining_readings(rules, record)
    if confirmed:
        return confirmed
    return [*applicable, "own-unit-support" if supports_against_own_units(record) else "unexplained"]


def units_text(units: frozenset[UnitKey] | set[UnitKey]) -> str:
    """Units as ``POWER K PLACE`` joined by commas, or ``-``."""
    return ", ".join(f"{p} {k} {pl}" for p, k, pl in sorted(units)) or "-"


def describe_disagreement(record: PhaseRecord) -> str:
    """A readable account of one phase where the engines disagree."""
    a, d = record.arbitre, record.diplomacy
    lines = [f"game {record.game} {record.phase}:"]
    for power, orders in record.orders.items():
        if orders:
            lines.append(f"    {power}: " + "; ".join(orders))
    lines.append(f"    units only after diplomacy: {units_text(d.units - a.units)}")
    lines.append(f"    units only after arbitre:   {units_text(a.units - d.units)}")
    if a.dislodged != d.dislodged:
        lines.append(f"    dislodged by diplomacy: {units_text(d.dislodged)}")
        lines.append(f"    dislodged by arbitre:   {units_text(a.dislodged)}")
    lines.append("    pattern: " + ", ".join(record.patterns))
    return "\n".join(lines)


def describe_retreat_difference(record: PhaseRecord) -> str:
    """One line per dislodged unit whose retreat options differ."""
    out = [f"game {record.game} {record.phase}:"]
    for power, orders in record.orders.items():
        if orders:
            out.append(f"    {power}: " + "; ".join(orders))
    for unit in sorted(record.diplomacy.retreats):
        d = record.diplomacy.retreats[unit]
        a = record.arbitre.retreats.get(unit, frozenset())
        if a != d:
            out.append(f"    retreats of {units_text({unit})}: diplomacy {sorted(d)}, arbitre {sorted(a)}")
    out.append("    pattern: " + ", ".join(record.patterns))
    return "\n".join(out)


# --------------------------------------------------------------------------- report
def median_us(values: list[int]) -> float:
    """Median of nanosecond values, in microseconds."""
    return statistics.median(values) / 1000 if values else float("nan")


API_TARGET = 25.0
"""The API's first run of a fresh movement phase must be at least this many times faster than the peer."""

TIMED = {
    "arbitre_cold": "arbitre adjudicate, nothing memoized",
    "arbitre_warm": "arbitre adjudicate, every order memoized",
    "arbitre_stream": "arbitre adjudicate, memos of earlier phases only",
    "diplomacy": "diplomacy set_orders + process()",
    "diplomacy_process": "diplomacy process() alone",
}
"""The measurements (keys of ``PhaseRecord.times``) and their labels."""

RATIOS = (
    ("diplomacy", "arbitre_cold"),
    ("diplomacy", "arbitre_warm"),
    ("diplomacy", "arbitre_stream"),
    ("diplomacy_process", "arbitre_cold"),
)
"""Ratios printed (of the medians): numerator and denominator keys."""


def phase_groups(records: list[PhaseRecord]) -> list[tuple[str, list[PhaseRecord]]]:
    """The groups of phases the timing table has a column for."""
    return [
        ("all", records),
        ("S1901M", [r for r in records if r.phase == "S1901M"]),
        ("1911+", [r for r in records if int(r.phase[1:5]) > 1910]),
    ]


def median_of(records: list[PhaseRecord], key: str, clock: str) -> float:
    """Median over ``records`` of one measurement, in µs."""
    return median_us([getattr(r.times[key], clock) for r in records])


def print_timings(records: list[PhaseRecord], reps: int) -> None:
    """Median µs per phase of each measurement and the ratios, per group of phases, on both clocks."""
    groups = [(label, group) for label, group in phase_groups(records) if group]
    header = "".join(f"{f'{label} ({len(group)})':>16}" for label, group in groups)
    short = {
        "diplomacy": "diplomacy",
        "diplomacy_process": "diplomacy process()",
        "arbitre_cold": "arbitre no memo",
        "arbitre_warm": "arbitre memoized",
        "arbitre_stream": "arbitre first run",
    }
    for clock, title in (("cpu_ns", "thread CPU time, thread_time_ns"), ("wall_ns", "wall clock, perf_counter_ns")):
        print(f"\nTiming ({title}): median over phases of the best of {reps} runs, µs per movement phase")
        print(f"  {'':<48}{header}")
        for key, label in TIMED.items():
            print(f"  {label:<48}" + "".join(f"{median_of(g, key, clock):>16.1f}" for _, g in groups))
        for top, bottom in RATIOS:
            label = f"ratio {short[top]} / {short[bottom]}"
            print(
                f"  {label:<48}"
                + "".join(f"{median_of(g, top, clock) / median_of(g, bottom, clock):>15.1f}x" for _, g in groups)
            )
    api = median_of(records, "diplomacy", "cpu_ns") / median_of(records, "arbitre_stream", "cpu_ns")
    met = "met" if api >= API_TARGET else "NOT met"
    print(
        f"  target: the API's first run of fresh movement phases at least {API_TARGET:.0f}x diplomacy's "
        f"set_orders + process() (thread CPU, all phases): {met} ({api:.1f}x)"
    )
    print(
        "  total CPU time over all phases: "
        + ", ".join(f"{short[key]} {sum(r.times[key].cpu_ns for r in records) / 1e9:.2f} s" for key in TIMED)
    )


def print_agreement(records: list[PhaseRecord], show: int | None) -> None:
    """Agreement figures, disagreements by pattern, and the list of disagreements."""
    n = len(records)
    board = [r for r in records if not r.arbitre.same_board(r.diplomacy)]
    retreat = [r for r in records if r.arbitre.same_board(r.diplomacy) and not r.arbitre.same_retreats(r.diplomacy)]
    inconsistent = sum(1 for r in records if not r.copy_consistent)
    print(f"\nAgreement (units after the phase + dislodged units): {n - len(board)} of {n} phases agree")
    print(
        f"Retreat options of dislodged units, in the {n - len(board)} phases whose boards agree: "
        f"{n - len(board) - len(retreat)} agree"
    )
    print(f"diplomacy's timed copies reproduced the real game's result in {n - inconsistent} of {n} phases")
    print_rejected(records)
    print("\nDisagreements by pattern (a phase can show several):")
    counts = Counter(label for r in board + retreat for label in r.patterns)
    for label, text in PATTERNS.items():
        print(f"  {counts.get(label, 0):>5}  {label}: {text}")
    if board:
        print(f"\nDisagreements on units/dislodged ({len(board)}{'' if show is None else f', first {show}'}):")
        for r in board[:show]:
            print(describe_disagreement(r))
    if retreat:
        print(f"\nDisagreements on retreat options only ({len(retreat)}):")
        for r in retreat[:show]:
            print(describe_retreat_difference(r))


def print_rejected(records: list[PhaseRecord]) -> None:
    """How many of diplomacy's possible orders arbitre refused as illegal or invalid, and why."""
    rejected = Counter((outcome, reason) for r in records for _, outcome, reason in r.rejected)
    total = sum(len(o) for r in records for o in r.orders.values())
    print(
        f"Orders arbitre refused as illegal/invalid: {sum(rejected.values())} of {total}"
        + "".join(f"; {outcome}/{reason}: {count}" for (outcome, reason), count in rejected.most_common())
    )
    for text, outcome, reason in sorted({x for r in records for x in r.rejected})[:10]:
        print(f"    e.g. {text!r}: {outcome} ({reason})")


def print_profile(rules: RuleSet, records: list[PhaseRecord], top: int, sort: str) -> None:
    """Profile arbitre on every collected phase, without memos and then with them, and print the top functions."""
    fresh = [replace(rules) for _ in records]
    profile_arbitre("nothing memoized", zip(fresh, records, strict=True), top, sort)
    profile_arbitre("every order memoized", ((rules, r) for r in records), top, sort)


def profile_arbitre(title: str, runs: Iterable[tuple[RuleSet, PhaseRecord]], top: int, sort: str) -> None:
    """cProfile one ``adjudicate`` per (rule set, phase), with the garbage collector off as in the timings."""
    profiler = cProfile.Profile()
    count = 0
    gc.collect()
    gc.disable()  # otherwise collections are charged to whichever call happens to allocate
    try:
        for phase_rules, record in runs:
            profiler.enable()
            adjudicate(phase_rules, record.position, record.orders)
            profiler.disable()
            count += 1
    finally:
        gc.enable()
    print(f"\ncProfile of arbitre.adjudicate, {title}, over {count} movement phases (top {top} by {sort}):")
    pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats(sort).print_stats(top)


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Collect phases, then print timings, agreement, disagreements and (optionally) a profile."""
    args = parse_args(argv)
    print(
        f"core: {'compiled (mypyc, scripts/build-compiled)' if compiled() else 'pure Python'}, load average {os.getloadavg()[0]:.2f}"
    )
    if os.environ.get("ARBITRE_EXPECT_COMPILED") == "1" and not compiled():
        print("expected the compiled core (ARBITRE_EXPECT_COMPILED=1), but this process runs pure Python")
        return 1
    rules = make_rules(MAP_NAME)
    started = time.perf_counter()
    records, games = collect(args, rules)
    elapsed = time.perf_counter() - started
    time_streams(records, args.reps)
    for record in records:
        record.patterns = classify(rules, record)
    print(f"arbitre {version('arbitre')} vs diplomacy {version('diplomacy')} on Python {sys.version.split()[0]}")
    print(
        f"seed {args.seed}: {len(records)} movement phases from {games} random games "
        f"(at most {args.max_years} years each), collected in {elapsed:.0f} s"
    )
    if not records:
        return 1
    print_timings(records, args.reps)
    print_agreement(records, args.show)
    if args.results is not None and not check_results(args.results, records):
        return 1
    if args.profile:
        print_profile(rules, records, args.profile_top, args.profile_sort)
    return 0


if __name__ == "__main__":
    sys.exit(main())
