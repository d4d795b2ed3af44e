"""What adjudication returns: one result per order, and the phase outcome."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from arbitre.orders import Order
from arbitre.state import Dislodged, Position

SUCCEEDS: Final = "succeeds"
FAILS: Final = "fails"
ILLEGAL: Final = "illegal"
INVALID: Final = "invalid"
PARTIAL: Final = "partial"
"""The unit moved, but not as far as ordered (a train stopped part-way); ``OrderResult.place`` says where."""


class OrderResult(NamedTuple):
    """The outcome of one order.

    ``outcome`` is ``succeeds``, ``fails``, ``partial`` (moved, but not as far
    as ordered), ``illegal`` or ``invalid``; ``reason`` is a short code
    (``bounce``, ``cut``, ``void``, ``dislodged``…) or ``None``; ``message``
    explains in words.  ``order`` is ``None`` when the text could not be read
    at all.  ``place`` is where the unit ended when a rule module moved it
    elsewhere than its order's target (the station a train reached).
    """

    power: str
    text: str
    order: Order | None
    outcome: str
    reason: str | None = None
    message: str | None = None
    place: str | None = None

    @property
    def order_text(self) -> str:
        """The canonical text of the order, or the text as written if unreadable."""
        return self.order.format() if self.order is not None else self.text


_new_tuple: Final = tuple.__new__


def order_result(
    power: str,
    text: str,
    order: Order | None,
    outcome: str,
    reason: str | None = None,
    message: str | None = None,
    place: str | None = None,
) -> OrderResult:
    """``OrderResult(...)``, the same value, made without the named tuple's ``__new__``.

    That ``__new__`` is a Python function (``collections.namedtuple`` writes it),
    so the compiled build would run an interpreted frame for each of a phase's
    thirty-odd results; ``tuple.__new__`` on the class is what it does inside.
    """
    return _new_tuple(OrderResult, (power, text, order, outcome, reason, message, place))


@dataclass(frozen=True)
class PhaseOutcome:
    """Everything an adjudicated phase produced.

    ``dislodged`` maps province → dislodged unit (with retreat options) for the
    next retreat phase; ``bounced`` lists provinces left empty by a standoff.
    ``events`` is filled by variants (each event names its audience).
    ``relocated`` maps the province of a unit moved by an order that is no
    move (a train move) to the place where that unit ended.
    """

    before: Position
    after: Position
    results: tuple[OrderResult, ...]
    dislodged: dict[str, Dislodged] = field(default_factory=dict)
    bounced: frozenset[str] = frozenset()
    events: tuple[object, ...] = ()
    relocated: Mapping[str, str] = field(default_factory=dict)

    def __init__(
        self,
        before: Position,
        after: Position,
        results: tuple[OrderResult, ...],
        dislodged: dict[str, Dislodged] | None = None,
        bounced: frozenset[str] = frozenset(),
        events: tuple[object, ...] = (),
        relocated: Mapping[str, str] | None = None,
    ) -> None:
        # Written out (the dataclass keeps it): the compiled build compiles it, where the generated one
        # stays an interpreted function, run for every phase.
        object.__setattr__(self, "before", before)
        object.__setattr__(self, "after", after)
        object.__setattr__(self, "results", results)
        object.__setattr__(self, "dislodged", {} if dislodged is None else dislodged)
        object.__setattr__(self, "bounced", bounced)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "relocated", {} if relocated is None else relocated)
