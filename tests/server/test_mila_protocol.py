"""MILA's websocket protocol at ``/``: sign-in with the site's accounts, the site's games, and hostile frames.

Frames are written by hand (the test needs no MILA package): each test speaks MILA's JSON as its client
does.  Every refusal must be MILA's ``error`` response naming a MILA exception class, and the connection
must keep answering afterwards.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import POWERS, Api, start_game

pytestmark = pytest.mark.usefixtures("quick_hashes")


class Mila:
    """A MILA-speaking client over the test client's websocket."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.notes: list[dict[str, Any]] = []

    def raw(self, text: str) -> dict[str, Any]:
        """Send a raw frame, return the next response (notifications met on the way are kept)."""
        self.ws.send_text(text)
        return self.response()

    def response(self) -> dict[str, Any]:
        """The next frame that is a response."""
        while True:
            frame = json.loads(self.ws.receive_text())
            if "notification_id" in frame:
                self.notes.append(frame)
                continue
            return frame

    def ask(self, name: str, **fields: Any) -> dict[str, Any]:
        """Send a request, return its response."""
        return self.raw(json.dumps({"name": name, "request_id": uuid.uuid4().hex, **fields}))

    def sign_in(self, user: str, password: str = "password123") -> str:
        """A token for the account."""
        r = self.ask("sign_in", username=user, password=password)
        assert r["name"] == "data_token", r
        return str(r["data"])


def error_of(r: dict[str, Any], error_type: str) -> str:
    """The message of an error response of ``error_type``."""
    assert r["name"] == "error", r
    assert r["error_type"] == error_type, r
    return str(r["message"])


def test_sign_in_uses_the_site_accounts(app_client: TestClient) -> None:
    Api(app_client, "alice")
    with app_client.websocket_connect("/") as ws:
        m = Mila(ws)
        assert m.sign_in("alice")
        assert "wrong password" in error_of(m.ask("sign_in", username="alice", password="not-hers-1"), "UserException")
        # a new name registers with the site's own rules
        token = m.sign_in("bob_mila", "secret-pass")
        assert m.ask("get_available_maps", token=token)["data"]["standard"]["powers"] == POWERS
        assert "3 to 40" in error_of(m.ask("sign_in", username="x", password="secret-pass"), "UserException")
    assert app_client.post("/api/tokens", json={"name": "bob_mila", "password": "secret-pass"}).status_code == 201


def test_signing_in_again_and_again_is_no_failed_login(app_client: TestClient) -> None:
    """MILA's clients sign in at every connection: the checked-credentials cache must not count them as failed
    logins (ten failures lock the account for fifteen minutes)."""
    Api(app_client, "dora")
    with app_client.websocket_connect("/") as ws:
        m = Mila(ws)
        for _ in range(15):
            assert m.sign_in("dora")


def test_a_new_password_ends_the_old_one_over_mila_at_once(app_client: TestClient) -> None:
    carol = Api(app_client, "carol")
    with app_client.websocket_connect("/") as ws:
        m = Mila(ws)
        assert m.sign_in("carol") and m.sign_in("carol")  # the second from the checked-credentials cache
        body = {"current_password": "password123", "new_password": "another-long-one"}
        assert app_client.post("/api/me/password", json=body, headers=carol.headers).status_code == 200
        assert "wrong password" in error_of(m.ask("sign_in", username="carol", password="password123"), "UserException")
        assert m.sign_in("carol", "another-long-one")


