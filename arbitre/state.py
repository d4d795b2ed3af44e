"""Immutable snapshots of a game at one phase.

A :class:`Position` holds what is on the board at the start of a phase: the
units, the units dislodged by the previous movement phase (in a retreat phase),
who owns each supply centre, and a typed slot for variant extras.  Nothing in
a position is ever mutated; each phase makes a new one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final, NamedTuple


class PhaseKind(StrEnum):
    """The three kinds of phase, by the letter that ends a phase name (``S1901M``).

    A ``StrEnum``: each member *is* its letter, so phase names, JSON and
    comparisons with plain strings are unchanged.
    """

    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


class Season(StrEnum):
    """The seasons, by the letter that starts a phase name."""

    SPRING = "S"
    FALL = "F"
    WINTER = "W"


MOVEMENT = PhaseKind.MOVEMENT
RETREATS = PhaseKind.RETREATS
ADJUSTMENTS = PhaseKind.ADJUSTMENTS
SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
KIND_NAMES = {MOVEMENT: "Movement", RETREATS: "Retreats", ADJUSTMENTS: "Adjustments"}
_PHASE_RE = re.compile(r"^([SFW])(\d{1,5})([MRA])$")
# Letter -> member by a dict: calling the enum (``Season("S")``) runs Python code of the enum module.
_SEASON_OF: Final[dict[str, Season]] = {s.value: s for s in Season}
_KIND_OF: Final[dict[str, PhaseKind]] = {k.value: k for k in PhaseKind}


class PhaseError(ValueError):
    """Raised for a phase name that is not of the form ``S1901M``."""


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """A phase: season ``S``/``F``/``W``, year, and kind ``M``/``R``/``A`` (:class:`PhaseKind`).

    A kind or season given as a plain letter is stored as its enum member.
    """

    year: int
    season: Season
    kind: PhaseKind

    def __init__(self, year: int, season: Season | str, kind: PhaseKind | str) -> None:
        # Written out (the dataclass keeps it) so that a letter becomes its member before it is stored:
        # the compiled build's attributes take only their declared type.
        object.__setattr__(self, "year", year)
        if type(season) is not Season:
            season = _SEASON_OF.get(season) or Season(season)
        if type(kind) is not PhaseKind:
            kind = _KIND_OF.get(kind) or PhaseKind(kind)
        object.__setattr__(self, "season", season)
        object.__setattr__(self, "kind", kind)

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Parse a short phase name such as ``S1901M`` or ``W1901A``."""
        m = _PHASE_RE.match(text.strip().upper())
        if not m:
            raise PhaseError(f"phase {text!r} is not of the form S1901M, F1901R or W1901A")
        season, year, kind = _SEASON_OF[m.group(1)], int(m.group(2)), _KIND_OF[m.group(3)]
        if (season == Season.WINTER) != (kind == ADJUSTMENTS):
            raise PhaseError(f"phase {text!r}: adjustments happen in winter and only in winter")
        return cls(year, season, kind)

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    @property
    def long_name(self) -> str:
        """A readable name, e.g. ``Spring 1901 Movement``."""
        return f"{SEASON_NAMES[self.season]} {self.year} {KIND_NAMES[self.kind]}"

    def sort_key(self) -> tuple[int, int, int]:
        """A key that orders phases chronologically."""
        return (self.year, "SFW".index(self.season), "MRA".index(self.kind))


class Unit(NamedTuple):
    """A unit on the board: its power, kind letter (``A``/``F``/…) and place."""

    power: str
    kind: str
    place: str

    def __str__(self) -> str:
        return f"{self.kind} {self.place}"


_new_tuple: Final = tuple.__new__


def make_unit(power: str, kind: str, place: str) -> Unit:
    """``Unit(power, kind, place)``, the same value, made without the named tuple's ``__new__``.

    That ``__new__`` is a Python function (``collections.namedtuple`` writes it), so
    the compiled build would run an interpreted frame for each unit of every position
    read or made; ``tuple.__new__`` on the class is what it does inside.
    """
    return _new_tuple(Unit, (power, kind, place))


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the last movement phase, waiting to retreat.

    ``attacker_from`` is the province the dislodging attack came from (``None``
    if unknown); ``retreats`` is the set of places it may retreat to when the
    judge computed it (standoffs are only known then), or ``None`` to let the
    engine compute it from the position.  ``by_convoy`` says that the resolution
    carried the attack by convoy (or through a passage, which the rules treat
    alike): only then may the unit retreat to ``attacker_from`` (DATC 4.A.5).
    """

    unit: Unit
    attacker_from: str | None = None
    retreats: tuple[str, ...] | None = None
    by_convoy: bool = False


@dataclass(frozen=True)
class Position:
    """The board at the start of a phase.

    ``units`` maps each occupied *province* to its unit (a fleet on a coast is
    keyed by its province, ``STP``, and its ``place`` is ``STP/SC``).
    ``dislodged`` is keyed the same way and is only non-empty in a retreat
    phase. ``owners`` maps each owned supply centre to its power.
    ``extras`` is the typed slot for variant state, keyed by variant name.
    """

    map_name: str
    phase: Phase
    units: Mapping[str, Unit]
    owners: Mapping[str, str]
    dislodged: Mapping[str, Dislodged] = field(default_factory=dict)
    extras: Mapping[str, object] = field(default_factory=dict)
    memo: dict[object, object] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Facts derived from this position, computed once (fleets at sea…); not part of equality.

    A field rather than a ``cached_property``: the compiled build's classes have no ``__dict__``."""

    def __init__(
        self,
        map_name: str,
        phase: Phase,
        units: Mapping[str, Unit],
        owners: Mapping[str, str],
        dislodged: Mapping[str, Dislodged] | None = None,
        extras: Mapping[str, object] | None = None,
    ) -> None:
        # Written out (the dataclass keeps it): the compiled build compiles it, where the generated one
        # stays an interpreted function, run for every phase.
        object.__setattr__(self, "map_name", map_name)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "owners", owners)
        object.__setattr__(self, "dislodged", {} if dislodged is None else dislodged)
        object.__setattr__(self, "extras", {} if extras is None else extras)
        object.__setattr__(self, "memo", {})

    def units_of(self, power: str) -> list[Unit]:
        """The units of ``power``, sorted by place."""
        return sorted((u for u in self.units.values() if u.power == power), key=lambda u: u.place)

    def centers_of(self, power: str) -> list[str]:
        """The supply centres owned by ``power``, sorted."""
        return sorted(c for c, p in self.owners.items() if p == power)

    def with_changes(self, **changes: object) -> Position:
        """A copy with some fields replaced (positions are never mutated)."""
        return replace(self, **changes)  # type: ignore[arg-type]
