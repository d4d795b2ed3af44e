"""What the adjudicator hands to rule modules after it resolved a phase.

Two hooks of :class:`~arbitre.rules.Variant` receive these values and return
changed copies (``dataclasses.replace``):

* ``after_movement`` gets a :class:`MovementStep` once the ordinary moves are
  resolved, before the next position is made: a rule module may add
  dislodgements (Submarines' torpedoes), change the outcome of its own orders
  (``notes``), add events and change the variant state (``extras``);
* ``after_phase`` gets a :class:`PhaseStep` for every phase kind once the
  next position is made: a rule module may add events and change that
  position's variant state.

The resolver itself never sees a variant rule: this is its only way out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from arbitre.orders import Order
from arbitre.state import Dislodged, Position, Unit


class ResultLike(Protocol):
    """What rule modules read of an order's result (see ``arbitre.adjudicator.OrderResult``)."""

    @property
    def power(self) -> str:
        """The power that gave the order."""

    @property
    def text(self) -> str:
        """The order as written."""

    @property
    def order(self) -> Order | None:
        """The order read (``None`` when it could not be read)."""

    @property
    def outcome(self) -> str:
        """``succeeds``, ``fails``, ``illegal`` or ``invalid``."""

    @property
    def reason(self) -> str | None:
        """A short code such as ``bounced`` or ``cut``."""

    @property
    def message(self) -> str | None:
        """Why an order was refused, in words."""


@dataclass(frozen=True)
class MovementStep:
    """A movement phase after the ordinary moves, as rule modules may amend it.

    ``orders`` maps each unit's province (at the start of the phase) to the
    order the resolver used (a unit without a legal order holds);
    ``succeeded`` is the resolver's decision for each of them;
    ``dislodged_by`` maps each province whose unit an ordinary attack
    dislodged to the province the attack came from.  ``units`` and
    ``dislodged`` are the board after the moves, keyed by province.
    ``notes`` overrides the outcome and reason of an order, by province.
    ``resolve_with`` resolves the phase again with some orders replaced (by
    province) and returns every decision: what would have happened otherwise.
    """

    before: Position
    orders: Mapping[str, Order]
    succeeded: Mapping[str, bool]
    dislodged_by: Mapping[str, str]
    units: Mapping[str, Unit]
    dislodged: Mapping[str, Dislodged]
    standoffs: frozenset[str]
    resolve_with: Callable[[Mapping[str, Order]], Mapping[str, bool]]
    notes: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)
    events: tuple[object, ...] = ()
    extras: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class PhaseStep:
    """An adjudicated phase of any kind: ``after`` is the next position, ``events`` the facts so far."""

    before: Position
    after: Position
    results: Sequence[ResultLike]
    events: tuple[object, ...] = ()
