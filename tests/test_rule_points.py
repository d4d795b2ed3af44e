"""Every rule point is one method of the rule set, and a module changes it from its own folder alone.

Each test registers a small module made here (as a newcomer's folder would
be: a ``Variant`` with one facet, and one registry entry) and plays it
through the judge, the JSON interface, the renderer or the DATC text runner:
nothing but the module and its entry changes, and the whole engine follows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from arbitre.datc.text_cases import parse_judge_text
from arbitre.datc.text_runner import case_position
from arbitre.interface import RequestError, process
from arbitre.judge import Game
from arbitre.maps import GameMap
from arbitre.orders import OrderSyntax
from arbitre.render.svg import UNKNOWN_UNIT, render_svg
from arbitre.rules import RuleSet, Variant
from arbitre.rules.drawing import UnitShape
from arbitre.rules.facets import Builds, CivilDisorder, MapTransform, PhaseNeeds, Setup, StepRules, Victory
from arbitre.rules.kinds import UnitKind
from arbitre.rules.phase_steps import ORDERS, Accepts, AtEnd, Step
from arbitre.state import Phase, Position, Unit
from arbitre.variants import InapplicableModuleError, make_rules
from arbitre.variants.registry import MODULES, REGISTRY, RuleModule
from arbitre.views import View, VisibleUnit

Register = Callable[..., None]


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> Register:
    """Add a module to the registry for one test (its entry, as one line of the registry list would)."""

    def add(module: type[Variant], maps: tuple[str, ...] = ()) -> None:
        entry = RuleModule(module.name, f"tests.test_rule_points:{module.__name__}", "t", "d", maps=maps)
        monkeypatch.setitem(MODULES, module.name, entry)
        monkeypatch.setitem(REGISTRY, module.name, lambda options: module())

    return add


class FleetInVenice(Variant, Setup):
    """Italy starts with a fleet in Venice instead of its army; Belgium starts French."""

    name = "fleet_in_venice"

    def initial_owners(self, rules: RuleSet, owners: dict[str, str]) -> dict[str, str]:  # type: ignore[override]
        return {**owners, "BEL": "FRANCE"}

    def starting_position(self, rules: RuleSet, position: Position) -> Position:
        units = {**position.units, "VEN": Unit("ITALY", "F", "VEN")}
        return replace(position, units=units)


def test_the_starting_position_and_first_owners_come_from_the_rule_set(register: Register) -> None:
    register(FleetInVenice, maps=("standard",))
    game = Game.new("standard", [FleetInVenice.name])
    assert game.position.units["VEN"] == Unit("ITALY", "F", "VEN") and game.position.owners["BEL"] == "FRANCE"
    assert Game.new("standard").position.units["VEN"] == Unit("ITALY", "A", "VEN")
    # A position given without owners (the JSON interface) starts from the same owners.
    answer = process(
        {
            "map": "standard",
            "rules": [FleetInVenice.name],
            "phase": "S1901M",
            "units": {"FRANCE": ["A PAR"]},
            "orders": {},
        }
    )
    assert "BEL" in answer["next"]["supply_centers"]["FRANCE"]
    # The DATC text runner too.
    (case,) = parse_judge_text("CASE t\nPRESTATE\nFrance: A PAR\nORDERS\nFrance: A PAR H\nEND\n")
    assert case_position(make_rules("standard", [FleetInVenice.name]), case).owners["BEL"] == "FRANCE"


def test_a_module_is_refused_on_a_map_it_does_not_apply_to(register: Register) -> None:
    register(FleetInVenice, maps=("standard",))
    with pytest.raises(InapplicableModuleError, match=r"fleet_in_venice.*'colonial'"):
        Game.new("colonial", [FleetInVenice.name])
    request = {"map": "colonial", "rules": [FleetInVenice.name], "phase": "S1870M", "units": {}, "orders": {}}
    with pytest.raises(RequestError) as err:
        process(request)
    assert err.value.where == "rules" and "applies to: standard" in str(err.value)


class NoWinter(Variant, PhaseNeeds):
    """No adjustment phase is ever played; a retreat phase always follows a movement phase."""

    name = "no_winter"

    def needs_retreats(self, rules: RuleSet, position: Position, needed: bool) -> bool:
        return True

    def needs_adjustments(self, rules: RuleSet, position: Position, needed: bool) -> bool:
        return False


def test_which_phases_are_played_comes_from_the_rule_set(register: Register) -> None:
    register(NoWinter)
    game = Game.new("standard", [NoWinter.name])
    assert game.set_orders("FRANCE", ["A PAR - BUR"]) == []
    game.advance()
    assert game.phase.kind == "R"  # held although nothing was dislodged
    game.advance()
    assert game.set_orders("FRANCE", ["A BUR - BEL"]) == []
    game.advance()
    game.advance()
    assert game.position.owners["BEL"] == "FRANCE" and str(game.phase) == "S1902M"  # France owed a build
    standard = Game.new("standard")
    standard.advance()
    assert standard.phase.kind == "M"


class EighteenIsTen(Variant, Victory):
    """Ten centres win."""

    name = "ten_wins"

    def victory_target(self, rules: RuleSet, target: int) -> int:
        return 10


def test_the_victory_target_comes_from_the_rule_set(register: Register) -> None:
    register(EighteenIsTen)
    assert make_rules("standard", [EighteenIsTen.name]).victory_target() == 10
    assert make_rules("standard").victory_target() == 18


class Cavalry(Variant, MapTransform, StepRules):
    """A unit kind ``C`` that moves like an army, drawn as a diamond; a second step in every phase."""

    name = "cavalry"
    declared_steps = (Step("gallop", Accepts.ORDERS, AtEnd.ADJUDICATE),)

    def transform_map(self, game_map: GameMap) -> GameMap:
        return replace(game_map, adjacency={**game_map.adjacency, "C": game_map.adjacency["A"]})

    def extend_syntax(self, syntax: OrderSyntax) -> OrderSyntax:
        return syntax.extended(unit_words={"C": "C"})

    def unit_kinds(self) -> Sequence[UnitKind]:
        return (UnitKind("C", "cavalry", UnitShape("M0 -10 L10 0 L0 10 L-10 0 Z")),)

    def phase_steps(self, rules: RuleSet, position: Position) -> Sequence[Step]:
        return (Step(ORDERS, Accepts.ORDERS, AtEnd.LOCK), *self.declared_steps)


def test_unit_kinds_and_phase_steps_come_from_the_rule_set(register: Register) -> None:
    register(Cavalry)
    rules = make_rules("standard", [Cavalry.name])
    assert set(rules.unit_kinds) == {"A", "F", "C"} and rules.game_map.adjacency["C"] == rules.game_map.adjacency["A"]
    assert [s.name for s in rules.phase_steps(rules.starting_position())] == [ORDERS, "gallop"]
    assert [s.name for s in make_rules("standard").phase_steps(rules.starting_position())] == [ORDERS]


def test_an_undeclared_unit_kind_is_never_drawn_as_another_kind() -> None:
    view = View("observer", "standard", "S1901M", (VisibleUnit("FRANCE", "X", "PAR"),), {}, ())
    svg = render_svg(view, legend=False)
    assert UNKNOWN_UNIT.path in svg
    submarine = render_svg(replace(view, units=(VisibleUnit("FRANCE", "SM", "ENG"),)), legend=False)
    assert UNKNOWN_UNIT.path not in submarine and "A5.5 5.5" in submarine  # its declared outline


class ParisOnly(Variant, Builds):
    """France builds in Paris only, and says so in its own words."""

    name = "paris_only"

    def build_sites(self, rules: RuleSet, power: str, position: Position, sites: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(s for s in sites if s == "PAR")

    def build_site_refusal(self, rules: RuleSet, power: str, words: str) -> str:
        return "{power} builds in Paris only, not in {place}"


def _build(rules: list[str], order: str) -> dict[str, object]:
    answer = process(
        {
            "map": "standard",
            "rules": rules,
            "phase": "W1901A",
            "units": {"FRANCE": ["A BUR"]},
            "supply_centers": {"FRANCE": ["BRE", "MAR", "PAR", "BEL"]},
            "orders": {"FRANCE": [order]},
        }
    )
    (result,) = answer["results"]
    return dict(result)


def test_a_build_off_the_build_sites_is_refused_with_the_rule_set_s_words(register: Register) -> None:
    """The reason names no rule (``not_a_build_site``); the words are the rule set's (standard, default, module)."""
    register(ParisOnly)
    standard = _build([], "A BEL B")
    assert (standard["reason"], standard["message"]) == ("not_a_build_site", "BEL is not a home centre of FRANCE")
    moved = _build(["any_owned_centre"], "A BEL B")
    assert moved["outcome"] == "succeeds"
    paris = _build([ParisOnly.name], "F BRE B")
    assert (paris["reason"], paris["message"]) == ("not_a_build_site", "FRANCE builds in Paris only, not in BRE")
    assert make_rules("standard", ["any_owned_centre"]).build_site_refusal("FRANCE") == (
        "{place} is not a build site of {power}"
    )


