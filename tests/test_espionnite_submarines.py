"""Espionnite with Submarines: spies on submerged units, validation that reveals no hidden unit."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from arbitre.judge import Game, position_from_data
from arbitre.views import build_view
from arbitre.views.reveal import reveal_report
from arbitre.words.events import report_line_text

UNITS = {"FRANCE": ["SM MAO-1", "A PAR", "F BRE"], "ENGLAND": ["F LON", "SM NTH-1"], "GERMANY": ["A MUN", "F KIE"]}


def game_with(units: Mapping[str, Sequence[str]], **options: object) -> Game:
    """An Espionnite + Submarines game in Spring 1901 with ``units`` on the board."""
    game = Game.new(rules=["submarines", "espionnite"], options=options)
    game.position = position_from_data(game.rules, "S1901M", units, None, None, game.position.extras)
    return game


def told(game: Game, viewer: str) -> list[str]:
    return [report_line_text(game.rules, line, "en") for line in reveal_report(game.lock_events, viewer)]


def test_spy_on_a_submerged_unit_learns_its_order_without_its_nationality() -> None:
    game = game_with(UNITS)
    game.set_orders("FRANCE", ["SM MAO-1 - IRI-1"])
    game.set_orders("GERMANY", ["SPY MAO-1"])
    game.lock()
    assert told(game, "GERMANY") == ["Your spy watched the unit in MAO-1: its order is SM MAO-1 - IRI-1."]
    line = reveal_report(game.lock_events, "GERMANY")[0]
    words = report_line_text(game.rules, line, "en") + report_line_text(game.rules, line, "fr")
    assert "FRANCE" not in words and "France" not in words and "FRANCE" not in json.dumps(line.data)
    assert told(game, "FRANCE") == [] and told(game, "ENGLAND") == []
    # The same report, through the view of the reaction step.
    view = build_view(game.rules, game.position, "GERMANY", events=game.lock_events)
    assert [report_line_text(game.rules, r, "en") for r in view.report] == told(game, "GERMANY")
    assert all(u.place != "MAO-1" for u in view.units)  # the view still does not show the submarine


def test_spy_on_a_visible_unit_names_its_power_in_a_submarines_game() -> None:
    game = game_with(UNITS)
    game.set_orders("FRANCE", ["SPY LON"])
    game.lock()
    assert told(game, "FRANCE") == ["Your spy watched England's F LON: its order is F LON H."]


def test_validation_never_tells_whether_an_unseen_place_holds_a_unit() -> None:
    game = game_with(UNITS)
    for place in ("MAO-1", "IRI-1", "NTH-1"):  # a French submarine, nothing, an English submarine
        assert game.check_orders("GERMANY", [f"SPY {place}"]) == []
        [refused] = game.check_orders("GERMANY", [f"COUNTERSPY {place}"])
        assert (refused.reason, refused.message) == (
            "no_unit",
            f"Espionnite: you have no unit in {place}; a counter-spy guards one of your own units",
        )
    assert "SPY MAO-1" not in game.legal_orders("GERMANY")["SPY"]
    assert game.legal_orders("GERMANY")["SPY"] == ["SPY BRE", "SPY LON", "SPY PAR"]
    [own] = game.check_orders("FRANCE", ["SPY MAO-1"])
    assert own.reason == "own_unit"
    assert game.check_orders("FRANCE", ["COUNTERSPY MAO-1"]) == []


def test_empty_unseen_place_and_counterspied_submarine_read_the_same() -> None:
    game = game_with(UNITS)
    game.set_orders("GERMANY", ["SPY IRI-1"])  # empty at the lock
    game.set_orders("FRANCE", ["SPY NTH-1"])  # England guards its submarine
    game.set_orders("ENGLAND", ["COUNTERSPY NTH-1"])
    game.lock()
    assert told(game, "GERMANY") == ["Your spy (SPY IRI-1) learnt nothing."]
    assert told(game, "FRANCE") == ["Your spy (SPY NTH-1) learnt nothing."]
    assert told(game, "ENGLAND") == []


def test_reaction_and_results_keep_submerged_orders_secret() -> None:
    game = game_with(UNITS)
    game.set_orders("FRANCE", ["SM MAO-1 H", "SPY LON"])
    game.set_orders("ENGLAND", ["F LON - ENG", "SPY MAO-1"])
    game.lock()
    assert told(game, "ENGLAND") == ["Your spy watched the unit in MAO-1: its order is SM MAO-1 H."]
    game.set_change("FRANCE", "SM MAO-1 - IRI-1")
    outcome = game.advance()
    assert any(r.order_text == "SM MAO-1 - IRI-1" for r in outcome.results)
    for viewer in ("ENGLAND", "GERMANY", "observer"):
        seen = build_view(game.rules, outcome.before, viewer, outcome)
        assert all("MAO-1" not in o.text and "IRI-1" not in o.text for o in seen.orders)
        assert all("SPY" not in o.text for o in seen.orders)
    mine = build_view(game.rules, outcome.before, "FRANCE", outcome)
    assert any(o.text == "SM MAO-1 - IRI-1" for o in mine.orders)
