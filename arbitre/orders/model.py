"""Frozen order types.

Orders are values: they say what a player wrote, resolved to the map's place
names, and nothing more.  Whether an order is allowed in a position is decided
by :mod:`arbitre.rules`; whether it succeeds, by :mod:`arbitre.adjudicator`.
Variants add their own order types by subclassing :class:`Order`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

_PROVINCE: Final[dict[str, str]] = {}
"""Place → province, filled as places are met (``STP/SC`` → ``STP``)."""


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as named in an order: an optional kind letter and its place."""

    kind: str | None
    place: str

    def __init__(self, kind: str | None, place: str) -> None:
        # Written out (the dataclass keeps it): the compiled build compiles it, where the generated one
        # stays an interpreted function, run for every order read or checked.
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "place", place)

    def __str__(self) -> str:
        return f"{self.kind} {self.place}" if self.kind else self.place

    @property
    def province(self) -> str:
        """The province of the place (``STP`` for ``STP/SC``)."""
        prov = _PROVINCE.get(self.place)
        if prov is None:
            prov = _PROVINCE[self.place] = self.place.split("/")[0]
        return prov


@mypyc_attr(allow_interpreted_subclasses=True)  # rule modules add order kinds (compiled build)
@dataclass(frozen=True, slots=True)
class Order:
    """Base class of every order.  ``unit`` is ``None`` only for whole-power orders."""

    unit: UnitRef | None

    def format(self) -> str:
        """The order in the canonical short notation (``A PAR - BUR``)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.format()

    @property
    def province(self) -> str:
        """The province of the ordered unit."""
        assert self.unit is not None
        return self.unit.province


@dataclass(frozen=True, slots=True)
class Hold(Order):
    """``A PAR H``."""

    def __init__(self, unit: UnitRef | None) -> None:
        object.__setattr__(self, "unit", unit)  # written out: see UnitRef.__init__

    def format(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move(Order):
    """``A PAR - BUR``, or ``A LON - NWY VIA`` when the player asks for a convoy.

    ``path`` holds the seas of a convoy path written in the move (``A YOR - NTH - BEL``,
    DATC 4.A.6); it is empty for every other move.
    """

    target: str = ""
    via_convoy: bool = False
    path: tuple[str, ...] = ()

    def __init__(
        self, unit: UnitRef | None, target: str = "", via_convoy: bool = False, path: tuple[str, ...] = ()
    ) -> None:
        # Written out: see UnitRef.__init__.
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "via_convoy", via_convoy)
        object.__setattr__(self, "path", path)

    def format(self) -> str:
        if self.path:
            return f"{self.unit} - {' - '.join(self.path)} - {self.target}"  # a path is by convoy
        return f"{self.unit} - {self.target}" + (" VIA" if self.via_convoy else "")


def _named(nationality: str | None, unit: UnitRef) -> str:
    """A supported or convoyed unit as written, with its nationality when one was written."""
    return f"{nationality} {unit}" if nationality else str(unit)


@dataclass(frozen=True, slots=True)
class Support(Order):
    """``A PAR S A MAR - BUR`` (``target`` set) or ``A PAR S A MAR`` (a hold support).

    ``nationality`` is the power written before the supported unit (``S GERMAN A MUN``,
    DATC 4.C.5/4.C.6), or ``None``.
    """

    supported: UnitRef = UnitRef(None, "")
    target: str | None = None
    nationality: str | None = None

    def __init__(
        self,
        unit: UnitRef | None,
        supported: UnitRef = UnitRef(None, ""),
        target: str | None = None,
        nationality: str | None = None,
    ) -> None:
        # Written out: see UnitRef.__init__.
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "supported", supported)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "nationality", nationality)

    def format(self) -> str:
        if self.target is None:
            return f"{self.unit} S {_named(self.nationality, self.supported)}"
        return f"{self.unit} S {_named(self.nationality, self.supported)} - {self.target}"


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    """``F NTH C A LON - NWY``; ``nationality`` as for :class:`Support` (``C ENGLISH A LON``)."""

    convoyed: UnitRef = UnitRef(None, "")
    target: str = ""
    nationality: str | None = None

    def __init__(
        self,
        unit: UnitRef | None,
        convoyed: UnitRef = UnitRef(None, ""),
        target: str = "",
        nationality: str | None = None,
    ) -> None:
        # Written out: see UnitRef.__init__.
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "convoyed", convoyed)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "nationality", nationality)

    def format(self) -> str:
        return f"{self.unit} C {_named(self.nationality, self.convoyed)} - {self.target}"


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    """``A MUN R BOH``."""

    target: str = ""

    def format(self) -> str:
        return f"{self.unit} R {self.target}"


@dataclass(frozen=True, slots=True)
class Disband(Order):
    """``A MUN D``: a disband in a retreat or adjustment phase."""

    def format(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build(Order):
    """``A PAR B``: a build in an adjustment phase."""

    def format(self) -> str:
        return f"{self.unit} B"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    """``WAIVE``: a build left unused."""

    def format(self) -> str:
        return "WAIVE"
