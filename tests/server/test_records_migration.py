"""Upgrading a database written before phase records: every game becomes records, every reader reads the same.

``tests/data/records/main.sqlite3`` was written by the code before records (schema 0011, each game one JSON
document with the orders as typed; see ``tests/data/records/make_fixture.py``), with a standard game (orders
typed in odd spellings), a Colonial game, a Submarines game and an Espionnite game in its reaction step.
``expected.json`` holds what every reader (master, observer, each power) read of each history through the
API then.  Opening the site on a copy upgrades it (``arbitre serve`` does the same); afterwards every
reader's history (API, map of each phase) is compared with what the old code read and with the views the
old document replays to.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text

from arbitre.judge import Game
from arbitre.judge.game import FORMAT, record_view, replay
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings
from arbitre.server.viewing import map_svg, view_data
from arbitre.store.models import GameRecord, GameRow

DATA = Path(__file__).parents[1] / "data" / "records"
EXPECTED = json.loads((DATA / "expected.json").read_text())


def _subset(want: Any, got: Any, where: str = "") -> None:
    """``got`` says everything ``want`` says (fields added since may be there too)."""
    if isinstance(want, dict):
        assert isinstance(got, dict), where
        for key, value in want.items():
            assert key in got, f"{where}.{key} is missing"
            _subset(value, got[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got!r} != {want!r}"
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            _subset(w, g, f"{where}[{i}]")
    elif ".lines[" in where:  # the open step's orders as typed then, in normal form now ("a ven - pie")
        assert got == " ".join(want.upper().split()), f"{where}: {got!r} != {want!r}"
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    """A copy of the database written by the code before records."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "main.sqlite3", path)
    return path


def _documents(path: Path) -> dict[int, dict[str, Any]]:
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0011"
        docs = {gid: json.loads(data) for gid, data in conn.execute(text("SELECT id, data FROM games"))}
    engine.dispose()
    return docs


@pytest.fixture
def upgraded(old_db: Path) -> Iterator[tuple[TestClient, Any]]:
    """The site opened on the old database (which upgrades it), and its test client."""
    clock = ManualClock(datetime.fromisoformat(EXPECTED["clock"]))
    site = make_site(Settings(database_url=f"sqlite:///{old_db}", run_worker=False), clock)
    with TestClient(create_app(site=site)) as client:
        yield client, site
    site.db.dispose()


