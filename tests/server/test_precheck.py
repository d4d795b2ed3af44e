"""An order submission checks its lines before it takes the database's writer, and stores exactly what it would
have stored otherwise (nothing half-stored: a refused submission stores nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from arbitre.life import turns
from arbitre.server import actions
from arbitre.server.site import Site
from tests.server.conftest import start_game


@pytest.fixture
def spy(site: Site, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each order check: was a write transaction open in the process at that moment?"""
    writing: list[bool] = []
    checks: list[bool] = []
    original = site.db.writing

    @contextmanager
    def watched() -> Iterator[Session]:
        writing.append(True)
        try:
            with original() as session:
                yield session
        finally:
            writing.pop()

    real_check = turns.read_step_orders

    def check(*args: Any) -> Any:
        checks.append(bool(writing))
        return real_check(*args)

    monkeypatch.setattr(site.db, "writing", watched)
    monkeypatch.setattr(turns, "read_step_orders", check)
    return checks


def test_the_check_runs_before_the_write(app_client: TestClient, site: Site, spy: list[bool]) -> None:
    gid, _, players = start_game(app_client)
    spy.clear()
    r = players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "F BRE - XYZ"]})
    assert r.status_code == 200, r.text
    assert [x["order"] for x in r.json()["rejected"]] == ["F BRE - XYZ"]
    assert spy == [False]  # checked once, with no write transaction open
    assert players["FRANCE"].get(f"/api/games/{gid}/orders").json()["lines"] == ["A PAR - BUR", "F BRE - XYZ"]


def test_a_refused_submission_stores_nothing_and_answers_as_before(app_client: TestClient, spy: list[bool]) -> None:
    gid, master, players = start_game(app_client)
    r = master.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"], "phase": "F1901M"})
    assert r.status_code == 409
    assert players["FRANCE"].get(f"/api/games/{gid}/orders").json()["lines"] == []


def test_a_check_made_on_another_version_is_made_again(
    app_client: TestClient, site: Site, spy: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _, players = start_game(app_client)
    real = turns.submission
    calls: list[int] = []

    def racing(turn: turns.Turn, *args: Any) -> turns.Submission:
        calls.append(turn.generation)
        if len(calls) == 1:  # Germany's orders come in between France's read and France's write
            r = players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN - RUH"]})
            assert r.status_code == 200, r.text
        return real(turn, *args)

    monkeypatch.setattr(actions, "submission", racing)
    spy.clear()
    r = players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]})
    assert r.status_code == 200 and r.json()["rejected"] == [], r.text
    assert len(calls) == 3 and calls[2] > calls[0]  # France's, Germany's, then France's again on the new state
    assert spy == [False, False, False]  # every check outside the write transaction
    assert players["FRANCE"].get(f"/api/games/{gid}/orders").json()["lines"] == ["A PAR - BUR"]
    assert players["GERMANY"].get(f"/api/games/{gid}/orders").json()["lines"] == ["A MUN - RUH"]
