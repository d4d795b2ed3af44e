"""The list of rule modules: adding a module is one line here.

Each entry names a rule module, the factory that builds it from the game's
options, and — for the rules a map always brings (Colonial's railroad and
canal) — the map it comes with.  Nothing registers itself on import: this
list is the only place the judge learns which modules exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module

from arbitre.rules import Variant

VariantFactory = Callable[[Mapping[str, object]], Variant]
"""Builds a rule module from the game's options."""


class _Lazy:
    """A factory imported the first time it is called: a rule module's code loads only in games that use it
    (the JSON contract starts faster)."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self.factory: VariantFactory | None = None

    def __call__(self, options: Mapping[str, object]) -> Variant:
        if self.factory is None:
            self.factory = getattr(import_module(self.module), self.name)
        return self.factory(options)

    def __repr__(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass(frozen=True, slots=True)
class RuleModule:
    """One registered rule module: its name, its factory, and the map it comes with (if any).

    A module with ``for_map`` is brought by that map and is not chosen with
    ``rules=[...]``; the others combine with any map.
    """

    name: str
    factory: VariantFactory
    for_map: str | None = None


RULE_MODULES: tuple[RuleModule, ...] = (
    RuleModule("colonial", _Lazy("arbitre.variants.colonial", "make_colonial"), for_map="colonial"),
    RuleModule("submarines", _Lazy("arbitre.variants.submarines", "make_submarines")),
    RuleModule("espionnite", _Lazy("arbitre.variants.espionnite", "make_espionnite")),
    RuleModule("no_convoys", _Lazy("arbitre.variants.no_convoys", "make_no_convoys")),
)
"""Every rule module the judge knows, in the order they are listed to users."""

REGISTRY: dict[str, VariantFactory] = {m.name: m.factory for m in RULE_MODULES if m.for_map is None}
"""Rule module name → factory, for the modules chosen per game (``--rules``)."""

MAP_VARIANTS: dict[str, VariantFactory] = {m.for_map: m.factory for m in RULE_MODULES if m.for_map is not None}
"""Map name → factory of the rule module that map always brings."""
