"""Convert ../shared/maps/colonial/colonial.vdip-tests.json into the project's own case file.

Run once by a developer (``.venv/bin/python tools/convert_colonial_tests.py``); the result,
``tests/cases/colonial_vdiplomacy.json`` (format: docs/cases.md), is committed and played by
``tests/test_cases.py``.  Each vDiplomacy order row becomes an order
in our notation; the expected word (``Success``/``Hold``/``Dislodged``) and the
order's validity are kept as vDiplomacy stores them.  The pseudo-unit in
``SUEZ`` becomes a Suez permission (``SUEZ F MED``) of its power.  Three
additions of ours are marked as such: the orders vDiplomacy leaves commented
out because its order screen refuses them, the expectation for two train
orders in one turn (``shared/spec/colonial.md``: both hold), and ``ends_in``,
the station where each train ends under the model of the spec's appendix.
"""

from __future__ import annotations

import json
from typing import Any

from cases_common import SHARED, write_case_file

from arbitre.orders import OrderError
from arbitre.variants import make_rules

SOURCE = SHARED / "maps" / "colonial" / "colonial.vdip-tests.json"
STATIONS = ["MOS", "PRM", "OMS", "KRA", "IRK", "VLA"]

# Where each train ends, worked out by hand from the model in shared/spec/colonial.md (appendix and
# settled points); "home" = it stays where it started, None = it is dislodged.
ENDS_IN: dict[str, str | None] = {
    "TSR.B1a": "PRM", "TSR.B1b": "PRM", "TSR.B1c": "PRM", "TSR.B1d": "PRM",
    "TSR.B2b": "IRK", "TSR.B2c": "IRK", "TSR.B2d": "KRA", "TSR.B2e": "PRM",
    "TSR.B3a": "OMS", "TSR.B3b": "OMS", "TSR.B3c": "OMS", "TSR.B4a": "IRK", "TSR.B4b": "IRK",
    "TSR.B5b": "IRK", "TSR.B7a": "PRM", "TSR.B7b": "PRM", "TSR.B8a": "PRM", "TSR.B8b": "KRA",
    "TSR.B9a": "PRM", "TSR.B11": "OMS",
    "TSR.C1": "KRA", "TSR.C2": "KRA", "TSR.C3b": "KRA", "TSR.C4": "IRK", "TSR.C5": "home",
    "TSR.C6": "KRA", "TSR.C7": "IRK", "TSR.C8": "home", "TSR.C9a": "KRA", "TSR.C9b": "KRA",
    "TSR.C9c": "home", "TSR.C11a": "IRK", "TSR.C12a": "home",
    "TSR.D1": "PRM", "TSR.D2": "PRM", "TSR.D4b": "PRM", "TSR.D4c": "OMS", "TSR.D4d": "PRM",
    "TSR.D6": "home", "TSR.D7": "home",
    "TSR.E2": "KRA", "TSR.E2a": "home", "TSR.E3": "home", "TSR.E4": "home", "TSR.E6": "home",
    "TSR.E7": "home", "TSR.E9": None, "TSR.F2": None,
}
NOTES = {
    "TSR.A3": "Added by us: vDiplomacy's order screen refuses a second train order. shared/spec/colonial.md "
              "settles the case: two train orders are both refused, and both armies hold.",
    "TSR.B11": "vDiplomacy's row for A AKM is a Move to KRA that also names MON as 'from'; it is read as "
               "the move A AKM - KRA.",
    "TSR.C12a": "shared/spec/colonial.md settles it: follow the test file (the train stays in Omsk).",
    "SUEZ.A2": "Added by us: the permission that vDiplomacy's order screen refuses (nobody in Egypt).",
    "SUEZ.A3": "Added by us: the permission that vDiplomacy's order screen refuses (a foreign unit in Egypt).",
}


def _order_text(row: dict[str, Any], kinds: dict[str, str]) -> str | None:
    unit = f"{row['unit']} {row['location']}"
    order, to, frm = row["order"], row["to"], row["from"]
    if row["location"] == "SUEZ":
        return None if order == "Hold" else f"SUEZ {kinds.get(to, 'F')} {to}"
    if order == "Hold":
        return f"{unit} H"
    if order == "Move":
        if row["via_flag"] and row["location"] in STATIONS and to in STATIONS:
            return f"{unit} - TSR - {to}"
        return f"{unit} - {to}" + (" VIA" if row["via_flag"] else "")
    if order == "Support hold":
        return f"{unit} S {kinds.get(to, '')} {to}".replace("  ", " ")
    if order == "Support move":
        return f"{unit} S {kinds.get(frm, '')} {frm} - {to}".replace("  ", " ")
    raise SystemExit(f"unknown vDiplomacy order {order!r}")


