"""Game length and scoring through the API (SQLite and PostgreSQL): a game that ends at a fixed year, a
game won at a target number of centres, their scores on the API and the final page, bad settings."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from tests.server.conftest import POWERS, Api, start_game


def all_hold(gid: int, players: dict[str, Api]) -> None:
    """Every power says it is ready with no orders (its units hold)."""
    for p in POWERS:
        players[p].put(f"/api/games/{gid}/orders", {"ready": True})


def test_a_game_ends_at_its_last_year_and_is_scored_by_c_diplo(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client, last_year=1901, scoring="c-diplo")
    assert master.get(f"/api/games/{gid}").json()["ending"] == {
        "scoring": "c-diplo",
        "last_year": 1901,
        "target_centers": None,
    }
    assert app_client.get(f"/api/games/{gid}/scores").json()["scores"] is None  # not over yet
    for _ in range(3):
        if master.get(f"/api/games/{gid}").json()["game"]["status"] == "finished":
            break
        all_hold(gid, players)
    state = master.get(f"/api/games/{gid}").json()
    assert state["game"]["status"] == "finished" and state["game"]["result"] == "drawn"
    # Russia tops the board with 4 centres (1 + 4 + 38); six powers share 2nd to 7th on 3 ((14 + 7) / 6 each)
    expected = dict.fromkeys(POWERS, 7.5) | {"RUSSIA": 43.0}
    assert state["scores"]["scores"] == expected and state["scores"]["system"] == "c-diplo"
    public = app_client.get(f"/api/games/{gid}/scores").json()  # anyone may read them
    assert public["scores"]["scores"] == expected and "diplomania" in public["scores"]["source"]
    page = app_client.get(f"/games/{gid}", headers=players["RUSSIA"].headers)
    assert page.status_code == 200 and 'id="scores"' in page.text and "43" in page.text


def test_a_target_number_of_centres_wins(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client, target_centers=4, scoring="sum-of-squares")
    all_hold(gid, players)  # Russia starts with four centres: the first movement phase ends the game
    state = master.get(f"/api/games/{gid}").json()
    assert state["game"]["result"] == "won" and state["winners"] == ["RUSSIA"]
    assert state["scores"]["scores"] == dict.fromkeys(POWERS, 0.0) | {"RUSSIA": 100.0}


def test_bad_length_and_scoring_settings_are_refused(app_client: TestClient) -> None:
    master = Api(app_client, f"gm{uuid.uuid4().hex[:6]}")
    before = len(app_client.get("/api/games").json())
    for body, where in (
        ({"last_year": 1800}, "last_year"),
        ({"target_centers": 40}, "target_centers"),
        ({"target_centers": True}, "target_centers"),
        ({"scoring": "carnage"}, "scoring"),
    ):
        r = master.post("/api/games", {"name": "Bad", **body})
        assert r.status_code in (400, 422), (body, r.text)
        error = r.json()["error"]
        assert where in error.get("where", "") + error["message"], (body, error)
    assert len(app_client.get("/api/games").json()) == before
    assert set(app_client.get("/api/scoring").json()) == {"draw-size", "sum-of-squares", "c-diplo", "c-diplo-100"}
