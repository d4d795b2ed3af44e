"""Replay jDip/godip text cases (real-game files) through the engine.

Each case gives a position, orders and the expected position after the phase
(``POSTSTATE`` and ``POSTSTATE_DISLODGED``, or ``POSTSTATE_SAME``).  The
runner compares unit sets: power, kind and place (coasts included).
"""

from __future__ import annotations

from arbitre.adjudicator import adjudicate
from arbitre.datc.text_cases import JudgeTextCase
from arbitre.maps import ARMY
from arbitre.orders import Move, OrderError
from arbitre.rules import RuleSet
from arbitre.state import Dislodged, Phase, PhaseKind, Position, Season, Unit
from arbitre.variants import make_rules

_SEASON = {"spring": Season.SPRING, "fall": Season.FALL, "autumn": Season.FALL, "winter": Season.WINTER}
_KIND = {"movement": PhaseKind.MOVEMENT, "retreat": PhaseKind.RETREATS, "adjustment": PhaseKind.ADJUSTMENTS}


def _unit(rules: RuleSet, power: str, text: str) -> Unit:
    order = rules.parse(text.strip() + " H")
    assert order.unit is not None and order.unit.kind is not None
    kind, place = order.unit.kind.upper(), order.unit.place
    if kind == ARMY:
        place = rules.game_map.province_of[place]
    return Unit(power, kind, place)


def case_position(rules: RuleSet, case: JudgeTextCase) -> Position:
    """The position a text case starts from."""
    gmap = rules.game_map
    kind = _KIND[case.phase_type.lower()]
    season = Season.WINTER if kind == PhaseKind.ADJUSTMENTS else _SEASON[case.season.lower()]
    units = {}
    for power, text in case.units:
        u = _unit(rules, power, text)
        units[gmap.province_of[u.place]] = u
    owners = {
        gmap.province_of[rules.parse(f"A {loc} H").unit.place]: p  # type: ignore[union-attr]
        for p, loc in case.supply_center_owners
    }
    if not owners:
        owners = rules.initial_owners()
    dislodged = {}
    for power, text in case.dislodged:
        u = _unit(rules, power, text)
        prov = gmap.province_of[u.place]
        attacker = None
        for outcome, _, order_text in case.results:
            try:
                order = rules.parse(order_text)
            except OrderError:
                continue
            if outcome == "SUCCESS" and isinstance(order, Move) and gmap.province_of[order.target] == prov:
                attacker = order.province
        dislodged[prov] = Dislodged(u, attacker, None)
    return Position(gmap.name, Phase(case.year, season, kind), units, owners, dislodged)


def run_text_case(case: JudgeTextCase, rules: RuleSet | None = None) -> list[str]:
    """Adjudicate one text case; the list of differences from its expected result (empty: pass)."""
    rules = rules or make_rules("standard")
    try:
        position = case_position(rules, case)
        orders: dict[str, list[str]] = {}
        for power, text in case.orders:
            orders.setdefault(power, []).append(text)
        outcome = adjudicate(rules, position, orders)
    except Exception as err:  # a crash is a failure with its cause
        return [f"crash: {type(err).__name__}: {err}"]
    problems = []
    got = {(u.power, u.kind, u.place) for u in outcome.after.units.values()}
    if case.post_same:
        want = {(u.power, u.kind, u.place) for u in position.units.values()}
        if got != want:
            problems.append(f"expected no change; moved: {sorted(got ^ want)}")
        return problems
    if case.post_units is not None:
        want = set()
        for power, text in case.post_units:
            u = _unit(rules, power, text)
            want.add((u.power, u.kind, u.place))
        if got != want:
            problems.append(f"units differ: missing {sorted(want - got)}, extra {sorted(got - want)}")
    if case.post_dislodged is not None:
        got_d = {(d.unit.power, d.unit.kind, d.unit.place) for d in outcome.dislodged.values()}
        want_d = set()
        for power, text in case.post_dislodged:
            u = _unit(rules, power, text)
            want_d.add((u.power, u.kind, u.place))
        # The files leave out units that have nowhere to retreat ("destroyed").
        kept = {(d.unit.power, d.unit.kind, d.unit.place) for d in outcome.dislodged.values() if d.retreats}
        if not (want_d <= got_d and kept <= want_d):
            problems.append(f"dislodged differ: missing {sorted(want_d - got_d)}, extra {sorted(got_d - want_d)}")
    return problems