def convert_case(test: dict[str, Any]) -> dict[str, Any]:
    """One vDiplomacy test in our format."""
    rows = [dict(r, commented_out=False) for r in test["orders"]]
    rows += [dict(r, commented_out=True) for r in test.get("commented_out_orders_illegal_in_ui", [])]
    kinds = {r["location"]: r["unit"] for r in rows if r["location"] != "SUEZ"}
    units = [{"power": r["power"], "unit": f"{r['unit']} {r['location']}"} for r in rows if r["location"] != "SUEZ"]
    orders = []
    for r in rows:
        text = _order_text(r, kinds)
        if text is None:
            continue
        entry: dict[str, Any] = {"power": r["power"], "order": text, "expected": r["expected"],
                                 "order_valid": r["order_valid"]}
        if r["commented_out"]:
            entry["commented_out"] = True
        if test["id"] == "TSR.A3":
            entry.update(expected="Hold", order_valid=False)
        orders.append(entry)
    case: dict[str, Any] = {"id": test["id"], "title": test["title"], "units": units, "orders": orders}
    trains = [r for r in rows if r["via_flag"] and r["unit"] == "A" and r["power"] == "RUSSIA"
              and r["location"] in STATIONS and r["to"] in STATIONS and r["order_valid"]]
    if ENDS_IN.get(test["id"]) is not None and len(trains) == 1:
        end = ENDS_IN[test["id"]]
        case["ends_in"] = {trains[0]["location"]: trains[0]["location"] if end == "home" else end}
    if test["id"] in NOTES:
        case["note"] = NOTES[test["id"]]
    return case


def _words(row: dict[str, Any]) -> str:
    """vDiplomacy's stored outcome in the case format's words (docs/cases.md)."""
    train = " - TSR - " in row["order"]
    if not row["order_valid"]:
        return "illegal"  # our judge must refuse what vDiplomacy's order screen refuses
    if row["expected"] == "Dislodged":
        return "dislodged"
    if row["expected"] == "Success":
        if row["order"].endswith(" H"):
            return "stands"  # a hold "succeeds" unless dislodged
        # vDiplomacy stores a train stopped part-way as Success.
        return "succeeds|=partial stands" if train else "succeeds stands"
    assert row["expected"] == "Hold", row
    return "=fails stands"


RULES = make_rules("colonial", options={"colonial": "vdiplomacy"})


def _short(text: str) -> str:
    """The order as the JSON interface prints it (``SUEZ F MED`` → ``SC F MED - RED``)."""
    try:
        return RULES.parse(text).format()
    except OrderError:
        return text


def to_case_format(case: dict[str, Any]) -> dict[str, Any]:
    """One converted vDiplomacy test as a case record."""
    units: dict[str, list[str]] = {}
    for u in case["units"]:
        units.setdefault(u["power"], []).append(u["unit"])
    orders: dict[str, list[str]] = {}
    for row in case["orders"]:
        orders.setdefault(row["power"], []).append(row["order"])
    expect: dict[str, Any] = {"results": [[r["power"], _short(r["order"]), _words(r)] for r in case["orders"]]}
    owner = {u["unit"].split()[1]: (u["power"], u["unit"].split()[0]) for u in case["units"]}
    if "ends_in" in case:
        expect["units_at"] = {end: f"{owner[origin][0]} {owner[origin][1]} {end}"
                              for origin, end in case["ends_in"].items()}
    out: dict[str, Any] = {"id": case["id"], "title": case["title"]}
    if "note" in case:
        out["note"] = case["note"]
    out["position"] = {"map": "colonial", "options": {"colonial": "vdiplomacy"}, "phase": "S1870M",
                       "units": units, "supply_centers": {}}
    out["steps"] = [{"step": "adjudicate", "orders": orders, "expect": expect}]
    return out


def main() -> None:
    """Write tests/cases/colonial_vdiplomacy.json."""
    src = json.loads(SOURCE.read_text(encoding="utf-8"))
    cases = [convert_case(t) for t in src["tests"]]
    missing = set(ENDS_IN) - {c["id"] for c in cases if "ends_in" in c} - {
        k for k, v in ENDS_IN.items() if v is None}
    if missing:
        raise SystemExit(f"ends_in not attached: {sorted(missing)}")
    write_case_file(
        "colonial_vdiplomacy",
        "Converted by tools/convert_colonial_tests.py from ../shared/maps/colonial/colonial.vdip-tests.json "
        "(61 of vDiplomacy's Colonial test cases, github diptobi1/vDiplomacy commit c935c443, "
        "variants/Colonial/datc.php, AGPL-3.0; only the test data, in our notation).",
        [to_case_format(c) for c in cases],
        notes="Words from vDiplomacy's stored outcome: Success (a train stopped part-way counts as Success, "
              "as vDiplomacy stores it), Hold (the order fails and the unit stays), Dislodged; an order "
              "vDiplomacy's screen refuses must be refused (illegal). units_at: ours, where a train ends "
              "under the model of shared/spec/colonial.md (a dislodged train has none).",
    )


if __name__ == "__main__":
    main()