def test_hostile_frames_get_mila_errors_and_the_connection_goes_on(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client)
    with app_client.websocket_connect("/") as ws:
        m = Mila(ws)
        assert "not JSON" in error_of(m.raw("{not json"), "RequestException")
        assert "JSON object" in error_of(m.raw("[1, 2]"), "RequestException")
        r = m.raw(json.dumps({"name": "launch_missiles", "request_id": "r1"}))
        assert r["request_id"] == "r1" and "unknown request name" in error_of(r, "RequestException")
        assert "buffer_size" in error_of(
            m.ask("get_dummy_waiting_powers", token="t", buffer_size="many"), "RequestException"
        )
        assert "at most" in error_of(m.raw(" " * 300_000), "RequestException")
        assert "unknown token" in error_of(m.ask("list_games", token="forged" * 4), "TokenException")
        # another player's power
        france = players["FRANCE"].name
        token = m.sign_in(france)
        joined = m.ask("join_game", token=token, game_id=str(gid), power_name="FRANCE")
        assert joined["name"] == "data_game", joined
        order = {"token": token, "game_id": str(gid), "phase": "S1901M"}
        r = m.ask("set_orders", **order, game_role="GERMANY", orders=["A MUN - RUH"])
        assert "not GERMANY" in error_of(r, "GameRoleException")
        r = m.ask("set_orders", **order, game_role="FRANCE", power_name="GERMANY", orders=["A MUN - RUH"])
        assert "not GERMANY" in error_of(r, "GameRoleException")
        r = m.ask("join_game", token=token, game_id=str(gid), power_name="GERMANY")
        assert r["error_type"] == "GameRoleException"
        r = m.ask(
            "send_game_message",
            **order,
            game_role="FRANCE",
            message={"sender": "GERMANY", "recipient": "ENGLAND", "message": "hi", "phase": "S1901M"},
        )
        assert "own messages" in error_of(r, "GameRoleException")
        assert "game ids" in error_of(m.ask("join_game", token=token, game_id="x1"), "GameIdException")
        assert error_of(m.ask("join_game", token=token, game_id="999999"), "GameIdException")
        r = m.ask("set_orders", **{**order, "phase": "F1901M"}, game_role="FRANCE", orders=["A PAR - BUR"])
        assert "server phase is S1901M" in error_of(r, "GamePhaseException")
        # still answering, and the game took nothing
        assert m.ask("set_orders", **order, game_role="FRANCE", orders=["A PAR - BUR"], wait=True)["name"] == "ok"
    state = players["FRANCE"].get(f"/api/games/{gid}").json()
    assert state["orders"]["lines"] == ["A PAR - BUR"] and state["orders"]["ready"] is False
    germany = players["GERMANY"].get(f"/api/games/{gid}").json()
    assert germany["orders"]["lines"] == []


def test_a_game_mila_cannot_draw_is_refused(app_client: TestClient) -> None:
    master = Api(app_client, "gm_sub")
    r = master.post("/api/games", {"name": "Subs", "rules": ["submarines"]})
    assert r.status_code == 201, r.text
    with app_client.websocket_connect("/") as ws:
        m = Mila(ws)
        token = m.sign_in("gm_sub")
        message = error_of(m.ask("join_game", token=token, game_id=str(r.json()["id"])), "GameIdException")
        assert "submarines" in message and "standard map without rule modules" in message
        assert "standard" in error_of(m.ask("create_game", token=token, map_name="colonial"), "MapIdException")
        listed = m.ask("list_games", token=token)
        assert listed["name"] == "data_games" and listed["data"] == []


