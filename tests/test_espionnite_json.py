"""The JSON interface's Espionnite steps: "reveal" (orders in, reports out per viewer), then "resolve"."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.interface import RequestError, process
from arbitre.interface.schema import AdjudicationResponse, RevealResponse

BASE: dict[str, Any] = {
    "rules": ["espionnite"],
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN", "A BER"], "ENGLAND": ["F LON"]},
    "orders": {
        "FRANCE": ["A PAR - BUR", "SPY MUN", "COUNTERSPY PAR"],
        "GERMANY": ["A MUN - BUR", "SPY PAR", "SPY BER"],
        "ENGLAND": ["ESPION MUN", "SPY XYZ"],
    },
}
MUN = "Your spy watched Germany's A MUN: its order is A MUN - BUR."


def test_reveal_for_the_master_holds_every_power_s_reports() -> None:
    out = process({**BASE, "step": "reveal"})
    RevealResponse.model_validate(out)
    assert out["step"] == "reveal" and out["phase"] == "S1901M"
    assert {p: [r["en"] for r in lines] for p, lines in out["reveals"].items()} == {
        "ENGLAND": [MUN],
        "FRANCE": [MUN],
        "GERMANY": ["Your spy (SPY PAR) learnt nothing."],
    }
    assert out["reveals"]["GERMANY"][0]["fr"] == "Votre espion (ESPION PAR) n'a rien appris."
    assert {(r["power"], r["order"], r["reason"]) for r in out["rejected"]} == {
        ("GERMANY", "SPY BER", "own_unit"),
        ("ENGLAND", "SPY XYZ", "unknown_place"),
    }
    assert "next" not in out and "results" not in out  # nothing is adjudicated


@pytest.mark.parametrize("viewer", ["GERMANY", "germany"])
def test_reveal_for_a_power_holds_only_its_own(viewer: str) -> None:
    out = process({**BASE, "step": "reveal", "viewer": viewer})
    assert list(out["reveals"]) == ["GERMANY"]
    assert [r["order"] for r in out["rejected"]] == ["SPY BER"]


def test_reveal_for_an_observer_holds_nothing() -> None:
    out = process({**BASE, "step": "reveal", "viewer": "observer"})
    assert out["reveals"] == {} and out["rejected"] == []


def test_catch_notice_option() -> None:
    out = process({**BASE, "step": "reveal", "options": {"espionnite_catch_notice": True}})
    # canonical order: by kind (espionnite.spy_caught before espionnite.spy_succeeded)
    assert [r["en"] for r in out["reveals"]["FRANCE"]] == ["Your counter-spy guarding PAR caught a spy.", MUN]


def test_resolve_applies_one_change_per_power_and_never_publishes_spies() -> None:
    out = process({**BASE, "step": "resolve", "reactions": {"FRANCE": "A MAR - BUR", "germany": "A MUN - RUH"}})
    AdjudicationResponse.model_validate(out)
    moved = {r["order"]: r["outcome"] for r in out["results"] if r["reason"] != "no_order"}
    assert moved == {"A PAR - BUR": "fails", "A MAR - BUR": "fails", "A MUN - RUH": "succeeds"}
    assert "SPY" not in json.dumps(out)
    assert out["next"]["units"]["GERMANY"] == ["A BER", "A RUH"]


def test_resolve_without_reactions_and_plain_requests_agree() -> None:
    resolved = process({**BASE, "step": "resolve"})
    plain = process(BASE)
    assert resolved == plain
    assert "SPY" not in json.dumps(plain)


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ({**BASE, "step": "resolve", "reactions": {"FRANCE": "A MUN - RUH"}}, "reactions.FRANCE"),
        ({**BASE, "step": "resolve", "reactions": {"FRANCE": "SPY MUN"}}, "reactions.FRANCE"),
        ({**BASE, "step": "resolve", "reactions": {"NARNIA": "A PAR H"}}, "reactions.NARNIA"),
        ({**BASE, "step": "reveal", "rules": []}, "step"),
        ({**BASE, "step": "reveal", "phase": "W1901A"}, "step"),
        ({**BASE, "step": "reveal", "viewer": "NARNIA"}, "viewer"),
        ({**BASE, "step": "peek"}, "step"),
    ],
)
def test_errors_name_the_field(request_: dict[str, Any], where: str) -> None:
    with pytest.raises(RequestError) as err:
        process(request_)
    assert err.value.where == where


def test_both_steps_through_the_command_line() -> None:
    runner = CliRunner()
    lines = "\n".join(
        json.dumps(r)
        for r in (
            {**BASE, "step": "reveal", "viewer": "FRANCE"},
            {**BASE, "step": "resolve", "reactions": {"FRANCE": "A MAR S A PAR - BUR"}},
        )
    )
    res = runner.invoke(app, ["adjudicate"], input=lines)
    assert res.exit_code == 0, res.output
    reveal, resolve = (json.loads(line) for line in res.output.splitlines())
    assert [r["en"] for r in reveal["reveals"]["FRANCE"]] == [MUN]
    assert {r["order"]: r["outcome"] for r in resolve["results"]}["A MAR S A PAR - BUR"] == "succeeds"