def test_an_old_case_reading_not_home_still_holds() -> None:
    """The case format reads the renamed reason under its old name (docs/cases.md)."""
    from arbitre.cases import word_holds

    result = {"outcome": "illegal", "reason": "not_a_build_site"}
    assert word_holds("=illegal:not_home", result, None) and word_holds("=illegal:not_a_build_site", result, None)
    assert not word_holds("=illegal:occupied", result, None)


class FleetsLast(Variant, CivilDisorder):
    """Civil disorder removes fleets last (the armies go first)."""

    name = "fleets_last"

    def removal_order(self, rules: RuleSet, position: Position, power: str, units: Sequence[Unit]) -> Sequence[Unit]:
        return sorted(units, key=lambda u: u.kind == "F")


def test_civil_disorder_removals_come_from_the_rule_set(register: Register) -> None:
    """The adjudicator asks the rule set which units go; a module reorders them."""
    register(FleetsLast)
    position = Position(
        "standard",
        Phase.parse("W1901A"),
        {"PAR": Unit("FRANCE", "A", "PAR"), "BRE": Unit("FRANCE", "F", "BRE"), "GAS": Unit("FRANCE", "A", "GAS")},
        {"PAR": "FRANCE"},
    )
    standard = make_rules("standard").civil_disorder_removals(position, "FRANCE", 2)
    assert [u.place for u in standard] == ["BRE", "GAS"]  # as near: the fleet first
    moved = make_rules("standard", [FleetsLast.name]).civil_disorder_removals(position, "FRANCE", 2)
    assert [u.place for u in moved] == ["GAS", "PAR"]
    answer = process(
        {
            "map": "standard",
            "rules": [FleetsLast.name],
            "phase": "W1901A",
            "units": {"FRANCE": ["A PAR", "F BRE", "A GAS"]},
            "supply_centers": {"FRANCE": ["PAR"]},
            "orders": {},
        }
    )
    assert sorted(r["order"] for r in answer["results"] if r["reason"] == "civil_disorder") == ["A GAS D", "A PAR D"]


