"""Every DATC chapter-4 alternative as a named option: each one changes what the DATC text says it changes.

The cases are data (``tests/cases/datc_options.json``, one record per DATC case and option), each from
the DATC's own text, played by tests/test_cases.py through the JSON interface under the default (the
DATC v3.2 preference) and under each alternative.  Here: every alternative has a case, and changes it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.cases.expect import check_results, check_units_of
from arbitre.interface import process_text
from arbitre.judge import position_from_data
from arbitre.rules.options import OPTION_CHOICES, OPTIONS, PRESETS, RuleOptions, options_catalogue
from arbitre.rules.order_sets import combine_order_sets
from arbitre.variants import make_rules

CASES = json.loads((Path(__file__).parent / "cases" / "datc_options.json").read_text(encoding="utf-8"))["cases"]
"""The alternative cases: one record per DATC case and option, ``6.F.14 [convoy_paradox=1982]``."""


def _key(case: dict[str, Any]) -> tuple[str, str]:
    """(DATC case, ``option=value`` or ``default``) of a record."""
    cid, _, key = case["id"].partition(" [")
    return cid, key.rstrip("]")


def _expected(case: dict[str, Any]) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
    """(order, word) pairs, and power → units, that a record expects."""
    expect = case["steps"][0]["expect"]
    return [(row[1], row[2]) for row in expect["results"]], expect.get("units_of", {})


def _dislodged(case: dict[str, Any]) -> object:
    """The dislodged units (and their retreats) a record expects, if it says."""
    return case["steps"][0]["expect"].get("dislodged")


def test_every_record_is_named_by_its_options() -> None:
    for case in CASES:
        _, key = _key(case)
        options = case["position"]["options"]
        assert (key == "default" and options == {}) or options == dict([key.split("=", 1)]), case["id"]


def test_every_alternative_has_a_case() -> None:
    """Each value of each option of the issue's list is exercised by some case (the preference by 'default')."""
    tested = {_key(case)[1] for case in CASES}
    untested = [
        f"{o.name}={v}"
        for o in OPTIONS
        for v, _ in o.values[1:]
        if f"{o.name}={v}" not in tested
        and o.name
        not in (
            "multi_route_convoy",
            "adjacent_convoy",
            "retreat_to_convoy_origin",
            "support_coast",
            "wrong_unit_type",
            "multiple_orders",
            "civil_disorder",
        )
    ]
    assert not untested  # the exempted options have their cases in test_json_interface / test_game


SAME_AS_DEFAULT = {
    # The DATC says these alternatives agree with its preference on these cases (shown for completeness).
    ("6.F.14", "convoy_paradox=1982"),
    ("6.F.14", "convoy_paradox=dptg"),
    ("6.F.18", "convoy_paradox=all_hold"),
    ("6.F.18", "convoy_paradox=dptg"),
    ("6.F.22", "convoy_paradox=1982"),
    ("6.F.22", "convoy_paradox=dptg"),
    ("6.F.24", "convoy_paradox=1982"),
    ("6.F.21", "preset=2000"),
    # DATC 4.A.6: a written path is read under every choice; "allowed" changes nothing without one.
    ("4.A.6 written path", "convoy_path=allowed"),
    ("4.A.6 written path", "convoy_path=required"),
    ("4.A.6 no path", "convoy_path=allowed"),
    # DATC 4.C.5/4.C.6 c: with no second order naming the nationality, the order is valid (as choice b).
    ("4.C.5", "missing_nationality=unless_designated"),
    ("4.C.6", "wrong_nationality=unless_designated"),
}


def test_each_alternative_changes_its_case() -> None:
    """The alternative's expectations differ from the default's on at least one order or unit."""
    defaults = {_key(c)[0]: _expected(c) for c in CASES if _key(c)[1] == "default"}
    base = {_key(c)[0]: c for c in CASES if _key(c)[1] == "default"}
    for case in CASES:
        cid, key = _key(case)
        if key == "default" or (cid, key) in SAME_AS_DEFAULT:
            continue
        base_results, base_units = defaults[cid]
        results, units = _expected(case)
        differs = any(pair not in base_results for pair in results)
        differs |= any(base_units.get(p) not in (None, u) for p, u in units.items())
        differs |= _dislodged(case) != _dislodged(base[cid])  # where the dislodged units may retreat
        assert differs, (cid, key)


