"""Every bot-seat and sandbox endpoint: logged out, outsider, wrong member, forged CSRF — refused, nothing changes;
a shared sandbox link is readable by anyone and changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from arbitre.server.routes import api_bots, pages_bots
from arbitre.server.site import Site
from arbitre.store.models import BotSeat, GameRow
from arbitre.store.sandboxes import Sandbox
from tests.server.conftest import Api, start_game

ROUTES = {
    (m, r.path)
    for mod in (api_bots, pages_bots)
    for r in mod.router.routes
    if isinstance(r, APIRoute)
    for m in r.methods
    if m != "HEAD"
}
CALLS: dict[tuple[str, str], tuple[str, Any]] = {
    ("GET", "/api/games/{game_id}/bots"): ("none", None),
    ("POST", "/api/games/{game_id}/bots"): ("json", {"power": "ITALY"}),
    ("DELETE", "/api/games/{game_id}/bots/{power}"): ("none", None),
    ("PUT", "/api/games/{game_id}/bots/settings"): ("json", {"votes": "count", "after_missed": 2}),
    ("POST", "/api/games/{game_id}/sandboxes"): ("json", {}),
    ("GET", "/api/sandboxes"): ("none", None),
    ("GET", "/api/sandboxes/{sandbox_id}"): ("none", None),
    ("POST", "/api/sandboxes/{sandbox_id}/adjudicate"): ("json", {"orders": ["FRANCE: A PAR - BUR"]}),
    ("POST", "/api/sandboxes/{sandbox_id}/step"): ("json", {"delta": -1}),
    ("POST", "/api/sandboxes/{sandbox_id}/branch"): ("json", {}),
    ("GET", "/api/shared/{token}"): ("none", None),
    ("POST", "/games/{game_id}/bots"): ("form", {"action": "seat", "power": "ITALY"}),
    ("POST", "/games/{game_id}/bot-settings"): ("form", {"votes": "count", "after_missed": "2"}),
    ("POST", "/games/{game_id}/sandbox"): ("form", {}),
    ("GET", "/sandboxes"): ("none", None),
    ("GET", "/sandboxes/{sandbox_id}"): ("none", None),
    ("GET", "/s/{token}"): ("none", None),
    ("POST", "/sandboxes/{sandbox_id}/adjudicate"): ("form", {"orders": "FRANCE: A PAR - BUR"}),
    ("POST", "/sandboxes/{sandbox_id}/step"): ("form", {"delta": "-1"}),
    ("POST", "/sandboxes/{sandbox_id}/branch"): ("form", {}),
    ("GET", "/sandboxes/{sandbox_id}/map.svg"): ("none", None),
    ("GET", "/s/{token}/map.svg"): ("none", None),
}
PUBLIC = {("GET", "/api/shared/{token}"), ("GET", "/s/{token}"), ("GET", "/s/{token}/map.svg")}


def test_every_endpoint_is_covered() -> None:
    assert set(CALLS) == ROUTES, ROUTES ^ set(CALLS)


def _csrf(client: TestClient) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get("/").text)
    assert m
    return m.group(1)


def _call(
    client: TestClient,
    key: tuple[str, str],
    ids: dict[str, Any],
    headers: dict[str, str] | None = None,
    csrf: bool = True,
) -> Any:
    method, template = key
    kind, body = CALLS[key]
    path = template.format(**ids)
    if kind == "json":
        return client.request(method, path, json=body, headers=headers or {})
    if kind == "form":
        data = {**body, **({"csrf": _csrf(client)} if csrf else {})}
        return client.request(method, path, data=data, headers=headers or {}, follow_redirects=False)
    return client.request(method, path, headers=headers or {}, follow_redirects=False)


def _snapshot(site: Site) -> Any:
    with site.db.reading() as s:
        games = [(g.id, g.status, g.phase, g.version) for g in s.query(GameRow).order_by(GameRow.id)]
        bots = [(b.game_id, b.power) for b in s.query(BotSeat).order_by(BotSeat.id)]
        boxes = [(b.id, b.cursor, len(b.data["history"])) for b in s.query(Sandbox).order_by(Sandbox.id)]  # type: ignore[arg-type]
    return games, bots, boxes


@pytest.fixture
def scene(app_client: TestClient) -> tuple[dict[str, Any], Api, dict[str, Api]]:
    gid, master, players = start_game(app_client)
    box = players["FRANCE"].post(f"/api/games/{gid}/sandboxes", {}).json()
    ids = {"game_id": gid, "sandbox_id": box["id"], "token": box["share"].split("/")[-1], "power": "ITALY"}
    return ids, master, players


def test_logged_out_outsider_and_wrong_member_are_refused(app_client: TestClient, site: Site, scene: Any) -> None:
    ids, _master, players = scene
    outsider = Api(app_client, "outsider")
    before = _snapshot(site)
    for key in CALLS:
        r = _call(app_client, key, ids)  # logged out
        ok = 200 <= r.status_code < 300
        assert ok == (key in PUBLIC), (key, r.status_code)
        if key[1].startswith("/api/") and not ok:
            assert r.json()["error"]["message"]
        if key[1].startswith("/api/") and key not in {("GET", "/api/sandboxes"), *PUBLIC}:
            # an outsider and Germany (not the sandbox's owner, not the master) are refused
            for who in (outsider, players["GERMANY"]):
                r = _call(app_client, key, ids, who.headers)
                if key == ("GET", "/api/games/{game_id}/bots") and who is players["GERMANY"]:
                    assert r.status_code == 200
                    continue
                if key == ("POST", "/api/games/{game_id}/sandboxes") and who is players["GERMANY"]:
                    continue  # Germany may open its own sandbox (checked below: it is not France's)
                assert r.status_code in (403, 404), (key, r.status_code)
    germany_box = players["GERMANY"].post(f"/api/games/{ids['game_id']}/sandboxes", {}).json()
    assert germany_box["id"] != ids["sandbox_id"]
    after = _snapshot(site)
    assert after[0] == before[0] and after[1] == before[1] and after[2][:1] == before[2]


def test_forms_without_csrf_and_shared_links_change_nothing(app_client: TestClient, site: Site, scene: Any) -> None:
    ids, master, _players = scene
    c = TestClient(app_client.app)
    r = c.post(
        "/login", data={"name": master.name, "password": "password123", "csrf": _csrf(c)}, follow_redirects=False
    )
    assert r.status_code == 303
    before = _snapshot(site)
    for key, (kind, _) in CALLS.items():
        if kind == "form":
            assert _call(c, key, ids, csrf=False).status_code == 403, key
    assert c.post(f"/api/games/{ids['game_id']}/bots", json={"power": "ITALY"}).status_code == 403  # no CSRF header
    page = app_client.get(f"/s/{ids['token']}")
    assert "sandbox-orders" not in page.text and "step-back" not in page.text and "share-link" not in page.text
    assert app_client.get("/s/not-a-token").status_code == 404
    assert _snapshot(site) == before
