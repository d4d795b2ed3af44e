"""Shared test fixtures: paths to the shared specification and a standard rule set."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitre.judge import start_position
from arbitre.rules import RuleSet
from arbitre.state import Position
from arbitre.variants import make_rules

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
DATC_DIR = SHARED / "datc"


@pytest.fixture(scope="session")
def rules() -> RuleSet:
    """The standard rule set with DATC v3.2 preferences."""
    return make_rules("standard")


@pytest.fixture()
def start(rules: RuleSet) -> Position:
    """The standard starting position (Spring 1901)."""
    return start_position(rules)
