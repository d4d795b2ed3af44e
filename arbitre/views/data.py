"""Views as plain JSON-ready data: the whole view, and the JSON interface's pieces of it.

Everything here reads a :class:`~arbitre.views.View` only, so an output made
from these functions holds nothing the view does not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from arbitre.views.model import ReportLine, View


def view_to_data(view: View) -> dict[str, Any]:
    """Every field of the view, as plain data (the form two views are compared in)."""
    return asdict(view)


def results_data(view: View) -> list[dict[str, Any]]:
    """The ``results`` of the JSON interface: one entry per order the viewer may read.

    ``outcome`` and ``reason`` are ``null`` for an order whose result the
    viewer may not read; ``message`` appears on the viewer's own refused orders.
    """
    out = []
    for o in view.orders:
        entry: dict[str, Any] = {"power": o.power, "order": o.text, "outcome": o.outcome, "reason": o.reason}
        if o.outcome == "partial":
            entry["reached"] = o.final_place  # where the unit stopped (a train stopped part-way)
        if o.message:
            entry["message"] = o.message
        out.append(entry)
    return out


def report_data(view: View, words: Callable[[ReportLine], Mapping[str, str]]) -> list[dict[str, Any]]:
    """The ``report`` of the JSON interface: each fact told to the viewer (with its audience for the master).

    ``words`` gives a line's words by language (``{"en": …, "fr": …}``, from
    :func:`arbitre.words.events.report_words`), made from the line alone.
    """
    out = []
    for line in view.report:
        entry: dict[str, Any] = {"kind": line.key, **words(line)}
        if line.audience:
            entry["audience"] = list(line.audience)
        out.append(entry)
    return out


def position_data(view: View) -> dict[str, Any]:
    """The board of the view in the JSON interface's position shape (``next``): valid input again.

    Units without a known power (sonar contacts) are not in ``units``: they
    are in ``extras``, where the rule module keeps them.
    """
    units: dict[str, list[str]] = {}
    for u in sorted(view.units, key=lambda u: (u.power or "", u.place)):
        if u.power is not None:
            units.setdefault(u.power, []).append(f"{u.kind} {u.place}")
    centers: dict[str, list[str]] = {}
    for center, power in sorted(view.owners.items()):
        centers.setdefault(power, []).append(center)
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in view.dislodged:
        if d.unit.power is not None:
            dislodged.setdefault(d.unit.power, []).append(
                {
                    "unit": f"{d.unit.kind} {d.unit.place}",
                    "attacker_from": d.attacker_from,
                    "retreats": list(d.retreats or ()),
                    **({"by_convoy": True} if d.by_convoy else {}),
                }
            )
    out: dict[str, Any] = {"phase": view.phase, "units": units, "dislodged": dislodged, "supply_centers": centers}
    if view.extras:
        out["extras"] = view.extras
    return out
