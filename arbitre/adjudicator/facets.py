"""The adjudicator's facets of a rule module: its part in resolving a phase.

Like the rules layer's facets (:mod:`arbitre.rules.facets`) these are small
typed protocols with the standard rules as defaults; a rule module subclasses
those it implements, and :func:`~arbitre.adjudicator.adjudicate` asks only the
modules of the rule set that do (:meth:`~arbitre.rules.RuleSet.implementing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from arbitre.adjudicator.extension import MovementExtension, OrderAdjudicator, ResolverView
from arbitre.orders import Order
from arbitre.rules.kinds import Role
from arbitre.rules.steps import MovementStep, PhaseStep

if TYPE_CHECKING:
    from arbitre.rules import RuleSet
    from arbitre.state import Position


class MovementRules:
    """A module's part in a movement phase: its order kinds' adjudicators, extensions, and what follows."""

    def movement_adjudicators(self) -> Mapping[type, OrderAdjudicator]:
        """Adjudicators of the module's own order types in the resolver (by order class).  Default: none."""
        return {}

    def movement_extensions(
        self,
        rules: RuleSet,
        position: Position,
        orders: Mapping[str, Order],
        whole_orders: Sequence[tuple[str, str, Order]],
    ) -> Sequence[MovementExtension]:
        """Hooks into the resolution of this movement phase (a railroad, a canal).  Default: none.

        ``orders`` holds the legal order of every unit by province (a hold when
        none was given); ``whole_orders`` the accepted orders that name no unit,
        as (power, text, order).
        """
        return ()

    def after_movement(self, rules: RuleSet, step: MovementStep) -> MovementStep:
        """Amend a movement phase once the ordinary moves are resolved (torpedoes).  Default: unchanged."""
        return step


class PhaseRules:
    """A module's part after any phase and between phases."""

    def after_phase(self, rules: RuleSet, step: PhaseStep) -> PhaseStep:
        """Amend any adjudicated phase (events, variant state of the next position).  Default: unchanged."""
        return step


def holds_retreat_phase(rules: RuleSet, position: Position) -> bool:
    """Must a retreat phase follow this movement phase even when nothing was dislodged?

    The rule set says (:meth:`~arbitre.rules.RuleSet.needs_retreats`, asked with nothing dislodged).
    """
    return rules.needs_retreats(position, False)


def _holds(resolver: ResolverView, province: str) -> bool:
    """The adjudicator of an order kind whose role is :attr:`~arbitre.rules.kinds.Role.HOLDS`."""
    return True


def movement_adjudicators(rules: RuleSet) -> dict[type, OrderAdjudicator]:
    """The adjudicators of every module's own order types, for the resolver.

    An order kind whose role is ``HOLDS`` (a torpedo) holds; a module may give
    others through :meth:`MovementRules.movement_adjudicators`.
    """
    out: dict[type, OrderAdjudicator] = {
        kind.order_type: _holds for kind in rules.kinds.values() if kind.role is Role.HOLDS
    }
    for v in rules.implementing(MovementRules):
        out.update(v.movement_adjudicators())
    return out


def movement_extensions(
    rules: RuleSet, position: Position, orders: Mapping[str, Order], whole_orders: Sequence[tuple[str, str, Order]]
) -> list[MovementExtension]:
    """Every module's extensions of this movement phase."""
    out: list[MovementExtension] = []
    for v in rules.implementing(MovementRules):
        out.extend(v.movement_extensions(rules, position, orders, whole_orders))
    return out
