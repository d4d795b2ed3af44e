"""The command line: new, play, orders, datc, demo."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from arbitre.cli.main import app

from .conftest import shared_file

runner = CliRunner()


def test_new_play_history(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = tmp_path / "g.json"
    assert runner.invoke(app, ["new", str(game)]).exit_code == 0
    res = runner.invoke(
        app, ["play", str(game), "--order", "FRANCE: A PAR - BUR", "--order", "GERMANY: A MUN - BUR", "--advance"]
    )
    assert res.exit_code == 0, res.output
    assert "bounced" in res.output
    res = runner.invoke(app, ["play", str(game), "--history"])
    assert "Spring 1901 Movement" in res.output
    data = json.loads(game.read_text())
    assert data["position"]["phase"] == "F1901M"


def test_play_interactive(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = tmp_path / "g.json"
    runner.invoke(app, ["new", str(game)])
    keys = "\n".join(["?", "A VIE - TYR", ""] + [""] * 6) + "\n"
    res = runner.invoke(app, ["play", str(game)], input=keys)
    assert "Fall 1901 Movement" in res.output
    assert "A TYR" in res.output


def test_play_interactive_asks_again_in_a_module_s_later_orders_step(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With the declarations module, the orders step locks (Austria declares Tyrolia, everyone reads it) and the
    moves step asks every power for its orders again: Austria's army goes to Trieste's neighbour Tyrolia then."""
    game = tmp_path / "g.json"
    assert runner.invoke(app, ["new", str(game), "--rules", "declarations"]).exit_code == 0
    first = ["DECLARE TYR", ""] + [""] * 6  # Austria declares; the others give nothing
    moves = ["A VIE - TYR", ""] + [""] * 6  # the moves step: Austria gives its orders again
    res = runner.invoke(app, ["play", str(game)], input="\n".join(first + moves) + "\n")
    assert "Fall 1901 Movement" in res.output, res.output
    data = json.loads(game.read_text())
    assert data["position"]["phase"] == "F1901M"  # one phase played, by the orders of its moves step
    assert "A TYR" in res.output and "DECLARE TYR" not in json.dumps(data["history"][-1].get("outcome", {}))


def test_random_play_reaches_later_years(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = tmp_path / "g.json"
    runner.invoke(app, ["new", str(game)])
    res = runner.invoke(app, ["play", str(game), "--random", "20", "--seed", "4"])
    assert res.exit_code == 0, res.output
    assert json.loads(game.read_text())["position"]["phase"] >= "F1906"


def test_orders_listing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = tmp_path / "g.json"
    runner.invoke(app, ["new", str(game)])
    res = runner.invoke(app, ["orders", str(game), "--power", "england", "--json"])
    listing = json.loads(res.stdout)
    assert "F LON - NTH" in listing["ENGLAND"]["LON"]


ONE_CASE = """<h3 id="6.A">6.A. TEST CASES, BASIC CHECKS</h3>
<h4 id="6.A.1">6.A.1. TEST CASE, MOVING TO A PROVINCE THAT IS NOT A NEIGHBOUR</h4>
<div class="test-case spring" id="6.A.1.orders">England:
F North Sea - Picardy <span class="resolution">Illegal</span>
</div>
"""


def test_datc_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "datc.html"
    page.write_text(ONE_CASE)
    res = runner.invoke(app, ["datc", str(page)])
    assert res.exit_code == 0, res.output
    assert "6.A" in res.output and "total" in res.output
    page.write_text(ONE_CASE.replace("Illegal", "Succeeds"))
    res = runner.invoke(app, ["datc", str(page)])
    assert res.exit_code != 0


def test_datc_command_on_the_datc_itself() -> None:
    res = runner.invoke(app, ["datc", str(shared_file("datc/DATC_v3_2_chapter6.html"))])
    assert res.exit_code == 0
    assert "176" in res.output


def test_bad_game_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "broken.json"
    path.write_text("{nope")
    res = runner.invoke(app, ["play", str(path)])
    assert res.exit_code == 2 and "not valid JSON" in res.output
