"""Each audience's MILA timeline stored with each record (``mila_steps``): what it holds, that only what the
audience may see goes into it, and that an upgrade fills it for the games already played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import select

from arbitre.interface.mila.influence import advance, audiences, influence_data, start
from arbitre.judge.game import record_from_data, record_view
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.mila import reading
from arbitre.server.mila.board import OMNISCIENT_TYPE
from arbitre.server.mila.service import process_now
from arbitre.server.site import Settings, Site
from arbitre.store.migrate import alembic_config
from arbitre.store.milasteps import Step, steps_of
from arbitre.store.models import GameRow, MilaStep
from arbitre.store.records import played_records
from tests.server.conftest import POWERS, Api, start_game
from tests.server.test_history_pairs import TURNS
from tests.server.test_mila_cost import seeded_orders, user_id_of
from tests.server.test_mila_protocol import masked
from tests.server.twins import fresh_database

VIEWERS = ("master", "observer", "FRANCE", "ITALY")


def walked(site: Site, gid: int, viewer: str) -> list[Step]:
    """``viewer``'s timeline after each record, folded from every record's view (what was done at each read)."""
    with site.db.reading() as s:
        row = s.get(GameRow, gid)
        assert row is not None
        rules = site.referee.game(s, row).rules
        known = start(rules.game_map)
        out: list[Step] = []
        for index, data in enumerate(played_records(s, gid)):
            known = advance(known, record_view(rules, record_from_data(rules, data), viewer), rules.game_map)
            out.append((index, known.visible, influence_data(known.influence)))
    return out


def stored(site: Site, gid: int, viewer: str) -> list[Step]:
    with site.db.reading() as s:
        return steps_of(s, gid, viewer)


def play_seeded(client: TestClient, master: Api, players: dict[str, Api], gid: int, phases: int) -> None:
    """``phases`` phases of random legal orders (seed 25: a retreat phase nobody could play comes up)."""
    for phase, orders in seeded_orders(25, phases):
        if master.get(f"/api/games/{gid}").json()["game"]["phase"] != phase:
            continue  # a retreat phase nobody could play: processed with the movement
        for power, lines in orders.items():
            assert players[power].put(f"/api/games/{gid}/orders", {"orders": lines}).status_code == 200
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200


def test_the_stored_steps_are_a_walk_of_every_records_view(site: Site, app_client: TestClient) -> None:
    """A game with a retreat phase MILA leaves out: the master's, an observer's, France's and Italy's stored steps
    are, record by record, the fold of every record's view as each of them sees it."""
    gid, master, players = start_game(app_client)
    play_seeded(app_client, master, players, gid, 14)
    for viewer in VIEWERS:
        walk = walked(site, gid, viewer)
        assert len(walk) >= 12
        assert stored(site, gid, viewer) == walk, viewer
    master_walk = walked(site, gid, "master")
    assert master_walk[-1][1] < len(master_walk), "a retreat phase nobody could play is no MILA phase"


def submarines_game(client: TestClient, n: int) -> tuple[int, Api, dict[str, Api]]:
    """A Submarines game whose German submarine dives on route ``n`` (the two differ only in it)."""
    gid, master, players = start_game(client, rules=["submarines"], options={"start_submarines": "GERMANY:KIE"})
    for turn in TURNS:
        for power, lines in turn[n].items():
            r = players[power].put(f"/api/games/{gid}/orders", {"orders": lines})
            assert r.status_code == 200 and not r.json()["rejected"], r.text
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
        while not master.get(f"/api/games/{gid}").json()["game"]["phase"].endswith("M"):
            assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    return gid, master, players


def test_a_hidden_submarine_changes_nothing_france_has_stored(site: Site, app_client: TestClient) -> None:
    """Two Submarines games that differ only in the route of Germany's submerged submarine: France's and an
    observer's stored steps are the same, byte for byte; the master's are not (the pair differs)."""
    games = [submarines_game(app_client, n)[0] for n in (0, 1)]
    for viewer in ("FRANCE", "observer"):
        a, b = (stored(site, gid, viewer) for gid in games)
        assert len(a) >= 8 and json.dumps(a) == json.dumps(b), viewer
        assert a == walked(site, games[0], viewer)
    a, b = (stored(site, gid, "master") for gid in games)
    assert a != b and a == walked(site, games[0], "master")


def test_france_is_told_and_stores_the_same_whatever_others_hid(site: Site, app_client: TestClient) -> None:
    """Two standard games with the same public history that differ only in what France may not see: Germany's
    private press to Italy in every phase and England's pending orders.  France's stored steps and its MILA
    answers (join, synchronize, every phase history) are the same, byte for byte, ids and times set aside."""
    told: list[str] = []
    for variant in range(2):
        gid, master, players = start_game(app_client)
        master_id = user_id_of(site, master.name)
        for _ in range(4):
            if variant:
                r = players["GERMANY"].post(f"/api/games/{gid}/messages", {"to": "ITALY", "body": "psst"})
                assert r.status_code in (200, 201), r.text
            process_now(site, master_id, str(gid), OMNISCIENT_TYPE)
        if variant:
            r = players["ENGLAND"].put(f"/api/games/{gid}/orders", {"orders": ["F LON - NTH"]})
            assert r.status_code == 200, r.text
        france = user_id_of(site, players["FRANCE"].name)
        game, seen = reading.game_object(site, france, gid, "FRANCE")
        answers: list[Any] = [
            stored(site, gid, "FRANCE"),
            game,
            reading.glance(site, france, str(gid), "FRANCE"),
            seen,
            reading.phase_history(site, france, str(gid), "FRANCE", None, None),
            reading.phase_history(site, france, str(gid), "FRANCE", -1, -1),
            reading.phase_history(site, france, str(gid), "FRANCE", "S1901M", "F1901M"),
        ]
        told.append(json.dumps(masked(answers), sort_keys=True, default=repr))
    assert told[0] == told[1]
    assert "psst" not in told[1]


