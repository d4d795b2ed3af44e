"""Attack tests on every route of the server (enumerated from the app, so routes added later are covered).

Hostile bodies (malformed and deeply nested JSON, huge numbers and strings,
invalid Unicode, unknown and duplicated fields), hostile path ids and query
strings, as a player and as the master.  Every answer: no 500, no traceback,
an error object saying where for a refused body; nothing stored when a
request is refused; and after an accepted request, every read route still
answers (the stored input can be read back).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings, Site
from arbitre.store.models import GameRow, LoginSession, Message, OrderRow, User
from tests.hostile import HOSTILE, json_values, raw_documents, texts
from tests.server.conftest import start_game

BODIES: dict[str, dict[str, Any]] = {
    "orders": {"orders": ["A PAR - BUR"], "ready": False},
    "check": {"orders": ["A PAR - BUR"]},
    "messages": {"to": "GERMANY", "body": "hello"},
    "master": {"action": "extend", "minutes": 5},
    "join": {"role": "observer"},
    "games": {"name": "g", "rules": [], "options": {}, "deadlines": {"M": 600}},
    "register": {"name": "newuser", "password": "password123"},
    "tokens": {"name": "newuser", "password": "password123", "label": "x"},
    "me": {"lang": "fr"},
    "votes": {"kind": "extend", "minutes": 5},
    "ballot": {"choice": "no"},
    "decision": {"decision": "reject"},
    "webhook": {"url": "https://192.0.2.1/hook"},
}
FORMS: dict[str, dict[str, str]] = {
    "orders": {"orders": "A PAR - BUR\nF BRE - MAO", "phase": "S1901M"},
    "messages": {"to": "*", "body": "hello"},
    "master": {"action": "extend", "minutes": "5"},
    "new": {"name": "g", "options": "convoy_paradox=all_hold", "deadline_M": "60"},
    "join": {"role": "observer"},
    "lang": {"lang": "fr"},
    "tokens": {"label": "bot"},
    "login": {"name": "nobody", "password": "password123"},
    "register": {"name": "newuser2", "password": "password123"},
    "votes": {"kind": "extend", "minutes": "5"},
    "ballot": {"choice": "no"},
    "decision": {"decision": "reject"},
    "withdraw": {"what": "ballot"},
}


class World:
    """One site with a running game, shared by the examples of a test (hypothesis reruns the body)."""

    def __init__(self, url: str) -> None:
        self.site: Site = make_site(Settings(database_url=url, run_worker=False), ManualClock())
        self.client = TestClient(create_app(site=self.site))
        self.gid, self.master, self.players = start_game(self.client)
        self.france = self.players["FRANCE"]
        self.browser = TestClient(self.client.app)
        csrf = _csrf(self.browser, "/login")
        r = self.browser.post(
            "/login", data={"name": self.france.name, "password": "password123", "csrf": csrf}, follow_redirects=False
        )
        assert r.status_code == 303
        self.csrf = _csrf(self.browser, "/")
        self.routes = [
            (m, path)
            for path, route in app_routes(self.client.app.routes)  # type: ignore[attr-defined]
            for m in sorted(route.methods)
            if m != "HEAD"
        ]
        # A stream (server-sent events) never ends by itself: it is attacked with ids that refuse it, and read
        # by its own tests (tests/server/test_events.py), never by the read-back loop.
        self.streams = {
            path
            for path, route in app_routes(self.client.app.routes)  # type: ignore[attr-defined]
            if "StreamingResponse" in str(route.endpoint.__annotations__.get("return", ""))
        }
        self.reads = [
            p
            for m, p in self.routes
            if m == "GET" and p not in self.streams and "{" not in p.replace("{game_id}", "").replace("{index}", "")
        ]

    def snapshot(self) -> Any:
        """Everything a refused request must not change."""
        with self.site.db.reading() as s:
            games = sorted(
                (g.id, g.status, g.phase, g.version, g.name, repr(g.options), repr(g.deadlines))
                for g in s.query(GameRow)
            )
            orders = sorted((o.game_id, o.power, tuple(o.lines), o.ready) for o in s.query(OrderRow))
            return games, orders, s.query(Message).count(), s.query(User).count(), s.query(LoginSession).count()


def app_routes(routes: Any, prefix: str = "") -> list[tuple[str, APIRoute]]:
    """Every API route of an app's route list, through included routers (FastAPI includes them lazily)."""
    out: list[tuple[str, APIRoute]] = []
    for r in routes:
        if isinstance(r, APIRoute):
            out.append((prefix + r.path, r))
        elif hasattr(r, "original_router"):
            out.extend(app_routes(r.original_router.routes, prefix + r.include_context.prefix))
    return out


def _csrf(client: TestClient, page: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(page).text)
    assert m
    return m.group(1)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = World(f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'h.sqlite3'}")
    yield w
    w.client.close()
    w.site.db.dispose()


def _fill(path: str, gid: int, ids: dict[str, Any]) -> str:
    out = path.replace("{game_id}", str(ids.get("game_id", gid)))
    return re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 0)), out)


def _body_key(path: str) -> str:
    last = [p for p in path.split("/") if p and not p.startswith("{")][-1]
    return {"new": "new"}.get(last, last)


def _assert_sane(r: Any, method: str, path: str) -> None:
    assert r.status_code < 500, (method, path, r.status_code, r.text[:300])
    assert "Traceback" not in r.text, (method, path)
    if path.startswith("/api/") and r.status_code >= 400:
        err = r.json()["error"]
        assert err["code"] and err["message"], err
        if r.status_code in (400, 413, 422):
            assert err.get("where"), (method, path, err)


