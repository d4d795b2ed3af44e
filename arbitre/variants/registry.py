"""The list of rule modules: adding a module is one line here.

Each entry names a rule module, where its factory lives, and — for the rules a
map always brings (Colonial's railroad and canal) — the map it comes with.
Nothing registers itself on import: this list is the only place the judge
learns which modules exist.

The entries are data: a module is imported the first time a game asks for it
(its factory is called, or the edge reads its ``messages``), so a program that
adjudicates the standard rules never loads Colonial's or Submarines' code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import cast

from arbitre.rules import Variant
from arbitre.rules.facets import OrderRules
from arbitre.rules.kinds import STANDARD_KINDS, OrderKind

VariantFactory = Callable[[Mapping[str, object]], Variant]
"""Builds a rule module from the game's options."""


def _attribute(where: str) -> object:
    """The object named ``"package.module:name"``, importing its module."""
    module, _, name = where.partition(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True, slots=True)
class RuleModule:
    """One registered rule module: its name, where its factory is, and the map it comes with (if any).

    ``factory_at`` is ``"package.module:function"``; the module is imported on
    first use.  A module with ``for_map`` is brought by that map and is not
    chosen with ``rules=[...]``; the others combine with any map.
    ``messages_at`` names the tuple of message ids of the refusals its order
    checks write, so that the edge can translate them
    (:mod:`arbitre.server.engine_words`).
    """

    name: str
    factory_at: str
    for_map: str | None = None
    messages_at: str | None = None

    @property
    def factory(self) -> VariantFactory:
        """The function that builds the module from the game's options (imports the module)."""
        return cast("VariantFactory", _attribute(self.factory_at))

    @property
    def messages(self) -> tuple[str, ...]:
        """The message ids of the refusals its order checks write (imports the module if it has any)."""
        if self.messages_at is None:
            return ()
        return cast("tuple[str, ...]", _attribute(self.messages_at))

    def build(self, options: Mapping[str, object]) -> Variant:
        """The rule module for these options (a :data:`VariantFactory`; imports the module on first use)."""
        return self.factory(options)


RULE_MODULES: tuple[RuleModule, ...] = (
    RuleModule("colonial", "arbitre.variants.colonial:make_colonial", for_map="colonial"),
    RuleModule(
        "submarines",
        "arbitre.variants.submarines:make_submarines",
        messages_at="arbitre.variants.submarines.words:ORDER_MESSAGES",
    ),
    RuleModule(
        "espionnite",
        "arbitre.variants.espionnite:make_espionnite",
        messages_at="arbitre.variants.espionnite.wording:ORDER_MESSAGES",
    ),
    RuleModule("no_convoys", "arbitre.variants.no_convoys:make_no_convoys"),
)
"""Every rule module the judge knows, in the order they are listed to users."""

REGISTRY: dict[str, VariantFactory] = {m.name: m.build for m in RULE_MODULES if m.for_map is None}
"""Rule module name → factory, for the modules chosen per game (``--rules``)."""

MAP_VARIANTS: dict[str, VariantFactory] = {m.for_map: m.build for m in RULE_MODULES if m.for_map is not None}
"""Map name → factory of the rule module that map always brings."""


@cache
def registered_order_kinds() -> dict[str, OrderKind]:
    """Every order kind of the standard rules and of every registered module, by its stable name.

    For the edge (words, pictures) that reads an order's ``kind`` from a view
    and needs the kind's declaration without the game's rule set.
    """
    kinds = {kind.name: kind for kind in STANDARD_KINDS}
    for module in RULE_MODULES:
        variant = module.build({})
        if isinstance(variant, OrderRules):
            kinds.update((kind.name, kind) for kind in variant.order_kinds())
    return kinds
