"""Bot seats on the server (master's seats, the worker, lateness, replacement, settings) and sandboxes
(open from a view, adjudicate, step, branch, share read-only; never more than the viewer's view)."""

from __future__ import annotations

import json
import uuid

from fastapi.testclient import TestClient

from arbitre.judge import Game
from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.sandbox import _fresh_game, position_from_view
from arbitre.server.site import Site
from arbitre.state import Unit
from tests.server.conftest import POWERS, Api, start_game

BOTS = [p for p in POWERS if p != "FRANCE"]


def bot_game(client: TestClient, bots: list[str], **settings: object) -> tuple[int, Api, Api | None]:
    master = Api(client, f"gm{uuid.uuid4().hex[:6]}")
    r = master.post("/api/games", {"name": "Bots", "assignment": "choice", **settings})
    gid = r.json()["id"]
    for p in bots:
        r = master.post(f"/api/games/{gid}/bots", {"power": p})
        assert r.status_code == 200, r.text
    human = None
    if len(bots) < len(POWERS):
        human = Api(client, f"fr{uuid.uuid4().hex[:6]}")
        assert human.post(f"/api/games/{gid}/join", {"role": "player", "power": "FRANCE"}).status_code == 200
    return gid, master, human


def test_six_bot_seats_and_a_human_play_through_the_worker(app_client: TestClient, site: Site) -> None:
    gid, master, fr = bot_game(app_client, BOTS)
    assert fr is not None
    state = fr.get(f"/api/games/{gid}").json()
    assert state["game"]["status"] == "active"
    assert set(state["bots"]["seats"]) == set(BOTS) and state["bots"]["seats"]["GERMANY"]["reason"] == "empty"
    # the human's powers list and the roster tell who is a bot; the master sees the bots' orders once they act
    assert worker.tick(site) == 6
    orders = master.get(f"/api/games/{gid}").json()["all_orders"]
    assert all(orders[p]["ready"] and orders[p]["lines"] for p in BOTS) and "FRANCE" not in orders
    assert worker.tick(site) == 0  # each bot acts once per step
    r = fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"], "ready": True})
    assert r.json()["processed"] is True
    assert fr.get(f"/api/games/{gid}").json()["game"]["phase"] == "F1901M"
    assert worker.tick(site) == 6


def test_a_game_of_seven_bots_plays_on_by_itself(app_client: TestClient, site: Site) -> None:
    gid, master, _ = bot_game(app_client, POWERS)
    for _ in range(12):
        worker.tick(site)
    state = master.get(f"/api/games/{gid}").json()
    assert (
        state["game"]["phase"] >= "S1903M"
        or state["game"]["phase"].endswith("1903M")
        or int(state["game"]["phase"][1:5]) >= 1903
    )
    assert len(master.get(f"/api/games/{gid}/history").json()) >= 8


