"""Submarines: the hidden layer, movement in it, builds, the starting choice and torpedoes (one scenario per rule).

On the standard map the seed's ATL is MAO (or NAO) and its MAN is ENG.
"""

from __future__ import annotations

import pytest

from arbitre.adjudicator import FAILS, ILLEGAL, SUCCEEDS, adjudicate
from arbitre.judge import Game
from arbitre.maps import load_map
from arbitre.orders import InvalidOrder
from arbitre.variants import make_rules
from arbitre.variants.submarines import SUB, Torpedo, TorpedoSupport, add_depths, read_start_submarines

from .submarines_helpers import RULES, play, position, result

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
        try:
            base = load_map(name)
        except ValueError:
            continue
        deep = add_depths(base)
        assert all(f"{s}-1" in deep.provinces for s in base.seas)
        assert all(deep.provinces[f"{s}-1"].terrain == "depth" for s in base.seas)


def test_no_diagonal_moves_and_only_submarines_in_the_depths() -> None:
    units = {"FRANCE": ["SM MAO-1", "SM NAO", "F BRE", "A PAR"]}
    out = play(units, {"FRANCE": ["SM MAO-1 - NAO", "SM NAO - MAO-1", "F BRE - MAO-1", "A PAR - BRE"]})
    assert result(out, "SM MAO-1 - NAO").outcome == ILLEGAL
    assert result(out, "SM NAO - MAO-1").outcome == ILLEGAL
    assert result(out, "F BRE - MAO-1").outcome == ILLEGAL


def test_unit_letters_and_support_word() -> None:
    for text in ("SM MAO-1 - NAO-1", "S MAO-1 - NAO-1", "U MAO-1 - NAO-1", "Sub MAO-1 - NAO-1",
                 "submarine Mid-Atlantic Ocean-1 - North Atlantic Ocean-1"):
        assert RULES.parse(text).format() == "SM MAO-1 - NAO-1"
    assert RULES.parse("S MAO-1 S S NAO-1 - MAO").format() == "SM MAO-1 S SM NAO-1 - MAO"
    assert RULES.parse("A PAR S A MAR - BUR").format() == "A PAR S A MAR - BUR"


def test_surface_submarine_is_a_fleet_it_moves_captures_and_convoys() -> None:
    units = {"ENGLAND": ["SM NTH", "A YOR"], "GERMANY": ["SM HOL"]}
    out = play(units, {"ENGLAND": ["SM NTH C A YOR - NWY", "A YOR - NWY"], "GERMANY": ["SM HOL - BEL"]},
               phase="F1901M")
    assert result(out, "A YOR - NWY").outcome == SUCCEEDS
    assert result(out, "SM NTH C A YOR - NWY").outcome == SUCCEEDS
    winter = adjudicate(RULES, out.after, {}).after  # the (empty) retreat step, then the centres change hands
    assert winter.owners["BEL"] == "GERMANY" and winter.owners["NWY"] == "ENGLAND"


def test_submerged_submarine_cannot_convoy_and_must_surface_to_land() -> None:
    units = {"ENGLAND": ["SM NTH-1", "A YOR"], "FRANCE": ["SM MAO-1"]}
    out = play(units, {"ENGLAND": ["SM NTH-1 C A YOR - NWY", "A YOR - NWY"], "FRANCE": ["SM MAO-1 - BRE"]})
    assert result(out, "SM NTH-1 C A YOR - NWY").outcome == ILLEGAL
    assert result(out, "A YOR - NWY").outcome == ILLEGAL
    assert result(out, "SM MAO-1 - BRE").outcome == ILLEGAL


def test_submerging_and_surfacing_take_the_whole_phase() -> None:
    out = play({"FRANCE": ["SM MAO", "SM NAO-1"]}, {"FRANCE": ["SM MAO - MAO-1", "SM NAO-1 - NAO"]})
    assert result(out, "SM MAO - MAO-1").outcome == SUCCEEDS
    assert result(out, "SM NAO-1 - NAO").outcome == SUCCEEDS
    assert {u.place for u in out.after.units.values()} == {"MAO-1", "NAO"}


