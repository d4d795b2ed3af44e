"""Games with submarines through the command line and the JSON interface, each viewer seeing its own part."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.interface import process
from arbitre.judge import Game

runner = CliRunner()

SEED = {  # the seed's example on the standard map: ATL is MAO, MAN is ENG
    "rules": ["submarines"],
    "phase": "S1901M",
    "units": {"GERMANY": ["SM MAO-1"], "FRANCE": ["F MAO"], "ENGLAND": ["SM ENG", "SM NAO-1"]},
    "orders": {"GERMANY": ["SM MAO-1 Torp. MAO"], "FRANCE": ["F MAO - POR"], "ENGLAND": ["SM ENG - MAO"]},
}


def _new(tmp_path: Path, *args: str) -> Path:
    game = tmp_path / "g.json"
    res = runner.invoke(app, ["new", str(game), "--rules", "submarines", *args])
    assert res.exit_code == 0, res.output
    return game


def test_a_game_through_the_command_line_shows_each_viewer_its_part(tmp_path: Path) -> None:
    game = _new(tmp_path, "--option", "start_submarines=FRANCE:BRE")
    res = runner.invoke(app, ["play", str(game), "--order", "FRANCE: SM BRE - MAO", "--advance"])
    assert res.exit_code == 0, res.output
    runner.invoke(app, ["play", str(game), "--advance"])  # the retreat step, held every time
    res = runner.invoke(
        app, ["play", str(game), "--order", "FRANCE: SM MAO - MAO-1", "--advance", "--viewer", "GERMANY"]
    )
    assert res.exit_code == 0, res.output
    assert "SM MAO - MAO-1" in res.output  # a public unit's order is published…
    assert "(+1 unseen)" in res.output  # …and then France has a unit Germany cannot see
    runner.invoke(app, ["play", str(game), "--advance"])
    res = runner.invoke(
        app, ["play", str(game), "--order", "FRANCE: SM MAO-1 - NAO-1", "--advance", "--viewer", "ENGLAND"]
    )
    assert res.exit_code == 0, res.output
    assert "NAO-1" not in res.output and "MAO-1" not in res.output
    mine = runner.invoke(app, ["play", str(game), "--history", "--viewer", "FRANCE"]).output
    assert "SM MAO-1 - NAO-1" in mine
    theirs = runner.invoke(app, ["play", str(game), "--history", "--viewer", "observer"]).output
    assert "SM MAO-1 - NAO-1" not in theirs and "SM MAO - MAO-1" in theirs


def test_orders_lists_only_what_the_viewer_may_order(tmp_path: Path) -> None:
    game = _new(tmp_path, "--option", "start_submarines=FRANCE:BRE")
    res = runner.invoke(app, ["orders", str(game), "--viewer", "FRANCE", "--json"])
    listing = json.loads(res.stdout)
    assert list(listing) == ["FRANCE"] and "SM BRE - MAO" in listing["FRANCE"]["BRE"]
    assert runner.invoke(app, ["orders", str(game), "--viewer", "observer"]).exit_code == 2
    assert runner.invoke(app, ["orders", str(game), "--viewer", "FRANCE", "--power", "ITALY"]).exit_code == 2
    assert runner.invoke(app, ["play", str(game), "--viewer", "SPAIN"]).exit_code == 2


@pytest.mark.parametrize("map_name", ["standard", "colonial"])
def test_random_games_with_submarines(tmp_path: Path, map_name: str) -> None:
    fleets = {
        p: [u.split()[1] for u in info.start_units if u.startswith("F ")]
        for p, info in Game.new(map_name).rules.game_map.powers.items()
    }
    choice = ",".join(f"{p}:{f[0]}" for p, f in fleets.items() if f)
    game = tmp_path / "g.json"
    res = runner.invoke(
        app, ["new", str(game), "--map", map_name, "--rules", "submarines", "--option", f"start_submarines={choice}"]
    )
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["play", str(game), "--random", "16", "--seed", "4", "--viewer", "observer"])
    assert res.exit_code == 0, res.output
    saved = Game.from_data(json.loads(game.read_text()))
    assert len(saved.history) >= 8
    for viewer in ["master", "observer", *saved.powers()]:
        for view in saved.history_views(viewer):
            for unit in view.units:
                assert unit.power in (viewer, None) or not unit.place.endswith("-1") or viewer == "master"


def test_json_interface_prints_only_the_viewers_view() -> None:
    master = process(SEED)
    assert [line["audience"] for line in master["report"]] == [["ENGLAND"], ["GERMANY"], ["*"]]  # sorted by kind
    assert master["next"]["extras"] == {"submarines": {"contacts": {"ENGLAND": ["MAO-1"], "GERMANY": ["NAO-1"]}}}
    france = process({**SEED, "viewer": "france"})
    assert france["viewer"] == "FRANCE"
    assert [r["order"] for r in france["results"]] == ["SM ENG - MAO", "F MAO - POR"]  # sorted by power
    assert [line["kind"] for line in france["report"]] == ["submarines.torpedo_hit"]
    assert "audience" not in france["report"][0]
    assert "GERMANY" not in france["next"]["units"] and "extras" not in france["next"]
    england = process({**SEED, "viewer": "ENGLAND"})
    assert england["next"]["extras"] == {"submarines": {"contacts": {"ENGLAND": ["MAO-1"]}}}
    assert england["next"]["dislodged"]["ENGLAND"][0]["unit"] == "SM MAO"
    assert england["next"]["units"]["ENGLAND"] == ["SM NAO-1"]


def test_next_stays_valid_input_and_carries_the_variant_state() -> None:
    first = process(SEED)
    retreat = process({**first["next"], "rules": ["submarines"], "orders": {"ENGLAND": ["SM MAO R BRE"]}})
    assert retreat["results"][0]["outcome"] == "succeeds"
    assert retreat["next"]["phase"] == "F1901M"
    assert retreat["next"]["extras"] == first["next"]["extras"]  # contacts are kept until the next movement
    viewer_next = process({**SEED, "viewer": "ENGLAND"})["next"]
    assert process({**viewer_next, "rules": ["submarines"], "viewer": "ENGLAND"})["phase"] == "S1901R"


def test_json_interface_errors_name_the_viewer_field() -> None:
    with pytest.raises(Exception, match="viewer"):
        process({**SEED, "viewer": "SPAIN"})


def test_adjudicate_command_with_a_viewer(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "arbitre.cli.main", "adjudicate"],
        input=json.dumps({**SEED, "viewer": "observer"}),
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(proc.stdout)
    assert out["viewer"] == "observer" and "Torp" not in proc.stdout
    assert all(r["power"] != "GERMANY" for r in out["results"]) and "GERMANY" not in out["next"]["units"]
    assert out["report"][0]["en"] == "A torpedo fired from MAO-1 hit England's SM MAO in MAO."
