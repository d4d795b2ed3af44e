"""Every rule case of the project, from data: one format (docs/cases.md), one runner, one test.

The case files in ``tests/cases`` come from the DATC v3.2, the real-game replays of godip and jDip,
vDiplomacy's and the seed's Colonial cases, and the Submarines and Espionnite cases; each names its
source in its header.  :func:`arbitre.cases.run_case` plays each case through the JSON interface.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from arbitre.cases import read_case_file, run_case

CASE_DIR = Path(__file__).resolve().parent / "cases"
MODULE_DIR = Path(__file__).resolve().parent.parent / "arbitre" / "variants"
CASE_PATHS = {path.stem: path for path in sorted(CASE_DIR.glob("*.json"))} | {
    path.parent.name: path for path in sorted(MODULE_DIR.glob("*/cases.json"))
}
"""The project's case files, and each rule module's own (``arbitre/variants/<name>/cases.json``, by module name)."""
FILES = {name: read_case_file(path.read_text(encoding="utf-8")) for name, path in CASE_PATHS.items()}
CASES = [(name, case) for name, data in FILES.items() for case in data["cases"]]

EXPECTED_COUNTS = {
    "datc_v3_2": 176,
    "replays": 22,
    "colonial_vdiplomacy": 61,
    "colonial_avalon_hill": 30,
    "submarines": 30,
    "espionnite": 11,
    "datc_options": 90,
    "colonial_submarines": 12,
    "espionnite_colonial": 13,
    "any_owned_centre": 6,
    "capture_builds": 7,
    "italian_fleet": 6,
    "even_years": 5,
    "fifteen_centres": 3,
    "wings": 9,
    "declarations": 6,
}
"""How many cases some files must hold, so that a lost case cannot pass unnoticed."""


@pytest.mark.parametrize(("source", "case"), CASES, ids=[f"{n}:{c['id']}" for n, c in CASES])
def test_case(source: str, case: dict[str, Any]) -> None:
    problems = run_case(case)
    assert not problems, f"{source} {case['id']}:\n" + "\n".join(problems)


def test_every_file_names_its_source_and_holds_its_cases() -> None:
    for name, data in FILES.items():
        assert len(data["source"]) > 40, name
    for name, count in EXPECTED_COUNTS.items():
        assert len(FILES[name]["cases"]) == count, name


def _flip(word: str) -> str:
    return {
        "succeeds": "fails",
        "fails": "succeeds",
        "illegal": "succeeds",
        "given": "cut",
        "cut": "given",
        "available": "disrupted",
        "disrupted": "available",
        "invalid": "succeeds",
    }[word]


def test_a_wrong_expectation_is_caught() -> None:
    """The runner can fail: flip the first expected word of each case that has results."""
    checked = 0
    for _, case in CASES:
        flipped = copy.deepcopy(case)
        for step in flipped["steps"]:
            rows = step.get("expect", {}).get("results")
            if rows:
                first = rows[0][2].split()[0]
                if first.startswith("=") or "|" in first or first in ("stands", "dislodged", "destroyed"):
                    continue
                rows[0][2] = _flip(first)
                assert run_case(flipped), f"{case['id']}: a flipped word still passes"
                checked += 1
                break
        if checked >= 40:
            break
    assert checked >= 40


def test_the_colonial_seed_examples_are_there() -> None:
    ids = {c["id"] for c in FILES["colonial_avalon_hill"]["cases"]}
    assert {"seed-9.23-note", "seed-9.25", "seed-9.25-to-PRM", "seed-9.25-to-MOS", "seed-QA1", "seed-QA2"} <= ids
