"""The explicit rule-module registry, and the enums that keep JSON byte-identical."""

from __future__ import annotations

import json

import pytest

from arbitre.maps import ARMY, FLEET, UnitKind
from arbitre.rules import OPTION_CHOICES, ConvoyParadox, RuleOptions
from arbitre.state import MOVEMENT, Phase, PhaseKind, Season
from arbitre.variants import MAP_VARIANTS, REGISTRY, RULE_MODULES, UnknownVariantError, make_rules


def test_registry_is_the_list() -> None:
    names = [m.name for m in RULE_MODULES]
    assert len(names) == len(set(names))
    assert set(REGISTRY) | {m.name for m in RULE_MODULES if m.for_map} == set(names)
    assert MAP_VARIANTS.keys() == {m.for_map for m in RULE_MODULES if m.for_map}
    for module in RULE_MODULES:
        rules = make_rules(module.for_map or "standard", () if module.for_map else [module.name])
        assert module.name in rules.variant_names


def test_unknown_rule_module_is_refused() -> None:
    with pytest.raises(UnknownVariantError, match="known: "):
        make_rules("standard", ["no_such_module"])


def test_phase_kinds_are_enums_and_print_as_letters() -> None:
    phase = Phase.parse("F1901R")
    assert phase.kind is PhaseKind.RETREATS and phase.season is Season.FALL
    assert str(phase) == "F1901R"
    assert Phase(1901, "S", "M") == Phase.parse("S1901M")  # plain letters become members
    assert Phase(1901, "S", "M").kind is MOVEMENT
    assert json.dumps({"kind": phase.kind, "season": phase.season}) == '{"kind": "R", "season": "F"}'


def test_unit_kinds_are_their_letters() -> None:
    assert ARMY is UnitKind.ARMY and ARMY == "A" and FLEET == "F"
    assert json.dumps([ARMY, FLEET]) == '["A", "F"]'


def test_option_values_are_enums_with_the_same_text() -> None:
    options = RuleOptions.from_mapping({"convoy_paradox": "all_hold"})
    assert options.convoy_paradox is ConvoyParadox.ALL_HOLD
    assert options.convoy_paradox == "all_hold"
    assert OPTION_CHOICES["convoy_paradox"] == ("szykman", "all_hold", "1982", "dptg")
    assert json.dumps(options.convoy_paradox) == '"all_hold"'
    with pytest.raises(ValueError, match="must be one of"):
        RuleOptions.from_mapping({"convoy_paradox": "maybe"})
