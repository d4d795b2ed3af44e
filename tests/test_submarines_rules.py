"""Submarines: the depth layer of the map, the notation, the starting choice and the mix with Colonial.

The rule cases (movement in the layer, builds, torpedoes, phases) are data: tests/cases/submarines.json,
played by tests/test_cases.py.
"""

from __future__ import annotations

import pytest

from arbitre.judge import Game
from arbitre.maps import load_map
from arbitre.orders import InvalidOrder
from arbitre.variants import make_rules
from arbitre.variants.submarines import SUB, add_depths, read_start_submarines

from .submarines_helpers import RULES

# ---------------------------------------------------------------------- the layer


def test_every_sea_has_a_depth_place_and_no_other_province_has_one() -> None:
    base = load_map("standard")
    deep = RULES.game_map
    assert {p for p in deep.provinces if p.endswith("-1")} == {f"{s}-1" for s in base.seas}
    assert "MAO-1" in deep.provinces and "ODE-1" not in deep.provinces and "BRE-1" not in deep.provinces
    with pytest.raises(InvalidOrder):
        RULES.parse("SM BRE-1 H")


def test_depth_adjacency_follows_the_fleet_adjacency_of_the_seas() -> None:
    gmap = RULES.game_map
    assert gmap.neighbours(SUB, "MAO-1") == {"MAO", "NAO-1", "IRI-1", "ENG-1", "WES-1"}
    for sea in gmap.seas:
        below = gmap.neighbours(SUB, f"{sea}-1")
        fleet_seas = {n for n in gmap.province_neighbours["F"][sea] if n in gmap.seas}
        assert below == {sea} | {f"{n}-1" for n in fleet_seas}
    # A surfaced submarine moves like a fleet, plus the vertical link from a sea.
    assert gmap.neighbours(SUB, "MAO") == gmap.neighbours("F", "MAO") | {"MAO-1"}
    assert gmap.neighbours(SUB, "BRE") == gmap.neighbours("F", "BRE")


def test_depth_layer_is_derived_for_any_map() -> None:
    for name in ("standard", "colonial"):
        base = load_map(name)
        deep = add_depths(base)
        assert all(f"{s}-1" in deep.provinces for s in base.seas)
        assert all(deep.provinces[f"{s}-1"].terrain == "depth" for s in base.seas)


def test_unit_letters_and_support_word() -> None:
    for text in (
        "SM MAO-1 - NAO-1",
        "S MAO-1 - NAO-1",
        "U MAO-1 - NAO-1",
        "Sub MAO-1 - NAO-1",
        "submarine Mid-Atlantic Ocean-1 - North Atlantic Ocean-1",
    ):
        assert RULES.parse(text).format() == "SM MAO-1 - NAO-1"
    assert RULES.parse("S MAO-1 S S NAO-1 - MAO").format() == "SM MAO-1 S SM NAO-1 - MAO"
    assert RULES.parse("A PAR S A MAR - BUR").format() == "A PAR S A MAR - BUR"


def test_starting_submarines_are_a_game_setting() -> None:
    gmap = load_map("standard")
    assert read_start_submarines("FRANCE:BRE,ENGLAND:LON+EDI", gmap) == (
        ("ENGLAND", "EDI"),
        ("ENGLAND", "LON"),
        ("FRANCE", "BRE"),
    )
    assert read_start_submarines({"russia": "STP"}, gmap) == (("RUSSIA", "STP/SC"),)
    with pytest.raises(ValueError, match="no starting fleet in PAR"):
        read_start_submarines("FRANCE:PAR", gmap)
    game = Game.new("standard", ["submarines"], {"start_submarines": {"FRANCE": ["BRE"]}})
    assert game.position.units["BRE"].kind == SUB and game.position.units["LON"].kind == "F"
    assert Game.new("standard", ["submarines"]).position.units["BRE"].kind == "F"  # default: none


# ---------------------------------------------------------------------- with Colonial


def test_submarines_combine_with_colonial() -> None:
    rules = make_rules("colonial", ["submarines"])
    sea = sorted(rules.game_map.seas)[0]
    assert rules.parse(f"SM {sea}-1 H").format() == f"SM {sea}-1 H"
    game = Game.new("colonial", ["submarines"])
    for _ in range(6):
        for p in game.powers_to_order():
            game.set_orders(p, [v[min(1, len(v) - 1)] for k, v in sorted(game.legal_orders(p).items()) if k != "WAIVE"])
        game.advance()
    assert game.history and game.history_views("observer")