def _read_everything(w: World) -> None:
    """Every read route of the game and the site answers (as the player and as the master)."""
    for who in (w.france, w.master):
        for path in w.reads:
            r = w.client.get(_fill(path, w.gid, {"index": 0}), headers=who.headers)
            assert r.status_code < 500, (path, r.status_code, r.text[:300])
    for path in ("/", f"/games/{w.gid}", f"/games/{w.gid}/history", f"/games/{w.gid}/messages"):
        assert w.browser.get(path).status_code < 500, path


def _send(w: World, method: str, path: str, raw: bytes | None, form: dict[str, str] | None, master: bool) -> Any:
    who = w.master if master else w.france
    if path.startswith("/api/"):
        headers = {**who.headers, "Content-Type": "application/json"}
        return w.client.request(method, path, content=raw or b"", headers=headers)
    data = dict(form or {})
    data["csrf"] = w.csrf
    # Encoded by hand: a lone surrogate becomes the (invalid) UTF-8 bytes a hostile browser would send.
    body = "&".join(
        f"{quote(k.encode('utf-8', 'surrogatepass'))}={quote(v.encode('utf-8', 'surrogatepass'))}"
        for k, v in data.items()
    )
    return w.browser.request(
        method,
        path,
        content=body.encode(),
        follow_redirects=False,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )


def _check(
    w: World, method: str, path: str, raw: bytes | None, form: dict[str, str] | None, master: bool = False
) -> None:
    before = w.snapshot()
    r = _send(w, method, path, raw, form, master)
    _assert_sane(r, method, path)
    if r.status_code >= 400:
        assert w.snapshot() == before, (method, path, r.status_code, r.text[:200])
    elif method != "GET":
        _read_everything(w)


@HOSTILE
@given(data=st.data())
def test_every_api_route_survives_hostile_json(world: World, data: st.DataObject) -> None:
    routes = [(m, p) for m, p in world.routes if p.startswith("/api/") and m != "GET"]
    method, path = data.draw(st.sampled_from(routes))
    base = BODIES.get(_body_key(path), {"x": 1})
    raw = data.draw(raw_documents(base))
    master = data.draw(st.booleans())
    _check(world, method, _fill(path, world.gid, {}), raw, None, master)


@HOSTILE
@given(data=st.data())
def test_every_page_form_survives_hostile_fields(world: World, data: st.DataObject) -> None:
    routes = [
        (m, p)
        for m, p in world.routes
        if not p.startswith("/api/")
        and m == "POST"
        and p not in ("/logout", "/account/sessions/end-all")
        and "{session_id}" not in p
    ]
    method, path = data.draw(st.sampled_from(routes))
    form = dict(FORMS.get(_body_key(path), {}))
    field = data.draw(st.sampled_from([*form, "extra"]))
    form[field] = data.draw(texts())
    _check(world, method, _fill(path, world.gid, {}), None, form)


@HOSTILE
@given(data=st.data())
def test_every_route_survives_hostile_ids_and_queries(world: World, data: st.DataObject) -> None:
    method, path = data.draw(st.sampled_from(world.routes))
    usable = [] if path in world.streams else [world.gid]  # a usable id would open an endless stream
    hostile_id = st.one_of(
        st.sampled_from([0, -1, 2**31, 2**63, 2**64, 10**30, *usable]),
        st.sampled_from(["abc", "1e3", "%00", "%ED%A0%80", "1.5", "+1", "٣"]),
    )
    names = re.findall(r"\{(\w+)\}", path)
    ids = {n: data.draw(hostile_id) for n in names}
    query = data.draw(
        st.sampled_from(["", "?next=%00", "?note=%ED%A0%80", "?x=" + "y" * 3000, "?a=1&a=2", "?v=" + str(2**70)])
    )
    url = _fill(path, world.gid, ids) + query
    body = b"{}" if path.startswith("/api/") else None
    before = world.snapshot()
    if path.startswith("/api/"):
        r = world.client.request(
            method, url, content=body, headers={**world.france.headers, "Content-Type": "application/json"}
        )
    else:
        r = world.browser.request(
            method, url, data={"csrf": world.csrf} if method == "POST" else None, follow_redirects=False
        )
    _assert_sane(r, method, path)
    if r.status_code >= 400:
        assert world.snapshot() == before


@HOSTILE
@given(orders=st.lists(texts(), max_size=6), body=texts(), name=texts(), option=json_values())
def test_accepted_input_can_be_read_back_everywhere(
    world: World, orders: list[str], body: str, name: str, option: Any
) -> None:
    """Whatever the boundary accepts is stored only if every read route can show it afterwards."""
    w = world
    _check(w, "PUT", f"/api/games/{w.gid}/orders", _json({"orders": orders}), None)
    _check(w, "POST", f"/api/games/{w.gid}/messages", _json({"to": "*", "body": body}), None)
    _check(w, "POST", "/api/games", _json({"name": name, "options": {"convoy_paradox": option}}), None, master=True)
    _check(w, "POST", f"/games/{w.gid}/orders", None, {"orders": "\n".join(orders)})
    _read_everything(w)


def _json(value: Any) -> bytes:
    import json

    return json.dumps(value, ensure_ascii=True).encode()


def test_the_suite_sees_every_route(world: World) -> None:
    """The attack tests enumerate the app's routes, including the ones added after they were written."""
    paths = {p for _, p in world.routes}
    assert "/api/games/{game_id}/orders" in paths and "/games/{game_id}/map.svg" in paths
    assert len(world.routes) >= 40
    assert "/api/games/{game_id}/events" in world.streams