def test_lateness_seats_a_bot_and_a_replacement_takes_it_back(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, master, players = start_game(app_client, deadlines={"M": 600, "R": 600, "A": 600})
    r = master.put(f"/api/games/{gid}/bots/settings", {"votes": "exclude", "after_missed": 1})
    assert r.status_code == 200 and r.json()["settings"] == {"votes": "exclude", "after_missed": 1}
    for p in POWERS:
        if p != "ITALY":
            players[p].put(f"/api/games/{gid}/orders", {"ready": True})
    clock.advance(601)
    worker.tick(site)
    state = master.get(f"/api/games/{gid}").json()
    assert state["bots"]["seats"]["ITALY"]["reason"] == "lateness" and state["game"]["phase"] == "F1901M"
    assert state["all_orders"]["ITALY"]["ready"] and state["all_orders"]["ITALY"]["lines"]  # the bot ordered
    # a replacement arrives: the master gives the seat to a person; the bot leaves
    sub = Api(app_client, f"sub{uuid.uuid4().hex[:6]}")
    r = master.post(f"/api/games/{gid}/master", {"action": "replace", "power": "ITALY", "user": sub.name})
    assert r.status_code == 200, r.text
    state = sub.get(f"/api/games/{gid}").json()
    assert "ITALY" not in state["bots"]["seats"] and state["you"]["power"] == "ITALY"


def test_bot_seats_are_the_masters_and_inputs_are_checked(app_client: TestClient) -> None:
    gid, master, fr = bot_game(app_client, ["GERMANY"])
    assert fr is not None
    assert fr.post(f"/api/games/{gid}/bots", {"power": "ITALY"}).status_code == 403
    assert master.post(f"/api/games/{gid}/bots", {"power": "GONDOR"}).json()["error"]["code"] == "bad_bot"
    assert master.post(f"/api/games/{gid}/bots", {"power": "FRANCE"}).status_code == 409  # a player asked for it
    assert master.put(f"/api/games/{gid}/bots/settings", {"votes": "maybe"}).status_code == 422
    assert master.put(f"/api/games/{gid}/bots/settings", {"after_missed": 0}).status_code == 422
    r = app_client.delete(f"/api/games/{gid}/bots/GERMANY", headers=master.headers)
    assert r.status_code == 200 and r.json()["seats"] == {}
    other = Api(app_client, f"ger{uuid.uuid4().hex[:6]}")
    assert other.post(f"/api/games/{gid}/join", {"role": "player", "power": "GERMANY"}).status_code == 200


def test_sandbox_open_adjudicate_step_branch_share(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client)
    fr = players["FRANCE"]
    r = fr.post(f"/api/games/{gid}/sandboxes", {})
    assert r.status_code == 201, r.text
    box = r.json()
    sid = box["id"]
    assert box["newest"] and box["cursor"] == 0 and box["to_order"] == POWERS
    r = fr.post(
        f"/api/sandboxes/{sid}/adjudicate",
        {"orders": ["FRANCE: A PAR - BUR", "GERMANY: A MUN - BUR", "ITALY: A VEN - TYR", "ENGLAND: F LON - XXX"]},
    )
    body = r.json()
    assert body["cursor"] == 1 and body["phases"][:2] == ["S1901M", "F1901M"]
    assert [x["power"] for x in body["rejected"]] == ["ENGLAND"]
    assert fr.post(f"/api/sandboxes/{sid}/step", {"delta": -1}).json()["cursor"] == 0
    assert fr.post(f"/api/sandboxes/{sid}/adjudicate", {"orders": []}).status_code == 409  # a past phase
    branch = fr.post(f"/api/sandboxes/{sid}/branch", {}).json()
    assert branch["cursor"] == 0 and branch["count"] == 0 and branch["parent"] == sid
    r = fr.post(f"/api/sandboxes/{branch['id']}/adjudicate", {"orders": ["ITALY: A VEN - TRI"]})
    assert r.json()["count"] == 1
    shared = app_client.get(box["share"].replace("/s/", "/api/shared/"))  # no login
    assert shared.status_code == 200 and shared.json()["shared"] is True and "share" not in shared.json()
    page = app_client.get(box["share"])
    assert page.status_code == 200 and "sandbox-orders" not in page.text and "read-only" in page.text
    # nobody else may read or change it by id
    assert players["GERMANY"].get(f"/api/sandboxes/{sid}").status_code == 404
    assert players["GERMANY"].post(f"/api/sandboxes/{sid}/step", {"delta": 1}).status_code == 404
    assert fr.post(f"/api/sandboxes/{sid}/step", {"delta": 1}).json()["cursor"] == 1
    r = fr.post(f"/api/sandboxes/{sid}/adjudicate", {"orders": ["nonsense"]})
    assert r.status_code == 400 and "POWER: ORDER" in r.json()["error"]["message"]


def test_a_sandbox_from_a_players_view_holds_only_what_that_view_holds() -> None:
    """Two games differing only in a foreign submerged submarine: FRANCE's sandboxes are byte-identical."""
    out = []
    for place in ("NAO-1", "NWG-1"):
        game = Game.new("standard", ["submarines"])
        units = dict(game.position.units)
        del units["EDI"]  # England's fleet of Edinburgh is a submarine, submerged somewhere far
        units[place] = Unit("ENGLAND", "SM", place)
        game.position = game.position.with_changes(units=units)
        data = _fresh_game(game, position_from_view(game, game.view("FRANCE"))).to_data()
        out.append(json.dumps(data, sort_keys=True))
        assert place not in json.dumps(data) and len(data["position"]["units"]["ENGLAND"]) == 2
    assert out[0] == out[1]
    # the game master's sandbox holds the whole board
    master = _fresh_game(game, position_from_view(game, game.view("master"))).to_data()
    assert "SM NWG-1" in master["position"]["units"]["ENGLAND"]


def test_bots_give_their_reactions_in_espionnite_games(app_client: TestClient, site: Site) -> None:
    gid, master, _ = bot_game(app_client, POWERS, rules=["espionnite", "submarines"])
    steps = []
    for _ in range(6):
        worker.tick(site)
        state = master.get(f"/api/games/{gid}").json()["game"]
        steps.append((state["phase"], state["step"]))
    assert steps[0] == ("S1901M", "reaction")  # the bots ordered, the orders locked ...
    assert steps[1][0] == "S1901R" and steps[-1][0] > "F1901"  # ... they reacted, and the game went on
    assert len(master.get(f"/api/games/{gid}/history").json()) >= 3


def test_a_finished_game_gives_a_sandbox_of_the_whole_board(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    running = players["FRANCE"].post(f"/api/games/{gid}/sandboxes", {}).json()
    assert "France's view" in running["name"]
    assert master.post(f"/api/games/{gid}/master", {"action": "draw"}).status_code == 200
    finished = players["FRANCE"].post(f"/api/games/{gid}/sandboxes", {}).json()
    assert "whole board" in finished["name"] and finished["to_order"] == POWERS
    assert players["FRANCE"].post(f"/api/games/{gid}/sandboxes", {"index": 7}).status_code == 404
