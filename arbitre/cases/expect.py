"""Checks of one answer of the JSON interface against a step's ``expect`` record (docs/cases.md)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from arbitre.cases.words import word_holds

Problems = list[str]


def _province(place: str) -> str:
    return place.split("/")[0].upper()


def _unit_place(order: str) -> str | None:
    """The place of the unit an order names (``F NTH - PIC`` → ``NTH``), None for ``WAIVE``."""
    parts = order.split()
    return parts[1] if len(parts) >= 2 else None


def _dislodged_entry(answer: Mapping[str, Any], power: str, order: str) -> Mapping[str, Any] | None:
    place = _unit_place(order)
    if place is None:
        return None
    for entry in answer.get("next", {}).get("dislodged", {}).get(power, []):
        unit = entry["unit"].split()
        if len(unit) == 2 and _province(unit[1]) == _province(place):
            return dict(entry)
    return None


def _split(order: str) -> tuple[str, str] | None:
    """(province of the ordered unit, the rest of the order): ``A PAR - BUR`` and ``PAR - BUR`` → (PAR, ``- BUR``)."""
    parts = order.split()
    if len(parts) >= 2 and parts[0].isalpha() and len(parts[0]) <= 2:
        parts = parts[1:]  # the unit kind (A, F, SM), which the interface may fill in or change
    return (_province(parts[0]), " ".join(parts[1:])) if parts else None


def _take(pool: dict[tuple[str, str], list[Mapping[str, Any]]], power: str, order: str) -> Mapping[str, Any] | None:
    """The result of ``order``: the same text, else the one result for the same unit of ``power``.

    The interface prints orders completed from the position and the options (``F GAS - SPA`` →
    ``F GAS - SPA/NC``, ``PAR - PIC`` → ``A PAR - PIC``): the unit and the rest of the order are
    compared first, then the unit alone.
    """
    same = pool.get((power, order))
    if same:
        return same.pop(0)
    key = _split(order)
    if key is None:
        return None
    mine = [(_split(text), rs) for (p, text), rs in pool.items() if p == power and rs]
    for near in ([rs for k, rs in mine if k == key], [rs for k, rs in mine if k is not None and k[0] == key[0]]):
        if len(near) == 1 and len(near[0]) == 1:
            return near[0].pop(0)
    return None


def check_results(answer: Mapping[str, Any], rows: list[list[str]]) -> Problems:
    """``[power, order, "word word"]`` rows: the n-th copy of an order is matched to the n-th result."""
    problems: Problems = []
    pool: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in answer.get("results", []):
        pool.setdefault((r["power"], r["order"]), []).append(r)
    for power, order, words in rows:
        result = _take(pool, power, order)
        if result is None:
            left = sorted(r["order"] for (p, _), rs in pool.items() if p == power for r in rs)
            problems.append(f"{power}: {order}: no result (results left: {left})")
            continue
        order = result["order"]
        dislodged = _dislodged_entry(answer, power, order)
        for word in words.split():
            if not word_holds(word, result, dislodged):
                got = f"{result.get('outcome')} ({result.get('reason')})" + (", dislodged" if dislodged else "")
                problems.append(f"{power}: {order}: expected {word}, got {got}")
    return problems


def _units(answer: Mapping[str, Any]) -> set[tuple[str, str]]:
    return {(p, " ".join(u.upper().split())) for p, us in answer.get("next", {}).get("units", {}).items() for u in us}


def check_units(answer: Mapping[str, Any], want: Mapping[str, list[str]]) -> Problems:
    """Every unit after the phase, by power (an exact set)."""
    got = _units(answer)
    wanted = {(p, " ".join(u.upper().split())) for p, us in want.items() for u in us}
    if got == wanted:
        return []
    return [f"units after: missing {sorted(wanted - got)}, extra {sorted(got - wanted)}"]


def check_units_of(answer: Mapping[str, Any], want: Mapping[str, list[str]]) -> Problems:
    """The units of the named powers after the phase (an exact set for each power named)."""
    got = _units(answer)
    problems: Problems = []
    for power, units in want.items():
        have = sorted(u for p, u in got if p == power)
        if have != sorted(" ".join(u.upper().split()) for u in units):
            problems.append(f"units of {power} after: expected {sorted(units)}, got {have}")
    return problems


def check_units_at(answer: Mapping[str, Any], want: Mapping[str, str]) -> Problems:
    """``province → "POWER KIND PLACE"``: the unit in that province after the phase."""
    by_prov = {_province(u.split()[1]): f"{p} {u}" for p, u in _units(answer)}
    return [
        f"after: {prov} should hold {unit}, holds {by_prov.get(prov)}"
        for prov, unit in want.items()
        if by_prov.get(prov) != unit
    ]


def check_empty(answer: Mapping[str, Any], provinces: list[str]) -> Problems:
    """Provinces with no unit after the phase."""
    taken = {_province(u.split()[1]) for _, u in _units(answer)}
    return [f"after: {prov} should be empty" for prov in provinces if prov in taken]


def _dislodged(answer: Mapping[str, Any]) -> dict[tuple[str, str], Mapping[str, Any]]:
    return {(p, e["unit"].upper()): e for p, es in answer.get("next", {}).get("dislodged", {}).items() for e in es}


def _same_entry(got: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    for key, value in want.items():
        if key == "retreats":
            if sorted(got.get("retreats") or []) != sorted(value):
                return False
        elif key != "unit" and got.get(key) != value:
            return False
    return True


def check_dislodged(
    answer: Mapping[str, Any], want: Mapping[str, list[Mapping[str, Any]]], *, may_omit_destroyed: bool = False
) -> Problems:
    """Every dislodged unit by power, each ``{"unit", "attacker_from"?, "retreats"?}``.

    With ``may_omit_destroyed`` (the replay files) a dislodged unit with nowhere to go may be left out.
    """
    got = _dislodged(answer)
    wanted = {(p, e["unit"].upper()): e for p, es in want.items() for e in es}
    problems: Problems = []
    missing = sorted(set(wanted) - set(got))
    extra = sorted(k for k in set(got) - set(wanted) if not (may_omit_destroyed and not got[k].get("retreats")))
    if missing or extra:
        problems.append(f"dislodged: missing {missing}, extra {extra}")
    for key, entry in wanted.items():
        if key in got and not _same_entry(got[key], entry):
            problems.append(f"dislodged {key}: expected {dict(entry)}, got {dict(got[key])}")
    return problems


def check_standoffs(answer: Mapping[str, Any], provinces: list[str]) -> Problems:
    """A standoff: the province is left empty and a move to it failed."""
    problems = check_empty(answer, provinces)
    for prov in provinces:
        if not any(
            r["order"].split()[-1:] == [prov] and r.get("outcome") == "fails" and " - " in r["order"]
            for r in answer.get("results", [])
        ):
            problems.append(f"{prov}: no failed move to it, so no standoff")
    return problems


def check_civil_disorder(answer: Mapping[str, Any], rows: list[list[str]]) -> Problems:
    """``[power, order]``: exactly the removals made for civil disorder."""
    got = sorted([r["power"], r["order"]] for r in answer.get("results", []) if r.get("reason") == "civil_disorder")
    return [] if got == sorted(rows) else [f"civil disorder removed {got}, expected {sorted(rows)}"]


def _lines_match(got: list[Mapping[str, Any]], want: list[Any]) -> bool:
    """Expected lines are English strings or partial ``{"kind", "en", "fr"}`` objects, in order."""
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        items = {"en": w} if isinstance(w, str) else w
        if any(g.get(k) != v for k, v in items.items()):
            return False
    return True


def check_report(answer: Mapping[str, Any], want: list[Any]) -> Problems:
    """The report told to the viewer, line by line."""
    got = answer.get("report", [])
    return [] if _lines_match(got, want) else [f"report: expected {want}, got {[g.get('en') for g in got]}"]


def check_reveals(answer: Mapping[str, Any], want: Mapping[str, list[Any]]) -> Problems:
    """What the lock told each power, as this viewer may read it (powers told nothing are left out)."""
    got = answer.get("reveals", {})
    problems: Problems = []
    if sorted(got) != sorted(want):
        problems.append(f"reveals: told {sorted(got)}, expected {sorted(want)}")
    for power, lines in want.items():
        if not _lines_match(got.get(power, []), lines):
            problems.append(f"reveals to {power}: expected {lines}, got {[g.get('en') for g in got.get(power, [])]}")
    return problems


def check_absent(answer: Mapping[str, Any], texts: list[str]) -> Problems:
    """Strings that must appear nowhere in the answer (hidden units, spy orders…)."""
    dumped = json.dumps(answer, ensure_ascii=False)
    return [f"{text!r} appears in the answer" for text in texts if text in dumped]


def check_results_absent(answer: Mapping[str, Any], orders: list[str]) -> Problems:
    """Orders that must have no result in the answer."""
    given = {r["order"] for r in answer.get("results", [])}
    return [f"{order}: has a result, expected none" for order in orders if order in given]


def check_supply_centers(answer: Mapping[str, Any], want: Mapping[str, list[str]]) -> Problems:
    """``power → centres``: each listed centre is that power's after the phase (others may own more)."""
    got = answer.get("next", {}).get("supply_centers", {})
    return [
        f"{centre} should be {power}'s after the phase"
        for power, centres in want.items()
        for centre in centres
        if centre not in got.get(power, [])
    ]


