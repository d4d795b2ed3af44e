"""Rule modules are split into typed facets; each layer asks only the modules implementing its facet."""

from __future__ import annotations

from arbitre.adjudicator import MovementExtension, MovementRules, PhaseRules
from arbitre.rules.facets import Disclosure, MapTransform, OrderRules, StepRules, Victory
from arbitre.variants import make_rules


def test_standard_rules_implement_no_facet() -> None:
    rules = make_rules("standard")
    for facet in (MapTransform, OrderRules, Disclosure, Victory, StepRules, MovementRules, PhaseRules):
        assert rules.implementing(facet) == ()


def test_each_module_is_asked_only_for_the_facets_it_implements() -> None:
    rules = make_rules("standard", ["espionnite"])
    assert [v.name for v in rules.implementing(StepRules)] == ["espionnite"]
    assert rules.implementing(Disclosure) == () and rules.implementing(MovementRules) == ()
    subs = make_rules("standard", ["submarines", "espionnite"])
    assert [v.name for v in subs.implementing(Disclosure)] == ["submarines"]
    assert [v.name for v in subs.implementing(OrderRules)] == ["submarines", "espionnite"]
    colonial = make_rules("colonial")
    assert [v.name for v in colonial.implementing(Victory)] == ["colonial"]
    assert colonial.implementing(PhaseRules) == ()


def test_movement_extensions_are_typed() -> None:
    from arbitre.adjudicator.facets import movement_extensions
    from arbitre.judge import Game

    game = Game.new("colonial")
    rules = game.rules
    orders = {prov: rules.parse(f"{u.kind} {u.place} H") for prov, u in game.position.units.items()}
    extensions = movement_extensions(rules, game.position, orders, ())
    assert all(isinstance(e, MovementExtension) for e in extensions)
