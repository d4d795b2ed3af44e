"""Colonial Diplomacy's reference cases, read from data files by one parametrised runner per suite.

* ``tests/data/colonial/vdiplomacy.json`` — vDiplomacy's 61 Colonial test cases
  (converted by ``tools/convert_colonial_tests.py``), under the ``vdiplomacy`` rule set;
  each order's ``expected`` is vDiplomacy's word (``Success``/``Hold``/``Dislodged``).
* ``tests/data/colonial/avalon_hill.json`` — the seed's examples (9.23 note, 9.25 and
  its two variants, the two questions and answers of Annexe 1) and more cases of
  ours, under the ``avalon-hill`` rule set; each case states its expectations
  in our own terms (results, units after, dislodged units, retreats).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitre.adjudicator import FAILS, ILLEGAL, INVALID, PARTIAL, SUCCEEDS, OrderResult, PhaseOutcome, adjudicate
from arbitre.orders import Hold, Move, Order, Support
from arbitre.rules import RuleSet
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules
from arbitre.variants.colonial import SuezPermission, TrainMove

DATA = Path(__file__).resolve().parent / "data" / "colonial"
VDIP = json.loads((DATA / "vdiplomacy.json").read_text(encoding="utf-8"))
AH = json.loads((DATA / "avalon_hill.json").read_text(encoding="utf-8"))


def _rules(suite: dict[str, Any]) -> RuleSet:
    spec = suite["rules"]
    return make_rules(spec["map"], options=spec["options"])


def _position(rules: RuleSet, units: list[dict[str, str]], owners: dict[str, str] | None = None,
              phase: str = "S1870M") -> Position:
    gmap = rules.game_map
    placed: dict[str, Unit] = {}
    for u in units:
        kind, place = u["unit"].split()
        placed[gmap.province_of[place]] = Unit(u["power"], kind, place)
    return Position(gmap.name, Phase.parse(phase), placed, dict(owners or {}))


def _result_of(outcome: PhaseOutcome, power: str, text: str) -> OrderResult:
    found = [r for r in outcome.results if r.power == power and r.text == text]
    assert len(found) == 1, f"{power}: {text}: {len(found)} results"
    return found[0]


def _unit_province(rules: RuleSet, order: Order | None, text: str) -> str | None:
    if order is not None and order.unit is not None:
        return order.unit.province
    try:
        parsed = rules.parse(text)
    except ValueError:
        return None
    return parsed.unit.province if parsed.unit is not None else None


# ---------------------------------------------------------------------- vDiplomacy's cases
def _check_vdip_order(rules: RuleSet, outcome: PhaseOutcome, row: dict[str, Any]) -> list[str]:
    power, text, expected = row["power"], row["order"], row["expected"]
    result = _result_of(outcome, power, text)
    order = result.order
    prov = _unit_province(rules, order, text)
    dislodged = prov is not None and prov in outcome.dislodged
    got = f"{result.outcome}" + (f" ({result.reason})" if result.reason else "") + (", dislodged" if dislodged else "")
    bad = f"{power}: {text}: expected {expected}{'' if row['order_valid'] else ' (refused)'}, got {got}"
    if not row["order_valid"]:
        return [] if result.outcome in (ILLEGAL, INVALID) else [bad]
    if result.outcome in (ILLEGAL, INVALID):
        return [bad]
    if expected == "Dislodged":
        return [] if dislodged else [bad]
    if dislodged:
        return [bad]
    ok = result.outcome == SUCCEEDS
    if isinstance(order, TrainMove):
        ok = ok or result.outcome == PARTIAL  # vDiplomacy stores a train stopped part-way as Success
    if isinstance(order, Hold):
        ok = True  # a hold "succeeds" unless dislodged
    if expected == "Success":
        return [] if ok else [bad]
    assert expected == "Hold", expected
    return [] if not ok else [bad]


@pytest.mark.parametrize("case", VDIP["cases"], ids=[c["id"] for c in VDIP["cases"]])
def test_vdiplomacy_case(case: dict[str, Any]) -> None:
    rules = _rules(VDIP)
    position = _position(rules, case["units"])
    orders: dict[str, list[str]] = {}
    for row in case["orders"]:
        orders.setdefault(row["power"], []).append(row["order"])
    outcome = adjudicate(rules, position, orders)
    problems: list[str] = []
    for row in case["orders"]:
        problems.extend(_check_vdip_order(rules, outcome, row))
    for origin, end in case.get("ends_in", {}).items():
        unit = position.units[origin]
        there = outcome.after.units.get(end)
        if there is None or (there.power, there.kind, there.place) != (unit.power, unit.kind, end):
            problems.append(f"the train from {origin} should end in {end}; after: {sorted(outcome.after.units)}")
    assert not problems, "\n".join(problems)


def test_vdiplomacy_suite_is_complete() -> None:
    assert len(VDIP["cases"]) == 61
    trains = [c for c in VDIP["cases"] if any(" - TSR - " in o["order"] and o["order_valid"] for o in c["orders"])]
    assert len(trains) == sum(1 for c in VDIP["cases"] if "ends_in" in c) + 2  # E9 and F2: dislodged


# ---------------------------------------------------------------------- Avalon Hill cases
WORDS = {"succeeds": SUCCEEDS, "fails": FAILS, "partial": PARTIAL, "illegal": ILLEGAL, "invalid": INVALID}


@pytest.mark.parametrize("case", AH["cases"], ids=[c["id"] for c in AH["cases"]])
def test_avalon_hill_case(case: dict[str, Any]) -> None:
    rules = _rules(AH)
    position = _position(rules, case["units"], case.get("owners"), case.get("phase", "S1870M"))
    outcome = adjudicate(rules, position, case["orders"])
    expect = case["expect"]
    problems: list[str] = []
    for power, texts in expect.get("results", {}).items():
        for text, word in texts.items():
            result = _result_of(outcome, power, text)
            want = word.split(":")
            if result.outcome != WORDS[want[0]] or (len(want) > 1 and result.reason != want[1]):
                problems.append(f"{power}: {text}: expected {word}, got {result.outcome} ({result.reason})")
    units_after = {prov: f"{u.power} {u.kind} {u.place}" for prov, u in outcome.after.units.items()}
    for prov, want in expect.get("units_after", {}).items():
        if units_after.get(prov) != want:
            problems.append(f"after: {prov} should hold {want}, holds {units_after.get(prov)}")
    for prov in expect.get("empty_after", []):
        if prov in units_after:
            problems.append(f"after: {prov} should be empty, holds {units_after[prov]}")
    if "dislodged" in expect:
        got = sorted(outcome.dislodged)
        if got != sorted(expect["dislodged"]):
            problems.append(f"dislodged: expected {sorted(expect['dislodged'])}, got {got}")
    for prov, places in expect.get("retreats", {}).items():
        got_r = outcome.dislodged[prov].retreats if prov in outcome.dislodged else None
        if got_r is None or sorted(got_r) != sorted(places):
            problems.append(f"retreats of {prov}: expected {sorted(places)}, got {got_r}")
    for prov in expect.get("standoffs", []):
        if prov not in outcome.bounced:
            problems.append(f"{prov} should be a standoff; standoffs: {sorted(outcome.bounced)}")
    assert not problems, "\n".join(problems)


def test_avalon_hill_suite_has_the_seed_examples() -> None:
    ids = {c["id"] for c in AH["cases"]}
    assert {"seed-9.23-note", "seed-9.25", "seed-9.25-to-PRM", "seed-9.25-to-MOS", "seed-QA1", "seed-QA2"} <= ids


def test_the_runner_can_fail() -> None:
    """Flip one expectation of each suite: the case must then fail."""
    case = next(c for c in VDIP["cases"] if c["id"] == "TSR.C12a")
    flipped = json.loads(json.dumps(case))
    flipped["orders"][0]["expected"] = "Success"
    with pytest.raises(AssertionError):
        test_vdiplomacy_case(flipped)
    case = next(c for c in AH["cases"] if c["id"] == "seed-QA2")
    flipped = json.loads(json.dumps(case))
    flipped["expect"]["units_after"]["OMS"] = "RUSSIA A PRM"
    with pytest.raises(AssertionError):
        test_avalon_hill_case(flipped)


def test_order_kinds_in_the_suites_are_read_as_colonial_orders() -> None:
    rules = _rules(VDIP)
    kinds = {type(rules.parse(o["order"])) for c in VDIP["cases"] for o in c["orders"]}
    assert {TrainMove, SuezPermission, Move, Support, Hold} <= kinds
