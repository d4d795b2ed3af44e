"""Views of standard games: everything on the board is public, orders are public once adjudicated,
pending orders are their power's own; the game's views; the JSON form of a view."""

from __future__ import annotations

import json

import pytest

from arbitre.adjudicator import adjudicate
from arbitre.judge import Game, start_position
from arbitre.rules import RuleSet
from arbitre.rules.events import EVERYONE, Event, can_see, narrowest, only
from arbitre.views import build_view, check_viewer, position_data, results_data, view_to_data


def test_everything_on_the_board_is_public_in_a_standard_game(rules: RuleSet) -> None:
    pos = start_position(rules)
    master = build_view(rules, pos, "master")
    for viewer in ("observer", "FRANCE", "england"):
        seen = build_view(rules, pos, viewer)
        assert seen.units == master.units and seen.owners == master.owners
        assert all(u.power is not None and not u.hidden for u in seen.units)
    assert len(master.units) == 22 and master.unit_counts["RUSSIA"] == 4


def test_pending_orders_are_their_powers_own(rules: RuleSet) -> None:
    pos = start_position(rules)
    pending = {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR", "nonsense"]}
    assert [o.text for o in build_view(rules, pos, "FRANCE", pending=pending).orders] == ["A PAR - BUR"]
    assert [o.text for o in build_view(rules, pos, "GERMANY", pending=pending).orders] == ["A MUN - BUR", "nonsense"]
    assert build_view(rules, pos, "observer", pending=pending).orders == ()
    assert build_view(rules, pos, "ITALY", pending=pending).orders == ()
    assert len(build_view(rules, pos, "master", pending=pending).orders) == 3


def test_adjudicated_orders_are_public_and_refusal_messages_are_their_powers_own(rules: RuleSet) -> None:
    pos = start_position(rules)
    out = adjudicate(rules, pos, {"FRANCE": ["A PAR - BUR", "F BRE - MUN"], "GERMANY": ["A MUN - BUR"]})
    master = build_view(rules, pos, "master", out)
    for viewer in ("observer", "ITALY", "FRANCE"):
        seen = build_view(rules, pos, viewer, out)
        assert [(o.text, o.outcome, o.reason) for o in seen.orders] == [
            (o.text, o.outcome, o.reason) for o in master.orders
        ]
        assert seen.bounced == ("BUR",)
    refused = [o for o in build_view(rules, pos, "FRANCE", out).orders if o.outcome == "illegal"]
    assert refused and refused[0].message
    assert all(o.message is None for o in build_view(rules, pos, "ITALY", out).orders)
    bur = next(o for o in master.orders if o.text == "A PAR - BUR")
    assert (bur.kind, bur.places, bur.final_place) == ("move", ("PAR", "BUR"), "PAR")


def test_viewer_ids_are_checked(rules: RuleSet) -> None:
    assert check_viewer(rules, "france") == "FRANCE"
    assert check_viewer(rules, "Observer") == "observer"
    with pytest.raises(ValueError, match="not a power"):
        check_viewer(rules, "SPAIN")
    with pytest.raises(TypeError):
        build_view("not rules", start_position(rules), "master")  # type: ignore[arg-type]


def test_events_reach_only_their_audience() -> None:
    assert can_see(EVERYONE, "observer") and can_see(EVERYONE, "FRANCE")
    assert can_see(only("FRANCE"), "FRANCE") and not can_see(only("FRANCE"), "ENGLAND")
    assert not can_see(only("FRANCE"), "observer") and can_see(frozenset(), "master")
    assert narrowest([EVERYONE, only("FRANCE", "ITALY"), only("FRANCE")]) == only("FRANCE")
    assert narrowest([EVERYONE, EVERYONE]) == EVERYONE
    rules = Game.new().rules
    pos = start_position(rules)
    events = [Event("test.public", EVERYONE, {"n": 1}), Event("test.private", only("ITALY"), {"n": 2})]
    assert [r.key for r in build_view(rules, pos, "observer", events=events).report] == ["test.public"]
    # (report lines come sorted: canonical order)
    assert [r.key for r in build_view(rules, pos, "ITALY", events=events).report] == ["test.private", "test.public"]
    master = build_view(rules, pos, "master", events=events).report
    assert [r.audience for r in master] == [("ITALY",), ("*",)]


def test_game_views_and_history_views() -> None:
    game = Game.new()
    game.set_orders("FRANCE", ["A PAR - BUR"])
    assert [o.text for o in game.view("FRANCE").orders] == ["A PAR - BUR"]
    assert game.view("GERMANY").orders == ()
    game.advance()
    game.advance()
    views = game.history_views("observer")
    assert [v.phase for v in views] == ["S1901M", "F1901M"]
    assert "A PAR - BUR" in [o.text for o in views[0].orders]
    assert game.phase_view(0, "ENGLAND").orders == views[0].orders
    assert game.view("observer").phase == str(game.phase)


def test_a_view_is_plain_data_and_its_board_is_valid_input(rules: RuleSet) -> None:
    pos = start_position(rules)
    out = adjudicate(rules, pos, {"FRANCE": ["A PAR - BUR"]})
    seen = build_view(rules, pos, "ENGLAND", out)
    assert json.loads(json.dumps(view_to_data(seen)))["viewer"] == "ENGLAND"
    assert results_data(seen)[0]["order"] in {r.order_text for r in out.results}
    board = position_data(build_view(rules, out.after, "ENGLAND"))
    assert board["phase"] == "F1901M" and "A BUR" in board["units"]["FRANCE"]
    assert "extras" not in board
