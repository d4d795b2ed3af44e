"""The list of rule modules: adding a module is one line here.

Each entry names a rule module, the factory that builds it from the game's
options, and — for the rules a map always brings (Colonial's railroad and
canal) — the map it comes with.  Nothing registers itself on import: this
list is the only place the judge learns which modules exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from arbitre.rules import Variant
from arbitre.rules.facets import OrderRules
from arbitre.rules.kinds import STANDARD_KINDS, OrderKind
from arbitre.variants.colonial import make_colonial
from arbitre.variants.espionnite import ORDER_MESSAGES as ESPIONNITE_MESSAGES
from arbitre.variants.espionnite import make_espionnite
from arbitre.variants.no_convoys import make_no_convoys
from arbitre.variants.submarines import ORDER_MESSAGES as SUBMARINES_MESSAGES
from arbitre.variants.submarines import make_submarines

VariantFactory = Callable[[Mapping[str, object]], Variant]
"""Builds a rule module from the game's options."""


@dataclass(frozen=True, slots=True)
class RuleModule:
    """One registered rule module: its name, its factory, and the map it comes with (if any).

    A module with ``for_map`` is brought by that map and is not chosen with
    ``rules=[...]``; the others combine with any map.  ``messages`` are the
    message ids of the refusals its order checks write, so that the edge can
    translate them (:mod:`arbitre.server.engine_words`).
    """

    name: str
    factory: VariantFactory
    for_map: str | None = None
    messages: tuple[str, ...] = ()


RULE_MODULES: tuple[RuleModule, ...] = (
    RuleModule("colonial", make_colonial, for_map="colonial"),
    RuleModule("submarines", make_submarines, messages=SUBMARINES_MESSAGES),
    RuleModule("espionnite", make_espionnite, messages=ESPIONNITE_MESSAGES),
    RuleModule("no_convoys", make_no_convoys),
)
"""Every rule module the judge knows, in the order they are listed to users."""

REGISTRY: dict[str, VariantFactory] = {m.name: m.factory for m in RULE_MODULES if m.for_map is None}
"""Rule module name → factory, for the modules chosen per game (``--rules``)."""

MAP_VARIANTS: dict[str, VariantFactory] = {m.for_map: m.factory for m in RULE_MODULES if m.for_map is not None}
"""Map name → factory of the rule module that map always brings."""


@cache
def registered_order_kinds() -> dict[str, OrderKind]:
    """Every order kind of the standard rules and of every registered module, by its stable name.

    For the edge (words, pictures) that reads an order's ``kind`` from a view
    and needs the kind's declaration without the game's rule set.
    """
    kinds = {kind.name: kind for kind in STANDARD_KINDS}
    for module in RULE_MODULES:
        variant = module.factory({})
        if isinstance(variant, OrderRules):
            kinds.update((kind.name, kind) for kind in variant.order_kinds())
    return kinds
