"""Colonial Diplomacy's special rules one by one: notation, legal-order listing and errors.

The adjudication of whole positions lives in test_colonial_cases.py (data
files); here each rule's orders are read, listed and refused.
"""

from __future__ import annotations

import random

import pytest

from arbitre.adjudicator import FAILS, ILLEGAL, PARTIAL, SUCCEEDS, adjudicate
from arbitre.judge import start_position
from arbitre.judge.game import check_orders
from arbitre.maps import load_map
from arbitre.orders import IllegalOrder, InvalidOrder, Move, Support
from arbitre.rules import RuleSet, legal_orders
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules
from arbitre.variants.colonial import (
    AVALON_HILL,
    VDIPLOMACY,
    Colonial,
    SuezPermission,
    TrainMove,
    colonial_board,
    rules_from_options,
)


@pytest.fixture(scope="module")
def vdip() -> RuleSet:
    return make_rules("colonial")


@pytest.fixture(scope="module")
def ah() -> RuleSet:
    return make_rules("colonial", options={"colonial": "avalon-hill"})


def position(rules: RuleSet, *units: str, phase: str = "S1870M", owners: dict[str, str] | None = None) -> Position:
    """A position from ``"RUSSIA A MOS"``-style strings."""
    placed = {}
    for text in units:
        power, kind, place = text.split()
        placed[rules.game_map.province_of[place]] = Unit(power, kind, place)
    return Position("colonial", Phase.parse(phase), placed, owners or {})


def refused(rules: RuleSet, pos: Position, power: str, text: str) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as info:
        rules.check(pos, power, rules.parse(text))
    return info.value


# ---------------------------------------------------------------------- the map and the rule sets
def test_map_facts(vdip: RuleSet) -> None:
    gmap = vdip.game_map
    start = start_position(vdip)
    assert gmap.first_phase == "S1870M" and str(start.phase) == "S1870M"
    assert len(gmap.powers) == 7 and len(start.units) == 29
    assert len(gmap.supply_centers) == 58 and gmap.victory_centers == 30
    assert {p: len(info.homes) for p, info in gmap.powers.items()} == {
        "BRITAIN": 6,
        "CHINA": 5,
        "FRANCE": 3,
        "HOLLAND": 3,
        "JAPAN": 4,
        "RUSSIA": 5,
        "TURKEY": 3,
    }
    assert "map" not in gmap.source.lower() or "colonial" in gmap.source.lower()


def test_map_edges_follow_the_spec(vdip: RuleSet) -> None:
    gmap = vdip.game_map
    assert gmap.can_move("A", "AKI", "TOK") and gmap.can_move("F", "AKI", "TOK")
    assert gmap.can_move("F", "CON", "BLA") and gmap.can_move("F", "BLA", "CON")
    assert not gmap.can_move("F", "DAV", "MID")
    assert not gmap.can_move("F", "MED", "RED")  # the canal is a conditional passage, not a border
    assert gmap.can_move("F", "BLA", "MED")
    assert gmap.can_move("A", "SAK", "OTA") and gmap.can_move("F", "OTA", "AKI")  # land bridges
    assert set(gmap.provinces["SEO"].coasts) == {"SEO/EC", "SEO/WC"}


def test_names_and_french_names(vdip: RuleSet) -> None:
    assert vdip.parse("A Moscou - TSR - Vladivostok").format() == "A MOS - TSR - VLA"
    assert vdip.parse("F Mer Rouge - Mer Méditerranée").format() == "F RED - MED"
    assert vdip.parse("A Krasnoïarsk H").format() == "A KRA H"
    assert vdip.parse("F AND S A BAN - RAN").format() == "F AND S A BAN - RAN"  # AND then S, the support
    assert vdip.game_map.place_name("EGY", "fr") == "Égypte"


