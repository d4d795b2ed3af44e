"""Orders: frozen order types, a parser and formatter, and typed order errors."""

from arbitre.orders.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError
from arbitre.orders.model import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    UnitRef,
    Waive,
)
from arbitre.orders.names import normalize
from arbitre.orders.parser import STANDARD_SYNTAX, OrderParser, OrderSyntax, parse_order, tokenize

__all__ = [
    "STANDARD_SYNTAX",
    "AmbiguousOrder",
    "Build",
    "Convoy",
    "Disband",
    "Hold",
    "IllegalOrder",
    "InvalidOrder",
    "Move",
    "Order",
    "OrderError",
    "OrderParser",
    "OrderSyntax",
    "Retreat",
    "Support",
    "UnitRef",
    "Waive",
    "normalize",
    "parse_order",
    "tokenize",
]