def test_defaults_are_the_datc_preferences() -> None:
    assert RuleOptions().changed() == {}
    for spec in OPTIONS:
        assert getattr(RuleOptions(), spec.name) == spec.default == OPTION_CHOICES[spec.name][0]
        assert tuple(v for v, _ in spec.values) == OPTION_CHOICES[spec.name]  # described = accepted


def test_presets_set_their_options_and_can_be_overridden() -> None:
    assert make_rules("standard", options={"preset": "1982"}).options.convoy_paradox == "1982"
    assert make_rules("standard", options={"preset": "2000"}).options.civil_disorder == "2000"
    mixed = make_rules("standard", options={"preset": "1982", "convoy_paradox": "szykman"}).options
    assert mixed.convoy_paradox == "szykman" and mixed.civil_disorder == "2000"
    assert make_rules("standard", options={"preset": "datc"}).options == RuleOptions()
    assert {p.title for p in PRESETS.values()} == {
        "DATC v3.2 preferences",
        "2023 rulebook",
        "2000 rulebook",
        "Avalon Hill 1982",
        "MILA's engine (the diplomacy package 1.1.2)",
    }
    mila = make_rules("standard", options={"preset": "mila"}).options
    assert mila.changed() == {
        "adjacent_convoy": "v2_fallback",
        "support_coast": "ignored",
        "civil_disorder": "2000",
        "self_dislodge_support": "via_convoy",
        "retreat_to_standoff": "after_convoy",
    }
    with pytest.raises(ValueError, match="preset"):
        make_rules("standard", options={"preset": "1959"})
    [(out, ok)] = process_text(json.dumps({"phase": "S1901M", "units": {}, "options": {"preset": "1959"}}))
    assert not ok and out["error"]["where"] == "options"


def test_catalogue_marks_the_preference_once_per_option() -> None:
    cat = options_catalogue()
    names = [o["name"] for g in cat["groups"] for o in g["options"]]  # type: ignore[index]
    assert sorted(names) == sorted(OPTION_CHOICES)
    for group in cat["groups"]:  # type: ignore[union-attr]
        for option in group["options"]:
            assert [v["datc_preference"] for v in option["values"]].count(True) == 1
            assert option["values"][0]["value"] == option["default"]


def test_docs_list_every_option_and_value() -> None:
    text = (Path(__file__).parents[1] / "docs" / "options.md").read_text(encoding="utf-8")
    for spec in OPTIONS:
        assert f"`{spec.name}`" in text and spec.datc in text, spec.name
        for value, _ in spec.values:
            assert f"`{value}`" in text, (spec.name, value)
    for preset in PRESETS.values():
        assert preset.title in text


def _python_api_answer(case: dict[str, Any]) -> dict[str, Any]:
    """Play a one-step record through the Python API (no JSON interface), in the answer's shape."""
    pos, step = case["position"], case["steps"][0]
    rules = make_rules(pos["map"], pos.get("rules", []), pos["options"])
    position = position_from_data(rules, pos["phase"], pos["units"], pos.get("supply_centers"))
    orders: dict[str, list[str]] = dict(step.get("orders", {}))
    for power, sets in step.get("order_sets", {}).items():
        known = step.get("order_sets_latest_known", True)
        orders[power] = combine_order_sets(rules.options, position, power, sets, latest_known=known)
    outcome = adjudicate(rules, position, orders)
    results = [
        {
            "power": r.power,
            "order": r.order.format() if r.order is not None else r.text,
            "outcome": r.outcome,
            "reason": r.reason,
        }
        for r in outcome.results
    ]
    units: dict[str, list[str]] = {}
    for unit in outcome.after.units.values():
        units.setdefault(unit.power, []).append(f"{unit.kind} {unit.place}")
    return {"results": results, "next": {"units": units, "dislodged": {}}}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_each_case_through_the_python_api(case: dict[str, Any]) -> None:
    """The same records as tests/test_cases.py, played with make_rules and adjudicate directly."""
    expect = case["steps"][0]["expect"]
    answer = _python_api_answer(case)
    problems = check_results(answer, expect["results"]) + check_units_of(answer, expect.get("units_of", {}))
    assert not problems, problems