def test_a_request_without_units_plays_the_rule_set_s_starting_position(register: Register) -> None:
    """The JSON interface (and so the case format) reaches ``starting_position``: units left out are the rule
    set's start, with its owners unless they are given."""
    register(FleetInVenice, maps=("standard",))
    answer = process({"rules": [FleetInVenice.name], "phase": "S1901M", "orders": {"ITALY": ["F VEN - ADR"]}})
    assert [r["outcome"] for r in answer["results"] if r["order"] == "F VEN - ADR"] == ["succeeds"]
    assert "F ADR" in answer["next"]["units"]["ITALY"] and "BEL" in answer["next"]["supply_centers"]["FRANCE"]
    plain = process({"phase": "S1901M", "supply_centers": {"FRANCE": ["PAR"]}})
    assert "A VEN" in plain["next"]["units"]["ITALY"] and plain["next"]["supply_centers"]["FRANCE"] == ["PAR"]
    with pytest.raises(RequestError) as refused:
        process({"phase": "S1901M", "units": "A PAR"})
    assert refused.value.where == "units"


def test_a_unit_kind_standing_on_provinces_is_built_where_fleets_need_a_coast(register: Register) -> None:
    """A module's unit kind whose table holds St Petersburg itself is built there without a coast, and is listed
    among the builds (``places_for``)."""
    register(Cavalry)
    rules = make_rules("standard", [Cavalry.name])
    assert rules.game_map.places_for("C", "STP") == ("STP",)
    assert rules.game_map.places_for("F", "STP") == ("STP/NC", "STP/SC")
    answer = process(
        {
            "rules": [Cavalry.name],
            "phase": "W1901A",
            "units": {"RUSSIA": []},
            "supply_centers": {"RUSSIA": ["STP", "MOS", "WAR", "SEV"]},
            "orders": {"RUSSIA": ["C STP B", "F SEV B"]},
        }
    )
    assert [r["outcome"] for r in answer["results"]] == ["succeeds", "succeeds"]
    assert sorted(answer["next"]["units"]["RUSSIA"]) == ["C STP", "F SEV"]
    request = {
        "rules": [Cavalry.name],
        "phase": "W1901A",
        "units": {"RUSSIA": []},
        "supply_centers": {"RUSSIA": ["STP"]},
    }
    fleet = process({**request, "orders": {"RUSSIA": ["F STP B"]}})
    assert fleet["results"][0]["reason"] == "build_coast_needed"