def test_rule_set_choice() -> None:
    assert make_rules("colonial").variants[0].ruleset is VDIPLOMACY  # type: ignore[attr-defined]
    ah_rules = make_rules("colonial", options={"colonial": "avalon-hill"})
    variant = ah_rules.variants[0]
    assert isinstance(variant, Colonial) and variant.ruleset is AVALON_HILL
    with pytest.raises(ValueError, match="vdiplomacy, avalon-hill"):
        make_rules("colonial", options={"colonial": "1995"})
    assert rules_from_options({"colonial_line_centers": "on"}).tsr_line_centers
    assert not rules_from_options({}).tsr_line_centers
    with pytest.raises(ValueError, match=r"9\.241"):
        rules_from_options({"colonial": "avalon-hill", "colonial_line_centers": "off"})


def test_every_difference_is_a_field_of_the_rule_set() -> None:
    differing = [f for f in VDIPLOMACY.__dataclass_fields__ if getattr(VDIPLOMACY, f) != getattr(AVALON_HILL, f)]
    assert set(differing) == set(VDIPLOMACY.__dataclass_fields__)


# ---------------------------------------------------------------------- Trans-Siberian Railroad
@pytest.mark.parametrize(
    "text",
    [
        "A MOS - TSR - VLA",
        "A MOS-TSR-VLA",
        "a mos - tsr - vla",
        "A MOS TSR VLA",
        "A MOS - VLA VIA TSR",
        "A MOS - VLA by TSR",
        "A Moscou - Vladivostok par le Transsibérien",
        "A MOS -> TSR -> VLA",
    ],
)
def test_train_notations(vdip: RuleSet, text: str) -> None:
    order = vdip.parse(text)
    assert isinstance(order, TrainMove) and order.format() == "A MOS - TSR - VLA"
    assert vdip.parse(order.format()) == order


def test_train_support_notations(vdip: RuleSet) -> None:
    for text in ("A IRK S A MOS - VLA", "A IRK S A MOS - TSR - VLA", "A IRK S A MOS - VLA VIA TSR"):
        order = vdip.parse(text)
        assert isinstance(order, Support) and order.format() == "A IRK S A MOS - VLA"


def test_train_syntax_error(vdip: RuleSet) -> None:
    with pytest.raises(InvalidOrder) as info:
        vdip.parse("A MOS - TSR")
    assert info.value.reason in ("missing_place", "tsr_syntax")
    with pytest.raises(InvalidOrder) as info:
        vdip.parse("A MOS H TSR")
    assert info.value.reason == "tsr_syntax"


def test_train_orders_are_listed(vdip: RuleSet) -> None:
    start = start_position(vdip)
    russia = legal_orders(vdip, start, "RUSSIA")
    assert {"A MOS - TSR - VLA", "A MOS - TSR - PRM", "A MOS - TSR - IRK"} <= set(russia["MOS"])
    assert "A VLA - TSR - MOS" in russia["VLA"] and "A OMS - TSR - VLA" in russia["OMS"]
    assert not any("TSR" in o for o in russia["ODE"] + russia["POR"])  # fleets, off the line
    assert "A OMS S A MOS - KRA" in russia["OMS"]  # a support of a train move
    china = legal_orders(vdip, start, "CHINA")
    assert not any("TSR" in o for orders in china.values() for o in orders)
    assert "A MAC S A MOS - VLA" in china["MAC"]  # anyone may support the train
    retreat = start.with_changes(phase=Phase.parse("S1870R"))
    assert not any("TSR" in o for orders in legal_orders(vdip, retreat, "RUSSIA").values() for o in orders)


def test_listed_orders_are_accepted(vdip: RuleSet, ah: RuleSet) -> None:
    for rules in (vdip, ah):
        pos = position(
            rules,
            "BRITAIN A EGY",
            "TURKEY F MED",
            "BRITAIN F RED",
            "BRITAIN F ERI",
            "RUSSIA A MOS",
            "RUSSIA A IRK",
            "CHINA A MAC",
            "RUSSIA F VLA",
        )
        for power in rules.game_map.powers:
            for orders in legal_orders(rules, pos, power).values():
                for text in orders:
                    rules.check(pos, power, rules.parse(text))


