"""Orders and results in MILA's words.

MILA's saved games write an order as its engine normalises it: the unit as it
stands (``F STP/SC``), ``H``, ``- BUR`` (``VIA`` when the army goes by convoy
and must say so: a move to a province it cannot reach over land, or one
ordered ``via convoy``), ``S A MAR`` / ``S A MAR - BUR``, ``C A LON - NWY``,
``R HOL``, ``D``, ``B``; a support or convoy never names a nationality.  A
result is a list of codes per unit: ``[]`` (or ``[""]`` after a build or a
disband), ``bounce``, ``cut``, ``void``, ``dislodged``, ``no convoy``,
``disrupted``, ``disband``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from arbitre.adjudicator import FAILS, ILLEGAL, INVALID, SUCCEEDS, OrderResult, PhaseOutcome
from arbitre.maps import ARMY, GameMap
from arbitre.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, UnitRef, Waive
from arbitre.state import Dislodged, Position, Unit

OK: Final = ""
BOUNCE: Final = "bounce"
CUT: Final = "cut"
VOID: Final = "void"
DISLODGED: Final = "dislodged"
NO_CONVOY: Final = "no convoy"
DISRUPTED: Final = "disrupted"
DISBAND: Final = "disband"
CODES: Final = frozenset({OK, BOUNCE, CUT, VOID, DISLODGED, NO_CONVOY, DISRUPTED, DISBAND, "maybe"})
"""Every result code MILA 1.1.2 writes."""

_REASON_CODE: Final = {"bounced": BOUNCE, "cut": CUT, "void": VOID, "no_convoy": NO_CONVOY, "disrupted": DISRUPTED}


def unit_text(unit: Unit) -> str:
    """A unit as MILA writes it (``A PAR``, ``F STP/SC``)."""
    return f"{unit.kind} {unit.place}"


def _standing(position: Position, ref: UnitRef | None) -> Unit | None:
    """The unit an order names, as it stands on the board, or as it waits to retreat in a retreat phase."""
    if ref is None:
        return None
    prov = ref.province
    if prov in position.dislodged:
        return position.dislodged[prov].unit
    return position.units.get(prov)


def order_text(gmap: GameMap, position: Position, order: Order) -> str | None:
    """``order`` (accepted by arbitre in ``position``) as MILA writes it; ``None`` for an order MILA has no
    words for (a waive: MILA waives what is not built)."""
    if isinstance(order, Waive):
        return None
    unit = _standing(position, order.unit)
    if unit is None:
        if isinstance(order, Build) and order.unit is not None:
            return f"{order.unit.kind or ARMY} {order.unit.place} B"
        return None
    me = unit_text(unit)
    if isinstance(order, Hold):
        return f"{me} H"
    if isinstance(order, Move):
        target = order.target
        overland = gmap.can_reach_province(unit.kind, unit.place, gmap.province_of[target])
        via = unit.kind == ARMY and (order.via_convoy or bool(order.path) or not overland)
        return f"{me} - {target}" + (" VIA" if via else "")
    if isinstance(order, Support):
        helped = _standing(position, order.supported)
        if helped is None:
            return None
        if order.target is None:
            return f"{me} S {unit_text(helped)}"
        return f"{me} S {unit_text(helped)} - {order.target}"
    if isinstance(order, Convoy):
        carried = _standing(position, order.convoyed)
        if carried is None:
            return None
        return f"{me} C {unit_text(carried)} - {order.target}"
    if isinstance(order, Retreat):
        return f"{me} R {order.target}"
    if isinstance(order, Disband):
        return f"{me} D"
    if isinstance(order, Build):
        return f"{me} B"
    return None


def accepted(result: OrderResult, given: Mapping[str, Sequence[str]]) -> bool:
    """Was this order given (its text is among ``given``, each power's texts) and accepted by arbitre?

    The judge's defaults (holds, disbands of units not retreated, civil disorder removals) were not given.
    """
    return (
        result.order is not None
        and result.outcome not in (ILLEGAL, INVALID)
        and result.reason not in ("no_order", "civil_disorder")
        and result.text in given.get(result.power, ())
    )


def movement_codes(outcome: PhaseOutcome) -> dict[str, list[str]]:
    """Each unit's result codes after a movement phase, keyed by the unit as it stood."""
    before = outcome.before
    by_province: dict[str, OrderResult] = {}
    for r in outcome.results:
        if r.order is not None and r.order.unit is not None and r.outcome not in (ILLEGAL, INVALID):
            by_province[r.order.unit.province] = r
    codes: dict[str, list[str]] = {}
    for prov, unit in before.units.items():
        found = by_province.get(prov)
        out: list[str] = []
        if found is not None and found.outcome == FAILS and not isinstance(found.order, Hold):
            code = _REASON_CODE.get(found.reason or "")
            if code is not None and not (code == DISRUPTED and prov in outcome.dislodged):
                out.append(code)
        if prov in outcome.dislodged:
            out.append(DISLODGED)
        codes[unit_text(unit)] = out
    return codes


def retreat_codes(outcome: PhaseOutcome, dislodged: Mapping[str, Dislodged]) -> dict[str, list[str]]:
    """Each retreating unit's result codes (``dislodged``: the units MILA lists, those with somewhere to go)."""
    codes: dict[str, list[str]] = {}
    by_province = {
        r.order.unit.province: r
        for r in outcome.results
        if r.order is not None and r.order.unit is not None and r.outcome not in (ILLEGAL, INVALID)
    }
    for prov, d in dislodged.items():
        found = by_province.get(prov)
        if found is not None and isinstance(found.order, Retreat):
            codes[unit_text(d.unit)] = [] if found.outcome == SUCCEEDS else [BOUNCE, DISBAND]
        else:
            codes[unit_text(d.unit)] = [DISBAND]
    return codes


def adjustment_codes(outcome: PhaseOutcome) -> dict[str, list[str]]:
    """Each build's and disband's result codes (``""`` done, ``void`` refused)."""
    codes: dict[str, list[str]] = {}
    for r in outcome.results:
        order = r.order
        if not isinstance(order, (Build, Disband)) or order.unit is None:
            continue
        if isinstance(order, Build):
            key = f"{order.unit.kind or ARMY} {order.unit.place}"
        else:
            unit = _standing(outcome.before, order.unit)
            key = unit_text(unit) if unit is not None else str(order.unit)
        codes.setdefault(key, []).append(OK if r.outcome == SUCCEEDS else VOID)
    return codes
