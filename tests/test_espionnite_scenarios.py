"""Espionnite through the Game API: changes, steps, confirmations, deadlines and saved games.

The rule cases (what a spy learns, who is told, how changes count) are data: tests/cases/espionnite.json,
played by tests/test_cases.py through the JSON interface.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pytest

from arbitre.judge import ORDERS, Game, StepError
from arbitre.orders import IllegalOrder, InvalidOrder
from arbitre.views.reveal import reveal_report
from arbitre.words.events import report_line_text


def lock(orders: Mapping[str, Sequence[str]], **options: object) -> Game:
    """A new Espionnite game whose Spring 1901 orders are given and locked."""
    game = Game.new(rules=["espionnite"], options=options)
    for power, given in orders.items():
        game.set_orders(power, list(given))
    game.lock()
    return game


def told(game: Game, viewer: str) -> list[str]:
    """What the lock told ``viewer``, in English."""
    return [report_line_text(game.rules, line, "en") for line in reveal_report(game.lock_events, viewer)]


def moves(game: Game) -> dict[str, tuple[str, str]]:
    """The results of the last adjudication: order text → (outcome, reason), units with orders only."""
    return {r.order_text: (r.outcome, r.reason or "") for r in game.history[-1].results if r.reason != "no_order"}


def test_one_change_per_power_a_second_change_replaces_the_first() -> None:
    game = lock({"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]})
    assert game.set_change("FRANCE", "A PAR - PIC").format() == "A PAR - PIC"
    game.set_change("FRANCE", "F BRE - ENG")  # replaces the change to PAR: PAR keeps its locked order
    assert game.changes == {"FRANCE": "F BRE - ENG"}
    assert sorted(game.final_orders()["FRANCE"]) == ["A MAR - SPA", "A PAR - BUR", "F BRE - ENG"]
    game.advance()
    assert moves(game) == {
        "A PAR - BUR": ("succeeds", ""),
        "A MAR - SPA": ("succeeds", ""),
        "F BRE - ENG": ("succeeds", ""),
    }
    assert game.history[-1].changes == {"FRANCE": "F BRE - ENG"}


def test_a_change_may_give_an_order_to_a_unit_that_had_none_and_may_be_withdrawn() -> None:
    game = lock({"FRANCE": ["A PAR - BUR"]})
    game.set_change("FRANCE", "A MAR - PIE")
    game.clear_change("FRANCE")
    assert game.final_orders()["FRANCE"] == ["A PAR - BUR"]
    game.set_change("FRANCE", "A MAR - PIE")
    game.advance()
    assert moves(game) == {"A PAR - BUR": ("succeeds", ""), "A MAR - PIE": ("succeeds", "")}


def test_disinformation_the_changed_order_is_the_one_that_counts() -> None:
    # Germany locks a hold it means to change; France's spy reports the hold, France moves to BUR
    # expecting it empty, and Germany's reaction sends Munich there after all: both bounce.
    game = lock({"GERMANY": ["A MUN H", "COUNTERSPY BER"], "FRANCE": ["SPY MUN", "A PAR - PIC"]})
    assert told(game, "FRANCE") == ["Your spy watched Germany's A MUN: its order is A MUN H."]
    game.set_change("FRANCE", "A PAR - BUR")
    game.set_change("GERMANY", "A MUN - BUR")
    game.advance()
    assert moves(game) == {"A PAR - BUR": ("fails", "bounced"), "A MUN - BUR": ("fails", "bounced")}
    assert "A MUN H" not in {r.order_text for r in game.history[-1].results}
    assert "A PAR - PIC" not in {r.order_text for r in game.history[-1].results}
    # The record keeps what was locked, what was revealed and what changed.
    rec = game.history[-1]
    assert rec.orders["GERMANY"] == ["A MUN H", "COUNTERSPY BER"]
    assert rec.changes == {"FRANCE": "A PAR - BUR", "GERMANY": "A MUN - BUR"}
    assert [report_line_text(game.rules, line, "en") for line in reveal_report(rec.lock_events, "FRANCE")] == [
        "Your spy watched Germany's A MUN: its order is A MUN H."
    ]


def test_illegal_changes_are_refused_and_change_nothing() -> None:
    game = lock({"FRANCE": ["A PAR - BUR"]})
    with pytest.raises(IllegalOrder) as err:
        game.set_change("FRANCE", "A MUN - RUH")
    assert "belongs to GERMANY" in err.value.message
    with pytest.raises(IllegalOrder) as err:
        game.set_change("FRANCE", "SPY BER")
    assert err.value.reason == "not_unit_order"
    with pytest.raises(IllegalOrder):
        game.set_change("FRANCE", "A PAR - MUN")
    with pytest.raises(InvalidOrder):
        game.set_change("FRANCE", "A PAR - XYZ")
    with pytest.raises(IllegalOrder):
        game.set_change("FRANCE", "")
    assert game.changes == {}
    assert game.check_change("FRANCE", "A PAR - GAS").format() == "A PAR - GAS"
    assert game.changes == {}


def test_steps_refuse_what_they_do_not_allow() -> None:
    game = Game.new(rules=["espionnite"])
    with pytest.raises(StepError):
        game.set_change("FRANCE", "A PAR - BUR")
    game.lock()
    with pytest.raises(StepError):
        game.set_orders("FRANCE", ["A PAR - BUR"])
    with pytest.raises(StepError):
        game.lock()
    with pytest.raises(ValueError, match="NARNIA"):
        game.set_change("NARNIA", "A PAR - BUR")
    with pytest.raises(StepError):
        Game.new().lock()  # a standard game has no reaction step


def test_confirmations_lock_then_adjudicate() -> None:
    game = Game.new(rules=["espionnite"])
    game.set_orders("FRANCE", ["A PAR - BUR", "SPY MUN"])
    powers = game.powers_to_order()
    for p in powers[:-1]:
        assert game.confirm(p) is None
    game.confirm(powers[0], ready=False)
    assert game.waiting_for() == [powers[0], powers[-1]]
    game.confirm(powers[-1])
    assert game.step == ORDERS
    assert game.confirm(powers[0]) is None  # the last confirmation locks the orders
    assert game.step == "reaction" and game.waiting_for() == powers
    assert told(game, "FRANCE") == ["Your spy watched Germany's A MUN: its order is A MUN H."]
    game.set_change("GERMANY", "A MUN - BUR")
    outcome = None
    for p in powers:
        outcome = game.confirm(p)
    assert outcome is not None and str(outcome.before.phase) == "S1901M"
    assert game.step == ORDERS and str(game.phase) == "F1901M" and game.confirmed == set()
    assert moves(game) == {"A PAR - BUR": ("fails", "bounced"), "A MUN - BUR": ("fails", "bounced")}


def test_deadlines_close_each_step() -> None:
    game = Game.new(rules=["espionnite"])
    game.set_orders("GERMANY", ["A MUN - BUR"])
    assert game.close_step() is None and game.step == "reaction"  # the orders deadline: lock
    outcome = game.close_step()  # the reaction deadline: adjudicate; nobody changed anything
    assert outcome is not None and moves(game) == {"A MUN - BUR": ("succeeds", "")}


def test_advance_in_the_orders_step_locks_first_and_records_the_reveal() -> None:
    game = Game.new(rules=["espionnite"])
    game.set_orders("FRANCE", ["SPY MUN"])
    game.set_orders("GERMANY", ["A MUN - BUR"])
    game.advance()
    assert [
        report_line_text(game.rules, line, "en") for line in reveal_report(game.history[-1].lock_events, "FRANCE")
    ] == ["Your spy watched Germany's A MUN: its order is A MUN - BUR."]


def test_without_espionnite_the_steps_are_unchanged() -> None:
    game = Game.new()
    assert game.next_step is None
    game.set_orders("GERMANY", ["A MUN - BUR"])
    outcome = None
    for p in game.powers_to_order():
        outcome = game.confirm(p)
    assert outcome is not None and str(game.phase) == "F1901M" and game.step == ORDERS
    assert game.history[-1].lock_events == () and game.history[-1].changes == {}
    assert "step" in game.to_data() and Game.from_data(game.to_data()).position == game.position


def test_saved_games_keep_the_step_the_changes_and_the_reveal() -> None:
    game = lock({"FRANCE": ["A PAR - BUR", "SPY MUN"], "GERMANY": ["A MUN - BUR", "COUNTERSPY KIE"]})
    game.set_change("GERMANY", "A MUN - RUH")
    game.confirm("ITALY")
    data = json.loads(json.dumps(game.to_data()))
    again = Game.from_data(data)
    assert again.step == "reaction" and again.changes == {"GERMANY": "A MUN - RUH"}
    assert again.confirmed == {"ITALY"}
    assert told(again, "FRANCE") == told(game, "FRANCE")
    game.advance()
    again = Game.from_data(json.loads(json.dumps(game.to_data())))
    assert again.position == game.position and again.step == ORDERS
    assert again.history[-1].changes == {"GERMANY": "A MUN - RUH"}
    assert again.history[-1].lock_events == game.history[-1].lock_events
    assert sorted(r.order_text for r in again.history[-1].results) == sorted(
        r.order_text for r in game.history[-1].results
    )