def test_vertical_move_into_an_occupied_place_is_an_attack() -> None:
    units = {"FRANCE": ["SM MAO-1"], "ENGLAND": ["F MAO"]}
    out = play(units, {"FRANCE": ["SM MAO-1 - MAO"]})
    assert result(out, "SM MAO-1 - MAO").outcome == FAILS  # 1 against 1: bounces
    units = {"FRANCE": ["SM MAO-1", "F BRE"], "ENGLAND": ["F MAO"]}
    out = play(units, {"FRANCE": ["SM MAO-1 - MAO", "F BRE S SM MAO-1 - MAO"]})
    assert result(out, "SM MAO-1 - MAO").outcome == SUCCEEDS
    assert out.after.dislodged["MAO"].unit.power == "ENGLAND"
    assert out.after.dislodged["MAO"].attacker_from == "MAO-1"


def test_surface_and_depths_are_different_places() -> None:
    units = {"FRANCE": ["F LYO"], "ITALY": ["SM ION-1"]}
    out = play(units, {"FRANCE": ["F LYO - TYS"], "ITALY": ["SM ION-1 - TYS-1"]})
    assert result(out, "F LYO - TYS").outcome == SUCCEEDS
    assert result(out, "SM ION-1 - TYS-1").outcome == SUCCEEDS


def test_two_submarines_in_the_depths_bounce_and_dislodge_like_fleets() -> None:
    units = {"FRANCE": ["SM MAO-1"], "ENGLAND": ["SM IRI-1"]}
    out = play(units, {"FRANCE": ["SM MAO-1 - NAO-1"], "ENGLAND": ["SM IRI-1 - NAO-1"]})
    assert result(out, "SM MAO-1 - NAO-1").outcome == FAILS
    assert result(out, "SM IRI-1 - NAO-1").outcome == FAILS
    units = {"FRANCE": ["SM MAO-1", "SM ENG-1"], "ENGLAND": ["SM IRI-1"]}
    out = play(units, {"FRANCE": ["SM MAO-1 - IRI-1", "SM ENG-1 S SM MAO-1 - IRI-1"]})
    assert result(out, "SM MAO-1 - IRI-1").outcome == SUCCEEDS
    assert out.after.dislodged["IRI-1"].unit.power == "ENGLAND"


def test_swap_between_surface_and_depth_is_a_head_to_head_battle() -> None:
    units = {"FRANCE": ["SM MAO-1"], "ENGLAND": ["SM MAO"]}
    out = play(units, {"FRANCE": ["SM MAO-1 - MAO"], "ENGLAND": ["SM MAO - MAO-1"]})
    assert result(out, "SM MAO-1 - MAO").outcome == FAILS
    assert result(out, "SM MAO - MAO-1").outcome == FAILS


def test_supports_follow_the_movement_rule_and_fleets_cannot_support_into_the_depths() -> None:
    units = {"FRANCE": ["SM MAO-1", "SM NAO-1", "F BRE", "SM ENG", "SM ENG-1", "F GAS"], "ENGLAND": ["F MAO"]}
    legal = ["SM MAO-1 S F BRE - MAO",  # upward, into its own sea
             "SM NAO-1 S SM MAO-1",  # in the depths
             "SM ENG S SM ENG-1"]  # a surfaced submarine, downward
    out = play(units, {"FRANCE": ["F BRE - MAO", *legal, "F GAS S SM MAO-1"]})
    for text in legal:
        assert result(out, text).outcome == SUCCEEDS, text
    assert result(out, "F GAS S SM MAO-1").outcome == ILLEGAL  # a fleet cannot reach the depths
    assert result(out, "F BRE - MAO").outcome == SUCCEEDS  # the upward support counts


def test_builds_are_as_for_fleets() -> None:
    game = Game.new("standard", ["submarines"])
    pos = position({"FRANCE": ["A PAR"]}, phase="W1901A")
    out = adjudicate(game.rules, pos, {"FRANCE": ["SM BRE B", "SM MAR B"]})
    assert result(out, "SM BRE B").outcome == SUCCEEDS
    assert out.after.units["BRE"].kind == SUB and out.after.units["MAR"].place == "MAR"
    pos = position({"RUSSIA": ["A MOS"]}, phase="W1901A")
    out = adjudicate(game.rules, pos, {"RUSSIA": ["SM STP B", "SM MOS B"]})
    assert {r.order_text: r.reason for r in out.results}["SM STP B"] == "build_coast_needed"
    assert result(out, "SM MOS B").outcome == ILLEGAL  # no submarine inland


