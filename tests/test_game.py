"""Whole games: phase sequence, ownership after Fall, victory, draws, civil disorder, history."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.judge import DRAWN, WON, Game, position_from_data, position_to_data
from arbitre.rules import legal_orders
from arbitre.variants import make_rules


def test_spring_then_fall_then_spring_when_nothing_happens() -> None:
    game = Game.new()
    phases = []
    for _ in range(3):
        phases.append(str(game.phase))
        game.advance()
    assert phases == ["S1901M", "F1901M", "S1902M"]  # no retreats, no adjustments needed


def test_retreat_only_when_needed_and_ownership_after_fall() -> None:
    game = Game.new()
    game.set_orders("GERMANY", ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"])
    game.advance()
    game.set_orders("GERMANY", ["A RUH - BEL", "F DEN H"])
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.advance()
    assert str(game.phase) == "W1901A"
    assert game.position.owners["DEN"] == "GERMANY" and game.position.owners["BEL"] == "GERMANY"
    game.set_orders("GERMANY", ["A MUN B", "F KIE B"])
    game.advance()
    assert str(game.phase) == "S1902M"
    assert game.position.units["MUN"].power == "GERMANY"


def test_dislodged_unit_gives_retreat_phase_and_missing_retreat_disbands() -> None:
    rules = make_rules()
    pos = position_from_data(rules, "S1901M", {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}, None)
    game = Game(rules, pos)
    game.set_orders("GERMANY", ["A MUN - BUR", "A RUH S A MUN - BUR"])
    game.advance()
    assert str(game.phase) == "S1901R"
    assert "BUR" in game.position.dislodged
    game.advance()  # France gives no retreat order: the unit is disbanded
    assert str(game.phase) == "F1901M"
    assert all(u.power != "FRANCE" for u in game.position.units.values())


def test_civil_disorder_removes_when_no_disbands_given() -> None:
    rules = make_rules()
    pos = position_from_data(rules, "W1901A", {"FRANCE": ["A PAR", "A PIC", "F BRE"]}, {"FRANCE": ["PAR", "BRE"]})
    game = Game(rules, pos)
    outcome = game.advance()
    removed = [r for r in outcome.results if r.reason == "civil_disorder"]
    assert [r.order_text for r in removed] == ["A PIC D"]  # farthest from an owned centre


def test_victory_at_eighteen_and_draw() -> None:
    rules = make_rules()
    centres = sorted(rules.game_map.supply_centers)[:18]
    pos = position_from_data(rules, "F1901M", {"TURKEY": ["A CON"]}, {"TURKEY": centres})
    game = Game(rules, pos)
    game.advance()
    assert game.status == WON and game.winners == ("TURKEY",)
    other = Game.new()
    other.declare_draw(["FRANCE", "GERMANY"])
    assert other.status == DRAWN and other.is_over


def test_history_and_save_round_trip() -> None:
    game = Game.new()
    rng = random.Random(3)
    for _ in range(8):
        for p in game.powers_to_order():
            game.set_orders(p, [rng.choice(v) for k, v in game.legal_orders(p).items() if k != "WAIVE"])
        game.advance()
    data = json.loads(json.dumps(game.to_data()))
    again = Game.from_data(data)
    assert len(again.history) == 8
    assert again.position == game.position
    assert [str(h.position.phase) for h in again.history] == [str(h.position.phase) for h in game.history]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_random_games_keep_invariants(seed: int) -> None:
    """Every listed legal order is accepted; no unit is lost or doubled; centres stay consistent."""
    rng = random.Random(seed)
    game = Game.new()
    for _ in range(14):
        if game.is_over:
            break
        before = game.position
        for p in game.powers_to_order():
            listing = legal_orders(game.rules, before, p)
            for options in listing.values():
                for order in options:
                    assert not game.check_orders(p, [order]), order
            game.set_orders(p, [rng.choice(v) for k, v in listing.items() if k != "WAIVE"])
        outcome = game.advance()
        after = outcome.after
        assert len(set(after.units)) == len(after.units)
        if before.phase.kind == "M":
            assert len(after.units) + len(outcome.dislodged) == len(before.units)
        for prov, unit in after.units.items():
            assert rules_place_ok(game, unit.kind, unit.place, prov)


def rules_place_ok(game: Game, kind: str, place: str, prov: str) -> bool:
    gmap = game.rules.game_map
    return gmap.province_of[place] == prov and place in gmap.adjacency[kind]


def test_saved_games_read_back_without_adjudicating(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game saved now (arbitre-game/2) holds its played phases as records: reading it adjudicates nothing,
    and its history and pending orders come back as they were, in normal form."""
    import arbitre.judge.progress

    game = Game.new()
    game.set_orders("FRANCE", ["a par-bur", "f bre - mid"])
    game.advance()
    game.set_orders("GERMANY", ["a mun -ruh"])
    data = json.loads(json.dumps(game.to_data()))
    assert data["format"] == "arbitre-game/2" and data["history"][0]["orders"]["FRANCE"] == [
        "A PAR - BUR",
        "F BRE - MAO",
    ]

    def refuse(*args: object) -> object:
        raise AssertionError("reading a saved game adjudicated a phase")

    monkeypatch.setattr(arbitre.judge.progress, "adjudicate", refuse)
    again = Game.from_data(data)
    assert again.pending == {"GERMANY": ["A MUN - RUH"]}
    assert again.history_views("master") == game.history_views("master")
    assert again.to_data() == data


