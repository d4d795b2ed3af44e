"""The lobby, private games and joining, through the API (SQLite and PostgreSQL).

- the lobby lists open games with free seats first, then running, then finished games, with their
  settings and seats taken; private games only for their members;
- a private game does not exist for outsiders (404 everywhere) except through its invitation
  link, which shows its settings and roster; its join code is asked for;
- the creator may play instead of being the master; a game without a master starts when full and
  runs by its deadlines;
- powers seated by ranked preferences follow the fair rule of arbitre.judge.seating.
"""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.conftest import POWERS, Api, start_game


def _join_all(client: TestClient, gid: int, *, skip: tuple[str, ...] = ()) -> dict[str, Api]:
    players = {}
    for p in POWERS:
        if p in skip:
            continue
        api = Api(client, f"{p.lower()[:3]}{uuid.uuid4().hex[:6]}")
        r = api.post(f"/api/games/{gid}/join", {"role": "player", "power": p})
        assert r.status_code == 200, r.text
        players[p] = api
    return players


def _ids(listing: list[dict[str, Any]]) -> list[int]:
    return [g["id"] for g in listing]


def test_lobby_lists_open_games_first_with_settings_and_seats(app_client: TestClient) -> None:
    finished, gm, _ = start_game(app_client)
    assert gm.post(f"/api/games/{finished}/master", {"action": "end"}).status_code == 200
    running, _, _ = start_game(app_client)
    host = Api(app_client, "host")
    r = host.post(
        "/api/games",
        {"name": "Open", "assignment": "choice", "press": "public", "rules": ["submarines"], "deadlines": {"M": 3600}},
    )
    assert r.status_code == 201, r.text
    open_id = r.json()["id"]
    for p in POWERS[:3]:
        assert Api(app_client, f"j{p[:3].lower()}").post(f"/api/games/{open_id}/join", {"power": p}).status_code == 200
    hidden = host.post("/api/games", {"name": "Hidden", "private": True}).json()["id"]
    stranger = Api(app_client, "stranger")
    listing = stranger.get("/api/games").json()
    assert _ids(listing) == [open_id, running, finished]
    first = listing[0]
    assert (first["taken"], first["seats"], first["status"]) == (3, 7, "forming")
    assert first["map"] == "standard" and first["rules"] == ["submarines"] and first["press"] == "public"
    assert first["deadlines"]["M"] == 3600 and first["private"] is False
    assert [g["taken"] for g in listing[1:]] == [7, 7]
    # logged out: the same public list; the private game only for its members
    assert _ids(app_client.get("/api/games").json()) == [open_id, running, finished]
    assert hidden in _ids(host.get("/api/games").json())
    # the home page: open games, then games in progress, then finished ones, with "3/7"
    page = app_client.get("/").text
    assert page.index('id="open-games"') < page.index('id="running-games"') < page.index('id="finished-games"')
    assert ">3/7<" in page and "Hidden" not in page


def test_private_game_is_reached_only_through_its_invitation(app_client: TestClient) -> None:
    host = Api(app_client, "hostp")
    r = host.post("/api/games", {"name": "Secret club", "private": True, "join_code": "tulip", "assignment": "choice"})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    state = host.get(f"/api/games/{gid}").json()
    path = state["invitation"]["path"]
    token = path.rsplit("/", 1)[1]
    assert state["invitation"]["code"] == "tulip" and len(token) >= 32
    outsider = Api(app_client, "outsiderp")
    # the game does not exist for outsiders
    for url in (f"/api/games/{gid}", f"/games/{gid}", f"/api/games/{gid}/history", f"/games/{gid}/map.svg"):
        assert outsider.get(url).status_code == 404, url
    assert outsider.post(f"/api/games/{gid}/join", {"role": "player"}).status_code == 404
    assert "Secret club" not in outsider.get("/api/games").text
    assert outsider.get("/api/invitations/" + "x" * 32).status_code == 404
    # the invitation shows the settings and the roster, but not the join code
    inv = outsider.get(f"/api/invitations/{token}").json()
    assert inv["game"]["name"] == "Secret club" and inv["code_needed"] is True
    assert inv["roster"]["master"] == "hostp" and "tulip" not in str(inv)
    # joining asks for the code
    r = outsider.post(f"/api/invitations/{token}/join", {"role": "player", "power": "ITALY"})
    assert r.status_code == 403 and r.json()["error"]["where"] == "code"
    r = outsider.post(f"/api/invitations/{token}/join", {"role": "player", "power": "ITALY", "code": "tulips"})
    assert r.status_code == 403
    r = outsider.post(f"/api/invitations/{token}/join", {"role": "player", "power": "ITALY", "code": "tulip"})
    assert r.status_code == 200, r.text
    assert r.json()["taken"] == 1
    # now a member: the game is listed and readable
    assert gid in _ids(outsider.get("/api/games").json())
    assert outsider.get(f"/api/games/{gid}").json()["you"]["role"] == "player"
    # only the master passes the invitation on: a player is not shown the link nor the code
    assert outsider.get(f"/api/games/{gid}").json()["invitation"] is None
    assert host.get(f"/api/games/{gid}").json()["invitation"]["path"] == path
    # the join page in a browser, logged out: settings, roster and a log-in link
    page = app_client.get(path)
    assert page.status_code == 200 and "Secret club" in page.text and 'id="login-to-join"' in page.text
    assert "tulip" not in page.text


