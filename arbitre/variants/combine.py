"""Combine a map with rule modules and named options into a :class:`~arbitre.rules.RuleSet`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arbitre.maps import load_map
from arbitre.orders import STANDARD_SYNTAX
from arbitre.rules import OPTION_CHOICES, RuleOptions, RuleSet, Variant
from arbitre.rules.options import PRESET_OPTION
from arbitre.variants.registry import MAP_VARIANTS, REGISTRY


class UnknownVariantError(ValueError):
    """Raised for a rule module name that is not registered."""


def make_rules(map_name: str = "standard", rules: Iterable[str] = (),
               options: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set for a map with rule modules and named options."""
    options = dict(options or {})
    variants: list[Variant] = []
    if map_name in MAP_VARIANTS:
        variants.append(MAP_VARIANTS[map_name](options))
    for name in rules:
        if name not in REGISTRY:
            raise UnknownVariantError(f"unknown rule module {name!r}; known: {', '.join(sorted(REGISTRY)) or 'none'}")
        variants.append(REGISTRY[name](options))
    game_map = load_map(map_name)
    syntax = STANDARD_SYNTAX
    for v in variants:
        game_map = v.transform_map(game_map)
        syntax = v.extend_syntax(syntax)
    known = {PRESET_OPTION, *OPTION_CHOICES}.union(*(v.option_names for v in variants))
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r}; options here: {', '.join(sorted(known))}")
    return RuleSet(game_map, RuleOptions.from_mapping(options), tuple(variants), syntax, options)