def test_train_errors_name_the_rule(vdip: RuleSet) -> None:
    pos = position(vdip, "CHINA A PRM", "RUSSIA F VLA", "RUSSIA A MAC", "RUSSIA A MOS")
    err = refused(vdip, pos, "CHINA", "A PRM - TSR - VLA")
    assert err.reason == "tsr_not_russian" and "Trans-Siberian Railroad" in err.message and "9.21" in err.message
    err = refused(vdip, pos, "RUSSIA", "F VLA - TSR - OMS")
    assert err.reason == "tsr_not_army" and "only armies" in err.message
    err = refused(vdip, pos, "RUSSIA", "A MAC - TSR - OMS")
    assert err.reason == "tsr_not_on_line"
    err = refused(vdip, pos, "RUSSIA", "A MOS - TSR - ODE")
    assert err.reason == "tsr_target_off_line"
    err = refused(vdip, pos, "RUSSIA", "A MOS - VLA")
    assert err.reason == "not_adjacent"  # an ordinary move still follows the borders


def test_second_train_move_is_refused(vdip: RuleSet) -> None:
    pos = position(vdip, "RUSSIA A PRM", "RUSSIA A IRK")
    rejected = check_orders(vdip, pos, "RUSSIA", ["A PRM - TSR - VLA", "A IRK - TSR - OMS"])
    assert [r.reason for r in rejected] == ["tsr_one_per_turn"] * 2
    assert "one train move per turn" in (rejected[0].message or "")
    outcome = adjudicate(vdip, pos, {"RUSSIA": ["A PRM - TSR - VLA", "A IRK - TSR - OMS"]})
    assert {r.outcome for r in outcome.results} == {ILLEGAL}
    assert set(outcome.after.units) == {"PRM", "IRK"}
    assert not check_orders(vdip, pos, "RUSSIA", ["A PRM - TSR - VLA", "A PRM - TSR - VLA"])  # same order twice


def test_no_train_in_a_retreat(vdip: RuleSet) -> None:
    pos = position(vdip, "RUSSIA A MOS", phase="S1870R")
    err = refused(vdip, pos, "RUSSIA", "A MOS - TSR - VLA")
    assert err.reason == "tsr_retreat" and "retreat" in err.message


def test_train_end_station_is_in_the_next_position(vdip: RuleSet) -> None:
    pos = position(vdip, "RUSSIA A MOS", "CHINA A IRK")
    outcome = adjudicate(vdip, pos, {"RUSSIA": ["A MOS - TSR - VLA"], "CHINA": ["A IRK H"]})
    result = next(r for r in outcome.results if r.power == "RUSSIA")
    assert (result.outcome, result.reason, result.place) == (PARTIAL, "tsr_station_held", "KRA")
    assert "Krasnoyarsk" in (result.message or "") and "IRK" in (result.message or "")
    assert outcome.after.units["KRA"] == Unit("RUSSIA", "A", "KRA") and "MOS" not in outcome.after.units


def test_line_centre_option_under_vdiplomacy() -> None:
    on = make_rules("colonial", options={"colonial_line_centers": "on"})
    off = make_rules("colonial")
    for rules, end in ((on, "OMS"), (off, "MOS")):
        pos = position(rules, "RUSSIA A VLA", owners={"OMS": "CHINA"})
        outcome = adjudicate(rules, pos, {"RUSSIA": ["A VLA - TSR - MOS"]})
        assert outcome.after.units[end].power == "RUSSIA"


# ---------------------------------------------------------------------- Suez Canal
@pytest.mark.parametrize(
    "text",
    ["SC F MED - RED", "SUEZ F MED", "suez f mediterranean", "SUEZ F MED - RED", "SC MED - RED", "SUEZ Méditerranée"],
)
def test_permission_notations(vdip: RuleSet, text: str) -> None:
    order = vdip.parse(text)
    assert isinstance(order, SuezPermission) and order.unit is None
    assert order.fleet.place == "MED" and order.target == "RED"
    assert vdip.parse(order.format()).format() == order.format() == f"SC {order.fleet} - RED"


