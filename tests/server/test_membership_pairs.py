"""Hidden-information pair (SQLite and PostgreSQL): two servers that differ only in a private game's
existence answer an outsider (a visitor, a logged-in stranger) byte for byte the same on the lobby, the
lateness boards and the yellow cards.

On both servers the same accounts play the same public game, under lateness rules that give a missed
deadline a yellow card, civil disorder and a call for a replacement; Italy's player misses a deadline.
On the first server only, a private game is played too, by people who also have accounts on the second,
Italy's player among them, and Italy misses its deadline there as well (a second yellow card, a second
call).  Nothing is set aside but each page's CSRF token and each call's random take-over token (they
differ between any two servers).  The private game is made after the public one: game ids are a site-wide
counter, which this pair does not cover.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from arbitre.server import worker
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings, Site
from tests.server.conftest import BACKENDS, POWERS, Api, _admin_url
from tests.server.test_membership import CARD_AND_CALL, CODE, SHORT

pytestmark = pytest.mark.usefixtures("quick_hashes")

OUTSIDE = ["/api/games", "/", "/api/lateness", "/lateness", "/api/games/1/lateness", "/games/1/lateness"]
"""What an outsider reads: the lobby (API and home page), the site-wide board with its yellow cards and
calls (API and page), and the public game's own board."""


@pytest.fixture(params=BACKENDS)
def twin_urls(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[str]]:
    """Two fresh database URLs on the same backend."""
    if request.param == "sqlite":
        yield [f"sqlite:///{tmp_path / f'twin{n}.sqlite3'}" for n in (0, 1)]
        return
    # one more PostgreSQL database per server (the fixture makes one per request)
    first = request.getfixturevalue("postgres_db")
    second = _second_postgres(request)
    yield [first, second]


def _second_postgres(request: pytest.FixtureRequest) -> str:
    """A second throwaway PostgreSQL database, dropped at the end of the test."""
    admin = _admin_url()
    name = f"arbitre_t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()

    request.addfinalizer(drop)
    return str(admin.set(database=name).render_as_string(hide_password=False))


def _scrub(text: str) -> str:
    """An answer without the per-visit CSRF token and the calls' random take-over tokens."""
    text = re.sub(r'(name="csrf" value|data-csrf)="[0-9a-f]+"', r'\1=""', text)
    return re.sub(r"/takeover/[A-Za-z0-9_-]+", "/takeover/TOKEN", text)


def _world(url: str, private: bool) -> dict[str, str]:
    """Build one server's history (with the private game or not) and read what outsiders are answered."""
    clock = ManualClock()
    site = make_site(Settings(database_url=url, run_worker=False), clock)
    try:
        with TestClient(create_app(site=site)) as client:
            return _play(client, site, clock, private)
    finally:
        site.db.dispose()


def _play(client: TestClient, site: Site, clock: ManualClock, private: bool) -> dict[str, str]:
    # the same accounts on both servers, made in the same order
    master = Api(client, "pair_master")
    players = {p: Api(client, f"pair_{p.lower()}") for p in POWERS}
    host = Api(client, "pair_host")
    others = {p: Api(client, f"pair_q_{p.lower()}") for p in POWERS if p != "ITALY"}
    stranger = Api(client, "pair_stranger")
    body = {"name": "Open", "assignment": "choice", "deadlines": SHORT, "lateness": CARD_AND_CALL}
    public = master.post("/api/games", body).json()["id"]
    assert public == 1
    for p, api in players.items():
        assert api.post(f"/api/games/{public}/join", {"role": "player", "power": p}).status_code == 200
    if private:  # Italy's player also plays a private game, with people who play nothing on the other server
        r = host.post("/api/games", {**body, "name": "Hidden", "private": True, "join_code": CODE})
        gid = r.json()["id"]
        token = host.get(f"/api/games/{gid}").json()["invitation"]["path"].rsplit("/", 1)[1]
        for p in POWERS:
            api = players[p] if p == "ITALY" else others[p]
            r = api.post(f"/api/invitations/{token}/join", {"role": "player", "power": p, "code": CODE})
            assert r.status_code == 200, r.text
        for api in others.values():
            assert api.put(f"/api/games/{gid}/orders", {"ready": True}).status_code == 200
    for p, api in players.items():
        if p != "ITALY":
            assert api.put(f"/api/games/{public}/orders", {"ready": True}).status_code == 200
    clock.advance(601)
    worker.tick(site)  # Italy misses its deadline in every game it plays
    if private:  # the private game did happen: its board has the card and the call
        board = host.get(f"/api/games/{gid}/lateness").json()
        assert board["yellow_cards"] == {"ITALY": 1} and len(board["calls"]) == 1
        assert players["ITALY"].get("/api/lateness").json()["yellow_cards"] == {players["ITALY"].name: 2}
    out = {}
    for who, headers in (("visitor", {}), ("stranger", stranger.headers)):
        for path in OUTSIDE:
            client.cookies.clear()
            r = client.get(path, headers=headers)
            out[f"{who} {path}"] = f"{r.status_code} {_scrub(r.text)}"
    return out


def test_a_private_games_existence_changes_nothing_an_outsider_reads(twin_urls: list[str]) -> None:
    with_it, without = _world(twin_urls[0], True), _world(twin_urls[1], False)
    assert '"yellow_cards":{"pair_italy":1}' in with_it["visitor /api/lateness"]  # the public game's card only
    assert "Hidden" not in "".join(with_it.values())
    for key in with_it:
        assert with_it[key] == without[key], key
