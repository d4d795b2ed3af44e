"""How a map draws an order kind or a unit kind, declared as data that the renderer interprets.

A rule module brings the drawing of each kind it adds: a :class:`Drawing` for
an order kind (:attr:`~arbitre.rules.kinds.OrderKind.draw`) and a
:class:`UnitShape` for a unit kind (:attr:`~arbitre.rules.kinds.UnitKind.shape`).
The renderer (:mod:`arbitre.render.svg`) knows only the few generic shapes of
:class:`Shape`, lines (:class:`Line`) and symbols (:class:`Symbol`: SVG path
data around the origin); it names no kind and no rule module.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs: words are translated where a map is drawn."""
    return message


POWER = "power"
"""In a colour field: the colour of the power that gave the order (or owns the unit)."""


class Shape(StrEnum):
    """The generic shapes an order is drawn with (``places`` are the order's places, in order)."""

    NONE = "none"
    """Nothing is drawn."""
    RING = "ring"
    """A ring around the unit at the first place."""
    ARROW = "arrow"
    """An arrow from the unit at the first place to the last place: along the board's line named by
    :attr:`Drawing.along` when there is one (a railway, a canal), straight through a canal of the board
    joining the two ends otherwise; when the unit stopped on the way (the order's ``final_place`` is
    neither end), solid to there and dashed on to the last place."""
    LINK = "link"
    """A line from the unit at the first place to the middle of the move of the second place to the
    third (or, with two places, to the unit at the second place, ringed)."""
    MARK = "mark"
    """The symbol beside the unit at the last place (shifted by :attr:`Drawing.offset`)."""
    NEW_UNIT = "new_unit"
    """The unit the order makes, at the first place, with a badge."""


@dataclass(frozen=True, slots=True)
class Line:
    """How a line is stroked: width, dash pattern (SVG), colour (:data:`POWER` or ``#RRGGBB``), casing, end."""

    width: float = 3.0
    dash: str | None = None
    colour: str = POWER
    casing: str | None = None
    """The colour of the wider line drawn under it; ``None``: white or ink, whichever reads on the colour."""
    bend: float = 0.12
    """How much a curve bends (a share of its length)."""
    head: bool = True
    """An arrowhead at the end (a failed order's line ends in a bar instead)."""


@dataclass(frozen=True, slots=True)
class Symbol:
    """A small picture: SVG path data around the origin, its fill and stroke (:data:`POWER` allowed)."""

    path: str
    fill: str = POWER
    stroke: str = "#222222"
    width: float = 1.2
    dash: str | None = None
    dot: float = 0.0
    """A disc of this radius in the power's colour at the origin (an eye's pupil); 0: none."""


@dataclass(frozen=True, slots=True)
class Drawing:
    """How a map draws one order kind.

    ``name`` is the picture's ``data-draw``; ``shape`` the generic shape;
    ``line`` its stroke; ``symbol`` the mark it draws (a :attr:`Shape.MARK`, or
    the end of an arrow or a link: ``hit`` when the order succeeded, ``symbol``
    otherwise); ``along`` the board line an arrow follows (``railway``,
    ``canal``: :class:`~arbitre.render.board.Geometry`'s); ``words`` the title of
    the end mark (a message id; ``{hit}`` drawings: ``words_hit``); ``rank``
    the drawing order (lines first, marks last); ``moves`` whether the order
    takes its unit somewhere (the words of a result name the unit's new place); ``outline`` whether a
    mark is drawn over the unit kind's own outline.
    """

    name: str
    shape: Shape
    line: Line = Line()
    symbol: Symbol | None = None
    hit: Symbol | None = None
    along: str | None = None
    offset: tuple[float, float] = (0.0, 0.0)
    words: str | None = None
    words_hit: str | None = None
    rank: int = 3
    outline: bool = False
    """A :attr:`Shape.MARK` drawn over the unit's own outline, enlarged and dashed in the symbol's stroke
    colour: the mark then says which kind of unit it acts on (a disbanded fleet is not a disbanded army)."""


@dataclass(frozen=True, slots=True)
class UnitShape:
    """How a map draws one unit kind: its outline (SVG path data around the origin) and the letter's height.

    ``words`` is what a unit's title adds when only its owner sees it (``submerged``).
    """

    path: str
    letter_y: float = 4.0
    words: str = N_("hidden")


# --------------------------------------------------------------------------- the standard drawings
CROSS = Symbol("M-8 -8 L8 8 M-8 8 L8 -8", fill="none", stroke="#C0120C", width=3.0)
"""A red cross (a disband)."""

ERROR = Symbol(
    "M-5 -12 H5 L12 -5 V5 L5 12 H-5 L-12 5 V-5 Z M-1.6 -7.5 L-1 2.5 H1 L1.6 -7.5 Z M-1.7 5 V8.2 H1.7 V5 Z",
    fill="#C0120C",
    stroke="#FFFFFF",
    width=1.4,
)
"""A red octagon pierced by a ``!`` (the inner paths wind the other way: holes): an order that was not
valid, drawn at its unit, never as an arrow."""

NOT_VALID = N_("order not valid")
"""The title of the error mark when the view gives no reason."""

HOLD = Drawing("hold", Shape.RING, Line(2.4), rank=2)
MOVE = Drawing("move", Shape.ARROW, Line(3.0))
RETREAT = Drawing("retreat", Shape.ARROW, Line(2.4, casing="#C0120C"))
SUPPORT = Drawing("support", Shape.LINK, Line(2.0, "5 3"), symbol=Symbol("", width=1.0, dot=3.2), rank=0)
CONVOY = Drawing(
    "convoy",
    Shape.LINK,
    Line(2.6, "0.5 4"),
    symbol=Symbol("M3.6 0 A3.6 3.6 0 1 1 -3.6 0 A3.6 3.6 0 1 1 3.6 0Z", "#FFFFFF", POWER, 2.0),
    rank=1,
)
DISBAND = Drawing("disband", Shape.MARK, symbol=CROSS, rank=6, outline=True)
BUILD = Drawing("build", Shape.NEW_UNIT, rank=5)
NOTHING = Drawing("none", Shape.NONE)

ARMY_SHAPE = UnitShape("M9 0 A9 9 0 1 1 -9 0 A9 9 0 1 1 9 0Z", letter_y=3.6)
"""An army: a disc."""
FLEET_SHAPE = UnitShape("M-12.5 -5.5 L12.5 -5.5 L8.5 7 L-8.5 7 Z", letter_y=4.2)
"""A fleet: a hull."""