def test_a_creator_who_plays_and_a_game_without_master_runs_by_its_deadlines(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    creator = Api(app_client, "playing_host")
    r = creator.post(
        "/api/games",
        {"name": "No master", "creator": "player", "assignment": "choice", "power": "FRANCE", "deadlines": {"M": 600}},
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    me = creator.get(f"/api/games/{gid}").json()
    assert me["you"]["role"] == "player" and me["roster"]["master"] is None
    assert creator.get(f"/api/games/{gid}/master").status_code == 405  # the console exists only as POST
    assert creator.post(f"/api/games/{gid}/master", {"action": "pause"}).status_code == 403
    _join_all(app_client, gid, skip=("FRANCE",))
    state = creator.get(f"/api/games/{gid}").json()
    assert state["game"]["status"] == "active" and state["you"]["power"] == "FRANCE"
    assert "MASTER" not in creator.get(f"/api/games/{gid}/messages").json()["recipients"]
    r = creator.post(f"/api/games/{gid}/messages", {"to": "MASTER", "body": "anyone?"})
    assert r.status_code == 400 and r.json()["error"]["where"] == "to"
    clock.advance(601)
    assert worker.tick(site) >= 1
    assert creator.get(f"/api/games/{gid}").json()["game"]["phase"] != "S1901M"


def test_creation_refuses_bad_lobby_settings(app_client: TestClient) -> None:
    host = Api(app_client, "picky")
    for body, where in (
        ({"name": "x", "join_code": "abc"}, "join_code"),  # a code without a private game
        ({"name": "x", "creator": "player", "power": "ATLANTIS", "assignment": "choice"}, "power"),
        ({"name": "x", "creator": "player", "preferences": ["FRANCE"]}, "preferences"),  # not a preferences game
        ({"name": "x", "creator": "player", "assignment": "preferences", "preferences": ["FRANCE"] * 2}, "preferences"),
        ({"name": "x", "votes": {"secret": ["coup"]}}, "body.votes.secret[0]"),
    ):
        r = host.post("/api/games", body)
        assert r.status_code in (400, 422), (body, r.text)
        assert r.json()["error"]["where"] == where, (body, r.json())
    assert host.get("/api/games").json() == []


def test_powers_seated_by_ranked_preferences(app_client: TestClient) -> None:
    host = Api(app_client, "prefhost")
    gid = host.post("/api/games", {"name": "Prefs", "assignment": "preferences"}).json()["id"]
    wishes = {  # two want FRANCE first; everyone else a distinct first choice
        "ann": ["FRANCE", "ENGLAND"],
        "bob": ["FRANCE", "AUSTRIA"],
        "cid": ["GERMANY"],
        "dan": ["ITALY"],
        "eve": ["RUSSIA"],
        "fay": ["TURKEY"],
        "gus": [],
    }
    apis = {}
    for name, ranked in wishes.items():
        apis[name] = Api(app_client, f"{name}{uuid.uuid4().hex[:4]}")
        r = apis[name].post(f"/api/games/{gid}/join", {"role": "player", "preferences": ranked})
        assert r.status_code == 200, r.text
    seats = {name: api.get(f"/api/games/{gid}").json()["you"]["power"] for name, api in apis.items()}
    assert sorted(seats.values()) == POWERS
    for name in ("cid", "dan", "eve", "fay"):
        assert seats[name] == wishes[name][0]
    # one of ann and bob has FRANCE, the other their second choice; gus takes what is left
    assert {seats["ann"], seats["bob"]} in ({"FRANCE", "AUSTRIA"}, {"ENGLAND", "FRANCE"})
    r = Api(app_client, "latecomer").post(f"/api/games/{gid}/join", {"role": "player", "preferences": ["ITALY"]})
    assert r.status_code == 409 and "not taking players" in r.json()["error"]["message"]
