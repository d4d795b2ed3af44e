"""What telling a MILA client of one more phase costs: the records and messages it reads do not grow with
the game's length."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, select

import arbitre.store.records as store_records
from arbitre.server.mila import reading
from arbitre.server.mila.board import OMNISCIENT_TYPE
from arbitre.server.mila.service import process_now
from arbitre.server.site import Site
from arbitre.store.models import Message, User
from tests.server.conftest import start_game

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
