"""Espionnite on the Colonial map: a Suez permission is one of the orders of the unit in Egypt.

Espionnite (../shared/spec/espionnite.md): a spy learns the spied unit's order, and each power may
change one order in the reaction step.  Colonial (../shared/spec/colonial.md, Suez Canal): the power
with a unit in Egypt lets one fleet a turn through the canal.  Our decision (docs/variants/espionnite.md,
"On the Colonial map"): the permission is given *with* the unit in Egypt, as one of its orders — a spy
on that unit learns it with the unit's own order, and a reaction change may be a permission, which
replaces the power's permission (or adds one) and leaves the unit's own order as it was.

The rule cases through the JSON interface are data: tests/cases/espionnite_colonial.json.  Here, the
Python API (``Game``) agrees with them.
"""

from __future__ import annotations

from typing import Any

import pytest

from arbitre.interface import process
from arbitre.judge import Game, position_from_data
from arbitre.orders import OrderError
from arbitre.views.reveal import reveal_report
from arbitre.words.events import report_line_text

UNITS = {"BRITAIN": ["A EGY", "F RED"], "FRANCE": ["F MED"], "TURKEY": ["A SYR"]}
BASE: dict[str, Any] = {
    "map": "colonial",
    "rules": ["espionnite"],
    "phase": "S1870M",
    "options": {"colonial": "vdiplomacy"},
    "units": UNITS,
    "orders": {
        "BRITAIN": ["A EGY H", "SC F MED - RED", "F RED H"],
        "FRANCE": ["F MED - RED", "SPY EGY"],
        "TURKEY": ["A SYR H", "SPY RED"],
    },
}
EGY_SEEN = "Your spy watched Britain's A EGY: its orders are A EGY H; SC F MED - RED."


def _game(orders: dict[str, list[str]]) -> Game:
    game = Game.new("colonial", ["espionnite"], {"colonial": "vdiplomacy"})
    game.position = position_from_data(game.rules, "S1870M", UNITS, None, None)
    for power, given in orders.items():
        assert game.set_orders(power, given) == []
    game.close_step()
    assert game.step == "reaction"
    return game


def _reports(game: Game, viewer: str) -> list[str]:
    return [report_line_text(game.rules, line, "en") for line in reveal_report(game.lock_events, viewer)]


def test_a_spy_on_the_unit_in_egypt_learns_the_permission_with_its_order() -> None:
    game = _game(BASE["orders"])
    assert _reports(game, "FRANCE") == [EGY_SEEN]
    # A spy on another unit of the same power does not learn it.
    assert _reports(game, "TURKEY") == ["Your spy watched Britain's F RED: its order is F RED H."]
    out = process({**BASE, "step": "reveal"})  # the French words, which the case file does not check
    assert "ses ordres sont A EGY H; SC F MED - RED." in out["reveals"]["FRANCE"][0]["fr"]


def test_a_counter_spy_on_egypt_guards_the_permission_too() -> None:
    orders = {**BASE["orders"], "BRITAIN": [*BASE["orders"]["BRITAIN"], "COUNTERSPY EGY"]}
    assert _reports(_game(orders), "FRANCE") == ["Your spy (SPY EGY) learnt nothing."]


def test_the_one_change_may_replace_the_permission_and_keeps_the_unit_s_order() -> None:
    game = _game(BASE["orders"])
    game.set_change("BRITAIN", "SC F RED - MED")
    final = game.final_orders()["BRITAIN"]
    assert "SC F RED - MED" in final and "SC F MED - RED" not in final and "A EGY H" in final
    outcome = game.close_step()
    assert outcome is not None
    results = {r.order_text: r.outcome for r in outcome.results}
    assert results["F MED - RED"] == "fails"  # the French fleet's permission was taken back


def test_changing_the_egypt_unit_s_order_keeps_the_permission() -> None:
    game = _game(BASE["orders"])
    game.set_change("BRITAIN", "A EGY - SUD")
    final = game.final_orders()["BRITAIN"]
    assert "SC F MED - RED" in final and "A EGY - SUD" in final and "A EGY H" not in final


@pytest.mark.parametrize(("power", "change"), [("FRANCE", "SC F MED - RED"), ("TURKEY", "SUEZ F MED")])
def test_a_permission_change_by_a_power_not_in_egypt_is_refused_by_the_canal_rule(power: str, change: str) -> None:
    game = _game(BASE["orders"])
    with pytest.raises(OrderError) as err:
        game.set_change(power, change)
    assert "Suez Canal" in str(err.value)


def test_lock_orders_still_cannot_be_a_change() -> None:
    game = _game(BASE["orders"])
    with pytest.raises(OrderError) as err:
        game.set_change("BRITAIN", "SPY MED")
    assert "cannot be changed" in str(err.value)


def test_the_one_change_may_withdraw_the_permission() -> None:
    """``SC NONE`` as the change: the power's permission is taken out, the Egypt unit's order stays."""
    orders = {**BASE["orders"], "BRITAIN": ["A EGY H", "SC F MED - RED", "F RED - GOA"]}
    game = _game(orders)
    game.set_change("BRITAIN", "SC NONE")
    final = game.final_orders()["BRITAIN"]
    assert "SC F MED - RED" not in final and "SC NONE" in final and "A EGY H" in final
    outcome = game.close_step()
    assert outcome is not None
    results = {r.order_text: r.outcome for r in outcome.results}
    assert results["F MED - RED"] == "fails"  # vdiplomacy: no permission, the canal is closed


def test_only_the_power_in_egypt_may_withdraw() -> None:
    game = _game(BASE["orders"])
    with pytest.raises(OrderError) as err:
        game.set_change("FRANCE", "SC NONE")
    assert "Suez Canal" in str(err.value)
