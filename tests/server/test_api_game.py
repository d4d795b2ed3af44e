"""A game through the JSON API: start, orders, readiness, deadline, retreats, builds, history, press, console."""

from __future__ import annotations

from fastapi.testclient import TestClient

from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.conftest import POWERS, Api, start_game


def test_game_starts_when_full(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client)
    state = players["FRANCE"].get(f"/api/games/{gid}").json()
    assert state["game"]["status"] == "active"
    assert state["you"] == {"role": "player", "power": "FRANCE", "viewer": "FRANCE", "wanted": None}
    assert state["orders"]["must_order"] is True
    assert "A PAR - BUR" in state["orders"]["legal"]["PAR"]
    assert "all_orders" not in state


def test_orders_checked_saved_and_adjudicated_when_all_ready(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client)
    fr = players["FRANCE"]
    r = fr.post(f"/api/games/{gid}/check", {"orders": ["A PAR - BUR", "A MAR - MUN", "nonsense"]})
    errors = r.json()["errors"]
    assert [e["line"] for e in errors] == [2, 3]
    r = fr.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR", "F BRE - MAO"], "phase": "S1901M"})
    assert r.status_code == 200 and r.json()["rejected"] == []
    assert fr.get(f"/api/games/{gid}/orders").json()["lines"] == ["A PAR - BUR", "F BRE - MAO"]
    for p in POWERS:
        r = players[p].put(f"/api/games/{gid}/orders", {"ready": True})
        assert r.status_code == 200, r.text
    assert r.json()["processed"] is True
    state = fr.get(f"/api/games/{gid}").json()
    assert state["game"]["phase"] == "F1901M"
    units = {(u["power"], u["place"]) for u in state["view"]["units"]}
    assert ("FRANCE", "BUR") in units and ("FRANCE", "MAO") in units
    hist = fr.get(f"/api/games/{gid}/history").json()
    assert hist == [{"index": 0, "phase": "S1901M"}]
    phase0 = fr.get(f"/api/games/{gid}/history/0").json()
    assert any(o["text"] == "A PAR - BUR" and o["outcome"] == "succeeds" for o in phase0["view"]["orders"])
    # stale orders for a phase that is over are refused
    r = fr.put(f"/api/games/{gid}/orders", {"orders": ["A BUR H"], "phase": "S1901M"})
    assert r.status_code == 409