def test_canal_orders_are_listed(vdip: RuleSet) -> None:
    pos = position(vdip, "BRITAIN A EGY", "TURKEY F MED", "BRITAIN F ERI", "TURKEY F SYR")
    britain = legal_orders(vdip, pos, "BRITAIN")
    assert britain["SUEZ"] == ["SC F MED - RED"]
    assert "F ERI S F MED - RED" in britain["ERI"]
    turkey = legal_orders(vdip, pos, "TURKEY")
    assert "F MED - RED" in turkey["MED"] and "SUEZ" not in turkey
    assert not any(o.endswith("- RED") and o.startswith("F SYR S") for o in turkey["SYR"])  # SYR cannot reach RED


def test_canal_move_is_a_legal_move(vdip: RuleSet) -> None:
    pos = position(vdip, "TURKEY F MED")
    order = vdip.check(pos, "TURKEY", vdip.parse("F MED - RED"))
    assert isinstance(order, Move) and order.target == "RED"
    err = refused(vdip, pos, "TURKEY", "F MED - GOA")
    assert err.reason == "not_adjacent"


def test_permission_errors_name_the_rule(vdip: RuleSet, ah: RuleSet) -> None:
    for rules in (vdip, ah):
        pos = position(rules, "TURKEY A EGY", "TURKEY F MED")
        err = refused(rules, pos, "BRITAIN", "SC F MED - RED")
        assert err.reason == "suez_not_egypt" and "Suez Canal" in err.message and "TURKEY holds it" in err.message
        empty = position(rules, "TURKEY F MED")
        err = refused(rules, empty, "BRITAIN", "SUEZ F MED")
        assert err.reason == "suez_not_egypt" and "nobody holds it" in err.message
        err = refused(rules, pos, "TURKEY", "SUEZ F RED")
        assert err.reason == "suez_no_fleet"
        err = refused(rules, pos, "TURKEY", "SC F MED - GOA")
        assert err.reason == "suez_direction"
        err = refused(rules, position(rules, "TURKEY A EGY", "TURKEY F MED", phase="F1870R"), "TURKEY", "SUEZ F MED")
        assert err.reason == "wrong_phase"


def test_one_permission_per_turn(vdip: RuleSet) -> None:
    pos = position(vdip, "BRITAIN A EGY", "TURKEY F MED", "HOLLAND F RED")
    rejected = check_orders(vdip, pos, "BRITAIN", ["SC F MED - RED", "SC F RED - MED"])
    assert [r.reason for r in rejected] == ["suez_one_per_turn"] * 2
    outcome = adjudicate(
        vdip,
        pos,
        {"BRITAIN": ["SC F MED - RED", "SC F RED - MED"], "TURKEY": ["F MED - RED"], "HOLLAND": ["F RED - MED"]},
    )
    by_text = {r.text: r for r in outcome.results}
    assert by_text["SC F MED - RED"].outcome == ILLEGAL
    assert by_text["F MED - RED"].reason == by_text["F RED - MED"].reason == "suez_closed"


def test_no_support_or_convoy_across_the_canal(vdip: RuleSet) -> None:
    pos = position(vdip, "BRITAIN A EGY", "TURKEY F MED", "TURKEY F RED", "TURKEY F ERI", "TURKEY A SYR")
    assert refused(vdip, pos, "TURKEY", "F MED S F RED").reason == "cannot_reach"
    assert refused(vdip, pos, "TURKEY", "F MED S F ERI - RED").reason == "cannot_reach"
    assert refused(vdip, pos, "TURKEY", "F RED C A SYR - ERI").reason == "not_on_route"