def test_files_of_the_first_format_keep_loading() -> None:
    """A file written before records (arbitre-game/1: positions and the orders as typed) is replayed once."""
    game = Game.new()
    first = {
        "format": "arbitre-game/1",
        "map": "standard",
        "rules": [],
        "options": {},
        "status": "active",
        "winners": [],
        "last_year": None,
        "position": {"phase": "F1901M", "units": {}, "supply_centers": None},
        "pending": {"ITALY": ["a ven-tyr"]},
        "step": "orders",
        "confirmed": [],
        "changes": {},
        "history": [
            {"position": position_to_data(game.position, game.rules.game_map), "orders": {"FRANCE": ["a par-bur"]}}
        ],
    }
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.advance()
    first["position"] = position_to_data(game.position, game.rules.game_map)
    loaded = Game.from_data(first)
    assert loaded.history_views("observer") == game.history_views("observer")
    assert loaded.history[0].orders == {"FRANCE": ["A PAR - BUR"]} and loaded.pending == {"ITALY": ["A VEN - TYR"]}


def test_a_saved_game_keeps_which_attack_came_by_convoy_also_from_files_written_before_the_flag() -> None:
    # DATC 6.H.11 played as a game: A GAS is convoyed to MAR; A MAR may retreat to GAS.
    game = Game.new()
    game.position = position_from_data(
        game.rules, "S1901M", {"FRANCE": ["A BUR", "A GAS", "F LYO", "F MAO", "F WES"], "ITALY": ["A MAR"]}, None, None
    )
    game.set_orders(
        "FRANCE",
        [
            "A GAS - MAR via convoy",
            "A BUR S A GAS - MAR",
            "F MAO C A GAS - MAR",
            "F WES C A GAS - MAR",
            "F LYO C A GAS - MAR",
        ],
    )
    game.advance()
    assert Game.from_data(json.loads(json.dumps(game.to_data()))).position.dislodged["MAR"].by_convoy
    (entry,) = position_to_data(game.position, game.rules.game_map)["dislodged"]["ITALY"]
    assert entry["by_convoy"] is True and "GAS" in entry["retreats"]
    position = json.loads(json.dumps(position_to_data(game.position, game.rules.game_map)))
    data = {"format": "arbitre-game/1", "map": "standard", "rules": [], "options": {}, "history": []}
    data["position"] = json.loads(json.dumps(position).replace(', "by_convoy": true', ""))  # before the flag
    assert "by_convoy" not in json.dumps(data)
    again = Game.from_data(data)
    assert again.position.dislodged["MAR"].by_convoy
    assert again.set_orders("ITALY", ["A MAR R GAS"]) == []
