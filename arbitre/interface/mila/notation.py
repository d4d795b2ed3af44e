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


def goes_by_convoy(gmap: GameMap, outcome: PhaseOutcome, army_prov: str, *, succeeded: bool = False) -> bool:
    """Did the army in ``army_prov`` mean to be convoyed as MILA reads intent, with convoys ordered for its move?

    The army's move is its first accepted one (with ``succeeded``: its move that succeeded).  MILA's
    intent: 'via', no way over land, or a fleet of the army's power among the convoys.
    """
    army = outcome.before.units.get(army_prov)
    if army is None or army.kind != ARMY:
        return False
    moves = (
        r
        for r in outcome.results
        if isinstance(r.order, Move) and r.order.unit is not None and r.order.unit.province == army_prov
    )
    if succeeded:
        found = next((r for r in moves if r.outcome == SUCCEEDS), None)
    else:
        found = next(moves, None)
        if found is not None and found.order is not None and r_outcome_refused(outcome, found.order):
            return False
    if found is None or not isinstance(found.order, Move):
        return False
    move = found.order
    target = gmap.province_of[move.target]
    convoys = [
        c
        for c in outcome.results
        if isinstance(c.order, Convoy)
        and c.outcome not in (ILLEGAL, INVALID)
        and c.order.convoyed.province == army_prov
        and gmap.province_of[c.order.target] == target
    ]
    intent = (
        move.via_convoy
        or bool(move.path)
        or not gmap.can_reach_province(ARMY, army.place, target)
        or any(c.power == army.power for c in convoys)
    )
    return bool(convoys) and intent


def _on_a_route(gmap: GameMap, outcome: PhaseOutcome, fleet: str, order: Convoy) -> bool:
    """Is the fleet in ``fleet`` among a chain of fleets convoying the same army that joins its start to its target?"""
    start, target = order.convoyed.province, gmap.province_of[order.target]
    fleets = {
        r.order.unit.province
        for r in outcome.results
        if isinstance(r.order, Convoy)
        and r.order.unit is not None
        and r.outcome not in (ILLEGAL, INVALID)
        and r.order.convoyed.province == start
        and gmap.province_of[r.order.target] == target
    }

    def near(prov: str) -> set[str]:
        unit = outcome.before.units.get(prov)
        place = unit.place if unit is not None else prov
        return {gmap.province_of[n] for n in gmap.neighbours("F", place)}

    group, frontier = {fleet}, [fleet]
    while frontier:
        for other in near(frontier.pop()) & fleets:
            if other not in group:
                group.add(other)
                frontier.append(other)
    return any(start in near(f) for f in group) and any(target in near(f) for f in group)


def r_outcome_refused(outcome: PhaseOutcome, order: Order) -> bool:
    """Was ``order`` refused (illegal or invalid) in this phase?"""
    return any(r.order is order and r.outcome in (ILLEGAL, INVALID) for r in outcome.results)


def _fail_code(gmap: GameMap | None, before: Position, found: OrderResult) -> str | None:
    """MILA's code of a failed order: a convoyed move with no route of convoys is ``no convoy`` (arbitre: void)."""
    code = _REASON_CODE.get(found.reason or "")
    move = found.order
    if code == VOID and gmap is not None and isinstance(move, Move) and move.unit is not None:
        army = before.units.get(move.unit.province)
        if army is not None and army.kind == ARMY:
            overland = gmap.can_reach_province(ARMY, army.place, gmap.province_of[move.target])
            if move.via_convoy or move.path or not overland:
                return NO_CONVOY
    return code


