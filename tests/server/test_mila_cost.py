"""What telling a MILA client of one more phase costs: the records read do not grow with the game's length."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

import arbitre.store.records as store_records
from arbitre.server.mila import reading
from arbitre.server.mila.board import OMNISCIENT_TYPE
from arbitre.server.mila.service import process_now
from arbitre.server.site import Site
from arbitre.store.models import User
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


def records_read_for_one_more_phase(
    site: Site, client: TestClient, monkeypatch: pytest.MonkeyPatch, phases: int
) -> tuple[int, int]:
    """Records read by the notifications of the phase played after ``phases`` others, and the game's phases."""
    gid, master, _players = start_game(client)
    with site.db.reading() as s:
        user_id = s.scalar(select(User.id).where(User.name == master.name))
    assert user_id is not None
    for _ in range(phases):
        process_now(site, user_id, str(gid), OMNISCIENT_TYPE)
    seen, _ = reading.glance(site, user_id, str(gid), OMNISCIENT_TYPE)
    process_now(site, user_id, str(gid), OMNISCIENT_TYPE)
    read = count_records(monkeypatch)
    later, notes = reading.news(site, user_id, str(gid), OMNISCIENT_TYPE, seen)
    monkeypatch.undo()
    assert [name for name, _ in notes] == ["game_processed"]
    # what the client now knows is what a client joining now would know
    assert later == reading.glance(site, user_id, str(gid), OMNISCIENT_TYPE)[0]
    return sum(read), later.played


def test_one_more_phase_reads_one_record_at_any_length(
    site: Site, app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notification of a processed phase reads the new phase's record only: as many records at 12
    phases as at 2 (the whole game was read for each followed game before)."""
    short, short_played = records_read_for_one_more_phase(site, app_client, monkeypatch, 2)
    long, long_played = records_read_for_one_more_phase(site, app_client, monkeypatch, 12)
    assert long_played - short_played == 10
    assert short == long == 1
