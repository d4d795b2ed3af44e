"""All 176 DATC v3.2 cases, read from the shared HTML file by one parametrised runner.

No case is retyped here; each is adjudicated and every expected resolution
word is checked (see arbitre/datc/runner.py).  One documented erratum in the
source is checked with its corrected word (runner.ERRATA).
"""

from __future__ import annotations

import pytest

from arbitre.datc import parse_datc_html
from arbitre.datc.runner import ERRATA, run_case
from arbitre.datc.text_cases import parse_judge_text
from arbitre.datc.text_runner import run_text_case

from .conftest import DATC_DIR

V32 = DATC_DIR / "DATC_v3_2_chapter6.html"
CASES = parse_datc_html(V32.read_text(encoding="utf-8"))


def test_all_cases_are_read() -> None:
    assert len(CASES) == 176


@pytest.mark.parametrize("case", CASES, ids=[c.case_id for c in CASES])
def test_datc_case(case) -> None:  # type: ignore[no-untyped-def]
    report = run_case(case)
    assert report.passed, "\n".join(report.problems)


def test_errata_are_few_and_explained() -> None:
    assert len(ERRATA) <= 1
    for (case_id, _, _), (_, why) in ERRATA.items():
        assert any(c.case_id == case_id for c in CASES) and len(why) > 40


REAL_GAME_FILES = ["godip/real.txt", "godip/dipai.txt", "jdip/dipai.txt"]
# jdip/real.txt holds the same games as godip/real.txt, with a typo ("Fleet Portuga") in one expected unit.
REAL_CASES = [
    (f, c) for f in REAL_GAME_FILES for c in parse_judge_text((DATC_DIR / f).read_text(encoding="utf-8"))
]


@pytest.mark.parametrize("source,case", REAL_CASES, ids=[f"{f}:{c.name}" for f, c in REAL_CASES])
def test_real_game_phase(source, case) -> None:  # type: ignore[no-untyped-def]
    problems = run_text_case(case)
    assert not problems, "\n".join(problems)


def test_a_wrong_expectation_is_caught() -> None:
    """The runner can fail: flip one expected word and the case must not pass."""
    from dataclasses import replace

    case = next(c for c in CASES if c.case_id == "6.A.11")
    first = case.orders[0]
    flipped_word = "fails" if "succeeds" in first.resolution else "succeeds"
    flipped = replace(case, orders=(replace(first, resolution=(flipped_word,)),) + case.orders[1:])
    assert not run_case(flipped).passed
