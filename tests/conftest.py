"""Test fixtures: a standard rule set, and the optional source files beside the repository.

The tests need nothing beside the repository: the DATC, the replays and every other rule case are
the project's own case files (tests/cases).  A few optional tests also read the original sources in
``../shared`` when they are there (:func:`shared_file`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitre.judge import start_position
from arbitre.rules import RuleSet
from arbitre.state import Position
from arbitre.variants import make_rules

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
DATC_DIR = SHARED / "datc"


def shared_file(relative: str) -> Path:
    """``../shared/<relative>``; the calling test skips when that source file is not beside the repository."""
    path = SHARED / relative
    if not path.is_file():
        pytest.skip(
            f"optional source file ../shared/{relative} is not beside the repository "
            "(the rule cases run from tests/cases without it)"
        )
    return path


@pytest.fixture(scope="session")
def rules() -> RuleSet:
    """The standard rule set with DATC v3.2 preferences."""
    return make_rules("standard")


@pytest.fixture
def start(rules: RuleSet) -> Position:
    """The standard starting position (Spring 1901)."""
    return start_position(rules)
