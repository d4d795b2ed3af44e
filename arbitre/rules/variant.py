"""The variant protocol: named hooks a rule module may override.

A variant is a value, not a subclass of the board.  The :class:`RuleSet` of a
game carries the map, the options and an ordered list of variants; each hook
is asked in turn.  The default implementations here are the standard rules,
so a variant overrides only what it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from arbitre.maps import GameMap
from arbitre.orders import IllegalOrder, Order, OrderSyntax
from arbitre.rules.events import EVERYONE, Audience, Wording
from arbitre.rules.phase_steps import Step

if TYPE_CHECKING:
    from arbitre.rules.ruleset import RuleSet
    from arbitre.rules.steps import MovementStep, PhaseStep, ResultLike
    from arbitre.state import Dislodged, Position, Unit


class Variant:
    """Base class of rule modules (each in its own folder under ``arbitre/variants``)."""

    name: str = "standard"
    option_names: frozenset[str] = frozenset()
    """Names of the game options this rule module reads (others are refused as unknown)."""

    def transform_map(self, game_map: GameMap) -> GameMap:
        """Change the map (add places, unit kinds, passages).  Default: unchanged."""
        return game_map

    def extend_syntax(self, syntax: OrderSyntax) -> OrderSyntax:
        """Add unit words or order parsers.  Default: unchanged."""
        return syntax

    def check_order(self, rules: RuleSet, position: Position, power: str, order: Order) -> Order | None:
        """Validate an order this variant owns, or return ``None`` to let others decide."""
        return None

    def movement_adjudicators(self) -> Mapping[type, Callable[..., bool]]:
        """Adjudicators for the variant's own order types in the movement resolver."""
        return {}

    def movement_extensions(self, rules: RuleSet, position: Position, orders: Mapping[str, Order],
                            whole_orders: Sequence[tuple[str, str, Order]]) -> Sequence[object]:
        """Hooks into the resolution of one movement phase (Colonial's railroad and canal).  Default: none.

        ``orders`` holds the legal order of every unit by province (a hold when
        none was given); ``whole_orders`` the accepted orders that name no unit,
        as (power, text, order).  Return ``arbitre.adjudicator.extension.MovementExtension``
        objects (typed loosely: the rules layer does not import the adjudicator).
        """
        return ()

    def counts_for_builds(self, power: str, center: str, position: Position) -> bool:
        """Does owning ``center`` count towards ``power``'s builds?  Default: yes."""
        return True

    def counts_for_victory(self, power: str, center: str, position: Position) -> bool:
        """Does owning ``center`` count towards ``power``'s victory?  Default: yes."""
        return True

    def extra_legal_orders(self, rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
        """More legal orders of ``power`` for the order picker (train moves…).  Default: none."""
        return {}

    def initial_extras(self, rules: RuleSet, settings: Mapping[str, Any]) -> Mapping[str, object]:
        """Variant state to put in a new game's first position.  Default: none."""
        return {}

    # --- hidden information
    def hides_province(self, rules: RuleSet, position: Position, province: str, viewer: str) -> bool:
        """May ``province`` hold a unit that ``viewer`` cannot see (a submerged submarine)?  Default: no.

        Order validation judges an order naming such a place from what the viewer sees.
        """
        return False

    def check_order_list(self, rules: RuleSet, position: Position, power: str,
                         orders: Sequence[Order]) -> Sequence[tuple[Order, IllegalOrder]]:
        """Problems of ``power``'s legal orders taken together (two orders where one is allowed).  Default: none."""
        return ()

    # --- the steps facet (arbitre.rules.phase_steps.StepRules)
    declared_steps: tuple[Step, ...] = ()
    """Every step after ``orders`` this rule module may add to a phase (deadlines are set per step name)."""

    def phase_steps(self, rules: RuleSet, position: Position) -> Sequence[Step]:
        """The steps of this phase, in order; ``()`` leaves them to others (one ``orders`` step).  Default: ``()``."""
        return ()

    def is_lock_order(self, rules: RuleSet, text: str) -> bool:
        """Is ``text`` an order read only when the orders lock, never adjudicated nor published?

        The judge takes such orders out before adjudicating.  Default: no.
        """
        return False

    def on_lock(self, rules: RuleSet, position: Position,
                orders: Mapping[str, Sequence[str | Order]]) -> Sequence[object]:
        """Events produced when the orders of a phase lock (each names its audience).  Default: none."""
        return ()

    # --- after the resolver (Submarines' torpedoes and disclosures); see arbitre.rules.steps
    def after_movement(self, rules: RuleSet, step: MovementStep) -> MovementStep:
        """Amend a movement phase once the ordinary moves are resolved.  Default: unchanged."""
        return step

    def after_phase(self, rules: RuleSet, step: PhaseStep) -> PhaseStep:
        """Amend any adjudicated phase (events, variant state of the next position).  Default: unchanged."""
        return step

    def holds_retreat_phase(self, rules: RuleSet, position: Position) -> bool:
        """Must a retreat phase follow this movement phase even with nothing dislodged?  Default: no."""
        return False

    # --- what each viewer may know (arbitre.rules.disclosure asks every variant)
    def known_position(self, rules: RuleSet, position: Position, power: str) -> Position:
        """The position as ``power`` knows it: orders are validated on it.  Default: everything."""
        return position

    def unit_audience(self, rules: RuleSet, position: Position, unit: Unit) -> Audience:
        """Who sees ``unit`` on the board.  Default: everyone."""
        return EVERYONE

    def order_audience(self, rules: RuleSet, before: Position, after: Position,
                       result: ResultLike) -> tuple[Audience, Audience]:
        """Who reads an adjudicated order, and who reads its outcome.  Default: everyone, both."""
        return EVERYONE, EVERYONE

    def contacts(self, rules: RuleSet, position: Position, viewer: str) -> Sequence[tuple[str, str]]:
        """Units ``viewer`` knows of without their nationality, as (kind, place).  Default: none."""
        return ()

    def dislodged_view(self, rules: RuleSet, position: Position, dislodged: Dislodged,
                       viewer: str) -> tuple[str | None, tuple[str, ...] | None] | None:
        """(attacker_from, retreats) of a dislodged unit as ``viewer`` knows them, or ``None``: as they are."""
        return None

    def visible_extras(self, rules: RuleSet, position: Position, viewer: str) -> Mapping[str, object]:
        """The part of this variant's state a player or observer may read.  Default: none of it."""
        return {}

    def event_wordings(self) -> Mapping[str, Wording]:
        """The words of each event kind this rule module makes, by kind (used at the edge).  Default: none."""
        return {}

    def place_is_public(self, rules: RuleSet, place: str) -> bool:
        """Can everyone see what stands on ``place`` (and a standoff there)?  Default: yes."""
        return True