def espionnite_in_reaction(client: TestClient) -> int:
    """An Espionnite game with one played phase, then in its reaction step (a spy's report told to France)."""
    gid, master, players = start_game(client, rules=["espionnite"], deadlines={"M": 3600, "reaction": 600})
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    while master.get(f"/api/games/{gid}").json()["game"]["step"] != "orders":
        assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    assert players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "SPY MUN"]}).status_code == 200
    for p in POWERS:
        players[p].put(f"/api/games/{gid}/orders", {"ready": True})
    assert master.get(f"/api/games/{gid}").json()["game"]["step"] == "reaction"
    return gid


def every_step(site: Site) -> list[tuple[int, str, int, int, str]]:
    with site.db.reading() as s:
        rows = s.scalars(select(MilaStep).order_by(MilaStep.game_id, MilaStep.viewer, MilaStep.played))
        return [(r.game_id, r.viewer, r.played, r.visible, json.dumps(r.influence, sort_keys=True)) for r in rows]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_upgrade_fills_the_steps_of_games_in_progress(tmp_path: Path, backend: str) -> None:
    """A database of games in progress — a standard game with a retreat phase MILA leaves out, two Submarines
    games differing in a hidden submarine, an Espionnite game in its reaction step — taken back to before
    ``0019_milastore`` (no steps stored), then opened by the site as ``arbitre serve`` does: the upgrade stores
    every audience's steps of every game as they were written while the games were played."""
    with fresh_database(backend, tmp_path, "games") as url:
        upgrade_games_in_progress(url)


def upgrade_games_in_progress(url: str) -> None:
    clock = ManualClock()
    site = make_site(Settings(database_url=url, run_worker=False), clock)
    with TestClient(create_app(site=site)) as client:
        gid, master, players = start_game(client)
        play_seeded(client, master, players, gid, 14)
        subs = [submarines_game(client, n)[0] for n in (0, 1)]
        spy = espionnite_in_reaction(client)
    written = every_step(site)
    viewers = {v for _, v, *_ in written}
    assert viewers == {"master", "observer", *POWERS}
    assert {g for g, *_ in written} == {gid, *subs, spy}
    cfg = alembic_config(site.db)
    with site.db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0018_records")
        conn.commit()
    site.db.dispose()
    again = make_site(Settings(database_url=url, run_worker=False), clock)  # upgrades it
    try:
        assert every_step(again) == written
        for viewer in VIEWERS:
            assert stored(again, gid, viewer) == walked(again, gid, viewer)
        assert stored(again, subs[0], "FRANCE") == stored(again, subs[1], "FRANCE")
        assert stored(again, subs[0], "master") != stored(again, subs[1], "master")
    finally:
        again.db.dispose()


def test_the_upgrade_of_a_database_before_records_fills_every_game(tmp_path: Path) -> None:
    """The database written before phase records (standard, Colonial, Submarines, Espionnite in its reaction step:
    ``tests/data/records``), opened by the site: every audience's stored steps of every game are the walk of every
    record's view."""
    from tests.server.test_records_migration import DATA

    path = tmp_path / "old.sqlite3"
    path.write_bytes((DATA / "main.sqlite3").read_bytes())
    site = make_site(Settings(database_url=f"sqlite:///{path}", run_worker=False), ManualClock())
    try:
        with site.db.reading() as s:
            games = [
                (r.id, r.played, audiences(site.referee.game(s, r).rules.game_map))
                for r in s.scalars(select(GameRow).order_by(GameRow.id))
            ]
        assert sum(1 for _, played, _ in games if played) >= 3
        for gid, played, viewers in games:
            for viewer in viewers:
                walk = walked(site, gid, viewer)
                assert len(walk) == played and stored(site, gid, viewer) == walk, (gid, viewer)
    finally:
        site.db.dispose()


def test_a_mila_draw_vote_reads_the_typed_votes(site: Site, app_client: TestClient) -> None:
    """MILA's ``vote``: ``yes`` opens a draw vote, a second power's ``yes`` votes on it (the open vote found by the
    typed answer's fields), ``neutral`` takes that ballot back."""
    from arbitre.server.mila.service import vote

    gid, _master, players = start_game(app_client)
    france, italy = user_id_of(site, players["FRANCE"].name), user_id_of(site, players["ITALY"].name)
    vote(site, france, str(gid), "FRANCE", "FRANCE", "yes")
    votes = players["ITALY"].get(f"/api/games/{gid}/votes").json()["votes"]
    assert [(v["kind"], v["status"]) for v in votes] == [("draw", "open")]
    vote(site, italy, str(gid), "ITALY", "ITALY", "yes")
    assert players["ITALY"].get(f"/api/games/{gid}/votes").json()["votes"][0]["your_ballot"] == "yes"
    vote(site, italy, str(gid), "ITALY", "ITALY", "neutral")
    assert players["ITALY"].get(f"/api/games/{gid}/votes").json()["votes"][0]["your_ballot"] is None
