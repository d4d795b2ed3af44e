"""Every endpoint, called logged out, as an outsider and as the wrong member, answers no more than it should.

Forged and malformed requests (missing or wrong CSRF token, bad JSON, bad ids,
unknown fields) get a clear error and change nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from arbitre.server.routes import api, pages_account, pages_games
from arbitre.server.site import Site
from arbitre.store.models import GameRow, Message, OrderRow
from tests.server.conftest import Api, start_game

ALL_ROUTES = [r for mod in (api, pages_account, pages_games) for r in mod.router.routes if isinstance(r, APIRoute)]

# Every endpoint: (method, path) -> (body kind, body).  "json" bodies go to the API, "form" bodies to pages.
CALLS: dict[tuple[str, str], tuple[str, Any]] = {
    ("POST", "/api/register"): ("json", {"name": "intruder1", "password": "password123"}),
    ("POST", "/api/tokens"): ("json", {"name": "nobody", "password": "password123"}),
    ("GET", "/api/me"): ("none", None),
    ("PUT", "/api/me"): ("json", {"lang": "fr"}),
    ("GET", "/api/games"): ("none", None),
    ("POST", "/api/games"): ("json", {"name": "x"}),
    ("GET", "/api/games/{game_id}"): ("none", None),
    ("POST", "/api/games/{game_id}/join"): ("json", {"role": "observer"}),
    ("GET", "/api/games/{game_id}/orders"): ("none", None),
    ("GET", "/api/games/{game_id}/legal"): ("none", None),
    ("PUT", "/api/games/{game_id}/orders"): ("json", {"orders": ["A PAR - PIC"], "ready": True}),
    ("POST", "/api/games/{game_id}/check"): ("json", {"orders": ["A PAR - PIC"]}),
    ("GET", "/api/games/{game_id}/history"): ("none", None),
    ("GET", "/api/games/{game_id}/history/{index}"): ("none", None),
    ("GET", "/api/games/{game_id}/export"): ("none", None),
    ("GET", "/api/games/{game_id}/messages"): ("none", None),
    ("POST", "/api/games/{game_id}/messages"): ("json", {"to": "*", "body": "spam"}),
    ("POST", "/api/games/{game_id}/messages/read"): ("json", {"conversation": "*"}),
    ("GET", "/api/games/{game_id}/draft"): ("none", None),
    ("PUT", "/api/games/{game_id}/draft"): ("json", {"orders": ["A PAR - PIC"]}),
    ("POST", "/api/games/{game_id}/master"): ("json", {"action": "end"}),
    ("GET", "/api/options"): ("none", None),
    ("GET", "/api/games/{game_id}/votes"): ("none", None),
    ("POST", "/api/games/{game_id}/votes"): ("json", {"kind": "draw"}),
    ("POST", "/api/games/{game_id}/votes/{vote_id}/ballot"): ("json", {"choice": "yes"}),
    ("POST", "/api/games/{game_id}/votes/{vote_id}/decision"): ("json", {"decision": "approve"}),
    ("GET", "/games/{game_id}/votes"): ("none", None),
    ("POST", "/games/{game_id}/votes"): ("form", {"kind": "draw"}),
    ("POST", "/games/{game_id}/votes/{vote_id}/ballot"): ("form", {"choice": "yes"}),
    ("POST", "/games/{game_id}/votes/{vote_id}/decision"): ("form", {"decision": "approve"}),
    ("DELETE", "/api/games/{game_id}/votes/{vote_id}/ballot"): ("none", None),
    ("DELETE", "/api/games/{game_id}/votes/{vote_id}"): ("none", None),
    ("POST", "/games/{game_id}/votes/{vote_id}/withdraw"): ("form", {"what": "vote"}),
    ("GET", "/api/invitations/{token}"): ("none", None),
    ("POST", "/api/invitations/{token}/join"): ("json", {"role": "observer"}),
    ("GET", "/invite/{token}"): ("none", None),
    ("POST", "/invite/{token}/join"): ("form", {"role": "observer"}),
    ("GET", "/"): ("none", None),
    ("GET", "/register"): ("none", None),
    ("POST", "/register"): ("form", {"name": "intruder2", "password": "password123"}),
    ("GET", "/login"): ("none", None),
    ("POST", "/login"): ("form", {"name": "nobody", "password": "password123"}),
    ("POST", "/logout"): ("form", {}),
    ("POST", "/lang"): ("form", {"lang": "fr"}),
    ("GET", "/account"): ("none", None),
    ("POST", "/account/tokens"): ("form", {"label": "x"}),
    ("POST", "/account/webhook"): ("form", {"url": "https://1.1.1.1/hook"}),
    ("POST", "/account/webhook/delete"): ("form", {}),
    ("POST", "/account/tokens/{token_id}/delete"): ("form", {}),
    ("POST", "/account/sessions/{session_id}/end"): ("form", {}),
    ("POST", "/account/sessions/end-all"): ("form", {}),
    ("GET", "/games/new"): ("none", None),
    ("POST", "/games/new"): ("form", {"name": "x"}),
    ("GET", "/games/{game_id}"): ("none", None),
    ("POST", "/games/{game_id}/join"): ("form", {"role": "observer"}),
    ("POST", "/games/{game_id}/orders"): ("form", {"orders": "A PAR - PIC", "ready": "1"}),
    ("GET", "/games/{game_id}/history"): ("none", None),
    ("GET", "/games/{game_id}/history/{index}"): ("none", None),
    ("GET", "/games/{game_id}/messages"): ("none", None),
    ("POST", "/games/{game_id}/messages"): ("form", {"to": "*", "body": "spam"}),
    ("GET", "/games/{game_id}/master"): ("none", None),
    ("POST", "/games/{game_id}/master"): ("form", {"action": "end"}),
    ("GET", "/games/{game_id}/map.svg"): ("none", None),
    ("GET", "/games/{game_id}/history/{index}/map.svg"): ("none", None),
}

# What a logged-out visitor may get a 2xx answer from (public pages and account creation).
PUBLIC = {
    ("POST", "/api/register"),
    ("GET", "/api/games"),
    ("GET", "/api/options"),
    ("GET", "/api/games/{game_id}"),
    ("GET", "/"),
    ("GET", "/register"),
    ("GET", "/login"),
    ("GET", "/games/{game_id}"),
}
# Member-only endpoints (an outsider must be refused).
MEMBERS_ONLY = {
    k
    for k in CALLS
    if "{game_id}" in k[1]
    and k
    not in {
        ("GET", "/api/games/{game_id}"),
        ("POST", "/api/games/{game_id}/join"),
        ("GET", "/games/{game_id}"),
        ("POST", "/games/{game_id}/join"),
    }
}
MASTER_ONLY = {
    ("POST", "/api/games/{game_id}/master"),
    ("POST", "/api/games/{game_id}/votes/{vote_id}/decision"),
    ("POST", "/games/{game_id}/votes/{vote_id}/decision"),
    ("GET", "/games/{game_id}/master"),
    ("POST", "/games/{game_id}/master"),
}
PLAYER_ONLY = {
    ("DELETE", "/api/games/{game_id}/votes/{vote_id}/ballot"),
    ("DELETE", "/api/games/{game_id}/votes/{vote_id}"),
    ("POST", "/games/{game_id}/votes/{vote_id}/withdraw"),
    ("POST", "/api/games/{game_id}/votes"),
    ("POST", "/api/games/{game_id}/votes/{vote_id}/ballot"),
    ("POST", "/games/{game_id}/votes"),
    ("POST", "/games/{game_id}/votes/{vote_id}/ballot"),
    ("GET", "/api/games/{game_id}/orders"),
    ("GET", "/api/games/{game_id}/legal"),
    ("PUT", "/api/games/{game_id}/orders"),
    ("POST", "/api/games/{game_id}/check"),
    ("POST", "/games/{game_id}/orders"),
}


def test_every_endpoint_is_covered() -> None:
    routes = {(m, r.path) for r in ALL_ROUTES for m in r.methods if m != "HEAD"}
    assert routes == set(CALLS), routes ^ set(CALLS)


def _path(template: str, game_id: int) -> str:
    return (
        template.replace("{game_id}", str(game_id))
        .replace("{index}", "0")
        .replace("{token_id}", "1")
        .replace("{session_id}", "1")
        .replace("{token}", "not-a-token-of-this-site")
        .replace("{vote_id}", "1")
    )


def _csrf(client: TestClient, page: str = "/") -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(page).text)
    assert m
    return m.group(1)


def _call(
    client: TestClient,
    method: str,
    template: str,
    game_id: int,
    headers: dict[str, str] | None = None,
    with_csrf: bool = True,
) -> Any:
    kind, body = CALLS[(method, template)]
    path = _path(template, game_id)
    if kind == "json":
        return client.request(method, path, json=body, headers=headers or {})
    if kind == "form":
        data = dict(body)
        if with_csrf:
            data["csrf"] = _csrf(client)
        return client.request(method, path, data=data, headers=headers or {}, follow_redirects=False)
    return client.request(method, path, headers=headers or {}, follow_redirects=False)


def _snapshot(site: Site) -> Any:
    with site.db.reading() as s:
        games = [(g.id, g.status, g.phase, g.version) for g in s.query(GameRow).order_by(GameRow.id)]
        orders = [(o.game_id, o.power, tuple(o.lines), o.ready) for o in s.query(OrderRow).order_by(OrderRow.id)]
        msgs = s.query(Message).count()
    return games, orders, msgs


def _login(client: TestClient, name: str, password: str = "password123") -> None:
    r = client.post(
        "/login", data={"name": name, "password": password, "csrf": _csrf(client, "/login")}, follow_redirects=False
    )
    assert r.status_code == 303, r.text


@pytest.fixture
def game(app_client: TestClient) -> tuple[int, Api, dict[str, Api]]:
    gid, master, players = start_game(app_client)
    players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"]})
    players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "GERMANY", "body": "secret plan"})
    master.post(f"/api/games/{gid}/master", {"action": "adjudicate"})
    players["FRANCE"].put(f"/api/games/{gid}/orders", {"orders": ["A BUR - MUN", "ZEBRA PLAN"]})
    return gid, master, players


def test_logged_out_gets_only_public_answers(app_client: TestClient, site: Site, game: Any) -> None:
    gid = game[0]
    before = _snapshot(site)
    for method, template in CALLS:
        if (method, template) in {("POST", "/api/register"), ("POST", "/register")}:
            continue  # creating an account is what logged-out visitors do
        r = _call(app_client, method, template, gid)
        ok = 200 <= r.status_code < 300
        if (method, template) in PUBLIC:
            assert ok, (method, template, r.status_code)
        else:
            assert not ok, (method, template, r.status_code, r.text[:200])
            if template.startswith("/api/"):
                assert r.json()["error"]["message"]
        assert "ZEBRA" not in r.text and "secret plan" not in r.text, (method, template)
    state = app_client.get(f"/api/games/{gid}").json()
    assert set(state) == {"game"}
    assert _snapshot(site) == before


def test_outsider_and_wrong_member_are_refused(app_client: TestClient, site: Site, game: Any) -> None:
    gid, master, players = game
    outsider = Api(app_client, "outsider")
    cookie_clients = {}
    for who, name in (("outsider", "outsider"), ("germany", players["GERMANY"].name), ("master", master.name)):
        c = TestClient(app_client.app)
        _login(c, name)
        cookie_clients[who] = c
    before = _snapshot(site)
    legit = {
        ("POST", "/api/games"),
        ("POST", "/api/games/{game_id}/join"),
        ("PUT", "/api/me"),
        ("POST", "/api/register"),
        ("POST", "/api/tokens"),
    }  # things any logged-in user may do
    for method, template in CALLS:
        key = (method, template)
        if key in legit:
            continue
        if template.startswith("/api/"):
            answers = {"outsider": _call(app_client, method, template, gid, outsider.headers)}
            if method == "GET" or key in MASTER_ONLY:  # Germany's own orders and press are allowed
                answers["germany"] = _call(app_client, method, template, gid, players["GERMANY"].headers)
            if method == "GET" or key in PLAYER_ONLY:  # the master's console actions are allowed
                answers["master"] = _call(app_client, method, template, gid, master.headers)
        elif method == "GET":
            answers = {who: _call(c, method, template, gid) for who, c in cookie_clients.items()}
        else:
            continue  # page forms that change things are checked below with a valid CSRF token
        for who, r in answers.items():
            if key in MEMBERS_ONLY and who == "outsider":
                assert r.status_code in (403, 404), (who, key, r.status_code)
            if key in MASTER_ONLY and who != "master":
                assert r.status_code == 403, (who, key, r.status_code)
            if key in PLAYER_ONLY and who == "master":
                assert r.status_code == 403, (who, key, r.status_code)
            # nobody but France and the master sees France's pending orders; Italy sees no private press
            if who != "master":
                assert "ZEBRA" not in r.text, (who, key)
            if who == "outsider":
                assert "secret plan" not in r.text, (who, key)
    assert _snapshot(site) == before
    # page forms with a valid token, as the wrong user
    for who in ("outsider", "germany"):
        c = cookie_clients[who]
        for key in [("POST", "/games/{game_id}/master"), ("POST", "/games/{game_id}/orders")]:
            if who == "germany" and key[1].endswith("/orders"):
                continue  # Germany may give its own orders
            r = _call(c, *key, gid)
            assert r.status_code == 403, (who, key, r.status_code)
    r = _call(cookie_clients["outsider"], "POST", "/games/{game_id}/messages", gid)
    assert r.status_code == 403
    assert _snapshot(site) == before
    # Italy reads no private message between France and Germany
    italy = players["ITALY"].get(f"/api/games/{gid}/messages").json()
    assert all(m["body"] != "secret plan" for m in italy["messages"])
    # A player's page shows its own orders and nobody else's
    de = players["GERMANY"].get(f"/api/games/{gid}").json()
    assert "all_orders" not in de and de["orders"]["lines"] == []


def test_forged_and_malformed_requests_change_nothing(app_client: TestClient, site: Site, game: Any) -> None:
    gid, master, players = game
    c = TestClient(app_client.app)
    _login(c, master.name)
    before = _snapshot(site)
    # forms without, or with a wrong, CSRF token
    for data in ({"action": "end"}, {"action": "end", "csrf": "0" * 64}, {"action": "end", "csrf": ""}):
        r = c.post(f"/games/{gid}/master", data=data, follow_redirects=False)
        assert r.status_code == 403 and "security token" in r.text
    # the JSON API with the cookie but without the CSRF header
    r = c.post(f"/api/games/{gid}/master", json={"action": "end"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_csrf"
    # a forged session cookie
    forged = TestClient(app_client.app)
    forged.cookies.set("arbitre_session", "eyJ1IjoxLCJuIjoieCJ9.forged.signature")
    assert forged.get("/api/me").status_code == 401
    # a wrong bearer token, and a malformed Authorization header
    assert app_client.get("/api/me", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert app_client.get("/api/me", headers={"Authorization": "Basic abc"}).json()["error"]["code"] == "bad_token"
    h = players["FRANCE"].headers
    # bad JSON, wrong types, unknown fields
    r = app_client.put(
        f"/api/games/{gid}/orders", content=b"{not json", headers={**h, "Content-Type": "application/json"}
    )
    assert r.status_code == 422 and r.json()["error"]["message"]
    r = app_client.put(f"/api/games/{gid}/orders", json={"orders": "A PAR H"}, headers=h)
    assert r.status_code == 422 and "orders" in r.json()["error"]["message"]
    r = app_client.put(f"/api/games/{gid}/orders", json={"orderz": []}, headers=h)
    assert r.status_code == 422
    r = master.post(f"/api/games/{gid}/master", {"action": "explode"})
    assert r.status_code == 422
    r = master.post(f"/api/games/{gid}/master", {"action": "extend", "minutes": -5})
    assert r.status_code == 409
    r = master.post("/api/games", {"name": "x", "rules": ["no-such-rule"]})
    assert r.status_code == 400 and "no-such-rule" in r.json()["error"]["message"]
    r = master.post("/api/games", {"name": "x", "map": "atlantis"})
    assert r.status_code == 400
    # bad ids
    assert app_client.get("/api/games/abc", headers=h).status_code == 422
    assert app_client.get("/api/games/999999", headers=h).status_code == 404
    assert app_client.get(f"/api/games/{gid}/history/99", headers=h).status_code == 404
    assert app_client.get(f"/api/games/{gid}/history/-1", headers=h).status_code == 404
    assert c.get("/games/999999").status_code == 404
    # oversized input
    r = app_client.put(f"/api/games/{gid}/orders", json={"orders": ["A PAR H"] * 500}, headers=h)
    assert r.status_code == 422 and r.json()["error"]["where"] == "body.orders"
    # stale phase
    r = app_client.put(f"/api/games/{gid}/orders", json={"orders": ["A BUR H"], "phase": "S1901M"}, headers=h)
    assert r.status_code == 409
    assert _snapshot(site) == before


def test_passwords_are_hashed_and_cookies_protected(app_client: TestClient, site: Site) -> None:
    Api(app_client, "hashme", "correct horse")
    with site.db.reading() as s:
        from arbitre.store.accounts import user_by_name

        user = user_by_name(s, "hashme")
        assert user is not None and user.password_hash.startswith("$argon2")
    c = TestClient(app_client.app)
    r = c.post(
        "/login",
        data={"name": "hashme", "password": "correct horse", "csrf": _csrf(c, "/login")},
        follow_redirects=False,
    )
    cookie = r.headers["set-cookie"]
    assert "arbitre_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    bad = TestClient(app_client.app)
    r = bad.post("/login", data={"name": "hashme", "password": "wrong", "csrf": _csrf(bad, "/login")})
    assert r.status_code == 200 and r.url.path == "/login" and "arbitre_session" not in bad.cookies  # after a 303
