"""Build the view of one viewer, by allow-list: start from nothing, add what the rules disclose.

:func:`build_view` is the only way a position, an outcome or pending orders
reach a player: the JSON interface, the command line, the server and the
maps all draw from its :class:`~arbitre.views.View`.  Each fact is added only
when the rule modules in play allow it to that viewer
(:mod:`arbitre.rules.disclosure`); nothing is copied and then cleared.  With
no rule module everything on the board is public, adjudicated orders are
public, and pending orders are their power's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Final

from arbitre.adjudicator import SUCCEEDS, OrderResult, PhaseOutcome
from arbitre.orders import Move, Order, OrderError, Retreat
from arbitre.rules import RuleSet
from arbitre.rules.disclosure import (
    contacts,
    dislodged_view,
    order_audience,
    place_is_public,
    unit_audience,
    visible_extras,
)
from arbitre.rules.events import MASTER, OBSERVER, PUBLIC, EventLike, can_see
from arbitre.rules.facets import Disclosure
from arbitre.state import Position
from arbitre.views.data import position_data
from arbitre.views.model import ReportLine, View, VisibleDislodged, VisibleOrder, VisibleUnit

_FIRST: Final = itemgetter(0)
"""The sort key of rows whose first item is their key (a C function: no call into Python per row)."""


def check_viewer(rules: RuleSet, viewer: str) -> str:
    """The viewer id: a power of the map (upper case), ``master`` or ``observer``; ValueError otherwise."""
    if viewer.strip().lower() in (MASTER, OBSERVER):
        return viewer.strip().lower()
    if viewer.strip().upper() in rules.game_map.powers:
        return viewer.strip().upper()
    raise ValueError(
        f"{viewer!r} is not a power of the {rules.game_map.name} map, 'observer' or 'master' "
        f"(powers: {', '.join(rules.game_map.powers)})"
    )


def _visible(rules: RuleSet, power: str | None, text: str, order: Order | None, **result: str | None) -> VisibleOrder:
    """An order as a view shows it: its kind's name, places and drawing's name come from its declaration."""
    kind = rules.kind_of(order)
    places = kind.places(order) if order is not None else ()
    return VisibleOrder(power, text, kind.name, places, draw=kind.draw.name, **result)


def final_place(result: OrderResult, outcome: PhaseOutcome) -> str | None:
    """Where the ordered unit ended: its target after a successful move, where an extension took it, or home."""
    order = result.order
    if order is None or order.unit is None:
        return None
    if isinstance(order, Move | Retreat) and result.outcome == SUCCEEDS:
        return order.target
    return outcome.relocated.get(order.unit.province, order.unit.place)


def _hides_nothing(rules: RuleSet) -> bool:
    """No rule module in play hides anything: every disclosure hook would answer "everyone"."""
    return not rules.implementing(Disclosure)


def _visible_orders(rules: RuleSet, outcome: PhaseOutcome, viewer: str) -> list[VisibleOrder]:
    if _hides_nothing(rules):
        return _public_orders(rules, outcome, viewer)
    out: list[VisibleOrder] = []
    for r in outcome.results:
        text_audience, result_audience = order_audience(rules, outcome.before, outcome.after, r)
        if not can_see(text_audience, viewer):
            continue
        told = can_see(result_audience, viewer)
        out.append(
            _visible(
                rules,
                r.power,
                r.order_text,
                r.order,
                outcome=r.outcome if told else None,
                reason=r.reason if told else None,
                final_place=final_place(r, outcome) if told else None,
                message=r.message if viewer in (MASTER, r.power) else None,
            )
        )
    return out


def _public_orders(rules: RuleSet, outcome: PhaseOutcome, viewer: str) -> list[VisibleOrder]:
    """:func:`_visible_orders` when no rule module hides anything: every order and result is public."""
    out: list[VisibleOrder] = []
    kinds = rules.kinds
    for r in outcome.results:
        order = r.order
        kind = kinds.get(type(order)) if order is not None else None
        if kind is None:
            kind = rules.kind_of(order)
        out.append(
            VisibleOrder(
                r.power,
                r.order_text,
                kind.name,
                kind.places(order) if order is not None else (),
                r.outcome,
                r.reason,
                final_place(r, outcome),
                r.message if viewer in (MASTER, r.power) else None,
                kind.draw.name,
            )
        )
    return out


def _pending_orders(rules: RuleSet, pending: Mapping[str, Sequence[str]], viewer: str) -> list[VisibleOrder]:
    out: list[VisibleOrder] = []
    for power, texts in sorted(pending.items()):
        if viewer not in (MASTER, power):
            continue
        for text in texts:
            try:
                order: Order | None = rules.parse(text)
            except OrderError:
                order = None
            out.append(_visible(rules, power, order.format() if order else text, order))
    return out


def _report(events: Iterable[object], viewer: str) -> list[ReportLine]:
    out: list[ReportLine] = []
    for e in events:
        if isinstance(e, EventLike) and can_see(e.audience, viewer):
            audience = tuple(sorted(e.audience)) if viewer == MASTER else ()
            out.append(ReportLine(e.kind, dict(e.data), audience))
    return out


def build_view(
    rules: RuleSet,
    position: Position,
    viewer: str,
    outcome: PhaseOutcome | None = None,
    pending: Mapping[str, Sequence[str]] | None = None,
    events: Iterable[object] = (),
) -> View:
    """The view of ``viewer`` (a power, ``observer`` or ``master``) of ``position``.

    With ``outcome`` (the adjudication of ``position``) the view holds the
    orders and results the viewer may read and its report; with ``pending``
    (power → order texts) the viewer's own pending orders (every power's for
    the master).  ``events`` are more events to report (what a lock of the
    orders revealed), filtered like the outcome's.
    """
    if not isinstance(rules, RuleSet) or not isinstance(position, Position):
        raise TypeError(
            "build_view(rules, position, viewer, outcome=None, pending=None): give a RuleSet and a Position"
        )
    viewer = check_viewer(rules, viewer)
    if outcome is not None and outcome.before.phase != position.phase:
        raise ValueError(f"the outcome is of {outcome.before.phase}, not of {position.phase}")

    if _hides_nothing(rules):
        return _public_view(rules, position, viewer, outcome, pending, events)
    units: list[VisibleUnit] = []
    for prov in sorted(position.units):
        unit = position.units[prov]
        audience = unit_audience(rules, position, unit)
        if can_see(audience, viewer):
            units.append(VisibleUnit(unit.power, unit.kind, unit.place, hidden=PUBLIC not in audience))
    if viewer != MASTER:
        units.extend(VisibleUnit(None, kind, place, hidden=True) for kind, place in contacts(rules, position, viewer))

    dislodged: list[VisibleDislodged] = []
    for d in sorted(position.dislodged.values(), key=lambda d: d.unit.place):
        audience = unit_audience(rules, position, d.unit)
        if can_see(audience, viewer):
            attacker, retreats = dislodged_view(rules, position, d, viewer)
            seen = VisibleUnit(d.unit.power, d.unit.kind, d.unit.place, hidden=PUBLIC not in audience)
            dislodged.append(VisibleDislodged(seen, attacker, retreats, d.by_convoy and attacker is not None))

    counts: dict[str, int] = {}
    for unit in [*position.units.values(), *(d.unit for d in position.dislodged.values())]:
        counts[unit.power] = counts.get(unit.power, 0) + 1

    orders: list[VisibleOrder] = []
    report: list[ReportLine] = []
    bounced: list[str] = []
    if outcome is not None:
        orders = _visible_orders(rules, outcome, viewer)
        report = _report(outcome.events, viewer)
        failed_into = {
            rules.game_map.province_of.get(o.places[-1], o.places[-1])
            for o in orders
            if o.kind == "move" and o.outcome not in (None, SUCCEEDS) and o.places
        }
        bounced = [p for p in sorted(outcome.bounced) if p in failed_into and place_is_public(rules, p)]
    elif pending:
        orders = _pending_orders(rules, pending, viewer)
    report.extend(_report(events, viewer))

    extras = dict(position.extras) if viewer == MASTER else visible_extras(rules, position, viewer)
    return View(
        viewer=viewer,
        map_name=position.map_name,
        phase=str(position.phase),
        units=tuple(units),
        owners=dict(position.owners),
        dislodged=tuple(dislodged),
        orders=tuple(orders),
        report=tuple(report),
        bounced=tuple(bounced),
        extras=extras,
        unit_counts=counts,
    )


def _public_view(
    rules: RuleSet,
    position: Position,
    viewer: str,
    outcome: PhaseOutcome | None,
    pending: Mapping[str, Sequence[str]] | None,
    events: Iterable[object],
) -> View:
    """:func:`build_view` when no rule module hides anything (the disclosure hooks would all say everyone)."""
    board = position.units
    units = [VisibleUnit(u.power, u.kind, u.place) for u in (board[prov] for prov in sorted(board))]
    dislodged = [
        VisibleDislodged(VisibleUnit(d.unit.power, d.unit.kind, d.unit.place), d.attacker_from, d.retreats, d.by_convoy)
        for d in sorted(position.dislodged.values(), key=lambda d: d.unit.place)
    ]
    counts: dict[str, int] = {}
    for unit in [*board.values(), *(d.unit for d in position.dislodged.values())]:
        counts[unit.power] = counts.get(unit.power, 0) + 1
    orders: list[VisibleOrder] = []
    report: list[ReportLine] = []
    bounced: list[str] = []
    if outcome is not None:
        orders = _public_orders(rules, outcome, viewer)
        report = _report(outcome.events, viewer)
        province_of = rules.game_map.province_of
        failed_into = {
            province_of.get(o.places[-1], o.places[-1])
            for o in orders
            if o.kind == "move" and o.outcome not in (None, SUCCEEDS) and o.places
        }
        bounced = [p for p in sorted(outcome.bounced) if p in failed_into]
    elif pending:
        orders = _pending_orders(rules, pending, viewer)
    report.extend(_report(events, viewer))
    return View(
        viewer=viewer,
        map_name=position.map_name,
        phase=str(position.phase),
        units=tuple(units),
        owners=dict(position.owners),
        dislodged=tuple(dislodged),
        orders=tuple(orders),
        report=tuple(report),
        bounced=tuple(bounced),
        extras=dict(position.extras) if viewer == MASTER else {},
        unit_counts=counts,
    )


def public_results_data(rules: RuleSet, outcome: PhaseOutcome, viewer: str) -> list[dict[str, Any]] | None:
    """``results_data(build_view(rules, outcome.before, viewer, outcome))`` written straight from the outcome
    when no rule module hides anything and the phase reported nothing; ``None`` otherwise (build the view)."""
    if outcome.events or not _hides_nothing(rules):
        return None
    viewer = check_viewer(rules, viewer)
    rows = []
    for r in outcome.results:
        text = r.order_text
        rows.append(((r.power or "~", r.reason == "no_order", text), r, text))
    rows.sort(key=_FIRST)  # the order of View.orders
    out = []
    for _, r, text in rows:
        entry: dict[str, Any] = {"power": r.power, "order": text, "outcome": r.outcome, "reason": r.reason}
        if r.outcome == "partial":
            entry["reached"] = final_place(r, outcome)
        if r.message and viewer in (MASTER, r.power):
            entry["message"] = r.message
        out.append(entry)
    return out


def next_position_data(rules: RuleSet, position: Position, viewer: str) -> dict[str, Any]:
    """``position_data(build_view(rules, position, viewer))``: the board the viewer sees, as the
    interface's position shape; written straight from the position when no rule module hides anything."""
    viewer = check_viewer(rules, viewer)
    if not _hides_nothing(rules):
        return position_data(build_view(rules, position, viewer))
    units: dict[str, list[str]] = {}
    # By power, then place (a place holds one unit): plain tuples sort without a key function.
    for power, place, kind in sorted([(u.power, u.place, u.kind) for u in position.units.values()]):
        units.setdefault(power, []).append(f"{kind} {place}")
    centers: dict[str, list[str]] = {}
    for center, power in sorted(position.owners.items()):
        centers.setdefault(power, []).append(center)
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in sorted(position.dislodged.values(), key=lambda d: d.unit.place):
        dislodged.setdefault(d.unit.power, []).append(
            {
                "unit": f"{d.unit.kind} {d.unit.place}",
                "attacker_from": d.attacker_from,
                "retreats": list(d.retreats or ()),
                **({"by_convoy": True} if d.by_convoy else {}),
            }
        )
    out: dict[str, Any] = {
        "phase": str(position.phase),
        "units": units,
        "dislodged": dislodged,
        "supply_centers": centers,
    }
    if viewer == MASTER and position.extras:
        out["extras"] = dict(position.extras)
    return out
