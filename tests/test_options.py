"""Every DATC chapter-4 alternative as a named option: each one changes what the DATC text says it changes.

The cases are data (``tests/data/options/datc_alternatives.json``), each from the
DATC's own text; every case runs under the default (the DATC v3.2 preference)
and under each alternative, through the JSON interface and through the Python API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.interface import process, process_text
from arbitre.rules import RuleSet
from arbitre.rules.options import OPTION_CHOICES, OPTIONS, PRESETS, RuleOptions, options_catalogue
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules

DATA = json.loads((Path(__file__).parent / "data" / "options" / "datc_alternatives.json").read_text(encoding="utf-8"))
RUNS = [(case, key) for case in DATA["cases"] for key in case["expect"]]


def _options(key: str) -> dict[str, str]:
    if key == "default":
        return {}
    name, value = key.split("=", 1)
    return {name: value}


def _check(case: dict[str, Any], key: str, results: dict[str, str | None], units: dict[str, list[str]]) -> list[str]:
    want = case["expect"][key]
    problems = [f"{text}: expected {word}, got {results.get(text)}"
                for text, word in want.get("results", {}).items() if results.get(text) != word]
    for power, placed in want.get("units", {}).items():
        if sorted(units.get(power, [])) != sorted(placed):
            problems.append(f"units of {power}: expected {sorted(placed)}, got {sorted(units.get(power, []))}")
    return problems


def _position(rules: RuleSet, case: dict[str, Any]) -> Position:
    units = {}
    for power, texts in case["units"].items():
        for text in texts:
            kind, place = text.split()
            units[rules.game_map.province_of[place]] = Unit(power, kind, place)
    owners = {c: p for p, cs in case.get("supply_centers", {}).items() for c in cs}
    return Position("standard", Phase.parse(case["phase"]), units, owners)


def _request(case: dict[str, Any], key: str) -> dict[str, Any]:
    return {"map": "standard", "phase": case["phase"], "units": case["units"],
            "supply_centers": case.get("supply_centers", {}), "orders": case["orders"], "options": _options(key)}


@pytest.mark.parametrize("case,key", RUNS, ids=[f"{c['id']}[{k}]" for c, k in RUNS])
def test_alternative_through_json(case: dict[str, Any], key: str) -> None:
    out = process(_request(case, key))
    # The JSON names each order in its normal form: find the form each written order took.
    rules = make_rules("standard", options=_options(key))
    outcome = adjudicate(rules, _position(rules, case), case["orders"])
    normal = {r.text: (r.order.format() if r.order is not None else r.text) for r in outcome.results}
    by_text: dict[str, list[str]] = {}
    for r in out["results"]:
        by_text.setdefault(r["order"], []).append(r["outcome"])
    results: dict[str, str | None] = {}
    for texts in case["orders"].values():
        for text in texts:
            words = by_text.get(normal.get(text, text)) or [None]  # type: ignore[list-item]
            results[text] = words.pop(0)
    for text, words in by_text.items():
        if words:
            results.setdefault(text, words[0])
    problems = _check(case, key, results, out["next"]["units"])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case,key", RUNS, ids=[f"{c['id']}[{k}]" for c, k in RUNS])
def test_alternative_through_python(case: dict[str, Any], key: str) -> None:
    rules = make_rules("standard", options=_options(key))
    position = _position(rules, case)
    outcome = adjudicate(rules, position, case["orders"])
    results = {r.text: r.outcome for r in outcome.results}
    after: dict[str, list[str]] = {}
    for u in outcome.after.units.values():
        after.setdefault(u.power, []).append(f"{u.kind} {u.place}")
    problems = _check(case, key, results, after)
    assert not problems, "\n".join(problems)


def test_every_alternative_has_a_case() -> None:
    """Each value of each option of the issue's list is exercised by some case (the preference by 'default')."""
    tested = {key for case in DATA["cases"] for key in case["expect"]}
    untested = [f"{o.name}={v}" for o in OPTIONS for v, _ in o.values[1:]
                if f"{o.name}={v}" not in tested
                and o.name not in ("multi_route_convoy", "adjacent_convoy", "retreat_to_convoy_origin",
                                   "support_coast", "wrong_unit_type", "multiple_orders", "civil_disorder")]
    assert not untested  # the exempted options have their cases in test_json_interface / test_game


SAME_AS_DEFAULT = {
    # The DATC says these alternatives agree with its preference on these cases (shown for completeness).
    ("6.F.14", "convoy_paradox=1982"), ("6.F.14", "convoy_paradox=dptg"), ("6.F.18", "convoy_paradox=all_hold"),
    ("6.F.18", "convoy_paradox=dptg"), ("6.F.22", "convoy_paradox=1982"), ("6.F.22", "convoy_paradox=dptg"),
    ("6.F.24", "convoy_paradox=1982"), ("6.F.21", "preset=2000"),
}


def test_each_alternative_changes_its_case() -> None:
    """The alternative's expectations differ from the default's on at least one order or unit."""
    for case in DATA["cases"]:
        base = case["expect"]["default"]
        for key, want in case["expect"].items():
            if key == "default" or (case["id"], key) in SAME_AS_DEFAULT:
                continue
            differs = any(base.get("results", {}).get(t) not in (None, w) for t, w in want.get("results", {}).items())
            differs |= any(base.get("units", {}).get(p) not in (None, u) for p, u in want.get("units", {}).items())
            differs |= any(t not in base.get("results", {}) for t in want.get("results", {}))
            assert differs, (case["id"], key)


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
        "DATC v3.2 preferences", "2023 rulebook", "2000 rulebook", "Avalon Hill 1982"}
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
