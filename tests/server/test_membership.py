"""Membership is one rule (SQLite and PostgreSQL): a private game exists for its members only.

- the rule on one row (``may_know``) and its SQL filter (``known_games``) agree on every case;
- every route that takes a game id answers an outsider (a visitor, a logged-in stranger) for a private
  game exactly as for an id no game has (the routes are enumerated from the app: a new route is
  covered by itself);
- a private game's lateness board, its misses, yellow cards, players and take-over links appear on no
  site-wide list for outsiders; its take-over link works only for someone the master invited (an
  observer who came through the invitation link), and whoever takes a seat is not shown the
  invitation link nor the join code (only the master is);
- an outsider who asked for every call of the site hears nothing of a private game's call, and a
  player replaced in a private game no longer reads about it;
- a sandbox opened from a private game (its share link may reach anyone) does not name the game;
- two servers that differ only in a private game's existence answer an outsider byte for byte the
  same on the lobby, the lateness boards and the yellow cards (:mod:`test_membership_pairs`).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from arbitre.life.forming import GameSettings, create_game, join
from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from arbitre.store.access import known_games, may_know
from arbitre.store.accounts import create_user
from arbitre.store.games import memberships
from arbitre.store.models import OBSERVER, PLAYER, GameRow
from tests.server.conftest import POWERS, Api

pytestmark = pytest.mark.usefixtures("quick_hashes")

SHORT = {"M": 600, "R": 600, "A": 600}
CARD_AND_CALL = {"disorder_after": 1, "replace_on_disorder": True}
"""Lateness settings under which one missed deadline gives a yellow card, civil disorder and a public call."""
CODE = "tulip"


def private_game(
    client: TestClient, name: str = "Secret club", **settings: Any
) -> tuple[int, Api, dict[str, Api], str]:
    """A running private game (join code :data:`CODE`): its id, master, players and invitation token."""
    master = Api(client, f"pm{uuid.uuid4().hex[:6]}")
    body = {"name": name, "private": True, "join_code": CODE, "assignment": "choice", **settings}
    r = master.post("/api/games", body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    token = master.get(f"/api/games/{gid}").json()["invitation"]["path"].rsplit("/", 1)[1]
    players = {}
    for p in POWERS:
        api = Api(client, f"q{p.lower()[:3]}{uuid.uuid4().hex[:6]}")
        r = api.post(f"/api/invitations/{token}/join", {"role": "player", "power": p, "code": CODE})
        assert r.status_code == 200, r.text
        players[p] = api
    assert master.get(f"/api/games/{gid}").json()["game"]["status"] == "active"
    return gid, master, players, token


def italy_misses(site: Site, clock: ManualClock, gid: int, players: dict[str, Api]) -> None:
    """Everyone but Italy is ready; the deadline passes: Italy's yellow card (and, under
    :data:`CARD_AND_CALL`, civil disorder and a call for a replacement)."""
    for p in POWERS:
        if p != "ITALY":
            assert players[p].put(f"/api/games/{gid}/orders", {"ready": True}).status_code == 200
    clock.advance(601)
    worker.tick(site)


def answer(r: Any, *ids: int) -> tuple[int, str]:
    """A response's status and body with the game ids named in the request set aside (the path may be echoed),
    and the per-visit CSRF token of a page."""
    text = re.sub(r'(name="csrf" value|data-csrf)="[0-9a-f]+"', r'\1=""', r.text)
    for gid in ids:
        text = re.sub(rf"(?<=/games/){gid}\b", "ID", text)
    return r.status_code, text


MISSING = 987654
"""An id no game of a test has."""


# --- the rule itself ---------------------------------------------------------------------------------


def test_the_rule_and_its_sql_filter_agree_on_every_case(site: Site) -> None:
    """Private and public games, each with a master, a player and an observer; readers: a visitor, each
    member and a stranger.  ``may_know`` on the row and ``known_games`` in SQL give the same answer."""
    now = site.now()
    with site.db.writing() as s:
        users = {n: create_user(s, f"rule_{n}", "x", "en", now) for n in ("master", "player", "watcher", "stranger")}
        for private in (False, True):
            row = create_game(
                s, users["master"], GameSettings(name=f"p{private}", private=private, assignment="choice"), now
            )
            join(s, row, users["player"], PLAYER, list(POWERS), "FRANCE", [])
            join(s, row, users["watcher"], OBSERVER, list(POWERS), None, [])
    with site.db.reading() as s:
        rows = list(s.scalars(select(GameRow)))
        assert len(rows) == 2
        for reader in [None, *users.values()]:
            uid = reader.id if reader is not None else None
            by_sql = set(s.scalars(select(GameRow.id).where(known_games(uid))))
            for row in rows:
                member = next((m for m in memberships(s, row.id) if m.user_id == uid), None)
                assert may_know(row, member) == (row.id in by_sql), (uid, row.private)
                assert may_know(row, member) == (not row.private or (uid is not None and uid != users["stranger"].id))


# --- every route that takes a game id ----------------------------------------------------------------

FILL = {"index": "0", "vote_id": "1", "power": "FRANCE"}
"""Values for the other path parameters of a route that takes a game id."""
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/api/games/{game_id}/join"): {"role": "observer"},
    ("PUT", "/api/games/{game_id}/orders"): {"ready": True},
    ("POST", "/api/games/{game_id}/check"): {"orders": ["A PAR H"]},
    ("POST", "/api/games/{game_id}/messages"): {"to": "*", "body": "hello"},
    ("POST", "/api/games/{game_id}/messages/read"): {"conversation": "*"},
    ("PUT", "/api/games/{game_id}/draft"): {"orders": ["A PAR H"]},
    ("POST", "/api/games/{game_id}/master"): {"action": "pause"},
    ("POST", "/api/games/{game_id}/votes"): {"kind": "pause"},
    ("POST", "/api/games/{game_id}/votes/{vote_id}/ballot"): {"choice": "yes"},
    ("POST", "/api/games/{game_id}/votes/{vote_id}/decision"): {"decision": "approve"},
    ("POST", "/api/games/{game_id}/bots"): {"power": "FRANCE"},
    ("PUT", "/api/games/{game_id}/bots/settings"): {"votes": "abstain"},
    ("POST", "/api/games/{game_id}/sandboxes"): {},
    ("PUT", "/api/games/{game_id}/lateness"): {"preset": "none"},
    ("POST", "/api/games/{game_id}/replacements"): {"power": "FRANCE"},
}
"""A valid body for each JSON route that takes one, so that the request reaches the game's lookup."""
FORMS: dict[tuple[str, str], dict[str, str]] = {
    ("POST", "/games/{game_id}/votes/{vote_id}/withdraw"): {"what": "ballot"},
}
"""The form fields a page's route checks before it looks the game up."""


