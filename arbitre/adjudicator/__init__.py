"""The adjudicator: a generic movement resolver, retreats and adjustments."""

from arbitre.adjudicator.extension import MovementExtension, PerResolution, ResolverView
from arbitre.adjudicator.facets import MovementRules, PhaseRules, holds_retreat_phase
from arbitre.adjudicator.movement import MovementResolver
from arbitre.adjudicator.phases import (
    adjudicate,
    adjudicate_adjustments,
    adjudicate_movement,
    adjudicate_retreats,
    adjustment_counts,
    needs_adjustments,
    retreat_options_of,
)
from arbitre.adjudicator.results import FAILS, ILLEGAL, INVALID, PARTIAL, SUCCEEDS, OrderResult, PhaseOutcome

__all__ = [
    "FAILS",
    "ILLEGAL",
    "INVALID",
    "PARTIAL",
    "SUCCEEDS",
    "MovementExtension",
    "MovementResolver",
    "MovementRules",
    "OrderResult",
    "PerResolution",
    "PhaseOutcome",
    "PhaseRules",
    "ResolverView",
    "adjudicate",
    "adjudicate_adjustments",
    "adjudicate_movement",
    "adjudicate_retreats",
    "adjustment_counts",
    "holds_retreat_phase",
    "needs_adjustments",
    "retreat_options_of",
]
