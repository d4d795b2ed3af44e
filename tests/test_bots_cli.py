"""The bots at the command line: ``arbitre play --bots`` and ``arbitre bot --position``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arbitre.cli.main import app

runner = CliRunner()
SIX = "AUSTRIA,ENGLAND,GERMANY,ITALY,RUSSIA,TURKEY"


def test_play_against_bots_interactively(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert runner.invoke(app, ["new", str(game), "--rules", "espionnite"]).exit_code == 0
    res = runner.invoke(app, ["play", str(game), "--bots", SIX], input="A PAR - BUR\n\n\n")
    assert res.exit_code == 0, res.output
    assert "played by the house bot: AUSTRIA, ENGLAND" in res.output and "FRANCE orders" in res.output
    assert "GERMANY orders" not in res.output
    data = json.loads(game.read_text())
    first = data["history"][0]["orders"]
    assert first["FRANCE"] == ["A PAR - BUR"] and len(first["GERMANY"]) >= 3 and data["position"]["phase"] == "F1901M"


def test_play_advance_with_bots_and_unknown_power(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    runner.invoke(app, ["new", str(game)])
    res = runner.invoke(app, ["play", str(game), "--bots", "FRANCE", "--advance"])
    assert res.exit_code == 0, res.output
    assert len(json.loads(game.read_text())["history"][0]["orders"]["FRANCE"]) == 3
    res = runner.invoke(app, ["play", str(game), "--bots", "FRANCE,GONDOR"])
    assert res.exit_code == 2 and "'GONDOR' is not a power" in res.output


def test_bot_prints_orders_for_a_position_the_same_for_the_same_seed(tmp_path: Path) -> None:
    pos = tmp_path / "p.json"
    pos.write_text(
        json.dumps(
            {"map": "standard", "phase": "F1901M", "units": {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A MUN"]}}
        )
    )
    first = runner.invoke(app, ["bot", "--position", str(pos), "--power", "FRANCE", "--seed", "4", "--json"])
    again = runner.invoke(app, ["bot", "--position", str(pos), "--power", "france", "--seed", "4", "--json"])
    assert first.exit_code == 0, first.output
    assert first.output == again.output
    data = json.loads(first.output)
    assert data["power"] == "FRANCE" and len(data["orders"]) == 2
    assert all(o.split()[1] in ("BUR", "MAO") for o in data["orders"])


def test_bot_refuses_bad_input_clearly(tmp_path: Path) -> None:
    pos = tmp_path / "p.json"
    pos.write_text("[1, 2]")
    res = runner.invoke(app, ["bot", "--position", str(pos), "--power", "FRANCE"])
    assert res.exit_code == 2 and "expected a JSON object" in res.output
    pos.write_text(json.dumps({"map": "standard", "phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}))
    res = runner.invoke(app, ["bot", "--position", str(pos), "--power", "FRANCE"])
    assert res.exit_code == 2 and "error" in res.output and "Traceback" not in res.output
