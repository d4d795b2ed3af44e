"""Order kinds: each kind of order declares, in one place, everything the judge needs to know of it.

An :class:`OrderKind` names the kind (a stable name used by views, JSON and
pictures), the order type it reads into, how the grammar reads it, how it is
checked and listed, its role in the adjudication, what it does to its unit,
the places a view shows, how a map draws it (as data,
:mod:`arbitre.rules.drawing`) and the key of its words.  A :class:`UnitKind`
does the same for a kind of unit.  The standard kinds are
:data:`STANDARD_KINDS`; a rule module adds its own through its
:class:`~arbitre.rules.facets.OrderRules` facet (``order_kinds``).  Views and
the renderer dispatch on the declaration — never on a class name or a
variant's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from arbitre.orders import Build, Convoy, Disband, Hold, Move, Order, OrderParser, Retreat, Support, Waive
from arbitre.rules import drawing
from arbitre.rules.drawing import Drawing, UnitShape

if TYPE_CHECKING:
    from arbitre.rules.ruleset import RuleSet
    from arbitre.state import Position

ParserFn = Callable[[OrderParser, list[str]], Order | None]
"""An extra parser of the grammar (:meth:`~arbitre.orders.OrderSyntax.extended`)."""
CheckFn = Callable[["RuleSet", "Position", str, Order], Order]
"""Validates an order of the kind for a power: its normal form, or raises IllegalOrder."""
LegalFn = Callable[["RuleSet", "Position", str], Mapping[str, list[str]]]
"""Every legal order of the kind for a power, keyed like :func:`~arbitre.rules.legal_orders`."""
PlacesFn = Callable[[Order], tuple[str, ...]]
"""The places an order involves, in drawing order."""
BelongsFn = Callable[["RuleSet", Order], str | None]
"""The province of the unit in whose name a whole-power order is given (``None``: no unit's)."""

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Effect:
    """What an order of a kind does to its unit, declared for readers that reason about orders (the house bots).

    ``moves``: it takes its unit to its ``target`` (a move, a retreat, a ride
    along a board's line); ``strikes``: it strikes the unit at its ``target``
    while its own unit stays; ``once_per_phase``: a power gives at most one a phase.
    """

    moves: bool = False
    strikes: bool = False
    once_per_phase: bool = False


STAYS = Effect()
"""The unit stays where it is (a hold, a support, a convoy)."""
MOVES = Effect(moves=True)
"""The unit goes to the order's target."""


class Role(StrEnum):
    """The part an order kind plays in the adjudication."""

    HOLD = "hold"
    MOVE = "move"
    SUPPORT = "support"
    CONVOY = "convoy"
    RETREAT = "retreat"
    DISBAND = "disband"
    BUILD = "build"
    WAIVE = "waive"
    HOLDS = "holds"
    """The resolver treats the unit as holding; the module acts once the moves are resolved (torpedoes)."""
    EXTENSION = "extension"
    """Adjudicated by the module's movement extension (a train move, a canal permission)."""
    LOCK = "lock"
    """Read when the orders lock, never adjudicated nor published (spy orders)."""


def standard_places(order: Order) -> tuple[str, ...]:
    """The unit, the unit it acts on (supported, convoyed), then the target place."""
    cls = type(order)
    unit = order.unit
    if unit is not None and (cls is Hold or cls is Move or cls is Support or cls is Convoy):
        # The standard kinds, read directly (the same answer as the general reading below).
        if cls is Hold:
            return (unit.place,)
        if cls is Move:
            return (unit.place, order.target) if order.target else (unit.place,)  # type: ignore[attr-defined]
        other = order.supported if cls is Support else order.convoyed  # type: ignore[attr-defined]
        first = (unit.place, other.place) if other.place else (unit.place,)
        target = order.target  # type: ignore[attr-defined]
        return (*first, target) if target else first
    return _general_places(order)


def _general_places(order: Order) -> tuple[str, ...]:
    """:func:`standard_places` of any order kind, by the attributes it has."""
    places: list[str] = [order.unit.place] if order.unit is not None else []
    for attr in ("supported", "convoyed"):
        ref = getattr(order, attr, None)
        place = getattr(ref, "place", "")
        if isinstance(place, str) and place:
            places.append(place)
    target = getattr(order, "target", None)
    place = target if isinstance(target, str) else getattr(target, "place", None)
    if isinstance(place, str) and place:
        places.append(place)
    return tuple(places)


@dataclass(frozen=True, slots=True)
class OrderKind:
    """One kind of order, declared once.

    ``name`` is stable (views, JSON, the picture's ``data-kind``); ``order_type``
    the frozen order class it reads into, whose ``format`` writes it;
    ``parser`` the extra grammar that reads it (``None``: the standard grammar);
    ``check`` its legality and ``legal`` its legal-order list (``None``: the
    standard rules of the phase); ``role`` its part in the adjudication;
    ``places`` what a view shows of it; ``draw`` how a map draws it (data:
    :class:`~arbitre.rules.drawing.Drawing`), and ``above_units`` whether over
    the units; ``effect`` what it does to its unit (:class:`Effect`).
    ``belongs_to`` (whole-power orders only) names the province of the unit the
    order is given with, as one of that unit's orders: a spy on the unit learns
    it, and a reaction change may replace it (``None``: it belongs to no unit).
    """

    name: str
    order_type: type[Order]
    draw: Drawing
    role: Role
    parser: ParserFn | None = None
    check: CheckFn | None = None
    legal: LegalFn | None = None
    places: PlacesFn = standard_places
    above_units: bool = False
    belongs_to: BelongsFn | None = None
    effect: Effect = STAYS

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"order kind name {self.name!r} must be lower_snake_case")

    @property
    def words(self) -> str:
        """The key of this kind's wording in the catalogs (``order.move``)."""
        return f"order.{self.name}"


STANDARD_KINDS: tuple[OrderKind, ...] = (
    OrderKind("hold", Hold, drawing.HOLD, Role.HOLD),
    OrderKind("move", Move, drawing.MOVE, Role.MOVE, effect=MOVES),
    OrderKind("support", Support, drawing.SUPPORT, Role.SUPPORT),
    OrderKind("convoy", Convoy, drawing.CONVOY, Role.CONVOY),
    OrderKind("retreat", Retreat, drawing.RETREAT, Role.RETREAT, effect=MOVES),
    OrderKind("disband", Disband, drawing.DISBAND, Role.DISBAND, above_units=True),
    OrderKind("build", Build, drawing.BUILD, Role.BUILD, above_units=True),
    OrderKind("waive", Waive, drawing.NOTHING, Role.WAIVE),
)
"""The kinds of the standard game."""

INVALID = OrderKind("invalid", Order, drawing.NOTHING, Role.HOLD, places=lambda order: ())
"""The kind shown for an order that could not be read."""


@dataclass(frozen=True, slots=True)
class UnitKind:
    """One kind of unit, declared once: its letter (``A``, ``F``), the message id of its name, its drawing.

    Where it may stand and move is the map's movement table of its letter
    (``GameMap.adjacency``); a rule module that adds a unit kind adds that table
    (``transform_map``) and declares the kind (``unit_kinds``).
    """

    letter: str
    words: str
    shape: UnitShape


STANDARD_UNIT_KINDS: tuple[UnitKind, ...] = (
    UnitKind("A", drawing.N_("army"), drawing.ARMY_SHAPE),
    UnitKind("F", drawing.N_("fleet"), drawing.FLEET_SHAPE),
)
"""The unit kinds of the standard game."""