def movement_codes(outcome: PhaseOutcome, gmap: GameMap | None = None) -> dict[str, list[str]]:
    """Each unit's result codes after a movement phase, keyed by the unit as it stood.

    With ``gmap``, MILA's wording of a few failures is followed too: a support given to an attack on a unit
    of the supporter's own power that stays is ``void``; a convoy (or a support) for an army that was not
    convoyed as ordered is ``no convoy``.
    """
    before = outcome.before
    by_province: dict[str, OrderResult] = {}
    for r in outcome.results:
        if r.order is not None and r.order.unit is not None and r.outcome not in (ILLEGAL, INVALID):
            by_province[r.order.unit.province] = r
    # Each move's strength as MILA counts it before it sets the self-dislodging supports aside.
    strength: dict[str, int] = {p: 1 for p, r in by_province.items() if isinstance(r.order, Move)}
    for r in by_province.values():
        sup = r.order
        if isinstance(sup, Support) and sup.target is not None and r.outcome == SUCCEEDS:
            helped = by_province.get(sup.supported.province)
            if (
                helped is not None
                and isinstance(helped.order, Move)
                and gmap is not None
                and gmap.province_of[helped.order.target] == gmap.province_of[sup.target]
            ):
                strength[sup.supported.province] = strength.get(sup.supported.province, 1) + 1
    stayed = {p for p, u in before.units.items() if p in outcome.after.units and outcome.after.units[p] == u}
    stayed |= set(outcome.dislodged)
    codes: dict[str, list[str]] = {}
    for prov, unit in before.units.items():
        found = by_province.get(prov)
        out: list[str] = []
        if found is not None and found.outcome == FAILS and not isinstance(found.order, Hold):
            code = _fail_code(gmap, before, found)
            if code is not None and not (code == DISRUPTED and prov in outcome.dislodged):
                out.append(code)
        if gmap is not None and found is not None:
            order = found.order
            if isinstance(order, Support) and order.target is not None and not out:
                target = gmap.province_of[order.target]
                held = before.units.get(target)
                mine = strength.get(order.supported.province, 0)
                rivals = [
                    strength.get(p, 0)
                    for p, r in by_province.items()
                    if p != order.supported.province
                    and isinstance(r.order, Move)
                    and gmap.province_of[r.order.target] == target
                ]
                # MILA voids it when the supported move was the strongest into the province and stopped there.
                strongest = all(mine > other for other in rivals)
                if held is not None and held.power == unit.power and target in stayed and strongest:
                    out.append(VOID)
            if isinstance(order, (Support, Convoy)) and not out:
                army = order.supported.province if isinstance(order, Support) else order.convoyed.province
                mover = by_province.get(army)
                failed_convoy = mover is not None and _fail_code(gmap, before, mover) == NO_CONVOY
                off_route = isinstance(order, Convoy) and (
                    not goes_by_convoy(gmap, outcome, army) or not _on_a_route(gmap, outcome, prov, order)
                )
                if failed_convoy or off_route:
                    out.append(NO_CONVOY)
        if prov in outcome.dislodged:
            out.append(DISLODGED)
        codes[unit_text(unit)] = out
    return codes


def retreat_codes(outcome: PhaseOutcome, dislodged: Mapping[str, Dislodged]) -> dict[str, list[str]]:
    """Each retreating unit's result codes (``dislodged``: the units MILA lists, those with somewhere to go).

    A refused order is ``void`` (and its unit, when it was to retreat, is disbanded).
    """
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
    for r in outcome.results:
        if r.outcome not in (ILLEGAL, INVALID) or r.order is None or r.order.unit is None:
            continue
        prov = r.order.unit.province
        if prov in dislodged:
            codes[unit_text(dislodged[prov].unit)] = [VOID, DISBAND]
        elif prov in outcome.before.units:
            codes[unit_text(outcome.before.units[prov])] = [VOID]
    return codes


def adjustment_codes(outcome: PhaseOutcome) -> dict[str, list[str]]:
    """Each build's and disband's result codes (``""`` done, ``void`` refused), the refused ones first as MILA has them."""
    codes: dict[str, list[str]] = {}
    refused: dict[str, int] = {}
    for r in outcome.results:
        order = r.order
        if not isinstance(order, (Build, Disband)) or order.unit is None:
            continue
        if isinstance(order, Build):
            key = f"{order.unit.kind or ARMY} {order.unit.place}"
        else:
            unit = _standing(outcome.before, order.unit)
            key = unit_text(unit) if unit is not None else str(order.unit)
        entry = codes.setdefault(key, [])
        if r.outcome == SUCCEEDS:
            entry.append(OK)
        else:
            entry.insert(refused.get(key, 0), VOID)
            refused[key] = refused.get(key, 0) + 1
    return codes
