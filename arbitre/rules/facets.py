"""The facets a rule module may implement: small typed interfaces (base classes), each asked by one layer.

A rule module (:class:`~arbitre.rules.Variant`) is a name plus the facets it
implements; it declares them by subclassing them, and every method of a
facet has the standard rules as its default, so a module overrides only
what it changes.  A :class:`~arbitre.rules.RuleSet` lists once which of its
modules implement each facet (:meth:`~arbitre.rules.RuleSet.implementing`):
a module that implements no facet costs nothing where that facet is asked.

Facets of the rules layer (here):

* :class:`MapTransform` — change the map and the order grammar (asked by ``make_rules``);
* :class:`OrderRules` — the module's order kinds, their legality and legal-order lists;
* :class:`Disclosure` — what each viewer may know (asked through :mod:`arbitre.rules.disclosure`);
* :class:`EventWords` — the words of the module's events, by kind (asked at the edge only);
* :class:`Victory` — which centres count towards builds and victory;
* :class:`Builds` — where a power may build;
* :class:`Setup` — the starting position and the first owners of the centres;
* :class:`PhaseNeeds` — whether a retreat or an adjustment phase is played;
* :class:`CivilDisorder` — which units are removed when a power gives too few disbands;
* :class:`StepRules` — the steps of a phase, as data (:mod:`arbitre.rules.phase_steps`), and what a lock reveals.

The engine never asks a facet itself: it asks the one method of the
:class:`~arbitre.rules.RuleSet` for each rule point (``build_sites``,
``starting_position``, ``initial_owners``, ``needs_retreats``,
``needs_adjustments``, ``civil_disorder_removals``, ``build_center_counts``, ``victory_centers``,
``unit_kinds``, ``phase_steps``…), and that method asks the facet.

Facets of the adjudicator layer: :class:`arbitre.adjudicator.facets.MovementRules`
and :class:`arbitre.adjudicator.facets.PhaseRules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from arbitre.maps import GameMap
from arbitre.orders import IllegalOrder, Order, OrderSyntax
from arbitre.rules.events import EVERYONE, Audience, Wording
from arbitre.rules.kinds import OrderKind, UnitKind
from arbitre.rules.phase_steps import Step

if TYPE_CHECKING:
    from arbitre.rules.ruleset import RuleSet
    from arbitre.rules.steps import ResultLike
    from arbitre.state import Dislodged, Position, Unit


NOT_A_BUILD_SITE_WORDS = "{place} is not a build site of {power}"
"""The general words refusing a build outside the build sites a module chose."""


class MapTransform:
    """Change the board and the order grammar once, when the rule set is made."""

    def transform_map(self, game_map: GameMap) -> GameMap:
        """Change the map (add places, unit kinds, passages).  Default: unchanged."""
        return game_map

    def extend_syntax(self, syntax: OrderSyntax) -> OrderSyntax:
        """Add unit words or order parsers.  Default: unchanged."""
        return syntax

    def unit_kinds(self) -> Sequence[UnitKind]:
        """The unit kinds this module adds to the map (each declares its letter, words and drawing).

        Their movement tables are the map's (``transform_map`` adds them).  Default: none.
        """
        return ()


class OrderRules:
    """The module's order kinds (:class:`~arbitre.orders.kinds.OrderKind`), their legality and lists."""

    def order_kinds(self) -> Sequence[OrderKind]:
        """The order kinds this module adds (each declares its name, drawing and wording).  Default: none."""
        return ()

    def withdrawn_kinds(self) -> frozenset[str]:
        """Names of order kinds this module takes out of the game (``convoy``): refused and never listed.

        Default: none.
        """
        return frozenset()

    def check_order(self, rules: RuleSet, position: Position, power: str, order: Order) -> Order | None:
        """Validate an order this module owns (its normal form), or return ``None`` to let others decide."""
        return None

    def check_order_list(
        self, rules: RuleSet, position: Position, power: str, orders: Sequence[Order]
    ) -> Sequence[tuple[Order, IllegalOrder]]:
        """Problems of ``power``'s legal orders taken together (two spy orders).  Default: none."""
        return ()

    def extra_legal_orders(self, rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
        """More legal orders of ``power`` for the order picker (train moves…).  Default: none."""
        return {}


class Disclosure:
    """What each viewer may know.  :mod:`arbitre.rules.disclosure` combines every module's answer."""

    def hides_province(self, rules: RuleSet, position: Position, province: str, viewer: str) -> bool:
        """May ``province`` hold a unit that ``viewer`` cannot see (a submerged submarine)?  Default: no."""
        return False

    def known_position(self, rules: RuleSet, position: Position, power: str) -> Position:
        """The position as ``power`` knows it: orders are validated on it.  Default: everything."""
        return position

    def unit_audience(self, rules: RuleSet, position: Position, unit: Unit) -> Audience:
        """Who sees ``unit`` on the board.  Default: everyone."""
        return EVERYONE

    def order_audience(
        self, rules: RuleSet, before: Position, after: Position, result: ResultLike
    ) -> tuple[Audience, Audience]:
        """Who reads an adjudicated order, and who reads its outcome.  Default: everyone, both."""
        return EVERYONE, EVERYONE

    def contacts(self, rules: RuleSet, position: Position, viewer: str) -> Sequence[tuple[str, str]]:
        """Units ``viewer`` knows of without their nationality, as (kind, place).  Default: none."""
        return ()

    def dislodged_view(
        self, rules: RuleSet, position: Position, dislodged: Dislodged, viewer: str
    ) -> tuple[str | None, tuple[str, ...] | None] | None:
        """(attacker_from, retreats) of a dislodged unit as ``viewer`` knows them, or ``None``: as they are."""
        return None

    def visible_extras(self, rules: RuleSet, position: Position, viewer: str) -> Mapping[str, object]:
        """The part of this module's state a player or observer may read.  Default: none of it."""
        return {}

    def place_is_public(self, rules: RuleSet, place: str) -> bool:
        """Can everyone see what stands on ``place`` (and a standoff there)?  Default: yes."""
        return True


class EventWords:
    """The words of the module's events (part of what it discloses), asked only at the edge.

    Kept apart from :class:`Disclosure` so that a module whose events need
    words but which hides nothing (a module's private reports) is never asked about
    visibility.
    """

    def event_wordings(self) -> Mapping[str, Wording]:
        """The wording of each event kind this module makes, by kind (:mod:`arbitre.words.events`).  Default: none."""
        return {}


class Victory:
    """Which owned centres count."""

    def counts_for_builds(self, power: str, center: str, position: Position) -> bool:
        """Does owning ``center`` count towards ``power``'s builds?  Default: yes."""
        return True

    def counts_for_victory(self, power: str, center: str, position: Position) -> bool:
        """Does owning ``center`` count towards ``power``'s victory?  Default: yes."""
        return True

    def victory_target(self, rules: RuleSet, target: int) -> int:
        """How many counting centres win the game, given ``target`` (the map's, or the previous module's
        answer).  Default: ``target``."""
        return target


class Builds:
    """Where a power may build."""

    def build_sites(self, rules: RuleSet, power: str, position: Position, sites: tuple[str, ...]) -> tuple[str, ...]:
        """The provinces where ``power`` may build, given ``sites`` (the home centres, or the previous module's
        answer); a site must still be owned and empty.  Default: ``sites``."""
        return sites

    def build_site_refusal(self, rules: RuleSet, power: str, words: str) -> str:
        """The words refusing a build outside :meth:`build_sites` (a message id with ``{place}`` and
        ``{power}`` fields, listed in the module's ``messages``), given ``words`` (the standard rule's, or the
        previous module's).  Default: the general :data:`NOT_A_BUILD_SITE_WORDS`, since a module that
        changes the sites makes "not a home centre" untrue."""
        return NOT_A_BUILD_SITE_WORDS


class Setup:
    """The starting position of a game."""

    def initial_owners(self, rules: RuleSet, owners: Mapping[str, str]) -> Mapping[str, str]:
        """Centre → owner at the start (and of a position given without owners), given ``owners`` (the
        home centres, or the previous module's answer).  Default: ``owners``."""
        return owners

    def starting_position(self, rules: RuleSet, position: Position) -> Position:
        """The position a new game starts from, given ``position`` (the map's start units and
        :meth:`initial_owners`, or the previous module's answer).  Default: ``position``."""
        return position


class PhaseNeeds:
    """Whether a retreat or an adjustment phase is played."""

    def needs_retreats(self, rules: RuleSet, position: Position, needed: bool) -> bool:
        """Must a retreat phase follow the movement phase of ``position``?  ``needed``: whether a unit was
        dislodged (or the previous module's answer).  Default: ``needed``."""
        return needed

    def needs_adjustments(self, rules: RuleSet, position: Position, needed: bool) -> bool:
        """Is the winter adjustment phase of ``position`` played?  ``needed``: the standard answer (a
        disband owed, or a build owed with a free build site) or the previous module's.  Default: ``needed``."""
        return needed


class CivilDisorder:
    """Which units are removed when a power gives too few disbands (civil disorder)."""

    def removal_order(self, rules: RuleSet, position: Position, power: str, units: Sequence[Unit]) -> Sequence[Unit]:
        """``power``'s units that may be removed, in the order they are removed, given ``units`` (the standard
        order, DATC 4.D.8, or the previous module's answer); the first ones owed are removed.
        Default: ``units``."""
        return units


class StepRules:
    """The steps of a phase, declared as data, and what a lock reveals (asked by :mod:`arbitre.judge.steps`)."""

    declared_steps: tuple[Step, ...] = ()
    """Every step after ``orders`` this module may add to a phase (deadlines are set per step name)."""

    def phase_steps(self, rules: RuleSet, position: Position) -> Sequence[Step]:
        """The steps of this phase, in order (:mod:`arbitre.rules.phase_steps`); ``()``: one ``orders`` step."""
        return ()

    def is_lock_order(self, rules: RuleSet, text: str) -> bool:
        """Is ``text`` an order read only when the orders lock, never adjudicated nor published?  Default: no."""
        return False

    def on_lock(
        self, rules: RuleSet, position: Position, orders: Mapping[str, Sequence[str | Order]]
    ) -> Sequence[object]:
        """Events produced when the orders of a phase lock (each names its audience).  Default: none."""
        return ()
