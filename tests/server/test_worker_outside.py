"""The deadline worker adjudicates outside any write transaction (so it never holds SQLite's writer while the
engine works), writes only if the game did not change meanwhile (else computes again), and gives the same
results as the processing done inside the write transaction."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from arbitre.judge import Game
from arbitre.life import referee as lifecycle
from arbitre.life import turns
from arbitre.life.turns import Closing, Turn
from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from arbitre.store.models import Adjudication, GameRow
from tests.server.conftest import POWERS, Api, start_game

SHORT = {"M": 600, "R": 600, "A": 600}
SPRING = {
    "FRANCE": ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"],
    "GERMANY": ["A MUN - BUR", "F KIE - HOL"],
    "ITALY": ["A VEN - TYR"],
}
FALL = {"FRANCE": ["A BUR - MUN", "F MAO - POR"], "GERMANY": ["A MUN H"], "AUSTRIA": ["A VIE - TYR"]}


def _give(gid: int, players: dict[str, Api], orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        r = players[power].put(f"/api/games/{gid}/orders", {"orders": lines})
        assert r.status_code == 200 and r.json()["rejected"] == [], r.text


def _record_writes(monkeypatch: pytest.MonkeyPatch, site: Site) -> list[int]:
    """Every ``Game.close_transition`` call (a closed step) notes how many write transactions are open then."""
    seen: list[int] = []
    real = Game.close_transition

    def close_transition(self: Game) -> Any:
        seen.append(site.db.open_writes)
        return real(self)

    monkeypatch.setattr(Game, "close_transition", close_transition)
    return seen


def test_the_worker_adjudicates_with_no_write_transaction_open(
    app_client: TestClient, site: Site, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, master, players = start_game(app_client, deadlines=SHORT)
    _give(gid, players, SPRING)
    seen = _record_writes(monkeypatch, site)
    clock.advance(601)
    assert worker.tick(site) >= 1
    assert seen and seen == [0] * len(seen)  # S1901M (and the empty retreat step after it)
    assert master.get(f"/api/games/{gid}").json()["game"]["phase"] == "F1901M"
    # the master's "adjudicate now" goes the same way (computed from the turn read, then written)
    seen.clear()
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    assert seen and seen == [0] * len(seen)


def _play_two_deadlines(app_client: TestClient, site: Site, clock: ManualClock) -> tuple[int, Api]:
    gid, _, players = start_game(app_client, deadlines=SHORT)
    _give(gid, players, SPRING)
    clock.advance(601)
    worker.tick(site)
    _give(gid, players, FALL)
    clock.advance(601)
    worker.tick(site)
    return gid, players["FRANCE"]


def _outcome(site: Site, gid: int) -> tuple[Any, ...]:
    with site.db.reading() as s:
        row = s.scalars(select(GameRow).where(GameRow.id == gid)).one()
        steps = [
            (a.phase, a.step, a.trigger)
            for a in s.scalars(select(Adjudication).where(Adjudication.game_id == gid).order_by(Adjudication.id))
        ]
        return row.data, row.phase, row.step, row.version, row.status, row.deadline_at, steps


def test_the_results_are_those_of_the_processing_inside_the_write_transaction(
    app_client: TestClient, site: Site, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside, france = _play_two_deadlines(app_client, site, clock)
    a, view_a = _outcome(site, outside), france.get(f"/api/games/{outside}").json()["view"]
    with monkeypatch.context() as m:
        m.setattr(turns, "MAX_RETRIES", 0)  # never prepared: computed inside the write transaction
        inside, france = _play_two_deadlines(app_client, site, clock)
        b, view_b = _outcome(site, inside), france.get(f"/api/games/{inside}").json()["view"]
    assert a[:5] == b[:5]  # the same game data, phase, step, version and status
    assert a[6] == b[6] and [s[:2] for s in a[6]][:2] == [("S1901M", "orders"), ("F1901M", "orders")]
    assert view_a == view_b and view_a["phase"] == "W1901A"
    assert {("FRANCE", "BUR"), ("FRANCE", "POR"), ("GERMANY", "HOL")} <= {
        (u["power"], u["place"]) for u in view_a["units"]
    }


def test_a_submission_between_the_read_and_the_write_is_adjudicated(
    app_client: TestClient, site: Site, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _, players = start_game(app_client, deadlines=SHORT)
    _give(gid, players, {"FRANCE": ["A PAR - BUR"]})
    france = players["FRANCE"]
    real = turns.closing
    made: list[Turn] = []

    def racing(turn: Turn) -> Closing:
        prepared = real(turn)
        made.append(turn)
        if len(made) == 1:  # France changes its orders while the worker holds its computed step
            r = france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - PIC"], "phase": "S1901M"})
            assert r.status_code == 200, r.text  # the writer was free: the submission was stored at once
        return prepared

    monkeypatch.setattr(lifecycle, "closing", racing)
    clock.advance(601)
    assert worker.tick(site) >= 1
    assert len(made) == 2 and made[1].generation > made[0].generation  # computed again on the new state
    units = {(u["power"], u["place"]) for u in france.get(f"/api/games/{gid}").json()["view"]["units"]}
    assert ("FRANCE", "PIC") in units and ("FRANCE", "BUR") not in units  # the last orders counted
    with site.db.reading() as s:
        steps = [(a.phase, a.step) for a in s.scalars(select(Adjudication).where(Adjudication.game_id == gid))]
    assert steps.count(("S1901M", "orders")) == 1  # processed once
    # orders sent for the phase that was just processed get a clear answer, and nothing is stored
    late = france.put(f"/api/games/{gid}/orders", {"orders": ["A PIC - BEL"], "phase": "S1901M"})
    assert late.status_code in (409, 422) and "moved on" in late.text
    assert france.get(f"/api/games/{gid}/orders").json()["lines"] == []


def test_a_game_that_keeps_changing_is_processed_inside_the_write_transaction(
    app_client: TestClient, site: Site, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _, players = start_game(app_client, deadlines=SHORT)
    real = turns.closing
    made: list[int] = []

    def busy(turn: Turn) -> Closing:
        if site.db.open_writes == 0:  # computed in a read transaction: a submission comes in meanwhile
            made.append(turn.generation)
            power = POWERS[len(made) % len(POWERS)]
            assert players[power].put(f"/api/games/{gid}/orders", {"ready": False}).status_code == 200
        return real(turn)

    monkeypatch.setattr(lifecycle, "closing", busy)
    seen = _record_writes(monkeypatch, site)
    clock.advance(601)
    assert worker.tick(site) == 1
    assert len(made) == turns.MAX_RETRIES  # then the fallback: computed with the row locked
    assert seen[-1] == 1
    assert players["FRANCE"].get(f"/api/games/{gid}").json()["game"]["phase"] == "F1901M"
