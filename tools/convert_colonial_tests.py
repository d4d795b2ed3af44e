"""Convert ../shared/maps/colonial/colonial.vdip-tests.json into the project's own test data.

Run once by a developer (``python tools/convert_colonial_tests.py``); the result,
``tests/data/colonial/vdiplomacy.json``, is committed and read by
``tests/test_colonial_cases.py``.  Each vDiplomacy order row becomes an order
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "maps" / "colonial" / "colonial.vdip-tests.json"
TARGET = ROOT / "tests" / "data" / "colonial" / "vdiplomacy.json"
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


def main() -> None:
    """Write tests/data/colonial/vdiplomacy.json."""
    src = json.loads(SOURCE.read_text(encoding="utf-8"))
    out = {
        "source": (
            "Converted by tools/convert_colonial_tests.py from shared/maps/colonial/colonial.vdip-tests.json "
            "(61 of vDiplomacy's Colonial test cases, github diptobi1/vDiplomacy commit c935c443, "
            "variants/Colonial/datc.php, AGPL-3.0; only the test data, in our notation)."
        ),
        "rules": {"map": "colonial", "options": {"colonial": "vdiplomacy"}},
        "how_to_read": {
            "units": "the position: every unit named by an order row (phase S1870M, no centre owned)",
            "expected": "vDiplomacy's stored outcome. Success: the order succeeds (a train move stopped "
                        "part-way counts as Success, as vDiplomacy stores it); Hold: the order fails and the "
                        "unit stays (a refused order too); Dislodged: the unit is dislodged.",
            "order_valid": "false when vDiplomacy's order screen refuses the order: our judge must refuse it",
            "commented_out": "an order vDiplomacy's test leaves commented out because its screen refuses it",
            "ends_in": "ours: where the train's army ends (its own province if it stays home); a dislodged "
                       "train has no ends_in",
        },
        "cases": [convert_case(t) for t in src["tests"]],
    }
    missing = set(ENDS_IN) - {c["id"] for c in out["cases"] if "ends_in" in c} - {
        k for k, v in ENDS_IN.items() if v is None}
    if missing:
        raise SystemExit(f"ends_in not attached: {sorted(missing)}")
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
