"""Refused variant orders name the rule that refused them; the Colonial errata's dotted abbreviations are read.

Written from the rule pages: the Colonial errata (seed 002: "the correct abbreviation for the
Andaman Sea is AND.S, rule 13.0") and ../shared/spec/submarines.md (a hidden layer X-1 under every
sea, none under coasts and land).
"""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.adjudicator import SUCCEEDS, adjudicate
from arbitre.interface import process
from arbitre.orders import InvalidOrder
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules


def _json(
    rules: list[str], map_name: str, units: dict[str, list[str]], orders: dict[str, list[str]], phase: str = "S1901M"
) -> dict[str, Any]:
    return process({"map": map_name, "rules": rules, "phase": phase, "units": units, "orders": orders})


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("F AND.S - BOB", "F AND - BOB"),
        ("F and.s - BOB", "F AND - BOB"),
        ("F BOB - AND.S", "F BOB - AND"),
        ("F AND.S S F BOB - EIO", "F AND S F BOB - EIO"),  # the S after the dot-form is still the support
        ("F RED.S - MED", "F RED - MED"),  # the same dotted form for every sea
        ("F AND S F BOB - EIO", "F AND S F BOB - EIO"),  # without the dot nothing changes
    ],
)
def test_errata_dotted_abbreviations(text: str, want: str) -> None:
    assert make_rules("colonial").parse(text).format() == want


def test_errata_dotted_abbreviation_through_json_and_python() -> None:
    out = _json([], "colonial", {"BRITAIN": ["F AND"]}, {"BRITAIN": ["F AND.S - BOB"]}, "S1870M")
    assert out["results"][0]["outcome"] == "succeeds" and out["next"]["units"]["BRITAIN"] == ["F BOB"]
    rules = make_rules("colonial")
    pos = Position("colonial", Phase.parse("S1870M"), {"AND": Unit("BRITAIN", "F", "AND")}, {})
    assert adjudicate(rules, pos, {"BRITAIN": ["F AND.S - BOB"]}).results[0].outcome == SUCCEEDS


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("SM BRE - BRE-1", ["Submarines", "BRE-1 does not exist", "a coast has no depth"]),
        ("A PAR - BUR-1", ["Submarines", "BUR-1 does not exist", "land has no depth"]),
        ("SM MAO - MAO-2", ["Submarines", "MAO-2 does not exist", "the only depth is -1"]),
    ],
)
def test_a_depth_that_does_not_exist_is_explained(text: str, words: list[str]) -> None:
    rules = make_rules("standard", ["submarines"])
    with pytest.raises(InvalidOrder) as err:
        rules.parse(text)
    assert err.value.reason == "no_depth" and all(w in err.value.describe() for w in words)
    assert "unexpected" not in err.value.describe()
    power_units = {"FRANCE": ["SM BRE", "A PAR", "SM MAO"]}
    [result] = [
        r for r in _json(["submarines"], "standard", power_units, {"FRANCE": [text]})["results"] if r["order"] == text
    ]
    assert result["outcome"] == "invalid" and result["reason"] == "no_depth"
    assert all(w in result["message"] for w in words)


def test_refused_variant_orders_name_their_rule() -> None:
    sub = _json(["submarines"], "standard", {"FRANCE": ["F BRE"]}, {"FRANCE": ["F BRE - MAO-1", "F BRE T MAO-1"]})
    for r in sub["results"]:
        if r["outcome"] == "illegal":
            assert r["message"].startswith("Submarines: "), r
    assert {r["reason"] for r in sub["results"]} >= {"not_submarine"}
    col = _json([], "colonial", {"CHINA": ["A PEK"]}, {"CHINA": ["A PEK - TSR - VLA", "SC F MED - RED"]}, "S1870M")
    messages = [r["message"] for r in col["results"] if r["outcome"] == "illegal"]
    assert len(messages) == 2
    assert any(m.startswith("Trans-Siberian Railroad") for m in messages)
    assert any(m.startswith("Suez Canal") for m in messages)
    rules = make_rules("standard", ["espionnite"])
    from arbitre.judge import Game

    game = Game.new(rules=["espionnite"])
    [refused] = game.check_orders("FRANCE", ["SPY PAR"])
    assert refused.message.startswith("Espionnite: ") and rules.variant("espionnite") is not None
