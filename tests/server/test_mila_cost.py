"""What telling a MILA client of one more phase costs: the records and messages it reads do not grow with
the game's length."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, select

import arbitre.store.records as store_records
from arbitre.interface.mila.influence import hidden
from arbitre.judge import Game
from arbitre.judge.game import record_from_data, record_view
from arbitre.server import services
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.mila import board, reading
from arbitre.server.mila.access import messages_of, press_name, viewer_of
from arbitre.server.mila.board import OMNISCIENT_TYPE
from arbitre.server.mila.service import process_now
from arbitre.server.site import Settings, Site
from arbitre.store.messages import count_for
from arbitre.store.models import GameRow, Message, User
from arbitre.store.records import played_records
from tests.server.conftest import Api, start_game

pytestmark = pytest.mark.usefixtures("quick_hashes")


def count_records(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the records the store hands out (through every module that imported its reader)."""
    read: list[int] = []
    original = store_records.played_records

    def counted(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        found = original(*args, **kwargs)
        read.append(len(found))
        return found

    for name, module in list(sys.modules.items()):
        if name.startswith("arbitre") and getattr(module, "played_records", None) is original:
            monkeypatch.setattr(module, "played_records", counted)
    return read


def read_for_one_more_phase(
    site: Site, client: TestClient, monkeypatch: pytest.MonkeyPatch, phases: int
) -> tuple[int, int, int]:
    """Records and messages read by the master's notifications of the phase played after ``phases`` others
    (a public message written in each), and the game's played phases."""
    gid, master, players = start_game(client)
    with site.db.reading() as s:
        user_id = s.scalar(select(User.id).where(User.name == master.name))
    assert user_id is not None
    for played in range(phases + 1):  # a message in every phase, the one played last included
        r = players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "*", "body": "hello"})
        assert r.status_code in (200, 201), r.text
        if played < phases:
            process_now(site, user_id, str(gid), OMNISCIENT_TYPE)
    seen, _ = reading.glance(site, user_id, str(gid), OMNISCIENT_TYPE)
    process_now(site, user_id, str(gid), OMNISCIENT_TYPE)
    records = count_records(monkeypatch)
    messages: list[Message] = []

    def loaded(target: Message, _context: Any) -> None:
        messages.append(target)

    event.listen(Message, "load", loaded)
    try:
        later, notes = reading.news(site, user_id, str(gid), OMNISCIENT_TYPE, seen)
    finally:
        event.remove(Message, "load", loaded)
        monkeypatch.undo()
    assert [name for name, _ in notes] == ["game_processed"]
    assert [m["message"] for m in notes[0][1]["previous_phase_data"]["messages"]] == ["hello"]
    # what the client now knows is what a client joining now would know
    assert later == reading.glance(site, user_id, str(gid), OMNISCIENT_TYPE)[0]
    return sum(records), len(messages), later.played


