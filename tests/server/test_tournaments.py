"""Tournaments through the API (SQLite and PostgreSQL): seven players over two rounds never repeat a power,
and the standings add the C-Diplo scores and deduct a yellow card."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.conftest import Api


def test_rounds_are_balanced_and_standings_deduct_yellow_cards(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    director = Api(app_client, f"td{uuid.uuid4().hex[:6]}")
    r = director.post(
        "/api/tournaments", {"name": "Coupe", "scoring": "c-diplo", "lateness": "none", "card_penalty": 2}
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    players = {}
    for i in range(7):
        api = Api(app_client, f"tp{i}{uuid.uuid4().hex[:5]}")
        players[api.name] = api
        assert director.post(f"/api/tournaments/{tid}/players", {"user": api.name}).status_code == 200
        assert api.post(f"/api/tournaments/{tid}/join", {}).status_code == 200  # the player accepts
    someone = next(iter(players.values()))
    assert someone.post(f"/api/tournaments/{tid}/rounds", {}).status_code == 403  # only the director
    r = director.post(f"/api/tournaments/{tid}/rounds", {"deadlines": {"M": 600, "R": 600, "A": 600}})
    assert r.status_code == 201, r.text
    first = r.json()["rounds"][0]["games"][0]
    assert first["status"] == "active" and sorted(first["seats"].values()) == sorted(players)
    # round 1: everyone but the player on Italy is ready; the deadline passes: a yellow card for them
    late = first["seats"]["ITALY"]
    gid = first["id"]
    for power, name in first["seats"].items():
        if power != "ITALY":
            players[name].put(f"/api/games/{gid}/orders", {"ready": True})
    clock.advance(601)
    worker.tick(site)
    r = director.post(f"/api/games/{gid}/master", {"action": "draw"})
    assert r.status_code == 200, r.text
    second = director.post(f"/api/tournaments/{tid}/rounds", {}).json()["rounds"][1]["games"][0]
    assert all(first["seats"][p] != second["seats"][p] for p in first["seats"])  # nobody plays a power twice
    standings = {s["player"]: s for s in app_client.get(f"/api/tournaments/{tid}").json()["standings"]}
    russia = first["seats"]["RUSSIA"]
    assert standings[russia]["score"] == 43.0 and standings[russia]["total"] == 43.0
    assert standings[late]["yellow_cards"] == 1 and standings[late]["total"] == 7.5 - 2
    assert [s["games"] for s in standings.values()] == [1] * 7
    page = app_client.get(f"/tournaments/{tid}")
    assert page.status_code == 200 and 'id="standings"' in page.text and russia in page.text


def test_a_round_needs_a_full_board(app_client: TestClient) -> None:
    director = Api(app_client, f"td{uuid.uuid4().hex[:6]}")
    tid = director.post("/api/tournaments", {"name": "Petit"}).json()["id"]
    r = director.post(f"/api/tournaments/{tid}/rounds", {})
    assert r.status_code == 409 and "at least 7 players" in r.json()["error"]["message"]
    assert director.post("/api/tournaments", {"name": "X", "scoring": "carnage"}).status_code == 422
    assert app_client.get("/api/tournaments/99999").status_code == 404


def test_players_beyond_whole_boards_sit_out_in_turn(app_client: TestClient) -> None:
    """Nine players: each round seats seven on one board; over three rounds six different players sit
    out once each, and nobody plays a power twice."""
    director = Api(app_client, f"td{uuid.uuid4().hex[:6]}")
    tid = director.post("/api/tournaments", {"name": "Neuf"}).json()["id"]
    names = []
    for i in range(9):
        api = Api(app_client, f"tn{i}{uuid.uuid4().hex[:5]}")
        names.append(api.name)
        assert director.post(f"/api/tournaments/{tid}/players", {"user": api.name}).status_code == 200
        assert api.post(f"/api/tournaments/{tid}/join", {}).status_code == 200  # the player accepts
    powers_of: dict[str, set[str]] = {n: set() for n in names}
    out_count = dict.fromkeys(names, 0)
    for n in range(1, 4):
        r = director.post(f"/api/tournaments/{tid}/rounds", {})
        assert r.status_code == 201, r.text
        this = r.json()["rounds"][n - 1]
        (game,) = this["games"]
        assert len(game["seats"]) == 7 and len(this["not_playing"]) == 2
        assert set(game["seats"].values()) | set(this["not_playing"]) == set(names)
        for power, name in game["seats"].items():
            assert power not in powers_of[name]
            powers_of[name].add(power)
        for name in this["not_playing"]:
            out_count[name] += 1
    assert sorted(out_count.values()) == [0] * 3 + [1] * 6
    (listed,) = [t for t in app_client.get("/api/tournaments").json() if t["id"] == tid]
    assert listed["players"] == 9 and listed["rounds"] == 3 and listed["director"] == director.name
    page = app_client.get(f"/tournaments/{tid}")
    assert page.status_code == 200 and 'class="not-playing"' in page.text


def test_nobody_plays_in_a_tournament_without_saying_so(app_client: TestClient) -> None:
    """The director invites; an invitation seats nobody until it is accepted; a player may decline, join by
    themself, or leave (not seated again, still in the standings).  The invitations are the director's to read."""
    director = Api(app_client, f"td{uuid.uuid4().hex[:6]}")
    tid = director.post("/api/tournaments", {"name": "Consent cup", "lateness": "none"}).json()["id"]
    invited = [Api(app_client, f"ti{i}{uuid.uuid4().hex[:5]}") for i in range(7)]
    for api in invited:
        assert director.post(f"/api/tournaments/{tid}/players", {"user": api.name}).status_code == 200
    assert invited[0].post(f"/api/tournaments/{tid}/players", {"user": invited[1].name}).status_code == 403
    assert director.post(f"/api/tournaments/{tid}/players", {"user": invited[0].name}).status_code == 409  # twice
    # invited is not enrolled: no round seats them, and nobody but the director reads who is invited
    r = director.post(f"/api/tournaments/{tid}/rounds", {})
    assert r.status_code == 409 and "0 have joined" in r.json()["error"]["message"]
    public = app_client.get(f"/api/tournaments/{tid}").json()
    assert public["players"] == [] and public["invited"] == [] and public["rounds"] == []
    assert all(api.name not in app_client.get(f"/tournaments/{tid}").text for api in invited)
    assert sorted(director.get(f"/api/tournaments/{tid}").json()["invited"]) == sorted(a.name for a in invited)
    # the invited player is told, on the list and on the page, and answers there
    mine = invited[0].get(f"/api/tournaments/{tid}").json()["you"]
    assert mine == {"status": "invited", "director": False}
    assert [t["you"] for t in invited[0].get("/api/tournaments").json() if t["id"] == tid] == ["invited"]
    assert 'id="accept-invitation"' in invited[0].get(f"/tournaments/{tid}").text
    # six accept, one declines, someone nobody invited joins by themself
    for api in invited[:6]:
        r = api.post(f"/api/tournaments/{tid}/join", {})
        assert r.status_code == 200 and r.json()["you"]["status"] == "joined"
    assert invited[0].post(f"/api/tournaments/{tid}/join", {}).status_code == 409  # already a player
    decliner = invited[6]
    assert decliner.post(f"/api/tournaments/{tid}/leave", {}).status_code == 200
    assert decliner.post(f"/api/tournaments/{tid}/leave", {}).status_code == 409  # nothing left to decline
    volunteer = Api(app_client, f"tv{uuid.uuid4().hex[:6]}")
    assert volunteer.post(f"/api/tournaments/{tid}/join", {}).status_code == 200
    r = director.post(f"/api/tournaments/{tid}/rounds", {"deadlines": {"M": 600}})
    assert r.status_code == 201, r.text
    (game,) = r.json()["rounds"][0]["games"]
    seated = {a.name for a in [*invited[:6], volunteer]}
    assert set(game["seats"].values()) == seated and decliner.name not in r.text
    assert decliner.get(f"/api/games/{game['id']}/orders").status_code == 403
    # a player leaves: the next round does not seat them, the standings keep their game
    leaver = invited[0]
    assert leaver.post(f"/api/tournaments/{tid}/leave", {}).json()["you"]["status"] == "left"
    assert leaver.get(f"/api/games/{game['id']}/orders").status_code == 200  # the game they play goes on
    r = director.post(f"/api/tournaments/{tid}/rounds", {})
    assert r.status_code == 409 and "6 have joined" in r.json()["error"]["message"]
    standings = {s["player"] for s in app_client.get(f"/api/tournaments/{tid}").json()["standings"]}
    assert standings == seated
    # the director withdraws an invitation they made
    late = Api(app_client, f"tl{uuid.uuid4().hex[:6]}")
    assert director.post(f"/api/tournaments/{tid}/players", {"user": late.name}).status_code == 200
    r = app_client.delete(f"/api/tournaments/{tid}/players/{late.name}", headers=director.headers)
    assert r.status_code == 200 and r.json()["invited"] == []
    assert late.get(f"/api/tournaments/{tid}").json()["you"]["status"] is None
