"""How many SQL statements a page load costs a logged-in member (issue 12: at most 2), on SQLite and PostgreSQL.

Each statement the engine sends is counted with a ``before_cursor_execute`` listener; transaction control
(``BEGIN``, ``COMMIT``, ``ROLLBACK``, ``SET``) is not a query. A later change that adds a query to these
pages makes this test fail. The first load of a page fills the per-process caches; the counted load is
the next one, as every load but the first after a change is on a running site.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from arbitre.server.site import Site
from tests.server.conftest import Api, start_game

QUERY = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", re.IGNORECASE)


@contextmanager
def counting(site: Site) -> Iterator[list[str]]:
    """The statements (queries only) sent to ``site``'s database inside the block."""
    seen: list[str] = []

    def listen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if QUERY.match(statement):
            seen.append(statement)

    event.listen(site.db.engine, "before_cursor_execute", listen)
    try:
        yield seen
    finally:
        event.remove(site.db.engine, "before_cursor_execute", listen)


def _login(client: TestClient, api: Api) -> TestClient:
    """A browser logged in (session cookie) as the account of ``api``."""
    browser = TestClient(client.app)
    page = browser.get("/login").text
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert m
    r = browser.post(
        "/login", data={"name": api.name, "password": "password123", "csrf": m.group(1)}, follow_redirects=False
    )
    assert r.status_code == 303
    return browser


def _queries(site: Site, call: Any) -> list[str]:
    call()  # the first load fills the caches
    with counting(site) as seen:
        r = call()
    assert r.status_code == 200, r.text
    return seen


HEADER_TOTAL = 1
"""The queries of the header's unread total on a logged-in reader's page, whatever its number of games: its
seats with its read marks, in one statement (each game's conversations come from the game's fact cache)."""


@pytest.fixture
def running(app_client: TestClient) -> tuple[int, Api, dict[str, Api]]:
    """A running standard game where France has given orders."""
    gid, master, players = start_game(app_client)
    r = players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]})
    assert r.status_code == 200, r.text
    return gid, master, players


def test_game_page_of_a_player_by_cookie(app_client: TestClient, site: Site, running: Any) -> None:
    gid, _, players = running
    browser = _login(app_client, players["FRANCE"])
    seen = _queries(site, lambda: browser.get(f"/games/{gid}"))
    assert len(seen) <= 2 + HEADER_TOTAL, "\n\n".join(seen)


def test_game_page_of_the_master_by_cookie(app_client: TestClient, site: Site, running: Any) -> None:
    gid, master, _ = running
    browser = _login(app_client, master)
    seen = _queries(site, lambda: browser.get(f"/games/{gid}"))
    assert len(seen) <= 2 + HEADER_TOTAL, "\n\n".join(seen)


def test_home_page_by_cookie(app_client: TestClient, site: Site, running: Any) -> None:
    _, _, players = running
    browser = _login(app_client, players["FRANCE"])
    seen = _queries(site, lambda: browser.get("/"))
    assert len(seen) <= 2 + HEADER_TOTAL, "\n\n".join(seen)


@pytest.mark.parametrize("path", ["/api/games/{gid}", "/api/games/{gid}/orders", "/api/games", "/api/me"])
def test_api_reads_by_token(app_client: TestClient, site: Site, running: Any, path: str) -> None:
    gid, _, players = running
    api = players["FRANCE"]
    seen = _queries(site, lambda: api.get(path.format(gid=gid)))
    assert len(seen) <= 2, "\n\n".join(seen)


@pytest.fixture
def forming(app_client: TestClient) -> tuple[int, str, Api]:
    """A private game still forming, where players choose their powers (one has joined): its id, its
    invitation token and its master."""
    master = Api(app_client, "gmform")
    r = master.post("/api/games", {"name": "Club", "private": True, "join_code": "tulip", "assignment": "choice"})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    token = master.get(f"/api/games/{gid}").json()["invitation"]["path"].rsplit("/", 1)[1]
    first = Api(app_client, "firstin")
    r = first.post(
        f"/api/invitations/{token}/join",
        {"role": "player", "power": "ITALY", "code": "tulip"},
    )
    assert r.status_code == 200, r.text
    return gid, token, master


def test_game_page_of_an_outsider_by_cookie(app_client: TestClient, site: Site, running: Any) -> None:
    gid, _, _ = running
    browser = _login(app_client, Api(app_client, "outsider"))
    seen = _queries(site, lambda: browser.get(f"/games/{gid}"))
    assert len(seen) <= 2 + HEADER_TOTAL, "\n\n".join(seen)


def test_game_page_of_a_visitor(app_client: TestClient, site: Site, running: Any) -> None:
    gid, _, _ = running
    visitor = TestClient(app_client.app)
    seen = _queries(site, lambda: visitor.get(f"/games/{gid}"))
    assert len(seen) <= 2, "\n\n".join(seen)


@pytest.mark.parametrize("path", ["/invite/{token}", "/api/invitations/{token}"])
def test_invitation_of_an_outsider(app_client: TestClient, site: Site, forming: Any, path: str) -> None:
    _, token, _ = forming
    browser = _login(app_client, Api(app_client, "invited"))
    seen = _queries(site, lambda: browser.get(path.format(token=token)))
    assert len(seen) <= 2 + HEADER_TOTAL, "\n\n".join(seen)


def test_the_header_total_costs_the_same_in_three_games(app_client: TestClient, site: Site, running: Any) -> None:
    """The unread total of the header reads the same number of queries for a reader in three games as in one."""
    _gid, master, players = running
    browser = _login(app_client, players["FRANCE"])
    one = len(_queries(site, lambda: browser.get("/")))
    for _ in range(2):
        r = master.post("/api/games", {"name": "More", "assignment": "choice"})
        assert r.status_code == 201, r.text
        joined = players["FRANCE"].post(f"/api/games/{r.json()['id']}/join", {"role": "player", "power": "FRANCE"})
        assert joined.status_code == 200, joined.text
    three = _queries(site, lambda: browser.get("/"))
    assert len(three) == one, "\n\n".join(three)