def _field(name: str, path: tuple[str, ...]) -> Callable[[Mapping[str, Any], Any], Problems]:
    def check(answer: Mapping[str, Any], want: Any) -> Problems:
        got: Any = answer
        for key in path:
            got = got.get(key) if isinstance(got, Mapping) else None
        return [] if got == want else [f"{name}: expected {want!r}, got {got!r}"]

    return check


CHECKS: dict[str, Callable[[Mapping[str, Any], Any], Problems]] = {
    "results": check_results,
    "results_absent": check_results_absent,
    "units": check_units,
    "units_of": check_units_of,
    "units_at": check_units_at,
    "empty": check_empty,
    "dislodged": check_dislodged,
    "dislodged_listed": lambda a, w: check_dislodged(a, w, may_omit_destroyed=True),
    "standoffs": check_standoffs,
    "civil_disorder": check_civil_disorder,
    "phase": _field("phase after", ("next", "phase")),
    "supply_centers": check_supply_centers,
    "extras": _field("extras after", ("next", "extras")),
    "report": check_report,
    "reveals": check_reveals,
    "rejected": lambda a, w: check_results({"results": a.get("rejected", []), "next": {}}, w),
    "absent": check_absent,
}
"""Every expectation a step may state, by its key in ``expect`` (docs/cases.md)."""


def check_answer(answer: Mapping[str, Any], expect: Mapping[str, Any]) -> Problems:
    """Every problem of ``answer`` against ``expect`` (empty: it holds)."""
    problems: Problems = []
    for key, want in expect.items():
        if key in ("error", "winners"):
            continue  # the runner checks these: the request is refused, the rule set counts the winners
        if key not in CHECKS:
            raise ValueError(f"unknown expectation {key!r} (see docs/cases.md)")
        problems.extend(CHECKS[key](answer, want))
    return problems
