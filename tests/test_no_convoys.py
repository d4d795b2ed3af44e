"""The example rule module of docs/architecture.md: with ``no_convoys`` convoy orders are illegal."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arbitre.adjudicator import ILLEGAL, adjudicate
from arbitre.cli.main import app
from arbitre.rules import legal_orders
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules

UNITS = {"NTH": Unit("ENGLAND", "F", "NTH"), "YOR": Unit("ENGLAND", "A", "YOR")}
ORDERS = {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"]}


def position() -> Position:
    return Position("standard", Phase.parse("F1901M"), UNITS, {"LON": "ENGLAND"})


def test_convoys_work_without_the_module() -> None:
    out = adjudicate(make_rules("standard"), position(), ORDERS)
    assert "NWY" in out.after.units
    assert any(" C " in o for o in legal_orders(make_rules("standard"), position(), "ENGLAND")["NTH"])


def test_convoy_orders_are_illegal_and_never_listed() -> None:
    rules = make_rules("standard", rules=["no_convoys"])
    out = adjudicate(rules, position(), ORDERS)
    (convoy,) = [r for r in out.results if r.text == "F NTH C A YOR - NWY"]
    assert (convoy.outcome, convoy.reason) == (ILLEGAL, "kind_withdrawn")
    assert "no_convoys" in (convoy.message or "")
    assert "NWY" not in out.after.units and "YOR" in out.after.units  # the army found no convoy
    listed = legal_orders(rules, position(), "ENGLAND")
    assert listed["NTH"] and not any(" C " in o for orders in listed.values() for o in orders)


def test_adjudicate_json_with_no_convoys(tmp_path: Path) -> None:
    request = {
        "map": "standard",
        "rules": ["no_convoys"],
        "phase": "F1901M",
        "units": {"ENGLAND": ["F NTH", "A YOR"]},
        "orders": ORDERS,
    }
    src = tmp_path / "position.json"
    src.write_text(json.dumps(request))
    result = CliRunner().invoke(app, ["adjudicate", str(src)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    by_order = {r["order"]: r for r in out["results"]}
    assert by_order["F NTH C A YOR - NWY"]["outcome"] == "illegal"
    assert by_order["F NTH C A YOR - NWY"]["reason"] == "kind_withdrawn"
    assert "A YOR" in out["next"]["units"]["ENGLAND"]