def test_orders_messages_and_processing_over_the_protocol(app_client: TestClient) -> None:
    """A MILA-made game is a site game: seven players join by MILA, press and orders flow, the phase is
    processed when every power has submitted, and each client is told from its own view."""
    with app_client.websocket_connect("/") as ws:
        m = Mila(ws)
        admin = m.sign_in("admin_m", "password")
        made = m.ask("create_game", token=admin, rules=["POWER_CHOICE", "REAL_TIME"], deadline=0)
        assert made["name"] == "data_game", made
        game = made["data"]
        gid = game["game_id"]
        assert game["role"] == "omniscient_type" and {"POWER_CHOICE", "REAL_TIME"} <= set(game["rules"])
        tokens = {}
        for p in POWERS:
            tokens[p] = m.sign_in(f"user_{p}", f"password_{p}")
            r = m.ask("join_game", token=tokens[p], game_id=gid, power_name=p)
            assert r["name"] == "data_game" and r["data"]["role"] == p
        body = {"game_id": gid, "phase": "S1901M"}
        secret = {"sender": "FRANCE", "recipient": "GERMANY", "message": "psst", "phase": "S1901M"}
        r = m.ask("send_game_message", token=tokens["FRANCE"], game_role="FRANCE", **body, message=secret)
        assert r["name"] == "data_time_stamp" and isinstance(r["data"], int)
        for p in POWERS:
            r = m.ask("set_orders", token=tokens[p], game_role=p, **body, orders=[])
            assert r["name"] == "ok", r
        # every notification owed: the processed phase to eight tokens, the message to Germany and the master
        want = {(t, "game_processed") for t in [admin, *tokens.values()]}
        want |= {(tokens["GERMANY"], "game_message_received"), (admin, "game_message_received")}
        while not want <= {(n["token"], n["name"]) for n in m.notes}:
            m.notes.append(json.loads(ws.receive_text()))
        history = m.ask("get_phase_history", token=admin, game_role="omniscient_type", game_id=gid, from_phase="S1901M")
        assert [d["name"] for d in history["data"]] == ["S1901M"]
        assert history["data"][0]["orders"]["FRANCE"] == []
        r = m.ask("get_phase_history", token=admin, game_role="omniscient_type", game_id=gid, to_phase="S1999M")
        assert "no played phase" in error_of(r, "GamePhaseException")
        synced = m.ask("synchronize", token=tokens["ITALY"], game_role="ITALY", game_id=gid, timestamp=0)
        assert synced["name"] == "data_game_info" and synced["phase"] == "F1901M"
    received = [n for n in m.notes if n["name"] == "game_message_received"]
    assert {n["token"] for n in received} == {tokens["GERMANY"], admin}
    processed = [n for n in m.notes if n["name"] == "game_processed"]
    assert {n["current_phase_data"]["name"] for n in processed} == {"F1901M"}
    assert all(n["previous_phase_data"]["name"] == "S1901M" for n in processed)
    england = next(n for n in processed if n["token"] == tokens["ENGLAND"])
    assert england["previous_phase_data"]["messages"] == []  # not England's to read
    germany = next(n for n in processed if n["token"] == tokens["GERMANY"])
    assert [x["message"] for x in germany["previous_phase_data"]["messages"]] == ["psst"]
    # the site's game, with MILA's rulings (the mila preset) and the phase played
    token = app_client.post("/api/tokens", json={"name": "admin_m", "password": "password"}).json()["token"]
    page = app_client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
    assert page["game"]["options"] == {"preset": "mila"} and page["game"]["phase"] == "F1901M"
    assert page["you"]["role"] == "master"
    assert any(g["id"] == int(gid) for g in Api(app_client, "watcher").get("/api/games").json())


