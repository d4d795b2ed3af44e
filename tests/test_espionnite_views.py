"""What a power can learn before the reveal does not depend on the other powers' orders (property tests)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.judge import Game, position_from_data
from arbitre.variants import REGISTRY
from arbitre.views import build_view, view_to_data
from arbitre.views.reveal import reveal_report
from arbitre.words.events import report_line_text

RULE_SETS = [("espionnite",)] + ([("submarines", "espionnite")] if "submarines" in REGISTRY else [])
SUB_UNITS = {
    "FRANCE": ["SM MAO-1", "A PAR", "A MAR"],
    "ENGLAND": ["F LON", "SM NTH-1", "A LVP"],
    "GERMANY": ["A MUN", "F KIE", "SM BAL-1"],
    "ITALY": ["A VEN", "F NAP"],
}
JUNK = ["SPY XYZ", "SPY MAO-1", "COUNTERSPY BER", "A PAR - MUN", "SM BAL-1 - SKA-1", "hold everything"]


def _game(rules: tuple[str, ...]) -> Game:
    game = Game.new(rules=list(rules))
    if "submarines" in rules:
        game.position = position_from_data(game.rules, "S1901M", SUB_UNITS, None, None, game.position.extras)
    return game


@st.composite
def orders_of(draw: st.DrawFn, game: Game, power: str) -> list[str]:
    """Some legal orders of ``power`` (spies and counter-spies included) and some that are not."""
    out: list[str] = []
    for _, options in sorted(game.legal_orders(power).items()):
        if draw(st.booleans()):
            out.append(draw(st.sampled_from(options)))
    out.extend(draw(st.lists(st.sampled_from(JUNK), max_size=2)))
    return out


def what_power_knows(game: Game, power: str, own: list[str]) -> str:
    """Everything ``power`` can read before the reveal: its view, its order check, its reports."""
    view = build_view(game.rules, game.position, power, pending=game.pending, events=game.lock_events)
    checked = [(r.text, r.outcome, r.reason, r.message) for r in game.check_orders(power, own)]
    report = reveal_report(game.lock_events, power)
    words = [report_line_text(game.rules, line, lang) for line in report for lang in ("en", "fr")]
    return json.dumps([view_to_data(view), checked, words], sort_keys=True, default=str)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.sampled_from(RULE_SETS), viewer=st.sampled_from(["FRANCE", "GERMANY", "ITALY"]))
def test_view_before_the_reveal_ignores_other_powers_orders(
    data: st.DataObject, which: tuple[str, ...], viewer: str
) -> None:
    game_a, game_b = _game(which), _game(which)
    own = data.draw(orders_of(game_a, viewer), label="own")
    knowledge: list[str] = []
    for game in (game_a, game_b):
        for power in game.powers_to_order():
            if power != viewer:
                game.set_orders(power, data.draw(orders_of(game, power), label=power))
        game.set_orders(viewer, own)
        for power in game.powers_to_order()[:3]:
            game.confirm(power)
        knowledge.append(what_power_knows(game, viewer, own))
    assert knowledge[0] == knowledge[1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.sampled_from(RULE_SETS))
def test_a_power_without_a_spy_learns_nothing_at_the_lock(data: st.DataObject, which: tuple[str, ...]) -> None:
    game = _game(which)
    viewer = "ITALY"
    for power in game.powers_to_order():
        orders: Any = data.draw(orders_of(game, power), label=power)
        if power == viewer:
            orders = [o for o in orders if not o.upper().startswith("SPY")]
        game.set_orders(power, orders)
    game.lock()
    assert reveal_report(game.lock_events, viewer) == ()
    assert reveal_report(game.lock_events, "observer") == ()
    assert build_view(game.rules, game.position, "observer", events=game.lock_events).report == ()
