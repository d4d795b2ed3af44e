"""Espionnite on the server: orders lock, each spy's report reaches only its power, the reaction step
(one change, its own deadline), then the adjudication with the changed orders."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.judge import progress
from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.conftest import POWERS, start_game


def test_reveal_and_reaction_step(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    gid, master, players = start_game(app_client, rules=["espionnite"], deadlines={"M": 3600, "reaction": 600})
    fr, de, it = players["FRANCE"], players["GERMANY"], players["ITALY"]
    assert "SPY" in fr.get(f"/api/games/{gid}/orders").json()["legal"]
    assert fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "SPY MUN"]}).json()["rejected"] == []
    assert de.put(f"/api/games/{gid}/orders", {"orders": ["A MUN - BUR", "COUNTERSPY KIE"]}).json()["rejected"] == []
    for p in POWERS:
        players[p].put(f"/api/games/{gid}/orders", {"ready": True})
    # the orders locked: the reaction step, with its own deadline
    state = fr.get(f"/api/games/{gid}").json()
    assert (state["game"]["phase"], state["game"]["step"]) == ("S1901M", "reaction")
    assert state["orders"]["locked"] == ["A PAR - BUR", "SPY MUN"]
    assert state["orders"]["lines"] == [] and state["orders"]["ready"] is False
    assert any("A MUN - BUR" in line["en"] for line in state["reveal"])
    for other in (de, it):
        seen = other.get(f"/api/games/{gid}").json()
        assert "A MUN - BUR" not in str(seen["reveal"])
        assert all(o["power"] != "FRANCE" for o in seen["view"]["orders"])  # France's locked orders stay France's
    # one change only; an illegal change is refused with the engine's message
    r = fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - PIC", "F BRE - MAO"]}).json()
    assert r["rejected"] and "one" in r["rejected"][0]["message"]
    r = fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - MUN"]}).json()
    assert r["rejected"]
    assert fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - PIC"]}).json()["rejected"] == []
    # the reaction step ends at its deadline (600 s), not the movement one
    assert worker.tick(site) == 0
    clock.advance(601)
    assert worker.tick(site) == 1
    state = master.get(f"/api/games/{gid}").json()
    assert (state["game"]["phase"], state["game"]["step"]) == ("F1901M", "orders")
    units = {(u["power"], u["place"]) for u in state["view"]["units"]}
    assert ("FRANCE", "PIC") in units and ("GERMANY", "BUR") in units
    # the history shows the adjudicated orders; the spy order is never published
    phase0 = it.get(f"/api/games/{gid}/history/0").json()["view"]
    texts = [o["text"] for o in phase0["orders"]]
    assert "A PAR - PIC" in texts and not any("SPY" in t for t in texts)


def test_the_change_is_checked_once_when_given_not_again_at_the_close(
    app_client: TestClient, site: Site, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, master, players = start_game(app_client, rules=["espionnite"], deadlines={"M": 3600, "reaction": 600})
    fr = players["FRANCE"]
    assert fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}).json()["rejected"] == []
    for p in POWERS:
        players[p].put(f"/api/games/{gid}/orders", {"ready": True})
    assert fr.get(f"/api/games/{gid}").json()["game"]["step"] == "reaction"
    checks: list[str] = []
    real = progress.check_change

    def counted(*args: Any) -> Any:
        checks.append(str(args[3]))
        return real(*args)

    monkeypatch.setattr(progress, "check_change", counted)
    assert fr.put(f"/api/games/{gid}/orders", {"orders": ["a par-pic"]}).json()["rejected"] == []
    assert checks == ["a par-pic"]  # read and checked once, when given
    clock.advance(601)
    assert worker.tick(site) == 1
    assert checks == ["a par-pic"]  # the stored normal form is taken as it is at the close
    units = {(u["power"], u["place"]) for u in master.get(f"/api/games/{gid}").json()["view"]["units"]}
    assert ("FRANCE", "PIC") in units


def test_what_the_lock_revealed_is_read_from_the_lock_record(app_client: TestClient, site: Site) -> None:
    """The reveal a reader gets in the reaction step comes from the lock's record, the one stored copy: the game
    row's state keeps none, and a record that says something else is what readers are told."""
    from sqlalchemy import select

    from arbitre.store.models import GameRecord, GameRow

    gid, _master, players = start_game(app_client, rules=["espionnite"], deadlines={"M": 3600, "reaction": 600})
    fr, de = players["FRANCE"], players["GERMANY"]
    fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "SPY MUN"]})
    de.put(f"/api/games/{gid}/orders", {"orders": ["A MUN - BUR"]})
    for p in POWERS:
        players[p].put(f"/api/games/{gid}/orders", {"ready": True})
    assert any("A MUN - BUR" in line["en"] for line in fr.get(f"/api/games/{gid}").json()["reveal"])
    with site.db.writing() as s:
        row = s.scalars(select(GameRow).where(GameRow.id == gid)).one()
        assert row.step == "reaction" and "lock_events" not in row.data
        lock = s.scalars(select(GameRecord).where(GameRecord.game_id == gid, GameRecord.played.is_(None))).one()
        assert (lock.phase, lock.step) == ("S1901M", "orders")
        events = lock.data["lock_events"]
        assert events and all(e["audience"] == ["FRANCE"] for e in events)
        # the record now tells Germany instead: readers follow the record
        lock.data = {**lock.data, "lock_events": [{**e, "audience": ["GERMANY"]} for e in events]}
        row.version += 1  # a new version: no process answers from its cache
    assert not any("A MUN - BUR" in line["en"] for line in fr.get(f"/api/games/{gid}").json()["reveal"])
    assert any("A MUN - BUR" in line["en"] for line in de.get(f"/api/games/{gid}").json()["reveal"])
