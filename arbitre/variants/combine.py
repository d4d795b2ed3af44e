"""Combine a map with rule modules and named options into a :class:`~arbitre.rules.RuleSet`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arbitre.maps import load_map
from arbitre.orders import STANDARD_SYNTAX
from arbitre.rules import OPTION_CHOICES, RuleOptions, RuleSet, Variant
from arbitre.rules.facets import MapTransform, OrderRules
from arbitre.rules.kinds import ParserFn
from arbitre.rules.options import PRESET_OPTION
from arbitre.variants.registry import MAP_VARIANTS, MODULES, REGISTRY


class UnknownVariantError(ValueError):
    """Raised for a rule module name that is not registered."""


class InapplicableModuleError(ValueError):
    """Raised for a rule module asked for on a map it does not apply to."""


def make_rules(
    map_name: str = "standard", rules: Iterable[str] = (), options: Mapping[str, object] | None = None
) -> RuleSet:
    """The rule set for a map with rule modules and named options."""
    options = dict(options or {})
    variants: list[Variant] = []
    if map_name in MAP_VARIANTS:
        variants.append(MAP_VARIANTS[map_name](options))
    for name in rules:
        if name not in REGISTRY:
            raise UnknownVariantError(f"unknown rule module {name!r}; known: {', '.join(sorted(REGISTRY)) or 'none'}")
        if not MODULES[name].applies_to(map_name):
            raise InapplicableModuleError(
                f"rule module {name!r} does not apply to the map {map_name!r}; "
                f"it applies to: {', '.join(MODULES[name].maps)}"
            )
        variants.append(REGISTRY[name](options))
    game_map = load_map(map_name)
    syntax = STANDARD_SYNTAX
    for v in variants:
        if not isinstance(v, MapTransform):
            continue
        game_map = v.transform_map(game_map)
        syntax = v.extend_syntax(syntax)
    # Each order kind brings the grammar that reads it (one parser may read several kinds).
    parsers: list[ParserFn] = []
    for v in variants:
        if isinstance(v, OrderRules):
            for kind in v.order_kinds():
                if kind.parser is not None and kind.parser not in parsers:
                    parsers.append(kind.parser)
    if parsers:
        syntax = syntax.extended(parsers=parsers)
    known = {PRESET_OPTION, *OPTION_CHOICES}.union(*(v.option_names for v in variants))
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r}; options here: {', '.join(sorted(known))}")
    return RuleSet(game_map, RuleOptions.from_mapping(options), tuple(variants), syntax, options)