def test_starting_submarines_are_a_game_setting() -> None:
    gmap = load_map("standard")
    assert read_start_submarines("FRANCE:BRE,ENGLAND:LON+EDI", gmap) == (
        ("ENGLAND", "EDI"), ("ENGLAND", "LON"), ("FRANCE", "BRE"))
    assert read_start_submarines({"russia": "STP"}, gmap) == (("RUSSIA", "STP/SC"),)
    with pytest.raises(ValueError, match="no starting fleet in PAR"):
        read_start_submarines("FRANCE:PAR", gmap)
    game = Game.new("standard", ["submarines"], {"start_submarines": {"FRANCE": ["BRE"]}})
    assert game.position.units["BRE"].kind == SUB and game.position.units["LON"].kind == "F"
    assert Game.new("standard", ["submarines"]).position.units["BRE"].kind == "F"  # default: none


# ---------------------------------------------------------------------- torpedoes


def test_seed_example_the_torpedo_hits_the_submarine_that_moved_in() -> None:
    # SM ATL-1 Torp. ATL, F ATL - ISL, SM MAN - ATL: both moves succeed; the submarine now in ATL is hit.
    units = {"GERMANY": ["SM MAO-1"], "FRANCE": ["F MAO"], "ENGLAND": ["SM ENG"]}
    out = play(units, {"GERMANY": ["SM MAO-1 Torp. MAO"], "FRANCE": ["F MAO - POR"], "ENGLAND": ["SM ENG - MAO"]})
    assert result(out, "F MAO - POR").outcome == SUCCEEDS
    assert result(out, "SM ENG - MAO").outcome == SUCCEEDS
    assert (result(out, "SM MAO-1 Torp. MAO").outcome, result(out, "SM MAO-1 Torp. MAO").reason) == (SUCCEEDS, "hit")
    assert out.after.units["POR"].kind == "F"
    hit = out.after.dislodged["MAO"]
    assert (hit.unit.power, hit.unit.kind, hit.attacker_from) == ("ENGLAND", SUB, "MAO-1")


def test_torpedo_misses_an_empty_place_and_an_own_unit() -> None:
    out = play({"FRANCE": ["F MAO"]}, {"FRANCE": ["F MAO Torp. MAO-1"]})
    assert (result(out, "F MAO Torp. MAO-1").outcome, result(out, "F MAO Torp. MAO-1").reason) == (FAILS, "missed")
    out = play({"FRANCE": ["F MAO", "SM MAO-1"]}, {"FRANCE": ["F MAO Torp. MAO-1"]})
    assert result(out, "F MAO Torp. MAO-1").reason == "missed" and "MAO-1" in out.after.units


def test_a_hit_works_whatever_the_support_and_the_unit_retreats_as_usual() -> None:
    units = {"FRANCE": ["F MAO", "F BRE", "F GAS"], "GERMANY": ["SM MAO-1"]}
    out = play(units, {"FRANCE": ["F BRE S F MAO", "F GAS S F MAO"], "GERMANY": ["SM MAO-1 Torp. MAO"]})
    assert result(out, "SM MAO-1 Torp. MAO").reason == "hit"
    assert out.after.phase.kind == "R" and "MAO" not in out.after.units
    d = out.after.dislodged["MAO"]
    assert "MAO-1" not in (d.retreats or ()) and "POR" in (d.retreats or ())
    retreat = adjudicate(RULES, out.after, {"FRANCE": ["F MAO R POR"]})
    assert result(retreat, "F MAO R POR").outcome == SUCCEEDS and "POR" in retreat.after.units


def test_a_dislodged_firing_unit_does_not_fire() -> None:
    units = {"FRANCE": ["SM MAO"], "ENGLAND": ["SM MAO-1", "F BRE", "F GAS"]}
    out = play(units, {"FRANCE": ["SM MAO Torp. MAO-1"]})
    assert result(out, "SM MAO Torp. MAO-1").reason == "hit"  # control: not attacked, it fires
    units = {"FRANCE": ["SM MAO"], "ENGLAND": ["SM MAO-1", "F BRE", "F GAS"]}
    out = play(units, {"FRANCE": ["SM MAO Torp. MAO-1"], "ENGLAND": ["F BRE - MAO", "F GAS S F BRE - MAO"]})
    assert (result(out, "SM MAO Torp. MAO-1").outcome, result(out, "SM MAO Torp. MAO-1").reason) == (
        FAILS, "dislodged")
    assert "MAO-1" in out.after.units


