"""Submarines on the Colonial map through the Python API, and the hidden-state pair of the Suez permission.

The rule cases themselves (a surfaced submarine passes the canal with permission, a submerged one cannot,
Avalon Hill's implicit permission) are data: tests/cases/colonial_submarines.json."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitre.adjudicator import ILLEGAL, SUCCEEDS, adjudicate
from arbitre.interface import process
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules

SETS = ["vdiplomacy", "avalon-hill"]


def _json(
    ruleset: str, units: dict[str, list[str]], orders: dict[str, list[str]], viewer: str | None = None
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "map": "colonial",
        "rules": ["submarines"],
        "phase": "S1870M",
        "options": {"colonial": ruleset},
        "units": units,
        "orders": orders,
    }
    if viewer:
        doc["viewer"] = viewer
    return process(doc)


def test_avalon_hill_implicit_permission_through_the_python_api() -> None:
    """The JSON interface's case is in tests/cases/colonial_submarines.json; the Python API agrees."""
    rules = make_rules("colonial", ["submarines"], {"colonial": "avalon-hill"})
    pos = Position(
        "colonial", Phase.parse("S1870M"), {"EGY": Unit("BRITAIN", "A", "EGY"), "MED": Unit("BRITAIN", "SM", "MED")}, {}
    )
    outcome = adjudicate(rules, pos, {"BRITAIN": ["SM MED - RED"]})
    assert [r.outcome for r in outcome.results if r.text == "SM MED - RED"] == [SUCCEEDS]
    assert outcome.after.units["RED"] == Unit("BRITAIN", "SM", "RED")


@pytest.mark.parametrize("ruleset", SETS)
def test_a_submerged_submarine_cannot_use_the_canal(ruleset: str) -> None:
    rules = make_rules("colonial", ["submarines"], {"colonial": ruleset})
    pos = Position(
        "colonial",
        Phase.parse("S1870M"),
        {"EGY": Unit("FRANCE", "A", "EGY"), "MED-1": Unit("FRANCE", "SM", "MED-1")},
        {},
    )
    outcome = adjudicate(rules, pos, {"FRANCE": ["SM MED-1 - RED-1", "SC SM MED-1 - RED-1"]})
    assert {r.outcome for r in outcome.results if r.reason != "no_order"} == {ILLEGAL}
    assert outcome.after.units["MED-1"] == Unit("FRANCE", "SM", "MED-1")


@pytest.mark.parametrize("ruleset", SETS)
def test_a_permission_never_reveals_a_submerged_submarine(ruleset: str) -> None:
    """Only hidden state changes (a French submarine under MED, or nothing): Britain's answer is byte-identical."""
    answers = []
    for french in (["SM MED-1"], []):
        units = {"BRITAIN": ["A EGY"], **({"FRANCE": french} if french else {})}
        out = _json(
            ruleset,
            units,
            {"BRITAIN": ["SC F MED - RED"], **({"FRANCE": ["SM MED-1 H"]} if french else {})},
            viewer="BRITAIN",
        )
        answers.append(json.dumps(out, sort_keys=True))
    assert answers[0] == answers[1]
    assert '"suez_no_fleet"' in answers[0]
