"""What one viewer may see: the data every output (JSON, CLI, server, maps) is built from.

A :class:`View` is assembled by allow-list in :mod:`arbitre.views.build`: it
starts empty and only facts the rules disclose to the viewer are put in.
Renderers and servers take a ``View``, never a game or a position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbitre.rules.events import MASTER, OBSERVER

__all__ = ["MASTER", "OBSERVER", "ReportLine", "View", "VisibleDislodged", "VisibleOrder", "VisibleUnit"]


@dataclass(frozen=True, slots=True)
class VisibleUnit:
    """A unit as the viewer sees it.

    ``power`` is ``None`` for a contact whose nationality is hidden (a sonar
    contact in Submarines).  ``hidden`` marks a unit only its owner (and the
    master) can see, such as a submerged submarine.
    """

    power: str | None
    kind: str
    place: str
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class VisibleDislodged:
    """A dislodged unit the viewer sees, with where it may retreat (if disclosed)."""

    unit: VisibleUnit
    attacker_from: str | None
    retreats: tuple[str, ...] | None
    by_convoy: bool = False
    """The attack came by convoy (told only with its origin)."""


@dataclass(frozen=True, slots=True)
class VisibleOrder:
    """An order the viewer may see, with its result once adjudicated.

    ``kind`` is the stable name its kind declares (``move``, ``support``,
    ``convoy``, ``hold``, ``retreat``, ``disband``, ``build``, ``waive`` or a
    rule module's kind such as ``train_move``, ``suez_permission``,
    ``torpedo``, ``spy``; see :mod:`arbitre.rules.kinds`); ``places`` lists the
    places the order involves in drawing order (unit, then supported unit, then
    target); ``draw`` names the drawing its kind declares (the map draws the
    kind's declared drawing, :mod:`arbitre.rules.drawing`).
    ``outcome`` and ``reason`` are ``None`` when the viewer may read the order
    but not its result; ``message`` (why an order was refused) is shown only to
    the power that gave it.
    """

    power: str | None
    text: str
    kind: str
    places: tuple[str, ...]
    outcome: str | None = None
    reason: str | None = None
    final_place: str | None = None
    message: str | None = None
    draw: str = "none"


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One fact disclosed to the viewer: its event kind and data (words come at the edge, from them alone).

    ``audience`` is filled in the game master's view only: who was told
    (power ids, ``*`` for everyone).
    """

    key: str
    data: dict[str, object] = field(default_factory=dict)
    audience: tuple[str, ...] = ()


@dataclass(frozen=True)
class View:
    """The game at one phase as one viewer may see it.

    ``units`` are the units the viewer sees (sonar contacts have no power);
    ``unit_counts`` is how many units each power has, hidden ones included
    (public: it follows from centres and adjustments); ``orders`` are the
    adjudicated orders the viewer may read, or its own pending orders;
    ``report`` the facts disclosed to it; ``extras`` the variant state it may
    read (``next.extras`` of the JSON interface).
    """

    viewer: str
    map_name: str
    phase: str
    units: tuple[VisibleUnit, ...]
    owners: dict[str, str]
    dislodged: tuple[VisibleDislodged, ...] = ()
    orders: tuple[VisibleOrder, ...] = ()
    report: tuple[ReportLine, ...] = ()
    bounced: tuple[str, ...] = ()
    extras: dict[str, object] = field(default_factory=dict)
    unit_counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Put everything in a canonical order (sorted keys and lists), so that the order of what a viewer
        reads can never reveal the order of the position's internal lists (which hidden moves change)."""
        put = object.__setattr__
        put(self, "units", tuple(sorted(self.units, key=lambda u: (u.power or "", u.place, u.kind, u.hidden))))
        put(self, "owners", dict(sorted(self.owners.items())))
        put(self, "dislodged", tuple(sorted(self.dislodged, key=lambda d: (d.unit.place, d.unit.power or ""))))
        # Orders: by power, then the orders given, sorted, then the units left without orders, sorted.
        put(self, "orders", tuple(sorted(self.orders, key=lambda o: (o.power or "~", o.reason == "no_order", o.text))))
        put(self, "report", tuple(sorted(self.report, key=lambda r: (r.key, repr(canonical(r.data)), r.audience))))
        put(self, "bounced", tuple(sorted(self.bounced)))
        put(self, "extras", canonical(self.extras))
        put(self, "unit_counts", dict(sorted(self.unit_counts.items())))


def canonical(value: Any) -> Any:
    """``value`` with every mapping's keys sorted, recursively (lists keep their order: the owner sorts them)."""
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value