def app_routes(routes: list[Any]) -> list[tuple[str, str]]:
    """Every (method, path) of these routes, those of included routers too (FastAPI keeps an included router
    as one entry that lists its routes' contexts)."""
    out = []
    for route in routes:
        contexts = getattr(route, "effective_route_contexts", None)
        found = (
            [(c.path, c.methods) for c in contexts()] if contexts else [(route.path, getattr(route, "methods", None))]
        )
        out += [(m, path) for path, methods in found for m in sorted(set(methods or ()) - {"HEAD"})]
    return sorted(out)


def game_routes(client: TestClient) -> list[tuple[str, str]]:
    """Every (method, path) of the app whose path takes a game id."""
    return [(m, path) for m, path in app_routes(client.app.routes) if "{game_id}" in path]  # type: ignore[attr-defined]


def call(client: TestClient, method: str, path: str, gid: int, headers: dict[str, str]) -> Any:
    """``method path`` for game ``gid`` (other parameters filled in), with its body if it takes one."""
    url = path.replace("{game_id}", str(gid))
    for name, value in FILL.items():
        url = url.replace("{" + name + "}", value)
    assert "{" not in url, f"fill in the path parameters of {path}"
    if path.startswith("/api/") and method in ("POST", "PUT"):
        return client.request(method, url, json=BODIES.get((method, path), {}), headers=headers)
    if method == "POST":
        return client.request(method, url, data=FORMS.get((method, path), {}), headers=headers)
    return client.request(method, url, headers=headers)


