"""The one read-compute-write of a game (:mod:`arbitre.life.turns`): concurrent writers that computed from the same
state of the game both succeed, the later one after computing again; nothing is lost and nothing is adjudicated
twice (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from arbitre.life import turns
from arbitre.server import actions, services
from arbitre.server.auth import Actor
from arbitre.server.site import Site
from arbitre.store.accounts import user_by_name
from arbitre.store.models import Adjudication, GameRecord
from tests.server.conftest import POWERS, start_game

LAST = ("RUSSIA", "TURKEY")
ORDERS = {"RUSSIA": ["A WAR - GAL"], "TURKEY": ["A CON - BUL"]}


def _give_as(site: Site, gid: int, name: str, lines: list[str] | None, ready: bool | None) -> Any:
    """Submit as user ``name`` through :func:`actions.submit_orders` (the routes' way), in this thread."""

    def find(session: Session, lock: bool) -> tuple[Session, services.Seat]:
        user = user_by_name(session, name)
        return session, services.open_game(session, gid, Actor(user, "", "en", by_token=True), lock=lock)

    return actions.submit_orders(
        site, site.db.reading, site.db.writing, find, lines, ready, None, lambda v, seat, result: result
    )


def _adjudications(site: Site, gid: int) -> list[tuple[str, str]]:
    with site.db.reading() as s:
        return [(a.phase, a.step) for a in s.scalars(select(Adjudication).where(Adjudication.game_id == gid))]


def _record_orders(site: Site, gid: int) -> dict[str, list[str]]:
    with site.db.reading() as s:
        data = s.scalars(select(GameRecord.data).where(GameRecord.game_id == gid, GameRecord.played == 0)).one()
    orders: dict[str, list[str]] = data["orders"]
    return orders


def test_two_writers_on_the_same_state_both_count_and_the_phase_is_adjudicated_once(
    app_client: TestClient, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _, players = start_game(app_client)
    for power in POWERS:
        if power not in LAST:
            assert players[power].put(f"/api/games/{gid}/orders", {"ready": True}).status_code == 200
    # Both last players compute their submission from the same state (a barrier holds each one after its
    # compute until the other computed too); then both write.  The second write finds the game changed.
    real = turns.submission
    both = threading.Barrier(2)
    computed: list[tuple[str, int]] = []
    lock = threading.Lock()

    def held(turn: turns.Turn, power: str, *args: Any) -> turns.Submission:
        done = real(turn, power, *args)
        with lock:
            computed.append((power, turn.generation))
            first = sum(1 for p, _ in computed if p == power) == 1
        if first:
            both.wait(timeout=60)  # a guard against a hang only; never reached when the code is right
        return done

    monkeypatch.setattr(actions, "submission", held)
    results: dict[str, Any] = {}
    errors: list[BaseException] = []

    def give(power: str) -> None:
        try:
            results[power] = _give_as(site, gid, players[power].name, ORDERS[power], True)
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=give, args=(p,)) for p in LAST]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # each wrote once; the first two computes saw the same generation, and one of them was computed again
    assert sorted(p for p, _ in computed) == sorted([*LAST, computed[-1][0]]) and len(computed) == 3
    assert computed[0][1] == computed[1][1] < computed[2][1]
    assert sorted(r.processed for r in results.values()) == [False, True]  # the one computed again closed it
    assert _adjudications(site, gid).count(("S1901M", "orders")) == 1  # adjudicated exactly once
    orders = _record_orders(site, gid)
    assert orders["RUSSIA"] == ORDERS["RUSSIA"] and orders["TURKEY"] == ORDERS["TURKEY"]  # nothing lost
    view = players["TURKEY"].get(f"/api/games/{gid}").json()["view"]
    assert view["phase"] == "F1901M" and ("TURKEY", "BUL") in {(u["power"], u["place"]) for u in view["units"]}


def test_a_writer_that_keeps_losing_computes_inside_the_write(
    app_client: TestClient, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _, players = start_game(app_client)
    real = turns.submission
    seen: list[int] = []

    def busy(turn: turns.Turn, power: str, *args: Any) -> turns.Submission:
        if power != "FRANCE":  # the other players' submissions go their way
            return real(turn, power, *args)
        seen.append(site.db.open_writes)
        if site.db.open_writes == 0:  # another player's ready switch comes in between every read and write
            other = POWERS[len(seen) % 2]
            assert players[other].put(f"/api/games/{gid}/orders", {"ready": len(seen) % 3 == 0}).status_code == 200
        return real(turn, power, *args)

    monkeypatch.setattr(actions, "submission", busy)
    r = _give_as(site, gid, players["FRANCE"].name, ["A PAR - BUR"], False)
    assert r.rejected == [] and not r.processed
    assert seen == [0] * turns.MAX_RETRIES + [1]  # computed again each time, then with the row locked
    assert players["FRANCE"].get(f"/api/games/{gid}/orders").json()["lines"] == ["A PAR - BUR"]


def test_loading_a_turn_reads_the_stored_normal_form_without_checking_it_again(
    app_client: TestClient, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _, players = start_game(app_client)
    assert players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["a par-bur"]}).status_code == 200
    checks: list[str] = []
    real = turns.read_step_orders

    def counted(game: Any, power: str, lines: list[str]) -> Any:
        checks.append(power)
        return real(game, power, lines)

    monkeypatch.setattr(turns, "read_step_orders", counted)
    with site.db.reading() as s:
        row = services.open_game(s, gid, Actor(None, "", "en"), member=False).row
        turn = site.referee.turn(s, row, site.now())
    assert turn.game.pending["FRANCE"] == ["A PAR - BUR"] and checks == []
