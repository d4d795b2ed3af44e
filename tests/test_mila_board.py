"""The pieces of MILA's protocol that need no server: the order translation, MILA's state hash, MILA's
states built from views, and the retreat phase nobody can act in (processed at once, left out for MILA)."""

from __future__ import annotations

import random

import pytest

from arbitre.interface.mila.influence import hidden
from arbitre.judge import Game
from arbitre.judge.codec import position_from_data
from arbitre.server.mila import board, names


def trapped_game() -> Game:
    """Spring 1901: Germany dislodges the French army in Burgundy, every way out of which is held."""
    game = Game.new("standard")
    units = {
        "FRANCE": ["A BUR"],
        "GERMANY": ["A MUN", "A RUH", "A BEL", "A PIC", "A PAR", "A GAS", "A MAR"],
    }
    game.position = position_from_data(game.rules, "S1901M", units, {"FRANCE": ["PAR"], "GERMANY": ["MUN"]})
    game.set_orders("GERMANY", ["A MUN - BUR", "A RUH S A MUN - BUR"])
    return game


def test_a_retreat_phase_where_no_unit_may_retreat_waits_for_nobody() -> None:
    game = trapped_game()
    game.advance()
    assert str(game.phase) == "S1901R"
    assert [d.unit.place for d in game.position.dislodged.values()] == ["BUR"]
    assert game.powers_to_order() == []  # the site processes it at once
    view = game.view("ENGLAND")
    assert hidden(view)
    game.advance()
    assert str(game.phase) == "F1901M" and all(u.power == "GERMANY" for u in game.position.units.values())
    timeline = board.Timeline(game, "ENGLAND", 0)
    assert [p.view.phase for p in timeline.played] == ["S1901M"]  # MILA never shows S1901R
    data = timeline.phase_data(0, [])
    assert data["results"]["A BUR"] == ["dislodged"]
    assert data["results"]["A MUN"] == []


def test_a_retreat_phase_with_a_way_out_waits_for_its_power() -> None:
    game = Game.new("standard")
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}
    game.position = position_from_data(game.rules, "S1901M", units, {})
    game.set_orders("GERMANY", ["A MUN - BUR", "A RUH S A MUN - BUR"])
    game.advance()
    assert game.powers_to_order() == ["FRANCE"]
    assert not hidden(game.view("FRANCE"))


def test_orders_reach_the_engine_as_text() -> None:
    assert names.order_to_arbitre(" a  con - bul via ") == "A CON - BUL VIA"
    assert names.order_to_arbitre("F STP/SC - BOT") == "F STP/SC - BOT"
    with pytest.raises(names.OrderTextError):
        names.order_to_arbitre("A PAR - BUR" * 20)


def play_random(seed: int, phases: int) -> Game:
    """A random game of ``phases`` phases."""
    rng = random.Random(seed)
    game = Game.new("standard")
    for _ in range(phases):
        for power in game.powers_to_order():
            legal = game.legal_orders(power)
            game.set_orders(power, [rng.choice(options) for _, options in sorted(legal.items()) if options])
        game.advance()
    return game


def test_states_read_back_by_mila_with_mila_s_own_hash() -> None:
    """Every MILA state of three random games, read by MILA's engine: same units, centres, phase and hash."""
    mila = pytest.importorskip("diplomacy")
    for seed in range(3):
        game = play_random(seed, 24)
        timeline = board.Timeline(game, "observer", 0)
        states = [timeline.phase_data(k, [])["state"] for k in range(len(timeline.played))]
        states.append(timeline.current_data([], 0, [])["state"])
        for st in states:
            engine = mila.Game(map_name="standard")
            engine.set_state(st)
            assert engine.get_current_phase() == st["name"]
            assert engine.get_hash() == st["zobrist_hash"]
            assert sorted(engine.get_units("FRANCE")) == sorted(st["units"]["FRANCE"])


def test_a_timeline_built_from_the_new_records_alone_is_the_whole_one() -> None:
    """Cut a game's records anywhere: the timeline of the records after the cut, built on what the one before
    the cut ends with (as a MILA connection builds its notifications), shows the same phases, states (influence
    and dates included), results and current phase as the timeline of every record, for every kind of viewer;
    the trapped retreat phase (left out, its board going with the movement before it) included."""
    trapped = trapped_game()
    for _ in range(4):
        trapped.advance()
    games = [trapped, play_random(1, 14), play_random(2, 20)]
    for game in games:
        records = game.history
        for viewer in ("observer", "FRANCE", "GERMANY", "master"):
            whole = board.Timeline(game, viewer, 7)
            for cut in range(len(records) + 1):
                before = board.Timeline(game, viewer, 7, records[:cut])
                after = board.Timeline(game, viewer, 7, records[cut:], before.known)
                first = before.known.visible
                assert after.offset == first
                assert [after.phase_data(k, []) for k in range(len(after.played))] == [
                    whole.phase_data(k, []) for k in range(first, len(whole.played))
                ]
                assert after.current_data([], 5, ["FRANCE"]) == whole.current_data([], 5, ["FRANCE"])
                assert after.known == whole.known
    assert any(hidden(trapped.phase_view(i, "observer")) for i in range(len(trapped.history)))