def test_closed_canal_move_fails_with_the_rule_named(vdip: RuleSet) -> None:
    pos = position(vdip, "BRITAIN A EGY", "TURKEY F MED")
    outcome = adjudicate(vdip, pos, {"BRITAIN": ["A EGY H"], "TURKEY": ["F MED - RED"]})
    result = next(r for r in outcome.results if r.power == "TURKEY")
    assert (result.outcome, result.reason) == (FAILS, "suez_closed") and "Suez Canal" in (result.message or "")
    outcome = adjudicate(vdip, pos, {"BRITAIN": ["A EGY H", "SUEZ F MED"], "TURKEY": ["F MED - RED"]})
    assert outcome.after.units["RED"] == Unit("TURKEY", "F", "RED")
    assert {r.text: r.outcome for r in outcome.results}["SUEZ F MED"] == SUCCEEDS


# ---------------------------------------------------------------------- Hong Kong
def test_hong_kong_gives_china_no_credit(vdip: RuleSet) -> None:
    board = colonial_board(vdip.game_map)
    assert board.hong_kong == "HON"
    pos = position(vdip, "CHINA A CAN", owners={"HON": "CHINA", "CAN": "CHINA", "PEK": "CHINA"})
    assert vdip.build_centers("CHINA", pos) == 2 and vdip.victory_centers("CHINA", pos) == 2
    pos = position(vdip, "FRANCE A CAN", owners={"HON": "FRANCE"})
    assert vdip.build_centers("FRANCE", pos) == 1 and vdip.victory_centers("FRANCE", pos) == 1


def test_hong_kong_changes_hands(vdip: RuleSet) -> None:
    pos = position(
        vdip,
        "CHINA A CAN",
        "BRITAIN A MAD",
        phase="F1870M",
        owners={"HON": "BRITAIN", "CAN": "CHINA", "MAD": "BRITAIN"},
    )
    outcome = adjudicate(vdip, pos, {"CHINA": ["A CAN - HON"]})
    after = outcome.after
    assert after.owners["HON"] == "CHINA"  # ownership changes: Britain loses it
    assert vdip.build_centers("CHINA", after) == 1 and vdip.build_centers("BRITAIN", after) == 1
    assert load_map("colonial").provinces["HON"].supply_center


# ---------------------------------------------------------------------- robustness
@pytest.mark.parametrize("ruleset", ["vdiplomacy", "avalon-hill"])
def test_random_positions_around_the_line_and_the_canal(ruleset: str) -> None:
    """Random crowded positions near the railroad and the canal, with train moves favoured: every unit is
    accounted for (moved, stayed or dislodged), no two units share a province, every order has a result."""
    rules = make_rules("colonial", options={"colonial": ruleset})
    gmap = rules.game_map
    area = [
        "MOS",
        "PRM",
        "OMS",
        "KRA",
        "IRK",
        "VLA",
        "ORE",
        "AKM",
        "MON",
        "MAC",
        "SEO",
        "URU",
        "SEM",
        "ODE",
        "OKH",
        "EGY",
        "MED",
        "RED",
        "SYR",
        "SUD",
        "ERI",
        "MEC",
        "BLA",
        "GOA",
    ]
    powers = ["RUSSIA", "CHINA", "JAPAN", "BRITAIN", "TURKEY"]
    rng = random.Random(7)
    for _ in range(300):
        units = {}
        for prov in rng.sample(area, rng.randint(3, 16)):
            kinds = [k for k in ("A", "F") if gmap.places_for(k, prov)]
            kind = rng.choice(kinds)
            units[prov] = Unit(rng.choice(powers), kind, rng.choice(gmap.places_for(kind, prov)))
        owners = {c: rng.choice(powers) for c in ("OMS", "MOS", "VLA") if rng.random() < 0.3}
        pos = Position("colonial", Phase.parse("S1870M"), units, owners)
        orders: dict[str, list[str]] = {}
        for power in powers:
            chosen = []
            for options in legal_orders(rules, pos, power).values():
                trains = [o for o in options if " - TSR - " in o and " S " not in o]
                chosen.append(rng.choice(trains if trains and rng.random() < 0.8 else options))
            orders[power] = chosen
        outcome = adjudicate(rules, pos, orders)
        assert len(outcome.after.units) + len(outcome.dislodged) == len(units)
        given = sum(len(o) for o in orders.values())
        assert len([r for r in outcome.results if r.reason != "no_order"]) >= given - len(units)
