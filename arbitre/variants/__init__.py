"""Rule modules found by name, and :func:`make_rules` to combine a map with them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from arbitre.maps import load_map
from arbitre.orders import STANDARD_SYNTAX
from arbitre.rules import OPTION_CHOICES, RuleOptions, RuleSet, Variant
from arbitre.rules.options import PRESET_OPTION

REGISTRY: dict[str, Callable[[Mapping[str, object]], Variant]] = {}
"""Variant name → factory taking the game's options."""

MAP_VARIANTS: dict[str, Callable[[Mapping[str, object]], Variant]] = {}
"""Map name → factory of the rule module that a map always brings (Colonial's special rules)."""


class UnknownVariantError(ValueError):
    """Raised for a rule module name that is not registered."""


def register(name: str, factory: Callable[[Mapping[str, object]], Variant], *, for_map: bool = False) -> None:
    """Register a rule module under ``name`` (or as the rules a map brings, with ``for_map``)."""
    (MAP_VARIANTS if for_map else REGISTRY)[name] = factory


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


__all__ = ["MAP_VARIANTS", "REGISTRY", "UnknownVariantError", "make_rules", "register"]

# Built-in rule modules register themselves on import (after ``register`` exists).
from arbitre.variants import colonial as _colonial  # noqa: E402, F401
from arbitre.variants import espionnite as _espionnite  # noqa: E402, F401
from arbitre.variants import submarines as _submarines  # noqa: E402, F401
