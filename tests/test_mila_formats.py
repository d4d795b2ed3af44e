"""MILA's saved games: arbitre's export passes MILA's own checker, MILA's recorded games import, bad files say where.

The games are played as ``bench/bench_mila_export.py`` plays them (that bench runs 20 house-bot and 20
random games; CI runs a few of each here).  Tests that need MILA's package (its checker, its engine's
hash, its recorded network games) are skipped only when ``diplomacy`` is not installed.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbitre.adjudicator import adjudicate
from arbitre.cli.main import app
from arbitre.interface.mila import ExportError, MilaImportError, PressMessage, export_game, import_game
from arbitre.interface.mila.saved import zobrist_tables
from arbitre.interface.mila.zobrist import state_hash
from arbitre.judge import Game, position_from_data
from arbitre.variants import make_rules

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_mila_export", ROOT / "bench" / "bench_mila_export.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _network_games() -> list[Path]:
    tests = pytest.importorskip("diplomacy.tests.network")
    return sorted(Path(tests.__file__).parent.glob("*.json"))


# ---------------------------------------------------------------- the mila preset's option
def test_v2_fallback_moves_an_army_over_land_when_its_convoy_is_not_there() -> None:
    """DATC 6.G.8: 'via convoy' with no convoy ordered fails by the DATC preference, moves by land in the preset."""
    orders = {"FRANCE": ["A BEL - HOL VIA"], "ENGLAND": ["F NTH - HEL", "A HOL - KIE"]}
    units = {"FRANCE": ["A BEL"], "ENGLAND": ["F NTH", "A HOL"]}
    where = {}
    for preset in ("datc", "mila"):
        rules = make_rules("standard", [], {"preset": preset})
        outcome = adjudicate(rules, position_from_data(rules, "S1901M", units, {}), orders)
        where[preset] = sorted(str(u) for u in outcome.after.units.values() if u.power == "FRANCE")
    assert where == {"datc": ["A BEL"], "mila": ["A HOL"]}


def test_v2_fallback_keeps_the_convoy_when_one_is_ordered() -> None:
    """DATC 6.G.1: with its own fleet convoying, the army is convoyed and the two armies swap, in both."""
    units = {"ENGLAND": ["A NWY", "F SKA"], "RUSSIA": ["A SWE"]}
    orders = {"ENGLAND": ["A NWY - SWE", "F SKA C A NWY - SWE"], "RUSSIA": ["A SWE - NWY"]}
    rules = make_rules("standard", [], {"preset": "mila"})
    outcome = adjudicate(rules, position_from_data(rules, "S1901M", units, {}), orders)
    assert sorted(str(u) for u in outcome.after.units.values() if u.kind == "A") == ["A NWY", "A SWE"]
    assert all(u.power != "RUSSIA" or u.place == "NWY" for u in outcome.after.units.values())


# ---------------------------------------------------------------- the hash
def test_state_hash_is_milas() -> None:
    """Our hash of every state of a random game played by MILA's engine is the hash MILA computes."""
    pytest.importorskip("diplomacy")
    from diplomacy import Game as MilaGame

    table = zobrist_tables(make_rules("standard", [], {}).game_map)
    rng = random.Random(5)
    mila = MilaGame()
    for _ in range(25):
        possible = mila.get_all_possible_orders()
        for power in mila.powers:
            mila.set_orders(power, [rng.choice(possible[loc]) for loc in mila.get_orderable_locations(power)])
        mila.process()
        units, waiting, centres, homes = [], [], [], []
        for name, p in mila.powers.items():
            units += [(name, u[0], u[2:]) for u in p.units]
            waiting += [(name, u[0], u[2:]) for u in p.retreats]
            centres += [(name, c) for c in p.centers]
            homes += [(name, h) for h in p.homes]
        assert state_hash(table, units, waiting, centres, homes) == mila.get_hash()


