"""Move the DATC chapter-4 alternative cases into the case format (tests/cases/datc_options.json).

One record per (DATC case, option): the id is ``6.F.14 [convoy_paradox=1982]``, the option goes in
``position.options`` (``default``: none, the DATC v3.2 preferences).  The expected words are exact
outcomes (``=succeeds``); ``units`` (only the powers named) becomes ``units_of``.  This was run once on
the hand-written ``tests/data/options/datc_alternatives.json``; the case file is now the one to edit.
Usage: ``.venv/bin/python tools/convert_option_cases.py OLD_FILE``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cases_common import write_case_file

from arbitre.orders import OrderError
from arbitre.variants import make_rules


def _options(key: str) -> dict[str, str]:
    if key == "default":
        return {}
    name, value = key.split("=", 1)
    return {name: value}


def convert(case: dict[str, Any], key: str) -> dict[str, Any]:
    """One case under one option."""
    rules = make_rules("standard", options=_options(key))
    power_of = {text: power for power, texts in case["orders"].items() for text in texts}
    # A result for an order nobody gave (a civil-disorder removal, a unit that holds) belongs to the unit's power.
    power_of.update({f"{u} {suffix}": power for power, units in case["units"].items() for u in units
                     for suffix in ("D", "H") if f"{u} {suffix}" not in power_of})
    want = case["expect"][key]
    rows = []
    for text, word in want.get("results", {}).items():
        try:
            short = rules.parse(text).format()
        except OrderError:
            short = text
        rows.append([power_of[text], short, f"={word}"])
    expect: dict[str, Any] = {"results": rows}
    if "units" in want:
        expect["units_of"] = want["units"]
    position: dict[str, Any] = {"map": "standard", "options": _options(key), "phase": case["phase"],
                                "units": case["units"], "supply_centers": case.get("supply_centers", {})}
    return {"id": f"{case['id']} [{key}]", "title": f"DATC {case['datc']} on {case['id']}: {key}",
            "position": position, "steps": [{"step": "adjudicate", "orders": case["orders"], "expect": expect}]}


def main() -> None:
    """Write tests/cases/datc_options.json from the old file named on the command line."""
    old = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    cases = [convert(c, k) for c in old["cases"] for k in c["expect"]]
    write_case_file(
        "datc_options",
        "Written by hand for arbitre from the DATC's own text (v2.4/v3.0/v3.2 chapter 6 and the chapter-4 "
        "paragraphs, ../shared/datc): each DATC chapter-4 alternative shown on a case whose text says what it "
        "changes; moved into the case format by tools/convert_option_cases.py. Edit this file directly.",
        cases,
        notes="id: 'DATC case [option=value]'; [default] is the DATC v3.2 preference. units_of names only the "
              "powers the case is about.",
    )


if __name__ == "__main__":
    main()