def test_one_more_phase_reads_its_own_record_and_messages_at_any_length(
    site: Site, app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notification of a processed phase reads the new phase's record and messages only: as many at 12
    phases as at 2 (every record and every message of the game were read for each followed game before)."""
    short = read_for_one_more_phase(site, app_client, monkeypatch, 2)
    long = read_for_one_more_phase(site, app_client, monkeypatch, 12)
    assert long[2] - short[2] == 10
    assert short[:2] == long[:2] == (1, 1)


def user_id_of(site: Site, name: str) -> int:
    with site.db.reading() as s:
        found = s.scalar(select(User.id).where(User.name == name))
    assert found is not None
    return found


def records_of_reads_after_a_phase(
    site: Site, client: TestClient, monkeypatch: pytest.MonkeyPatch, phases: int
) -> tuple[int, int, int, int]:
    """Records read, right after the phase played after ``phases`` others, by a synchronize, by the phase history
    of that phase, and by the phase history of the first phase, for France (who synchronized before the
    phase, as a client following the game does); and the game's played phases."""
    gid, master, players = start_game(client)
    master_id, france = user_id_of(site, master.name), user_id_of(site, players["FRANCE"].name)
    for _ in range(phases):
        process_now(site, master_id, str(gid), OMNISCIENT_TYPE)
    reading.glance(site, france, str(gid), "FRANCE")
    process_now(site, master_id, str(gid), OMNISCIENT_TYPE)
    records = count_records(monkeypatch)
    try:
        seen, _ = reading.glance(site, france, str(gid), "FRANCE")
        synchronize = sum(records)
        records.clear()
        last = reading.phase_history(site, france, str(gid), "FRANCE", -1, -1)
        history = sum(records)
        records.clear()
        first = reading.phase_history(site, france, str(gid), "FRANCE", "S1901M", "S1901M")
        first_history = sum(records)
    finally:
        monkeypatch.undo()
    assert [d["name"] for d in first] == ["S1901M"] and len(last) == 1
    return synchronize, history, first_history, seen.played


def test_a_mila_read_right_after_a_phase_reads_as_many_records_at_any_length(
    site: Site, app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A synchronize right after a phase reads that phase's record only, the phase history of one phase its record
    and the one after it: as many at 13 phases as at 3 (every record of the game was read for each before)."""
    short = records_of_reads_after_a_phase(site, app_client, monkeypatch, 2)
    long = records_of_reads_after_a_phase(site, app_client, monkeypatch, 12)
    assert long[3] - short[3] == 10
    # the synchronize reads no record at all: where France's timeline stands is stored with the last record
    assert short[:3] == long[:3] == (0, 1, 2)


def records_of_first_reads(
    site: Site, client: TestClient, monkeypatch: pytest.MonkeyPatch, phases: int
) -> tuple[int, int, int, int]:
    """Records read by France's first MILA reads of a game of ``phases`` played phases in a new process (a second
    site on the same database, nothing of the game kept in memory): a synchronize, the phase history of the last
    phase, the phase history of the first phase; and the game's played phases."""
    gid, master, players = start_game(client)
    master_id = user_id_of(site, master.name)
    for _ in range(phases):
        process_now(site, master_id, str(gid), OMNISCIENT_TYPE)
    fresh = make_site(Settings(database_url=site.db.url, run_worker=False), site.clock)
    france = user_id_of(fresh, players["FRANCE"].name)
    records = count_records(monkeypatch)
    try:
        seen, _ = reading.glance(fresh, france, str(gid), "FRANCE")
        synchronize = sum(records)
        records.clear()
        last = reading.phase_history(fresh, france, str(gid), "FRANCE", -1, -1)
        history = sum(records)
        records.clear()
        first = reading.phase_history(fresh, france, str(gid), "FRANCE", "S1901M", "S1901M")
        first_history = sum(records)
    finally:
        monkeypatch.undo()
        fresh.db.dispose()
    assert [d["name"] for d in first] == ["S1901M"] and len(last) == 1
    return synchronize, history, first_history, seen.played


def test_a_new_process_reads_as_many_records_at_any_length(
    site: Site, app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first MILA reads of a game by a new process (each of ``--workers N``, each restart) read as many records
    at 13 phases as at 3: the synchronize none, the history of one phase its record and the next (a new process
    folded every record of the game once per viewer before)."""
    short = records_of_first_reads(site, app_client, monkeypatch, 3)
    long = records_of_first_reads(site, app_client, monkeypatch, 13)
    assert long[3] - short[3] == 10
    assert short[:3] == long[:3] == (0, 1, 2)


def seeded_orders(seed: int, phases: int) -> list[tuple[str, dict[str, list[str]]]]:
    """Random legal orders of every power, phase by phase, for ``phases`` phases of a standard game."""
    rng = random.Random(seed)
    game = Game.new()
    out = []
    for _ in range(phases):
        orders = {}
        for p in game.powers():
            lines = [rng.choice(options) for options in game.legal_orders(p).values() if options]
            if lines:
                game.set_orders(p, lines)
                orders[p] = lines
        out.append((str(game.phase), orders))
        game.advance()
    return out


def every_record_history(site: Site, gid: int, role: str) -> tuple[list[dict[str, Any]], reading.Seen]:
    """What a viewer's phase history and synchronize were built from before: a timeline of every record."""
    with site.db.reading() as s:
        row = s.get(GameRow, gid)
        assert row is not None
        game = services.whole_game(site, s, row)
        timeline = board.Timeline(game, viewer_of(role), board.micros(row.created_at))
        messages = messages_of(s, row, role)
        played = [timeline.phase_data(k, messages) for k in range(len(timeline.played))]
        return played, reading.seen_of(row.status, timeline, count_for(s, row.id, press_name(role)))


def test_the_stored_timelines_tell_what_every_record_tells(site: Site, app_client: TestClient) -> None:
    """A game with a retreat phase nobody could play (left out of MILA's phases), played through the API: for the
    master, an observer and two powers, every phase history (each phase by index, by name, ranges, negative
    indices) and the synchronize are what a timeline of every record gives, read by a new process (a second site
    on the same database) and by the one that played, and after one more phase."""
    gid, master, players = start_game(app_client)
    r = Api(app_client, "watcher_k").post(f"/api/games/{gid}/join", {"role": "observer"})
    assert r.status_code == 200, r.text
    for phase, orders in seeded_orders(25, 14):
        now = master.get(f"/api/games/{gid}").json()["game"]["phase"]
        if now != phase:
            continue  # a retreat phase nobody could play: processed with the movement
        for power, lines in orders.items():
            assert players[power].put(f"/api/games/{gid}/orders", {"orders": lines}).status_code == 200
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
        if phase == "S1905M":  # the following checks run once in the middle of the game, once at its end
            check_timelines(site, gid, master, players)
    check_timelines(site, gid, master, players)


def check_timelines(site: Site, gid: int, master: Api, players: dict[str, Api]) -> None:
    roles = {OMNISCIENT_TYPE: master.name, "observer_type": "watcher_k"}
    roles |= {p: players[p].name for p in ("FRANCE", "ITALY")}
    fresh = make_site(Settings(database_url=site.db.url, run_worker=False), site.clock)  # a new process
    try:
        for reader in (fresh, site):
            check_readers(reader, gid, roles)
    finally:
        fresh.db.dispose()
    with site.db.reading() as s:
        row = s.get(GameRow, gid)
        assert row is not None
        rules = site.referee.game(s, row).rules
        records = [record_from_data(rules, d) for d in played_records(s, gid)]
    left_out = [r.position.phase for r in records if hidden(record_view(rules, r, "master"))]
    assert left_out or len(records) < 12, "the seeded game has a retreat phase nobody could play"


def check_readers(site: Site, gid: int, roles: dict[str, str]) -> None:
    """Every phase history and the synchronize of each role, read through ``site``, are what a timeline of
    every record gives."""
    for role, name in roles.items():
        user = user_id_of(site, name)
        whole, seen = every_record_history(site, gid, role)
        names = [d["name"] for d in whole]
        assert reading.glance(site, user, str(gid), role)[0] == seen
        assert reading.phase_history(site, user, str(gid), role, None, None) == whole
        for k, name_ in enumerate(names):
            assert reading.phase_history(site, user, str(gid), role, k, k) == [whole[k]]
            assert reading.phase_history(site, user, str(gid), role, name_, name_) == [whole[k]]
            assert reading.phase_history(site, user, str(gid), role, k - len(names), None) == whole[k:]
        assert reading.phase_history(site, user, str(gid), role, 2, -2) == whole[2:-1]
        assert reading.phase_history(site, user, str(gid), role, -100, 1) == whole[-100:2]


def test_two_databases_never_share_a_timeline(site: Site, clock: ManualClock, tmp_path: Path) -> None:
    """Two sites whose games have the same id, the same creation time and as many phases, France's army moved to
    Burgundy in one and to Picardy in the other: each site's synchronize tells its own influence (the kept
    timelines are the database's, not only the game id's)."""
    other = make_site(Settings(database_url=f"sqlite:///{tmp_path / 'other.sqlite3'}", run_worker=False), clock)
    try:
        told = []
        for one, target in ((site, "BUR"), (other, "PIC")):
            with TestClient(create_app(site=one)) as client:
                gid, master, players = start_game(client)
                assert (
                    players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": [f"A PAR - {target}"]}).status_code
                    == 200
                )
                for _ in range(2):
                    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
                france = user_id_of(one, players["FRANCE"].name)
                seen, _ = reading.glance(one, france, str(gid), "FRANCE")
                told.append((gid, seen.played, seen.influence))
        assert told[0][:2] == told[1][:2]  # the same game id and length in both
        assert (told[0][2].get("BUR"), told[0][2].get("PIC")) == ("FRANCE", None)
        assert (told[1][2].get("BUR"), told[1][2].get("PIC")) == (None, "FRANCE")
    finally:
        other.db.dispose()
