"""Convert the DATC v3.2 chapter 6 cases and the real-game replays into the project's case files.

Run by a developer when the sources change (``.venv/bin/python tools/convert_datc.py``); the results,
``tests/cases/datc_v3_2.json`` and ``tests/cases/replays.json``, are committed and played by
``tests/test_cases.py`` through the JSON interface (format: docs/cases.md).

* DATC: ``../shared/datc/DATC_v3_2_chapter6.html`` is read by :func:`arbitre.datc.parse_datc_html`.
  The position is every unit the orders name plus the case's facts (units and owned centres); the
  orders are kept word for word as the DATC writes them; each expected result is keyed by the
  order in our short notation (as the JSON interface prints it) with the DATC's own words.  The one
  documented erratum (``arbitre.datc.runner.ERRATA``) is applied and noted on its case.
* Replays: the real-game files of godip and jDip (``../shared/datc/godip/real.txt``, ``dipai.txt``,
  ``jdip/dipai.txt``; jdip/real.txt holds the same games as godip/real.txt with a typo) read by
  :func:`arbitre.datc.parse_judge_text`: position, orders, units after and dislodged units.
"""

from __future__ import annotations

from typing import Any

from cases_common import SHARED, write_case_file

from arbitre.adjudicator import adjudicate
from arbitre.datc import DatcCase, DatcOrder, JudgeTextCase, parse_datc_html, parse_judge_text
from arbitre.datc.runner import ERRATA, starting_position
from arbitre.datc.text_runner import case_position
from arbitre.judge import position_to_data
from arbitre.orders import OrderError
from arbitre.rules import RuleSet
from arbitre.variants import make_rules

DATC_HTML = SHARED / "datc" / "DATC_v3_2_chapter6.html"
REPLAY_FILES = ["godip/real.txt", "godip/dipai.txt", "jdip/dipai.txt"]


def short(rules: RuleSet, text: str) -> str:
    """An order in our short notation, as the JSON interface prints it (the text itself if unreadable)."""
    try:
        return rules.parse(text).format()
    except OrderError:
        return text


def _orders(rows: tuple[DatcOrder, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for o in rows:
        out.setdefault(o.power, []).append(o.text)
    return out


def _results(rules: RuleSet, case: DatcCase, rows: tuple[DatcOrder, ...], notes: list[str]) -> list[list[str]]:
    out = []
    for o in rows:
        words = o.resolution
        erratum = ERRATA.get((case.case_id, o.power, o.text))
        if erratum is not None:
            notes.append(f"Erratum: the DATC marks {o.power} {o.text} '{' '.join(words)}'; checked as "
                         f"'{' '.join(erratum[0])}'. {erratum[1]}")
            words = erratum[0]
        out.append([o.power, short(rules, o.text), " ".join(words)])
    return out


def datc_case(rules: RuleSet, case: DatcCase) -> dict[str, Any]:
    """One DATC case in the case format."""
    position = position_to_data(starting_position(rules, case), rules.game_map)
    position.pop("dislodged", None)
    notes: list[str] = []
    expect: dict[str, Any] = {"results": _results(rules, case, case.orders, notes)}
    if case.phase_kind == "adjustment":
        removed = []
        for power, text in case.automatic_disbands:
            unit = rules.parse(text + " H").unit
            assert unit is not None
            removed.append([power, f"{unit.kind} {unit.place} D"])
        expect["civil_disorder"] = removed
    steps: list[dict[str, Any]] = [{"step": "adjudicate", "orders": _orders(case.orders), "expect": expect}]
    if case.retreat_orders:
        steps.append({"step": "adjudicate", "orders": _orders(case.retreat_orders),
                      "expect": {"results": _results(rules, case, case.retreat_orders, notes)}})
    out: dict[str, Any] = {"id": case.case_id, "title": f"{case.section_title}: {case.title}"}
    if notes:
        out["note"] = " ".join(notes)
    out.update(position={"map": "standard", **position}, steps=steps)
    return out


def _units(rules: RuleSet, rows: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, text in rows:
        unit = rules.parse(text.strip() + " H").unit
        assert unit is not None and unit.kind is not None
        place = unit.place if unit.kind != "A" else rules.game_map.province_of[unit.place]
        out.setdefault(power, []).append(f"{unit.kind.upper()} {place}")
    return {p: sorted(us) for p, us in sorted(out.items())}


def replay_case(rules: RuleSet, source: str, case: JudgeTextCase) -> dict[str, Any]:
    """One phase of a real game in the case format."""
    position = position_to_data(case_position(rules, case), rules.game_map)
    if not case.supply_center_owners:
        position.pop("supply_centers")  # the home centres, the JSON interface's default
    for entries in position.get("dislodged", {}).values():
        for entry in entries:
            entry.pop("retreats")  # the engine works them out
    orders: dict[str, list[str]] = {}
    for power, text in case.orders:
        orders.setdefault(power, []).append(text)
    expect: dict[str, Any] = {}
    if case.post_same:
        expect["units"] = position["units"]
    elif case.post_units is not None:
        expect["units"] = _units(rules, case.post_units)
    if case.post_dislodged is not None:
        expect["dislodged_listed"] = {p: [{"unit": u} for u in us]
                                      for p, us in _units(rules, case.post_dislodged).items()}
    return {"id": f"{source}: {case.name}", "title": case.name,
            "position": {"map": "standard", **position},
            "steps": [{"step": "adjudicate", "orders": orders, "expect": expect}]}


def main() -> None:
    """Write tests/cases/datc_v3_2.json and tests/cases/replays.json."""
    rules = make_rules("standard")
    cases = parse_datc_html(DATC_HTML.read_text(encoding="utf-8"))
    assert len(cases) == 176, len(cases)
    write_case_file(
        "datc_v3_2",
        "Converted from ../shared/datc/DATC_v3_2_chapter6.html (DATC v3.2, chapter 6, Lucas B. Kruijswijk) "
        "by tools/convert_datc.py: positions, orders and expected resolutions are the DATC's facts.",
        [datc_case(rules, c) for c in cases],
        notes="Orders as the DATC writes them; results keyed by the order in our short notation. "
              "Default DATC v3.2 preferences (no options).",
    )
    replays = [replay_case(rules, f, c) for f in REPLAY_FILES
               for c in parse_judge_text((SHARED / "datc" / f).read_text(encoding="utf-8"))]
    write_case_file(
        "replays",
        "Converted from ../shared/datc/godip/real.txt, godip/dipai.txt and jdip/dipai.txt (phases of real "
        "games, from the godip and jDip test suites) by tools/convert_datc.py.",
        replays,
        notes="dislodged_listed: the files leave out dislodged units with nowhere to retreat.",
    )


if __name__ == "__main__":
    main()