def test_a_unit_is_titled_with_its_kind_s_own_words(register: Register) -> None:
    """The drawing names each unit by its kind's declared words, in the reader's language."""
    register(Cavalry)
    make_rules("standard", [Cavalry.name])
    view = View("observer", "standard", "S1901M", (VisibleUnit("FRANCE", "A", "PAR"),), {}, ())
    french = {"army": "armée", "France": "France"}
    assert "<title>France A PAR (army)</title>" in render_svg(view, legend=False)
    assert "<title>France A PAR (armée)</title>" in render_svg(view, legend=False, words=lambda w: french.get(w, w))
    submarine = render_svg(replace(view, units=(VisibleUnit("FRANCE", "SM", "ENG"),)), legend=False)
    assert "<title>France SM ENG (submarine)</title>" in submarine


def test_the_case_format_checks_the_winners_by_the_rule_set(register: Register) -> None:
    """``winners``: the powers whose counting centres reach the rule set's victory target after the phase."""
    from arbitre.cases import run_case

    held = ["BRE", "MAR", "PAR", "SPA", "POR", "LVP", "LON", "EDI", "HOL", "KIE", "BER", "DEN", "NWY", "SWE", "MUN"]

    def case(rules: list[str], winners: list[str]) -> dict[str, object]:
        """France, with fifteen centres, takes Belgium: sixteen."""
        position = {
            "rules": rules,
            "phase": "F1905M",
            "units": {"FRANCE": ["A PIC"]},
            "supply_centers": {"FRANCE": held},
        }
        step = {"step": "adjudicate", "orders": {"FRANCE": ["A PIC - BEL"]}, "expect": {"winners": winners}}
        return {"id": "winners", "position": position, "steps": [step]}

    assert run_case(case([], [])) == []
    assert run_case(case([], ["FRANCE"])) == ["step 1 (adjudicate): winners: expected ['FRANCE'], got []"]
    register(EighteenIsTen)
    assert run_case(case([EighteenIsTen.name], ["FRANCE"])) == []
    assert run_case(case([EighteenIsTen.name], [])) != []
