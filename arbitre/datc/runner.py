"""Run DATC cases through the engine and compare every order's expected outcome.

The DATC's resolution words are checked against the engine's results:

* ``succeeds`` / ``fails``: the order's outcome;
* ``given`` / ``cut``: a support that counts / is cut (or void);
* ``available`` / ``disrupted``: a convoy that stands / is disrupted;
* ``invalid``: a legal support or convoy that matches no order (void);
* ``illegal``: an order the rules do not allow;
* ``dislodged`` / ``stands`` / ``destroyed``: what becomes of the unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitre.adjudicator import FAILS, ILLEGAL, INVALID, SUCCEEDS, OrderResult, PhaseOutcome, adjudicate
from arbitre.datc.html_cases import DatcCase, DatcOrder
from arbitre.maps import ARMY
from arbitre.orders import OrderError
from arbitre.rules import RuleSet
from arbitre.state import Phase, Position, Unit
from arbitre.variants import make_rules

ERRATA: dict[tuple[str, str, str], tuple[tuple[str, ...], str]] = {
    ("6.D.4", "GERMANY", "A Berlin Supports F Kiel"): (
        ("cut",),
        "v3.2 marks this support 'given', but Berlin is attacked from Prussia, which cuts a hold "
        "support under every rulebook; the identical position in 6.D.5 is marked 'cut'. "
        "The case's point (the Russian move fails) is checked as written.",
    ),
}
"""Known slips in the DATC source: (case, power, order) → (corrected tokens, why).

Each correction is reported next to the case; nothing else is changed.
"""


@dataclass
class CaseReport:
    """The verdict on one DATC case: ``problems`` is empty when it passes."""

    case: DatcCase
    problems: list[str] = field(default_factory=list)
    errata: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when every expectation held."""
        return not self.problems


def _unit_of(rules: RuleSet, text: str) -> tuple[str, str] | None:
    """(kind, place) of the unit an order names, or None if it cannot be read."""
    try:
        order = rules.parse(text)
    except OrderError:
        return None
    if order.unit is None or order.unit.kind is None:
        return None
    return order.unit.kind, order.unit.place


def starting_position(rules: RuleSet, case: DatcCase) -> Position:
    """The position a DATC case describes: ordered units where their orders say, plus the facts."""
    gmap = rules.game_map
    units: dict[str, Unit] = {}
    owners: dict[str, str] = {}
    for fact in case.facts:
        try:
            place = rules.parse(f"A {fact.location} H").unit.place  # type: ignore[union-attr]
        except OrderError as err:
            raise ValueError(f"{case.case_id}: cannot read fact location {fact.location!r}: {err}") from err
        if fact.kind == "SC":
            owners[gmap.province_of[place]] = fact.power
        else:
            if fact.kind == ARMY:
                place = gmap.province_of[place]
            units[gmap.province_of[place]] = Unit(fact.power, fact.kind, place)
    winter = case.phase_kind == "adjustment"
    for order in case.orders:
        if winter:
            continue  # in winter cases the facts list every unit
        found = _unit_of(rules, order.text)
        if found is None:
            continue
        kind, place = found
        if kind == ARMY:
            place = gmap.province_of[place]
        prov = gmap.province_of[place]
        units.setdefault(prov, Unit(order.power, kind, place))
    phase = Phase.parse("W1901A" if winter else "S1901M")
    return Position(gmap.name, phase, units, owners)


def _match(order: DatcOrder, result: OrderResult, outcome: PhaseOutcome, dislodged_next: bool) -> list[str]:
    problems = []
    for token in order.resolution:
        ok: bool
        if token in ("succeeds", "given", "available"):
            ok = result.outcome == SUCCEEDS
        elif token in ("fails", "cut", "disrupted"):
            ok = result.outcome == FAILS and result.reason != "void"
        elif token == "invalid":
            ok = result.outcome == FAILS and result.reason == "void"
        elif token == "illegal":
            ok = result.outcome in (ILLEGAL, INVALID)
        elif token == "dislodged":
            ok = dislodged_next
        elif token == "stands":
            ok = not dislodged_next
        elif token == "destroyed":
            prov = None if result.order is None or result.order.unit is None else result.order.unit.province
            ok = dislodged_next and (
                prov is None or not outcome.dislodged.get(prov) or not outcome.dislodged[prov].retreats
            )
        else:
            ok = False
        if not ok:
            problems.append(
                f"{order.power}: {order.text}: expected {token}, got {result.outcome}"
                + (f" ({result.reason})" if result.reason else "")
            )
    return problems


def _check_phase(orders: tuple[DatcOrder, ...], outcome: PhaseOutcome, rules: RuleSet, report: CaseReport) -> list[str]:
    problems: list[str] = []
    by_text: dict[tuple[str, str], list[OrderResult]] = {}
    for r in outcome.results:
        by_text.setdefault((r.power, r.text), []).append(r)
    for order in orders:
        same = by_text.get((order.power, order.text))
        result = same.pop(0) if same else None  # the n-th copy of an order gets the n-th result
        if result is None:
            problems.append(f"{order.power}: {order.text}: no result")
            continue
        unit = _unit_of(rules, order.text)
        dislodged = False
        if unit is not None:
            dislodged = rules.game_map.province_of[unit[1]] in outcome.dislodged
        erratum = ERRATA.get((report.case.case_id, order.power, order.text))
        if erratum is not None:
            order = DatcOrder(order.power, order.text, erratum[0])
            report.errata.append(f"{order.power}: {order.text}: checked as {'/'.join(erratum[0])}: {erratum[1]}")
        problems.extend(_match(order, result, outcome, dislodged))
    return problems


def run_case(case: DatcCase, rules: RuleSet | None = None) -> CaseReport:
    """Adjudicate one case (and its retreat phase) and compare with the expectations."""
    rules = rules or make_rules("standard")
    report = CaseReport(case)
    try:
        position = starting_position(rules, case)
        orders: dict[str, list[str]] = {}
        for o in case.orders:
            orders.setdefault(o.power, []).append(o.text)
        outcome = adjudicate(rules, position, orders)
        report.problems.extend(_check_phase(case.orders, outcome, rules, report))
        if case.automatic_disbands:
            got = {(r.power, r.order_text) for r in outcome.results if r.reason == "civil_disorder"}
            want = set()
            for power, text in case.automatic_disbands:
                unit = _unit_of(rules, text)
                want.add((power, f"{unit[0]} {unit[1]} D" if unit else text))
            if got != want:
                report.problems.append(f"civil disorder removed {sorted(got)}, expected {sorted(want)}")
        elif case.phase_kind == "adjustment":
            extra = [r.order_text for r in outcome.results if r.reason == "civil_disorder"]
            if extra:
                report.problems.append(f"unexpected civil-disorder removals {extra}")
        if case.retreat_orders:
            retreat_orders: dict[str, list[str]] = {}
            for o in case.retreat_orders:
                retreat_orders.setdefault(o.power, []).append(o.text)
            retreat = adjudicate(rules, outcome.after, retreat_orders)
            report.problems.extend(_check_phase(case.retreat_orders, retreat, rules, report))
    except Exception as err:  # a crash is a failed case, reported with its cause
        report.problems.append(f"crash: {type(err).__name__}: {err}")
    return report
