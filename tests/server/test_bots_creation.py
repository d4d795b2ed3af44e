"""Bots asked for when a game is made (the way a game without a master gets them), and how scores treat
bot seats under each bot setting (SQLite and PostgreSQL)."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from tests.server.conftest import POWERS, Api

BOTS = ["AUSTRIA", "ENGLAND", "GERMANY", "RUSSIA", "TURKEY"]


def _masterless(client: TestClient, **bots: object) -> tuple[int, Api, Api]:
    creator = Api(client, f"cr{uuid.uuid4().hex[:6]}")
    r = creator.post(
        "/api/games",
        {
            "name": "Sans arbitre",
            "assignment": "choice",
            "creator": "player",
            "power": "FRANCE",
            "bots": {"seats": BOTS, **bots},
        },
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    guest = Api(client, f"gu{uuid.uuid4().hex[:6]}")
    assert guest.post(f"/api/games/{gid}/join", {"role": "player", "power": "ITALY"}).status_code == 200
    return gid, creator, guest


def test_a_game_without_a_master_gets_its_bots_at_creation_and_starts_when_full(app_client: TestClient) -> None:
    gid, creator, _ = _masterless(app_client, votes="exclude", after_missed=2)
    state = creator.get(f"/api/games/{gid}").json()
    assert state["game"]["status"] == "active" and state["roster"]["master"] is None
    assert sorted(state["bots"]["seats"]) == BOTS
    assert {s["reason"] for s in state["bots"]["seats"].values()} == {"empty"}
    assert state["bots"]["settings"] == {"votes": "exclude", "after_missed": 2}
    assert state["you"]["power"] == "FRANCE"


def test_creation_bots_are_checked(app_client: TestClient) -> None:
    creator = Api(app_client, f"cr{uuid.uuid4().hex[:6]}")
    base = {"name": "x", "assignment": "choice", "creator": "player", "power": "FRANCE"}
    cases = [
        ({"seats": ["GONDOR"]}, "bots.seats"),
        ({"seats": ["FRANCE"]}, "bots.seats"),  # the creator asked for it
        ({"seats": POWERS}, "bots.seats"),  # eight seats for seven powers
    ]
    for bots, where in cases:
        r = creator.post("/api/games", {**base, "bots": bots})
        assert r.status_code == 400, (bots, r.text)
        assert r.json()["error"]["where"] == where
    r = creator.post("/api/games", {**base, "bots": {"votes": "sometimes"}})
    assert r.status_code == 422
    assert len([g for g in creator.get("/api/games").json() if g["name"] == "x"]) == 0  # nothing half-made


def _draw_scores(client: TestClient, votes: str) -> dict[str, object]:
    master = Api(client, f"gm{uuid.uuid4().hex[:6]}")
    r = master.post(
        "/api/games",
        {"name": "Score", "assignment": "choice", "scoring": "draw-size", "bots": {"seats": BOTS, "votes": votes}},
    )
    gid = r.json()["id"]
    for power in ("FRANCE", "ITALY"):
        player = Api(client, f"p{uuid.uuid4().hex[:6]}")
        assert player.post(f"/api/games/{gid}/join", {"role": "player", "power": power}).status_code == 200
    assert master.post(f"/api/games/{gid}/master", {"action": "draw"}).status_code == 200
    scores = master.get(f"/api/games/{gid}").json()["scores"]
    assert scores is not None
    return scores


def test_scores_leave_bot_seats_out_only_when_the_setting_says_so(app_client: TestClient) -> None:
    counted = _draw_scores(app_client, "count")
    assert counted["scores"] == {p: round(100 / 7, 2) for p in POWERS} and counted["excluded"] == []
    abstaining = _draw_scores(app_client, "abstain")
    assert abstaining["scores"] == counted["scores"]
    excluded = _draw_scores(app_client, "exclude")
    assert excluded["excluded"] == BOTS
    assert excluded["scores"] == {"FRANCE": 50.0, "ITALY": 50.0}
    assert excluded["centres"] == counted["centres"]
