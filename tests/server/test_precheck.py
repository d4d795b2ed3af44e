"""An order submission checks its lines before it takes the database's writer, and stores exactly what it would
have stored otherwise (nothing half-stored: a refused submission stores nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from arbitre.life import referee as lifecycle
from arbitre.life.referee import CheckedOrders
from arbitre.server import services
from arbitre.server.auth import Actor
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

    real_check = lifecycle.read_step_orders

    def check(*args: Any) -> Any:
        checks.append(bool(writing))
        return real_check(*args)

    monkeypatch.setattr(site.db, "writing", watched)
    monkeypatch.setattr(lifecycle, "read_step_orders", check)
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


def test_a_check_made_on_another_version_is_made_again(app_client: TestClient, site: Site, spy: list[bool]) -> None:
    gid, _, _ = start_game(app_client)
    with site.db.reading() as s:
        row = services.open_game(s, gid, Actor(None, "", "en"), member=False).row
        stale = CheckedOrders(row.id, row.version - 1, "FRANCE", ("A PAR - BUR",), ("A PAR - BUR",), ())
        assert not stale.fits(row, "FRANCE", ["A PAR - BUR"])
        fresh = site.referee.precheck(s, row, "FRANCE", ["A PAR - BUR"])
        assert fresh is not None and fresh.fits(row, "FRANCE", ["A PAR - BUR"])
    spy.clear()
    with site.db.writing() as s:
        row = services.open_game(s, gid, Actor(None, "", "en"), member=False, lock=True).row
        result = site.referee.submit(s, row, "FRANCE", ["A PAR - BUR"], None, site.now(), None, stale)
    assert result.rejected == [] and spy == [True]  # the stale check was not trusted: checked again, inside
