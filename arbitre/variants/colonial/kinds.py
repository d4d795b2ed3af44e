"""Colonial's order kinds, each declared once: train moves and Suez permissions."""

from __future__ import annotations

from collections.abc import Mapping

from arbitre.orders import Order
from arbitre.rules import RuleSet
from arbitre.rules.drawing import N_, POWER, Drawing, Line, Shape, Symbol
from arbitre.rules.kinds import Effect, OrderKind, Role
from arbitre.state import Position
from arbitre.variants.colonial.board import colonial_board
from arbitre.variants.colonial.orders import SuezPermission, TrainMove, parse_colonial
from arbitre.variants.colonial.suez import canal_legal_orders, check_permission
from arbitre.variants.colonial.tsr import check_train_move, train_legal_orders


def _check_train(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, TrainMove)
    return check_train_move(colonial_board(rules.game_map), position, power, order)


def _train_orders(rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
    return train_legal_orders(rules.game_map, colonial_board(rules.game_map), position, power)


def _check_permission(rules: RuleSet, position: Position, power: str, order: Order) -> Order:
    assert isinstance(order, SuezPermission)
    return check_permission(rules.game_map, colonial_board(rules.game_map), position, power, order)


def _canal_orders(rules: RuleSet, position: Position, power: str) -> Mapping[str, list[str]]:
    return canal_legal_orders(rules.game_map, colonial_board(rules.game_map), position, power)


def _permission_unit(rules: RuleSet, order: Order) -> str:
    """A permission is one of the orders of the unit in Egypt (its holder's)."""
    return colonial_board(rules.game_map).egypt


def _permission_places(order: Order) -> tuple[str, ...]:
    """The fleet let through, then where it goes."""
    assert isinstance(order, SuezPermission)
    if order.withdraws:
        return ()
    return (order.fleet.place, order.target) if order.target else (order.fleet.place,)


RAILWAY = Drawing(
    "railway",
    Shape.ARROW,
    Line(3.4, casing="#4A4A4A"),
    symbol=Symbol("M15 0 A15 15 0 1 1 -15 0 A15 15 0 1 1 15 0Z", fill="none", stroke=POWER, width=1.6, dash="2 2"),
    along="railway",
    words=N_("train target"),
)
"""Along the board's railway to the station where the train stopped (then dashed to its target, ringed)."""

CANAL = Drawing("canal", Shape.ARROW, Line(3.0), along="canal")
"""An arrow through the board's canal."""

TRAIN_MOVE = OrderKind(
    "train_move",
    TrainMove,
    RAILWAY,
    Role.EXTENSION,
    parser=parse_colonial,
    check=_check_train,
    legal=_train_orders,
    effect=Effect(moves=True, once_per_phase=True),
)
"""``A MOS - TSR - VLA``: drawn along the railway to the station where the train stopped."""

SUEZ_PERMISSION = OrderKind(
    "suez_permission",
    SuezPermission,
    CANAL,
    Role.EXTENSION,
    parser=parse_colonial,
    check=_check_permission,
    legal=_canal_orders,
    places=_permission_places,
    belongs_to=_permission_unit,
)
"""``SC F MED - RED``: drawn as the fleet's passage through the canal."""

KINDS = (TRAIN_MOVE, SUEZ_PERMISSION)
"""Colonial's order kinds."""