def _get(client: TestClient, token: str, path: str) -> Any:
    r = client.get(path, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, (path, r.text)
    return r


def test_every_game_becomes_records_and_every_reader_reads_the_same(
    old_db: Path, upgraded: tuple[TestClient, Any]
) -> None:
    client, site = upgraded
    for game in EXPECTED["games"]:
        gid = game["id"]
        readers = {"master": game["master"], "observer": game["observer"], **game["players"]}
        with site.db.reading() as session:
            records = session.scalars(select(GameRecord).where(GameRecord.game_id == gid)).all()
        played = [r for r in records if r.played is not None]
        assert len(played) == len(game["read"]["master"][f"/api/games/{gid}/history"]), game["tag"]
        for who, token in readers.items():
            for path, before in game["read"][who].items():
                _subset(before, _get(client, token, path).json(), f"{game['tag']} {who} {path}")


def test_the_upgrade_keeps_views_maps_and_the_open_step(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "main.sqlite3", path)
    docs = _documents(path)
    # What the old documents replay to (the old read path, kept for command-line files): views and maps.
    before: dict[tuple[int, str, int], tuple[str, str | None]] = {}
    by_id = {g["id"]: g for g in EXPECTED["games"]}
    for gid, doc in docs.items():
        game = replay(doc)
        for who in ["master", "observer", *by_id[gid]["players"]]:
            for i, rec in enumerate(game.history):
                view = record_view(game.rules, rec, who)
                before[gid, who, i] = (json.dumps(view_data(view, game.rules), sort_keys=True), map_svg(view))
    clock = ManualClock(datetime.fromisoformat(EXPECTED["clock"]))
    site = make_site(Settings(database_url=f"sqlite:///{path}", run_worker=False), clock)
    try:
        with TestClient(create_app(site=site)) as client:
            for (gid, who, i), (view, svg) in before.items():
                token = by_id[gid]["master" if who == "master" else "observer" if who == "observer" else "players"]
                token = token[who] if isinstance(token, dict) else token
                got = _get(client, token, f"/api/games/{gid}/history/{i}").json()["view"]
                assert json.dumps(got, sort_keys=True) == view, (gid, who, i)
                assert _get(client, token, f"/games/{gid}/history/{i}/map.svg?as={who}").text == svg, (gid, who, i)
                page = _get(client, token, f"/games/{gid}/history/{i}").text
                assert all(o["text"] in page for o in got["orders"])
            for game in EXPECTED["games"]:  # the phase being played reads the same too
                for who, state in game["current"].items():
                    token = game[who] if who in ("master", "observer") else game["players"][who]
                    _subset(state, _get(client, token, f"/api/games/{game['id']}").json(), f"{game['tag']} {who}")
            spy = next(g for g in EXPECTED["games"] if g["tag"] == "espionnite")
            italy = _get(client, spy["players"]["ITALY"], f"/api/games/{spy['id']}").json()
            assert italy["game"]["step"] == "reaction" and italy["orders"]["lines"] == ["A VEN - PIE"]  # normal form
            # what the lock revealed (read the same above, per reader) now lives in the lock's record only
            with site.db.reading() as session:
                data = session.scalar(select(GameRow.data).where(GameRow.id == spy["id"]))
                lock = session.scalars(
                    select(GameRecord).where(GameRecord.game_id == spy["id"], GameRecord.played.is_(None))
                ).one()
            assert "lock_events" not in data and (lock.phase, lock.step) == ("F1901M", "orders")
            assert lock.data["lock_events"] and lock.data["orders"]
    finally:
        site.db.dispose()


def test_the_upgrade_writes_sandboxes_as_records_and_they_read_the_same(tmp_path: Path) -> None:
    """Sandboxes hold whole games: each of the first format becomes the second (its phases as records, no
    replay when read), and reads the same for every viewer; one that no longer replays is left as it was."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "main.sqlite3", path)
    docs = _documents(path)
    broken = {"format": "arbitre-game/1", "map": "standard", "history": [{"orders": "not a list"}]}
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        owner = conn.execute(text("SELECT id FROM users ORDER BY id LIMIT 1")).scalar()
        for gid, doc in [*docs.items(), (0, broken)]:
            conn.execute(
                text(
                    "INSERT INTO sandboxes (id, owner_id, share_token, name, data, cursor, created_at) "
                    "VALUES (:id, :owner, :token, 'box', :data, 0, '2026-01-01 00:00:00')"
                ),
                {"id": 100 + gid, "owner": owner, "token": f"t{gid}", "data": json.dumps(doc)},
            )
    engine.dispose()
    site = make_site(Settings(database_url=f"sqlite:///{path}", run_worker=False), ManualClock())
    try:
        with site.db.reading() as session:
            rows = session.execute(text("SELECT id, data FROM sandboxes")).all()
    finally:
        site.db.dispose()
    boxes = {bid: json.loads(data) if isinstance(data, str) else data for bid, data in rows}
    assert boxes[100] == broken  # left as it was (still read by replaying it, as before)
    for gid, doc in docs.items():
        new = boxes[100 + gid]
        assert new["format"] == FORMAT and doc["format"] != FORMAT
        old_game, new_game = replay(doc), Game.from_data(new)
        assert len(new_game.history) == len(old_game.history) > 0
        for who in ["master", "observer", *old_game.powers()]:
            for old_rec, new_rec in zip(old_game.history, new_game.history, strict=True):
                a = view_data(record_view(old_game.rules, old_rec, who), old_game.rules)
                b = view_data(record_view(new_game.rules, new_rec, who), new_game.rules)
                assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), (gid, who)
        assert new_game.state_data() == old_game.state_data()  # the open phase (and step) too
