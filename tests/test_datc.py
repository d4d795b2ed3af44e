"""The DATC v3.2 HTML itself, when it is beside the repository (optional).

The 176 cases run from the project's own case file, tests/cases/datc_v3_2.json, in
tests/test_cases.py.  When ``../shared/datc/DATC_v3_2_chapter6.html`` is there, these tests also
read the HTML with arbitre's reader (the one ``arbitre datc`` uses), run every case straight from it,
and check that the case file still says what the HTML says.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from arbitre.datc import DatcCase, parse_datc_html
from arbitre.datc.runner import ERRATA, run_case

from .conftest import shared_file

CASE_FILE = Path(__file__).resolve().parent / "cases" / "datc_v3_2.json"


@pytest.fixture(scope="module")
def html_cases() -> list[DatcCase]:
    return parse_datc_html(shared_file("datc/DATC_v3_2_chapter6.html").read_text(encoding="utf-8"))


def test_every_case_of_the_html_passes(html_cases: list[DatcCase]) -> None:
    assert len(html_cases) == 176
    reports = [run_case(c) for c in html_cases]
    assert not {r.case.case_id: r.problems for r in reports if not r.passed}


def test_the_case_file_says_what_the_html_says(html_cases: list[DatcCase]) -> None:
    data = json.loads(CASE_FILE.read_text(encoding="utf-8"))
    by_id = {c["id"]: c for c in data["cases"]}
    assert list(by_id) == [c.case_id for c in html_cases]
    for case in html_cases:
        steps = by_id[case.case_id]["steps"]
        phases = [case.orders] + ([case.retreat_orders] if case.retreat_orders else [])
        assert len(steps) == len(phases), case.case_id
        for step, orders in zip(steps, phases, strict=True):
            given = [(p, t) for p, ts in step["orders"].items() for t in ts]
            assert sorted(given) == sorted((o.power, o.text) for o in orders), case.case_id
            words = [(row[0], row[2]) for row in step["expect"]["results"]]
            want = [
                (o.power, " ".join(ERRATA.get((case.case_id, o.power, o.text), (o.resolution, ""))[0])) for o in orders
            ]
            assert words == want, case.case_id


def test_errata_are_few_and_explained(html_cases: list[DatcCase]) -> None:
    assert len(ERRATA) <= 1
    for (case_id, _, _), (_, why) in ERRATA.items():
        assert any(c.case_id == case_id for c in html_cases) and len(why) > 40


def test_a_wrong_expectation_is_caught(html_cases: list[DatcCase]) -> None:
    """The HTML runner can fail: flip one expected word and the case must not pass."""
    case = next(c for c in html_cases if c.case_id == "6.A.11")
    first = case.orders[0]
    flipped_word = "fails" if "succeeds" in first.resolution else "succeeds"
    flipped = replace(case, orders=(replace(first, resolution=(flipped_word,)), *case.orders[1:]))
    assert not run_case(flipped).passed
