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
from arbitre.render.svg import UNKNOWN_UNIT, render_svg
from arbitre.rules import RuleSet, Variant
from arbitre.rules.drawing import UnitShape
from arbitre.rules.facets import MapTransform, PhaseNeeds, Setup, StepRules, Victory
from arbitre.rules.kinds import UnitKind
from arbitre.rules.phase_steps import ORDERS, Accepts, AtEnd, Step
from arbitre.state import Position, Unit
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