def test_deadline_adjudicates_with_missing_orders(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    gid, master, players = start_game(app_client, deadlines={"M": 600})
    players["GERMANY"].put(f"/api/games/{gid}/orders", {"orders": ["A MUN - BUR"]})
    assert worker.tick(site) == 0
    clock.advance(601)
    assert worker.tick(site) == 1
    assert worker.tick(site) == 0
    state = master.get(f"/api/games/{gid}").json()
    assert state["game"]["phase"] == "F1901M"
    assert any(u["place"] == "BUR" and u["power"] == "GERMANY" for u in state["view"]["units"])


def test_retreat_and_build_phases(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    gid, master, players = start_game(app_client)

    def play(orders: dict[str, list[str]]) -> None:
        for p, lines in orders.items():
            r = players[p].put(f"/api/games/{gid}/orders", {"orders": lines})
            assert r.status_code == 200 and r.json()["rejected"] == [], r.text
        r = master.post(f"/api/games/{gid}/master", {"action": "adjudicate"})
        assert r.status_code == 200, r.text

    play({"GERMANY": ["A MUN - BUR"], "ITALY": ["A VEN - PIE"]})
    play({"GERMANY": ["A BUR - MAR"], "ITALY": ["A PIE S A BUR - MAR"], "FRANCE": ["A MAR H"]})
    state = players["FRANCE"].get(f"/api/games/{gid}").json()
    assert state["game"]["phase"] == "F1901R"
    assert state["orders"]["must_order"] is True
    assert state["view"]["dislodged"]
    assert players["GERMANY"].get(f"/api/games/{gid}").json()["orders"]["must_order"] is False
    play({"FRANCE": ["A MAR - GAS"]})
    state = players["GERMANY"].get(f"/api/games/{gid}").json()
    assert state["game"]["phase"] == "W1901A"
    assert state["orders"]["must_order"] is True
    assert any("Build" in o or "B" in o for opts in state["orders"]["legal"].values() for o in opts)
    play({"GERMANY": ["A MUN B"], "FRANCE": ["A GAS D"]})
    state = master.get(f"/api/games/{gid}").json()
    assert state["game"]["phase"] == "S1902M"
    units = {(u["power"], u["kind"], u["place"]) for u in state["view"]["units"]}
    assert ("GERMANY", "A", "MUN") in units and ("FRANCE", "A", "GAS") not in units
    assert [h["phase"] for h in master.get(f"/api/games/{gid}/history").json()] == [
        "S1901M",
        "F1901M",
        "F1901R",
        "W1901A",
    ]


def test_press_follows_settings(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client, press="public")
    fr, de = players["FRANCE"], players["GERMANY"]
    assert fr.post(f"/api/games/{gid}/messages", {"to": "GERMANY", "body": "secret"}).status_code == 400
    assert fr.post(f"/api/games/{gid}/messages", {"to": "*", "body": "hello all"}).status_code == 201
    assert fr.post(f"/api/games/{gid}/messages", {"to": "MASTER", "body": "psst gm"}).status_code == 201
    de_msgs = [m["body"] for m in de.get(f"/api/games/{gid}/messages").json()["messages"]]
    assert de_msgs == ["hello all"]
    gm_msgs = [m["body"] for m in master.get(f"/api/games/{gid}/messages").json()["messages"]]
    assert gm_msgs == ["hello all", "psst gm"]


def test_private_press(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client, press="full")
    assert players["FRANCE"].post(f"/api/games/{gid}/messages", {"to": "GERMANY", "body": "deal?"}).status_code == 201
    assert [m["body"] for m in players["GERMANY"].get(f"/api/games/{gid}/messages").json()["messages"]] == ["deal?"]
    assert players["ITALY"].get(f"/api/games/{gid}/messages").json()["messages"] == []


def test_master_console(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    gid, master, players = start_game(app_client, deadlines={"M": 3600})
    path = f"/api/games/{gid}/master"
    assert master.post(path, {"action": "pause"}).json()["status"] == "paused"
    clock.advance(7200)
    assert worker.tick(site) == 0
    assert master.post(path, {"action": "extend", "minutes": 30}).status_code == 200
    r = master.post(path, {"action": "resume"}).json()
    assert r["status"] == "active"
    before = r["deadline"]
    r = master.post(path, {"action": "extend", "minutes": 10}).json()
    assert r["deadline"] > before
    newbie = Api(app_client, "newbie")
    assert master.post(path, {"action": "replace", "power": "FRANCE", "user": "newbie"}).status_code == 200
    assert newbie.get(f"/api/games/{gid}").json()["you"]["power"] == "FRANCE"
    assert "view" not in players["FRANCE"].get(f"/api/games/{gid}").json()
    assert players["FRANCE"].get(f"/api/games/{gid}/orders").status_code == 403
    assert master.post(path, {"action": "adjudicate"}).json()["phase"] == "F1901M"
    assert master.post(path, {"action": "draw", "powers": ["NARNIA"]}).status_code == 400
    r = master.post(path, {"action": "draw", "powers": ["france", "GERMANY"]}).json()
    assert r["status"] == "finished" and r["result"] == "drawn"
    assert master.get(f"/api/games/{gid}").json()["winners"] == ["FRANCE", "GERMANY"]
    assert master.post(path, {"action": "end"}).status_code == 409


def test_languages(app_client: TestClient) -> None:
    api = Api(app_client, "frenchy")
    assert api.put("/api/me", {"lang": "fr"}).json()["lang"] == "fr"
    r = app_client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert "Parties" in r.text
    r = app_client.get("/", headers={"Accept-Language": "en"})
    assert "Games" in r.text


def test_colonial_game_starts_and_adjudicates(app_client: TestClient) -> None:
    master = Api(app_client, "colonialgm")
    r = master.post("/api/games", {"name": "Colonial", "map": "colonial"})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    powers = master.get(f"/api/games/{gid}").json()["powers"]
    assert len(powers) == 7 and "CHINA" in powers
    joined = []
    for n, _ in enumerate(powers):
        api = Api(app_client, f"colonist{n}")
        assert api.post(f"/api/games/{gid}/join", {"role": "player"}).status_code == 200
        joined.append(api)
    seats = {api.get(f"/api/games/{gid}").json()["you"]["power"]: api for api in joined}
    assert set(seats) == set(powers)  # assigned at random when the game filled
    legal = seats["CHINA"].get(f"/api/games/{gid}/orders").json()["legal"]
    first = next(iter(legal.values()))[1]
    assert seats["CHINA"].put(f"/api/games/{gid}/orders", {"orders": [first], "ready": True}).json()["rejected"] == []
    assert master.post(f"/api/games/{gid}/master", {"action": "adjudicate"}).status_code == 200
    assert len(master.get(f"/api/games/{gid}/history").json()) == 1
