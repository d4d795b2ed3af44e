"""The list of rule modules: adding a module is one entry here.

Each entry names a rule module, where its factory lives (a dotted path: the
registry imports no module), its title and description (message ids of the
gettext catalogs), the maps it applies to, the options it reads and — for the
rules a map always brings (Colonial's railroad and canal) — the map it comes
with.  Nothing registers itself on import: this list is the only place the
judge learns which modules exist.

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
from arbitre.rules.facets import MapTransform, OrderRules
from arbitre.rules.kinds import STANDARD_KINDS, OrderKind, UnitKind

VariantFactory = Callable[[Mapping[str, object]], Variant]
"""Builds a rule module from the game's options."""


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs; it is translated where it is shown (the edge)."""
    return message


def _attribute(where: str) -> object:
    """The object named ``"package.module:name"``, importing its module."""
    module, _, name = where.partition(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True, slots=True)
class ModuleOption:
    """An option a rule module reads: its name (``--option name=value``) and what it does (a message id)."""

    name: str
    description: str


@dataclass(frozen=True, slots=True)
class RuleModule:
    """One registered rule module: its name, where its factory is, its words, maps and options.

    ``factory_at`` is ``"package.module:function"``; the module is imported on
    first use.  ``title`` and ``description`` are message ids (English words,
    translated at the edge through the catalogs).  ``maps`` lists the maps it
    applies to (empty: any map); a game asking for it on another map is
    refused.  ``options`` are the options it reads.  A module with ``for_map``
    is brought by that map and is not chosen with ``rules=[...]``.
    ``messages_at`` names the tuple of message ids of the refusals its order
    checks write, so that the edge can translate them
    (:mod:`arbitre.server.engine_words`).
    """

    name: str
    factory_at: str
    title: str = ""
    description: str = ""
    maps: tuple[str, ...] = ()
    options: tuple[ModuleOption, ...] = ()
    for_map: str | None = None
    messages_at: str | None = None

    def applies_to(self, map_name: str) -> bool:
        """May a game on ``map_name`` use this module?"""
        return not self.maps or map_name in self.maps

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
    RuleModule(
        "colonial",
        "arbitre.variants.colonial:make_colonial",
        N_("Colonial rules"),
        N_(
            "The Trans-Siberian Railroad carries one Russian army a turn, whoever holds Egypt lets fleets"
            " through the Suez Canal, and Hong Kong gives China no credit."
        ),
        maps=("colonial",),
        options=(
            ModuleOption("colonial", N_("The rule set: vdiplomacy (the default) or avalon-hill.")),
            ModuleOption("colonial_line_centers", N_("on or off: the line-centre exception of vdiplomacy.")),
        ),
        for_map="colonial",
    ),
    RuleModule(
        "submarines",
        "arbitre.variants.submarines:make_submarines",
        N_("Submarines"),
        N_("Submarines sail hidden under the seas and fire torpedoes; the judge tells each power only what it sees."),
        options=(
            ModuleOption(
                "start_submarines", N_("Starting fleets that begin as submarines, e.g. FRANCE:BRE,ENGLAND:LON.")
            ),
        ),
        messages_at="arbitre.variants.submarines.words:ORDER_MESSAGES",
    ),
    RuleModule(
        "espionnite",
        "arbitre.variants.espionnite:make_espionnite",
        N_("Espionnite"),
        N_("Spies read a foreign unit's orders when they lock; each power may then change one order."),
        options=(
            ModuleOption(
                "espionnite_catch_notice", N_("true or false: a counter-spy's power is told that it caught a spy.")
            ),
        ),
        messages_at="arbitre.variants.espionnite.wording:ORDER_MESSAGES",
    ),
    RuleModule(
        "no_convoys",
        "arbitre.variants.no_convoys:make_no_convoys",
        N_("No convoys"),
        N_("Convoy orders are not allowed."),
    ),
    RuleModule(
        "any_owned_centre",
        "arbitre.variants.any_owned_centre:make_any_owned_centre",
        N_("Build in any owned centre"),
        N_("A power may build in any supply centre it owns, not only in its home centres."),
    ),
    RuleModule(
        "capture_builds",
        "arbitre.variants.capture_builds:make_capture_builds",
        N_("Capture builds"),
        N_("A power may build in any home centre it owns, another power's as well as its own."),
    ),
    RuleModule(
        "italian_fleet",
        "arbitre.variants.italian_fleet:make_italian_fleet",
        N_("Italian fleet"),
        N_("Italy starts with a fleet in Venice instead of an army, and owns Tunis from the start."),
        maps=("standard",),
    ),
    RuleModule(
        "even_years",
        "arbitre.variants.even_years:make_even_years",
        N_("Even years"),
        N_("Builds and disbands are made only in the winters of even years; centres change hands every autumn."),
    ),
    RuleModule(
        "fifteen_centres",
        "arbitre.variants.fifteen_centres:make_fifteen_centres",
        N_("Fifteen centres"),
        N_("A shorter game: fifteen supply centres win."),
    ),
    RuleModule(
        "wings",
        "arbitre.variants.wings:make_wings",
        N_("Wings"),
        N_("A new unit, the wing (W): it moves like an army and may also fly across one sea province."),
    ),
    RuleModule(
        "declarations",
        "arbitre.variants.declarations:make_declarations",
        N_("Declarations"),
        N_(
            "Before the moves, each power may publicly declare one province it means to enter (DECLARE BUR);"
            " everyone reads the declarations, then gives its orders again."
        ),
        messages_at="arbitre.variants.declarations.kinds:ORDER_MESSAGES",
    ),
)
"""Every rule module the judge knows, in the order they are listed to users."""

MODULES: dict[str, RuleModule] = {m.name: m for m in RULE_MODULES}
"""Rule module name → its entry."""

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


@cache
def registered_unit_kinds() -> dict[str, UnitKind]:
    """Every unit kind the registered modules declare, by letter (the standard ones are the rule set's)."""
    kinds: dict[str, UnitKind] = {}
    for module in RULE_MODULES:
        variant = module.build({})
        if isinstance(variant, MapTransform):
            kinds.update((kind.letter, kind) for kind in variant.unit_kinds())
    return kinds
