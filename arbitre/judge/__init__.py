"""The judge: whole games, phase by phase, and positions as plain data."""

from arbitre.judge.codec import PositionError, parse_unit, position_from_data, position_to_data
from arbitre.judge.game import ACTIVE, DRAWN, ENDED, WON, Game, PhaseRecord, check_orders, start_position
from arbitre.judge.progress import Progress, Transition
from arbitre.judge.steps import ORDERS, Accepts, AtEnd, Step, StepError

__all__ = [
    "ACTIVE",
    "DRAWN",
    "ENDED",
    "ORDERS",
    "WON",
    "Accepts",
    "AtEnd",
    "Game",
    "PhaseRecord",
    "PositionError",
    "Progress",
    "Step",
    "StepError",
    "Transition",
    "check_orders",
    "parse_unit",
    "position_from_data",
    "position_to_data",
    "start_position",
]