def masked(value: Any) -> Any:
    """``value`` with game ids and times set aside (they differ between two games by construction)."""
    if isinstance(value, dict):
        return {
            k: (
                "*"
                if k
                in (
                    "game_id",
                    "timestamp",
                    "timestamp_created",
                    "time_sent",
                    "controller",
                    "notification_id",
                    "token",
                    "request_id",
                )
                else masked(v)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [masked(v) for v in value]
    return value


def test_a_third_power_is_told_the_same_whatever_two_others_hid(app_client: TestClient) -> None:
    """Two games that differ only in what France and Germany keep to themselves (a private message, France's
    pending orders): England's game object, its notifications and the processed phase are the same."""
    told: list[Any] = []
    for variant in range(2):
        gid, _master, players = start_game(app_client)
        with app_client.websocket_connect("/") as ws:
            m = Mila(ws)
            tokens = {p: m.sign_in(players[p].name) for p in POWERS}
            objects = {}
            for p in POWERS:
                r = m.ask("join_game", token=tokens[p], game_id=str(gid), power_name=p)
                objects[p] = r["data"]
            body = {"game_id": str(gid), "phase": "S1901M"}
            if variant:
                secret = {"sender": "FRANCE", "recipient": "GERMANY", "message": "psst", "phase": "S1901M"}
                m.ask("send_game_message", token=tokens["FRANCE"], game_role="FRANCE", **body, message=secret)
                m.ask(
                    "set_orders", token=tokens["FRANCE"], game_role="FRANCE", **body, orders=["A PAR - PIC"], wait=True
                )
            england_now = m.ask("join_game", token=tokens["ENGLAND"], game_id=str(gid), power_name="ENGLAND")["data"]
            possible = m.ask("get_all_possible_orders", token=tokens["ENGLAND"], game_role="ENGLAND", **body)
            for p in POWERS:
                orders = ["A PAR - BUR"] if p == "FRANCE" else []
                m.ask("set_orders", token=tokens[p], game_role=p, **body, orders=orders)
            while not any(n["name"] == "game_processed" and n["token"] == tokens["ENGLAND"] for n in m.notes):
                m.notes.append(json.loads(ws.receive_text()))
            england_notes = [n for n in m.notes if n["token"] == tokens["ENGLAND"]]
            history = m.ask("get_phase_history", token=tokens["ENGLAND"], game_role="ENGLAND", game_id=str(gid))
        told.append(masked([objects["ENGLAND"], england_now, possible, england_notes, history]))
    assert told[0] == told[1]
    assert "psst" not in json.dumps(told[1]) and "A PAR - PIC" not in json.dumps(told[1])


def test_a_power_is_told_the_same_whatever_others_hid_or_read_before_it(app_client: TestClient) -> None:
    """Two games with the same public history that differ only in what England may not see: France's private
    press to Germany in every phase, France's pending orders, and the master's and France's own synchronizes and
    phase histories read before England's (their timelines kept by the server).  England's synchronize and phase
    histories (all of them, the last by index, the first by name) are the same, byte for byte."""
    told: list[str] = []
    for variant in range(2):
        gid, master, players = start_game(app_client)
        game = {"game_id": str(gid)}
        with app_client.websocket_connect("/") as ws:
            m = Mila(ws)
            gm = m.sign_in(master.name)
            tokens = {p: m.sign_in(players[p].name) for p in ("ENGLAND", "FRANCE")}
            assert m.ask("join_game", token=gm, **game)["name"] == "data_game"
            for p, token in tokens.items():
                assert m.ask("join_game", token=token, power_name=p, **game)["name"] == "data_game"
            for _ in range(3):
                phase = m.ask("synchronize", token=gm, game_role="omniscient_type", timestamp=0, **game)["phase"]
                if variant:
                    secret = {"sender": "FRANCE", "recipient": "GERMANY", "message": "psst", "phase": phase}
                    r = m.ask("send_game_message", token=tokens["FRANCE"], game_role="FRANCE", message=secret, **game)
                    assert r["name"] == "data_time_stamp", r
                assert m.ask("process_game", token=gm, game_role="omniscient_type", **game)["name"] == "ok"
                if variant:  # the others read first: their own timelines are kept before England's
                    for token, role in ((gm, "omniscient_type"), (tokens["FRANCE"], "FRANCE")):
                        m.ask("synchronize", token=token, game_role=role, timestamp=0, **game)
                        m.ask("get_phase_history", token=token, game_role=role, **game)
            if variant:
                phase = m.ask("synchronize", token=gm, game_role="omniscient_type", timestamp=0, **game)["phase"]
                orders = ["A PAR - PIC"] if phase.endswith("M") else []
                r = m.ask("set_orders", token=tokens["FRANCE"], game_role="FRANCE", phase=phase, orders=orders, **game)
                assert r["name"] == "ok", r
            england = {"token": tokens["ENGLAND"], "game_role": "ENGLAND", **game}
            answers = [
                m.ask("synchronize", timestamp=0, **england),
                m.ask("get_phase_history", **england),
                m.ask("get_phase_history", from_phase=-1, to_phase=-1, **england),
                m.ask("get_phase_history", from_phase="S1901M", to_phase="S1901M", **england),
            ]
        assert [a["name"] for a in answers] == ["data_game_info", *["data_game_phases"] * 3]
        assert len(answers[1]["data"]) == 3 and answers[3]["data"] == answers[1]["data"][:1]
        told.append(json.dumps(masked(answers), sort_keys=True))
    assert told[0] == told[1]
    assert "psst" not in told[1] and "PIC" not in told[1]