# ---------------------------------------------------------------- export
@pytest.mark.parametrize(("kind", "seed"), [("house", 0), ("house", 1), ("random", 0), ("random", 1)])
def test_exported_games_pass_milas_checker_and_import_back(kind: str, seed: int) -> None:
    """Seeded house-bot and random games (to 1906 here; the bench plays 20 of each to 1910)."""
    pytest.importorskip("diplomacy")
    bench = _bench()
    game = (bench.house_game if kind == "house" else bench.random_game)(seed, 1906)
    valid, saved = bench.check(game, f"{kind}-{seed}")
    assert valid, bench.explain(saved)
    back = import_game(saved)
    assert back.position == game.position


def test_export_writes_milas_words() -> None:
    """A short game's phases, orders, results, retreats, builds and press as MILA writes them."""
    game = Game.new("standard", options={"preset": "mila"})
    turns = [
        {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
        {"FRANCE": ["F BRE - MAO", "A MAR - SPA"], "GERMANY": ["A MUN - BUR"], "ENGLAND": ["F LON - ENG"]},
    ]
    for orders in turns:
        for power, lines in orders.items():
            game.set_orders(power, lines)
        game.advance()
    press = [
        PressMessage("S1901M", "FRANCE", "GERMANY", 10, "Hello"),
        PressMessage("F1901M", "GERMANY", "GLOBAL", 20, "Hi all"),
    ]
    saved = export_game(game, "demo", press)
    names = [p["name"] for p in saved["phases"]]
    assert names == ["S1901M", "F1901M", "W1901A"]
    first = saved["phases"][0]
    assert sorted(first["orders"]["FRANCE"]) == ["A MAR S A PAR - BUR", "A PAR - BUR"]
    assert first["results"]["A PAR"] == [] and first["results"]["A MUN"] == ["bounce"]
    assert first["messages"][0]["message"] == "Hello" and saved["phases"][1]["messages"][0]["recipient"] == "GLOBAL"
    winter = saved["phases"][2]["state"]
    assert winter["builds"]["FRANCE"] == {"count": 1, "homes": ["BRE", "MAR", "PAR"]}
    assert winter["centers"]["FRANCE"] == ["BRE", "MAR", "PAR", "SPA"]
    # MILA's influence: a province stays a power's until another power's unit moves in.
    assert winter["influence"]["FRANCE"] == ["BRE", "MAR", "PAR", "BUR", "MAO", "SPA"]
    assert winter["units"]["FRANCE"] == ["A BUR", "F MAO", "A SPA"]
    assert saved["rules"] == [] and saved["map"] == "standard"


def test_a_won_game_ends_with_milas_completed_phase() -> None:
    game = Game.new("standard")
    for p in game.powers():
        game.set_orders(p, [])
    game.advance()
    game.concede("FRANCE")
    saved = export_game(game, "won")
    last = saved["phases"][-1]
    assert [p["name"] for p in saved["phases"]] == ["S1901M", "COMPLETED"]
    assert last["state"]["name"] == "COMPLETED" and last["state"]["note"] == "Victory by: FRA"


def test_export_refuses_what_mila_cannot_hold() -> None:
    with pytest.raises(ExportError, match="rule modules"):
        export_game(Game.new("standard", ["submarines"]), "x")
    with pytest.raises(ExportError, match="standard map"):
        export_game(Game.new("colonial"), "x")


# ---------------------------------------------------------------- import
@pytest.mark.parametrize("index", [0, 1, 2])
def test_milas_recorded_network_games_import_with_every_phase_agreeing(index: int) -> None:
    path = _network_games()[index]
    saved = json.loads(path.read_text())
    game = import_game(saved)
    assert len(game.history) >= len(saved["phases"]) - 1
    assert str(game.phase) == saved["phases"][-1]["name"]


def test_import_names_the_phase_and_the_difference() -> None:
    saved = json.loads(_network_games()[0].read_text())
    k = 5
    units = saved["phases"][k]["state"]["units"]
    power = sorted(p for p in units if units[p])[0]
    gone = units[power].pop(0)  # the record loses a unit arbitre still has
    with pytest.raises(MilaImportError) as err:
        import_game(saved)
    assert f"phases[{k}] {saved['phases'][k]['name']}" in str(err.value)
    assert f"units of {power}: only after arbitre {[gone]}" in str(err.value)


def test_import_refuses_an_order_arbitre_cannot_give() -> None:
    saved = json.loads(_network_games()[1].read_text())
    saved["phases"][0]["orders"]["FRANCE"] = ["A PAR - MOS"]
    with pytest.raises(MilaImportError, match=r"phases\[0\] S1901M.orders.FRANCE: arbitre refuses 'A PAR - MOS'"):
        import_game(saved)


def _mutations() -> st.SearchStrategy[tuple[list[Any], Any]]:
    junk = st.one_of(
        st.none(),
        st.integers(-5, 5),
        st.text(max_size=8),
        st.lists(st.text(max_size=6), max_size=3),
        st.dictionaries(st.text(max_size=6), st.text(max_size=6), max_size=2),
        st.sampled_from(["A XYZ", "F PAR", "*A BUR", "A PAR - XYZ", "S1901X", "FRANCE", "COMPLETED"]),
    )
    path = st.lists(st.integers(0, 40), min_size=1, max_size=6)
    return st.tuples(path, junk)


def _small_saved() -> dict[str, Any]:
    game = Game.new("standard", options={"preset": "mila"})
    rng = random.Random(3)
    for _ in range(5):
        for p in game.powers_to_order():
            game.set_orders(p, [rng.choice(v) for k, v in sorted(game.legal_orders(p).items()) if k != "WAIVE"])
        game.advance()
    return json.loads(json.dumps(export_game(game, "h")))


SMALL = _small_saved()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_malformed_saved_games_give_a_clear_error_with_where(mutation: tuple[list[int], Any]) -> None:
    """Any value anywhere in a saved game: the import succeeds or raises MilaImportError naming a place."""
    path, junk = mutation
    saved = copy.deepcopy(SMALL)
    node: Any = saved
    for step in path[:-1]:
        if isinstance(node, dict) and node:
            node = node[sorted(node)[step % len(node)]]
        elif isinstance(node, list) and node:
            node = node[step % len(node)]
        else:
            break
    last = path[-1]
    if isinstance(node, dict) and node:
        node[sorted(node)[last % len(node)]] = junk
    elif isinstance(node, list) and node:
        node[last % len(node)] = junk
    error: MilaImportError | None = None
    try:
        import_game(saved)
    except MilaImportError as err:
        error = err
    assert error is None or (error.where and error.message)


# ---------------------------------------------------------------- the command line
def test_cli_export_then_import(tmp_path: Path) -> None:
    runner = CliRunner()
    game_file, out, back = tmp_path / "g.json", tmp_path / "out.json", tmp_path / "back.json"
    assert runner.invoke(app, ["new", str(game_file), "--option", "preset=mila"]).exit_code == 0
    assert runner.invoke(app, ["play", str(game_file), "--random", "6"]).exit_code == 0
    r = runner.invoke(app, ["export", str(game_file), "--format", "mila", "-o", str(out)])
    assert r.exit_code == 0, r.output
    saved = json.loads(out.read_text())
    assert saved["id"] == "g" and len(saved["phases"]) >= 6
    r = runner.invoke(app, ["import", str(out), "-o", str(back)])
    assert r.exit_code == 0, r.output
    assert json.loads(back.read_text())["format"] == "arbitre-game/2"  # played phases as records


def test_cli_import_error_says_where(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"phases": [{"name": "S1901M", "state": {"name": "S1901M", "units": {"FRANCE": ["A XYZ"]}}}]})
    )
    r = CliRunner().invoke(app, ["import", str(bad)])
    assert r.exit_code == 1
    assert "phases[0] S1901M.state.units.FRANCE[0]" in r.output and "A XYZ" in r.output
    r = CliRunner().invoke(app, ["export", str(bad), "--format", "pgn"])
    assert r.exit_code == 2 and "mila" in r.output
    bad.write_text("{not json")
    r = CliRunner().invoke(app, ["import", str(bad)])
    assert r.exit_code == 2 and "not JSON" in r.output