def test_the_firing_unit_holds_and_a_torpedo_cuts_no_support() -> None:
    # The firing fleet holds with support; the torpedo does not cut the hit unit's support.
    units = {"FRANCE": ["F MAO", "F BRE"], "ENGLAND": ["F ENG", "SM IRI", "SM MAO-1"]}
    orders = {"FRANCE": ["F MAO Torp. MAO-1", "F BRE S F MAO"],
              "ENGLAND": ["F ENG - MAO", "SM IRI S F ENG - MAO", "SM MAO-1 S F ENG - MAO"]}
    out = play(units, orders)
    assert result(out, "SM MAO-1 S F ENG - MAO").outcome == SUCCEEDS  # given before the torpedo hits
    assert result(out, "F ENG - MAO").outcome == SUCCEEDS  # 3 against 2
    assert result(out, "F MAO Torp. MAO-1").reason == "dislodged"


def test_supports_of_a_torpedo_are_legal_and_change_nothing() -> None:
    units = {"FRANCE": ["F NTH", "F MAO"], "GERMANY": ["SM MAO-1"]}
    out = play(units, {"FRANCE": ["F NTH S SM MAO-1 Torp. MAO"], "GERMANY": ["SM MAO-1 Torp. MAO"]})
    r = result(out, "F NTH S SM MAO-1 Torp. MAO")
    assert (r.outcome, r.reason) == (SUCCEEDS, "no_effect")
    assert isinstance(r.order, TorpedoSupport)
    assert result(out, "SM MAO-1 Torp. MAO").reason == "hit"


def test_torpedoes_only_go_straight_up_or_down_from_fleets_and_submarines() -> None:
    units = {"FRANCE": ["F MAO", "A PAR", "F BRE", "SM NAO-1"]}
    out = play(units, {"FRANCE": ["F MAO Torp. NAO-1", "A PAR Torp. MAO", "F BRE Torp. MAO-1", "SM NAO-1 T NAO"]})
    assert result(out, "F MAO Torp. NAO-1").reason == "not_vertical"
    assert result(out, "A PAR Torp. MAO").reason == "not_fleet"
    assert result(out, "F BRE Torp. MAO-1").reason == "not_at_sea"
    assert isinstance(result(out, "SM NAO-1 Torp. NAO").order, Torpedo)


def test_torpedo_at_a_place_won_by_an_attack_hits_the_winner() -> None:
    # ENGLAND dislodges the fleet in MAO; the German torpedo then hits the English winner, which has
    # no room to retreat from MAO (the French fleet retreats from there): it is destroyed.
    units = {"FRANCE": ["F MAO"], "ENGLAND": ["F ENG", "F IRI"], "GERMANY": ["SM MAO-1"]}
    orders = {"ENGLAND": ["F ENG - MAO", "F IRI S F ENG - MAO"], "GERMANY": ["SM MAO-1 Torp. MAO"]}
    out = play(units, orders)
    assert result(out, "F ENG - MAO").outcome == SUCCEEDS
    assert result(out, "SM MAO-1 Torp. MAO").reason == "hit"
    assert out.after.dislodged["MAO"].unit.power == "FRANCE"
    assert "MAO" not in out.after.units
    assert all(u.power != "ENGLAND" or u.place != "MAO" for u in out.after.units.values())


def test_torpedoes_fire_all_at_once() -> None:
    units = {"FRANCE": ["F MAO"], "GERMANY": ["SM MAO-1"]}
    out = play(units, {"FRANCE": ["F MAO Torp. MAO-1"], "GERMANY": ["SM MAO-1 Torp. MAO"]})
    assert result(out, "F MAO Torp. MAO-1").reason == "hit"
    assert result(out, "SM MAO-1 Torp. MAO").reason == "hit"
    assert set(out.after.dislodged) == {"MAO", "MAO-1"}


def test_a_retreat_phase_follows_every_movement_phase() -> None:
    out = play({"FRANCE": ["F BRE"]}, {"FRANCE": ["F BRE - MAO"]})
    assert str(out.after.phase) == "S1901R" and not out.after.dislodged
    nxt = adjudicate(RULES, out.after, {})
    assert str(nxt.after.phase) == "F1901M"
    standard = make_rules("standard")
    assert str(adjudicate(standard, position({"FRANCE": ["F BRE"]}, rules=standard), {}).after.phase) == "F1901M"


def test_submarines_combine_with_colonial() -> None:
    rules = make_rules("colonial", ["submarines"])
    sea = sorted(rules.game_map.seas)[0]
    assert rules.parse(f"SM {sea}-1 H").format() == f"SM {sea}-1 H"
    game = Game.new("colonial", ["submarines"])
    for _ in range(6):
        for p in game.powers_to_order():
            game.set_orders(p, [v[min(1, len(v) - 1)] for k, v in sorted(game.legal_orders(p).items())
                                if k != "WAIVE"])
        game.advance()
    assert game.history and game.history_views("observer")
