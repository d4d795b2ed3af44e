"""Colonial through the JSON interface and the command line, up to a whole game won at 30 centres."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.interface import process, process_text
from arbitre.judge import Game, position_from_data
from arbitre.state import MOVEMENT
from arbitre.variants import make_rules

from .test_colonial_game import greedy_orders, random_orders

runner = CliRunner()

NINE_25 = {
    "map": "colonial",
    "rules": [],
    "options": {"colonial": "avalon-hill"},
    "phase": "S1870M",
    "units": {"RUSSIA": ["A VLA"], "CHINA": ["A KRA"]},
    "supply_centers": {"RUSSIA": ["VLA"]},
    "orders": {"RUSSIA": ["A VLA - TSR - OMS"], "CHINA": ["A KRA - OMS"]},
}


def _result(out: dict[str, Any], power: str, order: str) -> dict[str, Any]:
    return next(r for r in out["results"] if r["power"] == power and r["order"] == order)


def test_json_avalon_hill_9_25() -> None:
    out = process(NINE_25)
    train = _result(out, "RUSSIA", "A VLA - TSR - OMS")
    # The army moved, not as far as ordered: where it stopped, and why (the Chinese army, bounced
    # in Omsk, stays in Krasnoyarsk: a foreign unit that stays blocks its station, 9.23 (3)).
    assert (train["outcome"], train["reached"], train["reason"]) == ("partial", "IRK", "tsr_station_held")
    assert "Irkutsk" in train["message"] and "in KRA" in train["message"]
    assert _result(out, "CHINA", "A KRA - OMS")["outcome"] == "fails"
    assert out["next"]["units"] == {"CHINA": ["A KRA"], "RUSSIA": ["A IRK"]}  # the end station shows in next.units


def test_json_default_rule_set_is_vdiplomacy() -> None:
    out = process({**NINE_25, "options": {}})
    # vDiplomacy 2.2: the Chinese unit moving along the line blocks the train, which stops before it.
    assert _result(out, "CHINA", "A KRA - OMS")["outcome"] == "succeeds"
    assert out["next"]["units"] == {"CHINA": ["A OMS"], "RUSSIA": ["A IRK"]}


def test_json_suez_and_errors() -> None:
    req = {
        "map": "colonial",
        "phase": "S1870M",
        "units": {"BRITAIN": ["A EGY"], "TURKEY": ["F MED"]},
        "orders": {"BRITAIN": ["SUEZ F MED"], "TURKEY": ["F MED - RED"]},
    }
    out = process(req)
    assert out["next"]["units"]["TURKEY"] == ["F RED"]
    out = process({**req, "orders": {"TURKEY": ["SC F MED - RED", "F MED - RED"]}})
    refused = _result(out, "TURKEY", "SC F MED - RED")
    assert refused["outcome"] == "illegal" and "Suez Canal" in refused["message"]
    assert _result(out, "TURKEY", "F MED - RED")["reason"] == "suez_closed"
    [(obj, ok)] = process_text(json.dumps({**req, "options": {"colonial": "1995"}}))
    assert not ok and obj["error"]["where"] == "options" and "avalon-hill" in obj["error"]["message"]


def _centres(next_data: dict[str, Any], power: str) -> int:
    owned = next_data["supply_centers"].get(power, [])
    return len([c for c in owned if not (power == "CHINA" and c == "HON")])


def test_a_whole_game_through_the_json_interface() -> None:
    """Each phase is one JSON request; the previous answer's ``next`` is the next request's position."""
    rules = make_rules("colonial", options={"colonial": "avalon-hill"})
    rng = random.Random(2)
    hero = "BRITAIN"
    game = Game.new("colonial", (), {"colonial": "avalon-hill"})
    state: dict[str, Any] = {
        "phase": str(game.phase),
        "units": {p: [str(u) for u in game.position.units_of(p)] for p in game.powers()},
        "dislodged": {},
    }
    for _ in range(200):
        pos = position_from_data(
            rules, state["phase"], state["units"], state.get("supply_centers"), state.get("dislodged")
        )
        orders = {
            p: (
                greedy_orders(rules, pos, p, rng)
                if p == hero and pos.phase.kind == MOVEMENT
                else random_orders(rules, pos, p, rng)
            )
            for p in rules.game_map.powers
        }
        out = process({"map": "colonial", "options": {"colonial": "avalon-hill"}, **state, "orders": orders})
        state = out["next"]
        if state["phase"][-1] != "R" and _centres(state, hero) >= 30:
            break
    else:
        raise AssertionError("no victory through the JSON interface")
    assert _centres(state, hero) >= rules.game_map.victory_centers


def test_cli_new_orders_play(tmp_path: Path) -> None:
    game_file = tmp_path / "colonial.json"
    res = runner.invoke(app, ["new", str(game_file), "--map", "colonial", "--option", "colonial=avalon-hill"])
    assert res.exit_code == 0, res.output
    assert "1870" in res.output
    res = runner.invoke(app, ["orders", str(game_file), "--power", "russia", "--json"])
    listing = json.loads(res.stdout)["RUSSIA"]
    assert "A MOS - TSR - VLA" in listing["MOS"]
    res = runner.invoke(app, ["play", str(game_file), "--order", "RUSSIA: A MOS - TSR - KRA", "--advance"])
    assert res.exit_code == 0, res.output
    data = json.loads(game_file.read_text())
    assert data["position"]["phase"] == "F1870M"
    assert data["options"] == {"colonial": "avalon-hill"}
    game = Game.from_data(data)
    assert game.position.units["KRA"].power == "RUSSIA" and "MOS" not in game.position.units
    res = runner.invoke(app, ["play", str(game_file), "--order", "CHINA: A PEK - TSR - MOS"])
    assert "only Russia may use the railroad" in " ".join(res.output.split())  # rich wraps lines


def test_cli_adjudicate_file(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(NINE_25))
    res = runner.invoke(app, ["adjudicate", str(path)])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["next"]["units"]["RUSSIA"] == ["A IRK"]


def test_a_whole_game_through_arbitre_play(tmp_path: Path) -> None:
    """``arbitre new --map colonial`` then ``arbitre play --order … --advance`` phase after phase, to a win."""
    game_file = tmp_path / "game.json"
    assert (
        runner.invoke(app, ["new", str(game_file), "--map", "colonial", "--option", "colonial=avalon-hill"]).exit_code
        == 0
    )
    rng = random.Random(2)
    hero = "BRITAIN"
    for _ in range(200):
        game = Game.from_data(json.loads(game_file.read_text()))
        if game.is_over:
            break
        pos, rules = game.position, game.rules
        args = ["play", str(game_file), "--advance"]
        for p in rules.game_map.powers:
            texts = (
                greedy_orders(rules, pos, p, rng)
                if p == hero and pos.phase.kind == MOVEMENT
                else random_orders(rules, pos, p, rng)
            )
            for text in texts:
                args += ["--order", f"{p}: {text}"]
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
    game = Game.from_data(json.loads(game_file.read_text()))
    assert game.is_over and game.winners == (hero,)
    assert game.centers(hero) >= 30


def _ah(units: dict[str, list[str]], orders: dict[str, list[str]]) -> dict[str, Any]:
    return process(
        {
            "map": "colonial",
            "rules": [],
            "options": {"colonial": "avalon-hill"},
            "phase": "S1870M",
            "units": units,
            "orders": orders,
        }
    )


def test_json_avalon_hill_train_blocked_at_its_target_still_bounces_a_third_power() -> None:
    # 9.23 (3): the train's attack on a unit that stays fails, even with support; a failed attack still
    # bounces a rival no stronger than it (1 + 1 support against Japan's 1 + 1), so China is not dislodged.
    out = _ah(
        {"RUSSIA": ["A MOS", "A KRA"], "CHINA": ["A IRK"], "JAPAN": ["A MAC", "A VLA"]},
        {
            "RUSSIA": ["A MOS - TSR - IRK", "A KRA S A MOS - TSR - IRK"],
            "CHINA": ["A IRK H"],
            "JAPAN": ["A MAC - IRK", "A VLA S A MAC - IRK"],
        },
    )
    train = _result(out, "RUSSIA", "A MOS - TSR - IRK")
    assert (train["outcome"], train["reached"], train["reason"]) == ("partial", "OMS", "tsr_station_held")
    assert _result(out, "JAPAN", "A MAC - IRK")["outcome"] == "fails"
    assert out["next"]["units"]["CHINA"] == ["A IRK"] and out["next"]["dislodged"] == {}
    # Without the Russian support, Japan's supported attack wins and the train still does not follow.
    out = _ah(
        {"RUSSIA": ["A MOS"], "CHINA": ["A IRK"], "JAPAN": ["A MAC", "A VLA"]},
        {"RUSSIA": ["A MOS - TSR - IRK"], "CHINA": ["A IRK H"], "JAPAN": ["A MAC - IRK", "A VLA S A MAC - IRK"]},
    )
    assert _result(out, "RUSSIA", "A MOS - TSR - IRK")["reached"] == "KRA"
    assert out["next"]["units"]["JAPAN"] == ["A IRK", "A VLA"] and list(out["next"]["dislodged"]) == ["CHINA"]


def test_json_avalon_hill_russian_unit_head_on_on_the_first_leg() -> None:
    # First leg, a unit of its own power coming the other way: a head-to-head battle neither can win.
    out = _ah({"RUSSIA": ["A MOS", "A PRM"]}, {"RUSSIA": ["A MOS - TSR - OMS", "A PRM - MOS"]})
    assert (
        _result(out, "RUSSIA", "A MOS - TSR - OMS")["outcome"],
        _result(out, "RUSSIA", "A PRM - MOS")["outcome"],
    ) == ("fails", "fails")
    assert out["next"]["units"] == {"RUSSIA": ["A MOS", "A PRM"]}
    # vDiplomacy lets them swap.
    vdip = process(
        {
            "map": "colonial",
            "rules": [],
            "options": {"colonial": "vdiplomacy"},
            "phase": "S1870M",
            "units": {"RUSSIA": ["A MOS", "A PRM"]},
            "orders": {"RUSSIA": ["A MOS - TSR - OMS", "A PRM - MOS"]},
        }
    )
    assert vdip["next"]["units"] == {"RUSSIA": ["A MOS", "A OMS"]}
