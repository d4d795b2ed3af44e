"""Game pages kept rendered per process (:mod:`arbitre.server.rendered`), on SQLite and PostgreSQL.

A kept page is the page the template renders, byte for byte; it is rendered again when something its reader
sees changes and only then, so a hidden change (another power's orders without shown progress, private press
between others) neither re-renders it nor changes it; each session gets its own CSRF token in it; and the
page reads its header's counts in its own snapshot (one transaction per page).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from arbitre.server import pages
from arbitre.server.site import Site
from tests.server.conftest import Api, start_game


def _login(client: TestClient, api: Api) -> TestClient:
    """A browser logged in (session cookie) as the account of ``api``."""
    browser = TestClient(client.app)
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', browser.get("/login").text)
    assert m
    form = {"name": api.name, "password": "password123", "csrf": m.group(1)}
    assert browser.post("/login", data=form, follow_redirects=False).status_code == 303
    return browser


def _page(browser: TestClient, gid: int) -> str:
    r = browser.get(f"/games/{gid}")
    assert r.status_code == 200, r.text
    return r.text


def _csrf(page: str) -> set[str]:
    return set(re.findall(r'name="csrf" value="([^"]+)"', page)) | set(re.findall(r'data-csrf="([^"]+)"', page))


def test_a_kept_page_is_the_rendered_page(app_client: TestClient, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """For a player, the master and an observer, in English and French, the page served from the kept pages
    is byte for byte the page the template renders for that request."""
    gid, master, players = start_game(app_client, show_progress=True)
    assert players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}).status_code == 200
    observer = Api(app_client, "watcher")
    assert observer.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
    for api in (players["FRANCE"], master, observer):
        browser = _login(app_client, api)
        for lang in ("en", "fr"):
            if lang == "fr":  # the user's language, kept on the account
                m = re.search(r'name="csrf" value="([0-9a-f]+)"', _page(browser, gid))
                assert m
                r = browser.post("/lang", data={"lang": "fr", "csrf": m.group(1), "next": "/"}, follow_redirects=False)
                assert r.status_code == 303
            first = _page(browser, gid)
            renders = site.pages.renders
            kept = _page(browser, gid)
            assert site.pages.renders == renders, "the second load of an unchanged page renders it again"
            monkeypatch.setattr(pages, "RELOAD", True)  # the template rendered for this request, as before
            rendered = _page(browser, gid)
            monkeypatch.setattr(pages, "RELOAD", False)
            assert kept == first == rendered
            assert ('lang="fr"' in kept) == (lang == "fr")


def test_hidden_changes_neither_render_nor_change_the_page(app_client: TestClient, site: Site) -> None:
    """Pair: France's page before and after England gives orders (progress not shown) and writes privately to
    Germany is the same page, served without rendering; France's own orders render it again."""
    gid, _master, players = start_game(app_client, show_progress=False, press="full")
    browser = _login(app_client, players["FRANCE"])
    before = _page(browser, gid)
    renders = site.pages.renders
    r = players["ENGLAND"].put(f"/api/games/{gid}/orders", {"orders": ["F LON - NTH"], "ready": True})
    assert r.status_code == 200, r.text
    r = players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": ["GERMANY"], "body": "secret plan"})
    assert r.status_code in (200, 201), r.text
    after = _page(browser, gid)
    assert after == before
    assert site.pages.renders == renders, "a change France may not see rendered France's page again"
    assert players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]}).status_code == 200
    mine = _page(browser, gid)
    assert site.pages.renders == renders + 1
    assert mine != before and "A PAR - BUR" in mine


def test_shown_progress_renders_the_page_again(app_client: TestClient, site: Site) -> None:
    """With progress shown, England's orders are something France sees: France's page changes with them."""
    gid, _master, players = start_game(app_client, show_progress=True)
    browser = _login(app_client, players["FRANCE"])
    before = _page(browser, gid)
    renders = site.pages.renders
    assert players["ENGLAND"].put(f"/api/games/{gid}/orders", {"orders": ["F LON - NTH"]}).status_code == 200
    after = _page(browser, gid)
    assert site.pages.renders == renders + 1
    assert after != before


def test_each_session_gets_its_own_csrf_token(app_client: TestClient, site: Site) -> None:
    """Two logins of one player share the kept page but each page carries its own session's token, the one its
    forms are accepted with."""
    gid, _master, players = start_game(app_client)
    one, two = _login(app_client, players["FRANCE"]), _login(app_client, players["FRANCE"])
    first = _page(one, gid)
    renders = site.pages.renders
    second = _page(two, gid)
    assert site.pages.renders == renders
    (token_one,), (token_two,) = _csrf(first), _csrf(second)
    assert token_one != token_two
    assert _csrf(_page(one, gid)) == {token_one}
    form = {"csrf": token_two, "phase": "S1901M", "orders": "A PAR - BUR"}
    assert two.post(f"/games/{gid}/orders", data=form, follow_redirects=False).status_code == 303
    forged = {"csrf": token_one, "phase": "S1901M", "orders": "A PAR - PIC"}
    assert two.post(f"/games/{gid}/orders", data=forged, follow_redirects=False).status_code == 403


def test_a_game_page_is_one_transaction(app_client: TestClient, site: Site) -> None:
    """The header's unread total is read in the page's own snapshot: a game page begins one transaction."""
    gid, _master, players = start_game(app_client)
    browser = _login(app_client, players["FRANCE"])
    _page(browser, gid)
    begun: list[Any] = []

    def begin(conn: Any) -> None:
        begun.append(conn)

    event.listen(site.db.engine, "begin", begin)
    try:
        _page(browser, gid)
    finally:
        event.remove(site.db.engine, "begin", begin)
    assert len(begun) == 1
