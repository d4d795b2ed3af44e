"""The server's boundary: text, sizes and numbers are refused with an error object saying where; nothing is
stored; every answer carries the security headers."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from arbitre.server.boundary import MAX_BODY
from arbitre.server.site import Site
from arbitre.store.models import GameRow, Message, OrderRow
from tests.server.conftest import start_game


def _snapshot(site: Site) -> Any:
    with site.db.reading() as s:
        games = [(g.id, g.status, g.phase, g.version, g.name, dict(g.options)) for g in s.query(GameRow)]
        orders = [(o.game_id, o.power, tuple(o.lines), o.ready) for o in s.query(OrderRow)]
        return sorted(games), sorted(orders), s.query(Message).count()


def _error(r: Any, status: int, where: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    err = r.json()["error"]
    assert err["code"] and err["message"] and err["where"].startswith(where), err


def test_lone_surrogates_and_controls_are_refused_and_nothing_is_stored(app_client: TestClient, site: Site) -> None:
    gid, master, players = start_game(app_client)
    fr = players["FRANCE"]
    before = _snapshot(site)
    raw = b'{"orders": ["A PAR - BUR \\ud800"]}'
    r = app_client.put(
        f"/api/games/{gid}/orders", content=raw, headers={**fr.headers, "Content-Type": "application/json"}
    )
    _error(r, 422, "body.orders[0]")
    for bad in ("A PAR\x00", "A PAR\x1b[31m", "A PAR\u2028- BUR"):
        _error(fr.put(f"/api/games/{gid}/orders", {"orders": [bad]}), 422, "body.orders[0]")
    raw = b'{"name": "x", "options": {"colonial": "\\udfff"}}'
    r = app_client.post("/api/games", content=raw, headers={**master.headers, "Content-Type": "application/json"})
    _error(r, 422, "body.options.colonial")
    _error(master.post("/api/games", {"name": "x", "options": {"o": "v" * 3_000}}), 422, "body.options")
    _error(fr.post(f"/api/games/{gid}/messages", {"to": "*", "body": "hi\x07"}), 422, "body.body")
    assert _snapshot(site) == before
    for path in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/history", "/"):
        assert fr.get(path).status_code == 200


def test_json_limits(app_client: TestClient, site: Site) -> None:
    gid, _master, players = start_game(app_client)
    h = {**players["FRANCE"].headers, "Content-Type": "application/json"}
    before = _snapshot(site)
    cases = {
        '{"orders": [], "orders": ["A PAR H"]}': "body",  # duplicated field
        '{"orders": ' + "[" * 500 + "]" * 500 + "}": "body",  # deep nesting
        '{"ready": ' + "9" * 5000 + "}": "body",  # a 5,000-digit integer
        '{"ready": NaN}': "body",
        '{"ready": Infinity}': "body",
        '{"orders": ["A PAR H"]': "body",  # not JSON
    }
    for raw, where in cases.items():
        _error(app_client.put(f"/api/games/{gid}/orders", content=raw.encode(), headers=h), 422, where)
    r = app_client.put(f"/api/games/{gid}/orders", content=b"\xff\xfe", headers=h)
    _error(r, 422, "body")
    r = app_client.put(f"/api/games/{gid}/orders", content=b'{"orders": ["' + b"x" * MAX_BODY + b'"]}', headers=h)
    _error(r, 413, "body")
    assert _snapshot(site) == before


def test_huge_ids_and_non_finite_deadlines(app_client: TestClient, site: Site) -> None:
    gid, master, players = start_game(app_client)
    for path in (
        f"/api/games/{2**63}",
        f"/api/games/{2**31}",
        f"/api/games/{2**63}/history/{2**64}",
        f"/api/games/{gid}/history/{2**63}",
        f"/games/{2**63}",
        f"/games/{gid}/history/{2**70}/map.svg",
    ):
        r = players["FRANCE"].get(path)
        assert r.status_code in (404, 422), (path, r.status_code)
        if path.startswith("/api/"):
            assert r.json()["error"]["where"]
    before = _snapshot(site)
    for value in (1e308, 2**63, -1):
        _error(master.post("/api/games", {"name": "x", "deadlines": {"M": value}}), 422, "body.deadlines")
    _error(master.post(f"/api/games/{gid}/master", {"action": "extend", "minutes": 2**62}), 422, "body.minutes")
    c = TestClient(app_client.app)
    csrf = _login(c, master.name)
    for value in ("inf", "nan", "-inf", "1e308", "abc"):
        r = c.post("/games/new", data={"csrf": csrf, "name": "x", "deadline_M": value}, follow_redirects=False)
        # post/redirect/get: the form page (a GET) lists the problem
        assert r.status_code == 303 and r.headers["location"] == "/games/new", (value, r.status_code)
        assert "deadline" in c.get(r.headers["location"]).text
    r = c.post(
        f"/games/{gid}/master", data={"csrf": csrf, "action": "extend", "minutes": "9" * 40}, follow_redirects=False
    )
    assert r.status_code == 303 and 'id="problem"' in c.get(r.headers["location"]).text
    assert _snapshot(site) == before


def _login(c: TestClient, name: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get("/login").text)
    assert m
    r = c.post("/login", data={"name": name, "password": "password123", "csrf": m.group(1)}, follow_redirects=False)
    assert r.status_code == 303
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get("/").text)
    assert m
    return m.group(1)


def test_form_text_is_checked(app_client: TestClient, site: Site) -> None:
    gid, _master, players = start_game(app_client)
    c = TestClient(app_client.app)
    csrf = _login(c, players["FRANCE"].name)
    before = _snapshot(site)
    r = c.post(f"/games/{gid}/orders", data={"csrf": csrf, "orders": "A PAR - BUR\x00"}, follow_redirects=False)
    assert r.status_code == 422 and "form.orders" in r.text  # refused at the boundary, before any page
    r = c.post(
        f"/games/{gid}/messages",
        content=b"csrf=" + csrf.encode() + b"&to=*&body=%ED%A0%80",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert r.status_code == 422
    assert c.get("/?x=%00").status_code == 422
    assert _snapshot(site) == before


def test_security_headers_on_every_answer(app_client: TestClient, site: Site) -> None:
    gid, _master, players = start_game(app_client)
    fr = players["FRANCE"]
    answers = [
        fr.get("/"),
        fr.get("/api/games"),
        fr.get(f"/games/{gid}"),
        fr.get("/nowhere"),
        fr.get(f"/games/{gid}/map.svg"),
        fr.put(f"/api/games/{gid}/orders", {"orderz": 1}),
        fr.get(f"/api/games/{2**63}"),
    ]
    for r in answers:
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"
        assert "Cookie" in r.headers["vary"]
        assert r.headers["cache-control"].startswith(("no-store", "private")), r.headers["cache-control"]


def test_maps_are_cached_only_at_a_url_naming_the_viewer(app_client: TestClient, site: Site) -> None:
    gid, _master, players = start_game(app_client)
    page = players["FRANCE"].get(f"/games/{gid}").text
    m = re.search(r'src="(/games/\d+/map\.svg\?[^"]+)"', page)
    if m is None:  # the renderer is an optional extra
        assert "Map unavailable" in page
        return
    url = m.group(1).replace("&amp;", "&")
    assert url.endswith("as=FRANCE")
    mine = players["FRANCE"].get(url)
    assert mine.headers["cache-control"].startswith("private") and "Cookie" in mine.headers["vary"]
    theirs = players["GERMANY"].get(url)  # the same URL asked by another viewer: refused, nothing drawn
    assert theirs.status_code == 403 and theirs.headers["cache-control"] == "no-store" and b"<svg" not in theirs.content
    own = players["GERMANY"].get(f"/games/{gid}/map.svg")  # an address naming no viewer: never kept
    assert own.status_code == 200 and own.headers["cache-control"] == "no-store" and own.content != mine.content
