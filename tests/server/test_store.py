"""Storage: migrations, one transaction per adjudication, deadlines processed exactly once by many workers."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from arbitre.life.forming import GameSettings, create_game, join
from arbitre.life.referee import Referee
from arbitre.server.clock import ManualClock
from arbitre.server.security import hash_password
from arbitre.server.site import Site
from arbitre.store import migrate, open_database
from arbitre.store.accounts import create_user
from arbitre.store.games import get_game
from arbitre.store.models import PLAYER, Adjudication, GameRow, OrderRow
from arbitre.store.orders import orders_of_step

HASH = hash_password("password123")


def _games(site: Site, count: int, deadline: int = 60) -> list[int]:
    """``count`` running standard games with every seat taken; France has orders in each."""
    now = site.now()
    ids = []
    with site.db.writing() as s:
        master = create_user(s, "gm", HASH, "en", now)
        players = [create_user(s, f"p{i}", HASH, "en", now) for i in range(7)]
        for n in range(count):
            row = create_game(s, master, GameSettings(name=f"g{n}", deadlines={"M": deadline}), now)
            powers = site.referee.game(s, row).powers()
            for u in players:
                join(s, row, u, PLAYER, powers)
            assert site.referee.maybe_start(s, row, now)
            ids.append(row.id)
    for gid in ids:
        with site.db.writing() as s:
            row = get_game(s, gid, lock=True, with_data=True)
            assert row is not None
            site.referee.submit(s, row, "FRANCE", ["A PAR - BUR"], False, now)
    return ids


def test_migrations_are_idempotent(site: Site) -> None:
    migrate(site.db)
    migrate(site.db)
    with site.db.reading() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 0


def test_deadlines_are_processed_exactly_once_by_concurrent_workers(site: Site, clock: ManualClock) -> None:
    ids = _games(site, 6)
    now = clock.advance(61)
    workers = 4
    dbs = [open_database(site.db.url) for _ in range(workers)]
    referees = [Referee() for _ in range(workers)]
    counts = [0] * workers
    barrier = threading.Barrier(workers)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            counts[i] = referees[i].process_due(dbs[i], now)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for db in dbs:
        db.dispose()
    assert not errors
    assert sum(counts) == len(ids)
    with site.db.reading() as s:
        assert s.scalar(select(func.count()).select_from(Adjudication)) == len(ids)
        for gid in ids:
            row = get_game(s, gid)
            assert row is not None and row.phase == "F1901M"
            assert row.deadline_at == now + timedelta(seconds=60)
    # French orders were used in every game
    with site.db.reading() as s:
        game = site.referee.game(s, get_game(s, ids[0]))  # type: ignore[arg-type]
        assert any(u.power == "FRANCE" and u.place == "BUR" for u in game.position.units.values())


def test_an_adjudication_is_one_transaction(site: Site, clock: ManualClock, monkeypatch: pytest.MonkeyPatch) -> None:
    (gid,) = _games(site, 1)
    now = clock.advance(61)
    from arbitre.life import referee as lifecycle

    real = lifecycle.Referee._save

    def crash(self: Referee, session: object, row: GameRow, game: object, when: object) -> None:
        real(self, session, row, game, when)  # type: ignore[arg-type]
        raise RuntimeError("power cut in the middle of the adjudication")

    monkeypatch.setattr(lifecycle.Referee, "_save", crash)
    assert site.referee.process_due(site.db, now) == 0
    monkeypatch.setattr(lifecycle.Referee, "_save", real)
    with site.db.reading() as s:
        row = get_game(s, gid)
        assert row is not None and row.phase == "S1901M" and row.version == 2
        assert s.scalar(select(func.count()).select_from(Adjudication)) == 0
        assert orders_of_step(s, gid, "S1901M", "orders")["FRANCE"].lines == ["A PAR - BUR"]
    site.referee.cache.forget(gid)
    assert site.referee.process_due(site.db, now) == 1
    with site.db.reading() as s:
        assert get_game(s, gid).phase == "F1901M"  # type: ignore[union-attr]


def test_a_second_process_sees_the_first_ones_changes(site: Site, clock: ManualClock) -> None:
    (gid,) = _games(site, 1)
    other = Referee()
    with site.db.reading() as s:
        row = get_game(s, gid)
        assert row is not None
        assert other.game(s, row).phase.kind == "M"
        assert str(other.game(s, row).phase) == "S1901M"
    site.referee.process_due(site.db, clock.advance(61))
    with site.db.reading() as s:
        row = get_game(s, gid)
        assert row is not None and str(other.game(s, row).phase) == "F1901M"


def test_orders_rows_are_kept_for_every_phase(site: Site, clock: ManualClock) -> None:
    (gid,) = _games(site, 1)
    site.referee.process_due(site.db, clock.advance(61))
    with site.db.reading() as s:
        rows = s.scalars(select(OrderRow).where(OrderRow.game_id == gid)).all()
        assert [(r.phase, r.power, r.lines) for r in rows] == [("S1901M", "FRANCE", ["A PAR - BUR"])]