def test_every_route_taking_a_game_id_answers_outsiders_as_for_no_game(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, master, players, _ = private_game(app_client, deadlines=SHORT, lateness=CARD_AND_CALL)
    italy_misses(site, clock, gid, players)  # the game has a board, a card, a call
    missing = MISSING
    stranger = Api(app_client, f"out{uuid.uuid4().hex[:6]}")
    routes = game_routes(app_client)
    assert len(routes) >= 40 and ("GET", "/api/games/{game_id}/lateness") in routes
    wrong = []
    for method, path in routes:
        for who, headers in (("visitor", {}), ("stranger", stranger.headers)):
            app_client.cookies.clear()
            there = answer(call(app_client, method, path, gid, headers), gid)
            app_client.cookies.clear()
            nowhere = answer(call(app_client, method, path, missing, headers), missing)
            if there != nowhere:
                wrong.append((who, method, path, there[0], nowhere[0], "answers differ"))
            elif who == "stranger" and nowhere[0] != 404:  # the request must reach the game's lookup
                wrong.append((who, method, path, there[0], nowhere[0], nowhere[1][-300:]))
    assert wrong == []
    # the members still read it
    assert players["FRANCE"].get(f"/api/games/{gid}/lateness").status_code == 200
    assert master.get(f"/games/{gid}/lateness").status_code == 200


# --- the lateness boards, the yellow cards and the take-over links -----------------------------------


def test_a_private_games_lateness_board_is_its_members_only(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, _master, players, _ = private_game(app_client, deadlines=SHORT, lateness=CARD_AND_CALL)
    italy_misses(site, clock, gid, players)
    missing = MISSING
    stranger = Api(app_client, f"out{uuid.uuid4().hex[:6]}")
    for path in ("/api/games/{}/lateness", "/games/{}/lateness"):
        for headers in ({}, stranger.headers):
            there = app_client.get(path.format(gid), headers=headers)
            nowhere = app_client.get(path.format(missing), headers=headers)
            assert there.status_code == 404 and answer(there, gid) == answer(nowhere, missing), path
            assert players["ITALY"].name not in there.text and "Secret club" not in there.text
    board = players["FRANCE"].get(f"/api/games/{gid}/lateness").json()
    assert [(m["power"], m["player"], m["yellow_card"]) for m in board["missed"]] == [
        ("ITALY", players["ITALY"].name, True)
    ]
    assert [c["power"] for c in board["calls"]] == ["ITALY"]


def test_site_wide_lists_leave_private_games_out_for_outsiders(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, _master, players, _ = private_game(app_client, name="Hush club", deadlines=SHORT, lateness=CARD_AND_CALL)
    italy_misses(site, clock, gid, players)
    italy = players["ITALY"].name
    member = players["FRANCE"]
    call_link = member.get(f"/api/games/{gid}/lateness").json()["calls"][0]["link"]
    stranger = Api(app_client, f"out{uuid.uuid4().hex[:6]}")
    lists = ["/api/lateness", "/lateness", "/api/games", "/", "/api/tournaments", "/tournaments", "/api/me"]
    for headers in ({}, stranger.headers):
        for path in lists:
            r = app_client.get(path, headers=headers)
            if path == "/api/me" and not headers:
                assert r.status_code == 401
                continue
            assert r.status_code == 200, (path, r.text)
            for secret in ("Hush club", italy, call_link, f'/games/{gid}"', f'"game":{gid},'):
                assert secret not in r.text, (path, secret)
        board = app_client.get("/api/lateness", headers=headers).json()
        assert board == {"missed": [], "calls": [], "yellow_cards": {}}
    # a member reads the same lists with the game in them
    board = member.get("/api/lateness").json()
    assert [(m["game_name"], m["player"]) for m in board["missed"]] == [("Hush club", italy)]
    assert [c["link"] for c in board["calls"]] == [call_link] and board["yellow_cards"] == {italy: 1}
    assert "Hush club" in member.get("/lateness").text and "Hush club" in member.get("/").text


def test_a_private_games_take_over_link_works_only_for_whom_the_master_invited(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, master, players, invite = private_game(app_client, deadlines=SHORT, lateness=CARD_AND_CALL)
    italy_misses(site, clock, gid, players)
    token = players["FRANCE"].get(f"/api/games/{gid}/lateness").json()["calls"][0]["link"].rsplit("/", 1)[1]
    unknown = "u" * len(token)
    stranger = Api(app_client, f"out{uuid.uuid4().hex[:6]}")
    # to a visitor and to a stranger, the link is one that does not exist
    for headers in ({}, stranger.headers):
        for path in ("/api/takeover/{}", "/takeover/{}"):
            there, nowhere = (app_client.get(path.format(t), headers=headers) for t in (token, unknown))
            assert there.status_code == 404 and there.text.replace(token, unknown) == nowhere.text, path
    there = stranger.post(f"/api/takeover/{token}", {})
    nowhere = stranger.post(f"/api/takeover/{unknown}", {})
    assert there.status_code == 404 and there.text.replace(token, unknown) == nowhere.text
    assert stranger.get(f"/api/games/{gid}").status_code == 404  # the stranger did not get the seat
    # someone the master invited comes in through the invitation link (an observer), then takes the seat
    friend = Api(app_client, f"friend{uuid.uuid4().hex[:6]}")
    assert friend.post(f"/api/invitations/{invite}/join", {"role": "observer", "code": CODE}).status_code == 200
    assert friend.get(f"/api/takeover/{token}").json()["power"] == "ITALY"
    r = friend.post(f"/api/takeover/{token}", {})
    assert r.status_code == 200, r.text
    state = friend.get(f"/api/games/{gid}").json()
    assert state["you"] == {**state["you"], "role": "player", "power": "ITALY"}
    # whoever takes a seat is not shown the invitation link nor the join code: only the master is
    assert state["invitation"] is None and invite not in friend.get(f"/games/{gid}").text
    assert CODE not in friend.get(f"/games/{gid}").text
    for p in ("FRANCE", "ENGLAND"):
        assert players[p].get(f"/api/games/{gid}").json()["invitation"] is None
    assert master.get(f"/api/games/{gid}").json()["invitation"] == {"path": f"/invite/{invite}", "code": CODE}
    assert invite in master.get(f"/games/{gid}").text
    # the late player lost the seat, and with it the game
    assert players["ITALY"].get(f"/api/games/{gid}").status_code == 404


def test_a_private_games_call_is_told_to_no_outsider(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    """A user who turned on every call of the site hears of a public game's call, never of a private one's;
    the player replaced in a private game no longer reads its notifications."""
    listener = Api(app_client, f"ear{uuid.uuid4().hex[:6]}")
    assert listener.put("/api/me/notifications", {"on": ["site:calls"]}).status_code == 200
    gid, master, players, invite = private_game(app_client, deadlines=SHORT, lateness=CARD_AND_CALL)
    italy_misses(site, clock, gid, players)
    public = master.post("/api/games", {"name": "Open", "assignment": "choice", "deadlines": SHORT}).json()["id"]
    for p in POWERS:
        who = Api(app_client, f"o{p.lower()[:3]}{uuid.uuid4().hex[:6]}")
        assert who.post(f"/api/games/{public}/join", {"role": "player", "power": p}).status_code == 200
    assert master.post(f"/api/games/{public}/replacements", {"power": "FRANCE"}).status_code == 201
    heard = listener.get("/api/notifications").json()
    assert [(n["game"], n["kind"]) for n in heard["items"]] == [(public, "calls")] and heard["unread"] == 1
    # Italy's player reads the game's notifications while they play it ...
    italy = players["ITALY"]
    assert any(n["game"] == gid for n in italy.get("/api/notifications").json()["items"])
    friend = Api(app_client, f"friend{uuid.uuid4().hex[:6]}")
    assert friend.post(f"/api/invitations/{invite}/join", {"role": "observer", "code": CODE}).status_code == 200
    token = master.get(f"/api/games/{gid}/lateness").json()["calls"][0]["link"].rsplit("/", 1)[1]
    assert friend.post(f"/api/takeover/{token}", {}).status_code == 200
    # ... and no longer once replaced: the game does not exist for them any more
    after = italy.get("/api/notifications").json()
    assert all(n["game"] != gid for n in after["items"]) and after["unread"] == 0
    assert "Secret club" not in italy.get("/notifications").text


def test_a_sandbox_shared_from_a_private_game_does_not_name_it(app_client: TestClient) -> None:
    """A sandbox's share link may reach anyone: one opened from a private game is named "private game"."""
    gid, _master, players, _ = private_game(app_client, name="Quiet club")
    r = players["FRANCE"].post(f"/api/games/{gid}/sandboxes", {})
    assert r.status_code == 201, r.text
    box = r.json()
    assert box["name"].startswith("private game — Spring 1901, movement") and "Quiet club" not in box["name"]
    for path in (box["share"], box["share"].replace("/s/", "/api/shared/")):
        shared = app_client.get(path)
        assert shared.status_code == 200 and "Quiet club" not in shared.text
