"""Whole Colonial games through the Python API, from Spring 1870 to a victory at 30 centres.

Six powers play random legal orders (train moves and canal passages
included, since the legal-order list offers them); one plays a simple greedy
bot that walks towards the nearest centre it does not own and supports its own
attacks.  Every phase goes through :func:`arbitre.adjudicator.adjudicate`; the
game must end with the bot owning 30 centres that count (Hong Kong not for China).
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.judge import start_position
from arbitre.maps import GameMap
from arbitre.rules import RuleSet, legal_orders
from arbitre.state import ADJUSTMENTS, MOVEMENT, Position
from arbitre.variants import make_rules


def _distances(gmap: GameMap, kind: str, goals: set[str]) -> dict[str, int]:
    """Distance (in moves of a unit of ``kind``) from each place to the nearest goal province."""
    table = gmap.adjacency[kind]
    reverse: dict[str, set[str]] = {}
    for place, ns in table.items():
        for n in ns:
            reverse.setdefault(n, set()).add(place)
    dist = {p: 0 for p in table if gmap.province_of[p] in goals}
    queue = deque(dist)
    while queue:
        p = queue.popleft()
        for q in reverse.get(p, ()):
            if q not in dist:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def greedy_orders(rules: RuleSet, pos: Position, power: str, rng: random.Random) -> list[str]:
    """Walk every unit towards the nearest centre ``power`` does not own; support attacks on held places."""
    gmap = rules.game_map
    goals = {c for c in gmap.supply_centers if pos.owners.get(c) != power}
    legal = legal_orders(rules, pos, power)
    plans: dict[str, str] = {}  # unit place -> target province
    for prov, unit in sorted(pos.units.items()):
        if unit.power != power:
            continue
        if prov in goals and pos.phase.season == "F":
            continue  # stay to take it
        dist = _distances(gmap, unit.kind, goals - set(plans.values()))
        options = [
            t
            for t in sorted(gmap.neighbours(unit.kind, unit.place))
            if t in dist
            and dist[t] < dist.get(unit.place, 99)
            and gmap.province_of[t] not in plans.values()
            and not (gmap.province_of[t] in pos.units and pos.units[gmap.province_of[t]].power == power)
        ]
        if options:
            rng.shuffle(options)
            options.sort(key=lambda t: dist[t])
            plans[unit.place] = options[0]
    orders = [f"{pos.units[gmap.province_of[p]]} - {t}" for p, t in plans.items()]
    busy = set(plans)
    for _prov, unit in sorted(pos.units.items()):
        if unit.power != power or unit.place in busy:
            continue
        for origin, target in plans.items():
            text = f"{unit} S {pos.units[gmap.province_of[origin]]} - {gmap.province_of[target]}"
            if target_held(pos, gmap, target, power) and text in legal.get(unit.place, ()):
                orders.append(text)
                break
    return orders


def target_held(pos: Position, gmap: GameMap, target: str, power: str) -> bool:
    """Is ``target`` held by another power (so that an attack needs support)?"""
    unit = pos.units.get(gmap.province_of[target])
    return unit is not None and unit.power != power


def random_orders(rules: RuleSet, pos: Position, power: str, rng: random.Random) -> list[str]:
    """One random legal order per unit (or per build/disband), as a bot without a plan would give."""
    legal = legal_orders(rules, pos, power)
    if pos.phase.kind == ADJUSTMENTS:
        picks = [rng.choice(options) for key, options in legal.items() if key != "WAIVE"]
        return picks
    return [rng.choice(options) for key, options in legal.items() if key != "SUEZ" or rng.random() < 0.5]


def play(rules: RuleSet, hero: str, seed: int, max_years: int = 80) -> tuple[Position, int, set[str]]:
    """Play until ``hero`` owns the victory count of centres; returns the final position, phases and orders seen."""
    rng = random.Random(seed)
    gmap = rules.game_map
    pos = start_position(rules)
    seen: set[str] = set()
    phases = 0
    while pos.phase.year < 1870 + max_years:
        orders: dict[str, list[str]] = {}
        for power in gmap.powers:
            if power == hero and pos.phase.kind == MOVEMENT:
                orders[power] = greedy_orders(rules, pos, power, rng)
            else:
                orders[power] = random_orders(rules, pos, power, rng)
        outcome = adjudicate(rules, pos, orders)
        for r in outcome.results:
            if r.reason is not None:
                seen.add(r.reason)
            if r.order is not None:
                seen.add(type(r.order).__name__)
        after = outcome.after
        assert sum(1 for _ in after.units) == len(after.units)
        for prov, unit in after.units.items():
            assert gmap.province_of[unit.place] == prov and unit.place in gmap.adjacency[unit.kind]
        assert set(after.owners) <= gmap.supply_centers
        pos = after
        phases += 1
        if pos.phase.kind != "R" and rules.victory_centers(hero, pos) >= gmap.victory_centers:
            return pos, phases, seen
    raise AssertionError(f"no victory by {pos.phase}: {hero} has {rules.victory_centers(hero, pos)} centres")


@pytest.mark.parametrize(("ruleset", "hero", "seed"), [("vdiplomacy", "JAPAN", 1), ("avalon-hill", "BRITAIN", 2)])
def test_a_colonial_game_is_won_at_30(ruleset: str, hero: str, seed: int) -> None:
    rules = make_rules("colonial", options={"colonial": ruleset})
    final, phases, seen = play(rules, hero, seed)
    assert rules.victory_centers(hero, final) >= 30
    assert final.phase.kind in ("A", "M") and final.phase.season in ("W", "S")
    assert "TrainMove" in seen  # the railroad was used on the way
    assert phases > 10
