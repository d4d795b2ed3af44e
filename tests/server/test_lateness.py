"""Lateness settings through the API with the manual clock (SQLite and PostgreSQL): presets, grace,
automatic extension, excuses, yellow cards, civil disorder, calls for a replacement and the take-over
link, rest days and fixed-time deadlines, and the public boards."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient

from arbitre.server import worker
from arbitre.server.clock import ManualClock
from arbitre.server.site import Site
from tests.server.conftest import POWERS, Api, start_game

SHORT = {"M": 600, "R": 600, "A": 600}


def ready_all_but(gid: int, players: dict[str, Api], late: str) -> None:
    """Every power but ``late`` switches to ready (with no orders: its units hold)."""
    for p in POWERS:
        if p != late:
            assert players[p].put(f"/api/games/{gid}/orders", {"ready": True}).status_code == 200


def phase(api: Api, gid: int) -> str:
    """The game's current phase."""
    return str(api.get(f"/api/games/{gid}").json()["game"]["phase"])


def deadline(api: Api, gid: int) -> datetime:
    """The game's current deadline."""
    return datetime.fromisoformat(api.get(f"/api/games/{gid}").json()["game"]["deadline"])


def board(client: TestClient, gid: int) -> dict[str, Any]:
    """The game's public lateness board, read without logging in."""
    r = client.get(f"/api/games/{gid}/lateness")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_presets_are_offered_and_fill_the_settings(app_client: TestClient) -> None:
    presets = app_client.get("/api/lateness/presets").json()
    assert set(presets) == {"none", "casual", "tournament"}
    assert presets["tournament"]["disorder_after"] == 2 and presets["tournament"]["replace_on_disorder"] is True
    gid, _, _ = start_game(app_client, lateness={"preset": "tournament", "timezone": "Europe/Paris"})
    settings = board(app_client, gid)["settings"]
    assert settings["preset"] == "tournament" and settings["timezone"] == "Europe/Paris"  # no preset sets the zone
    assert {k: v for k, v in settings.items() if k not in ("preset", "timezone")} == {
        k: v for k, v in presets["tournament"].items() if k not in ("preset", "timezone")
    }
    gid2, master, _ = start_game(app_client, lateness={"preset": "casual"})
    assert board(app_client, gid2)["settings"] == presets["casual"]
    # the master changes them later; the bot rule is one of them, kept with the bot settings
    r = master.put(f"/api/games/{gid2}/lateness", {"preset": "casual", "bot_after_missed": 4})
    assert r.status_code == 200 and r.json()["settings"]["bot_after_missed"] == 4
    assert r.json()["settings"]["preset"] == "custom"  # a preset with a rule changed
    assert master.get(f"/api/games/{gid2}/bots").json()["settings"]["after_missed"] == 4


def test_bad_lateness_settings_are_refused_saying_where(app_client: TestClient) -> None:
    master = Api(app_client, f"gm{uuid.uuid4().hex[:6]}")
    cases = [
        ({"preset": "strict"}, "preset"),
        ({"grace_minutes": 5000}, "grace_minutes"),
        ({"rest_days": ["mon", "funday"]}, "rest_days"),
        ({"deadline_time": "25:99"}, "deadline_time"),
        ({"timezone": "Mars/Olympus"}, "lateness.timezone"),
        ({"rest_days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}, "lateness.rest_days"),
        ({"excuses": True}, "excuses"),
        ({"colour": "red"}, "colour"),
    ]
    before = len(app_client.get("/api/games").json())
    for settings, where in cases:
        r = master.post("/api/games", {"name": "Bad", "lateness": settings})
        assert r.status_code in (400, 422), (settings, r.text)
        error = r.json()["error"]
        assert where in error.get("where", "") + error["message"], (settings, error)
    assert len(app_client.get("/api/games").json()) == before  # nothing half-stored


def test_grace_period_gives_the_late_player_time_quietly(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, master, players = start_game(app_client, deadlines=SHORT, lateness={"grace_minutes": 30})
    first = deadline(master, gid)
    ready_all_but(gid, players, "ITALY")
    clock.advance(601)
    worker.tick(site)
    assert phase(master, gid) == "S1901M"
    assert (deadline(master, gid) - first).total_seconds() == 30 * 60 + 1
    r = players["ITALY"].put(f"/api/games/{gid}/orders", {"orders": ["A VEN H"], "ready": True})
    assert r.json()["processed"] is True
    assert board(app_client, gid)["missed"] == []  # orders given in the grace period are on time
    # the grace is given once per step: the next step's deadline passes once, then it is processed
    ready_all_but(gid, players, "ITALY")
    clock.advance(601)
    worker.tick(site)
    assert phase(master, gid) == "F1901M"
    clock.advance(30 * 60 + 1)
    worker.tick(site)
    assert phase(master, gid) != "F1901M"
    missed = board(app_client, gid)["missed"]
    assert [(m["phase"], m["power"], m["yellow_card"]) for m in missed] == [("F1901M", "ITALY", True)]


def test_no_rule_means_processed_at_the_deadline(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    gid, master, players = start_game(app_client, deadlines=SHORT)
    ready_all_but(gid, players, "ITALY")
    clock.advance(601)
    worker.tick(site)
    assert phase(master, gid) == "F1901M"
    assert board(app_client, gid)["missed"][0]["yellow_card"] is True


def test_extension_excuse_yellow_card_civil_disorder_and_take_over(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    lateness = {"extensions": 1, "extension_hours": 1, "excuses": 1, "disorder_after": 1, "replace_on_disorder": True}
    gid, master, players = start_game(app_client, deadlines=SHORT, lateness=lateness)
    italy = players["ITALY"]
    ready_all_but(gid, players, "ITALY")
    clock.advance(601)
    worker.tick(site)  # orders missing: the automatic extension (an hour)
    assert phase(master, gid) == "S1901M"
    miss = board(app_client, gid)["missed"]
    assert [(m["power"], m["excused"], m["yellow_card"], m["player"]) for m in miss] == [
        ("ITALY", False, False, italy.name)
    ]
    clock.advance(3601)
    worker.tick(site)  # no extension left: Italy's one excuse extends it again
    assert phase(master, gid) == "S1901M"
    assert board(app_client, gid)["missed"][0]["excused"] is True
    clock.advance(3601)
    worker.tick(site)  # processed without Italy's orders; the excused miss gives no card, no disorder
    assert phase(master, gid) == "F1901M"
    state = board(app_client, gid)
    assert state["disorder"] == [] and state["yellow_cards"] == {} and state["calls"] == []
    ready_all_but(gid, players, "ITALY")
    clock.advance(601)
    worker.tick(site)
    clock.advance(3601)
    worker.tick(site)  # no excuse left: processed, a yellow card, civil disorder, a call published
    assert phase(master, gid) != "F1901M"
    state = board(app_client, gid)
    assert state["yellow_cards"] == {"ITALY": 1} and state["disorder"] == ["ITALY"]
    assert [(c["power"], c["reason"]) for c in state["calls"]] == [("ITALY", "disorder")]
    site_wide = app_client.get("/api/lateness").json()
    assert site_wide["yellow_cards"].get(italy.name) == 1
    link = next(c["link"] for c in site_wide["calls"] if c["game"] == gid)
    token = link.rsplit("/", 1)[1]
    # someone follows the link: the offer is public; taking it needs a login and no other role in the game
    offer = app_client.get(f"/api/takeover/{token}").json()
    assert offer["power"] == "ITALY" and offer["open"] is True
    assert app_client.post(f"/api/takeover/{token}").status_code in (401, 403)  # no login (and no CSRF token)
    assert players["FRANCE"].post(f"/api/takeover/{token}", {}).status_code == 409
    newcomer = Api(app_client, f"new{uuid.uuid4().hex[:6]}")
    r = newcomer.post(f"/api/takeover/{token}", {})
    assert r.status_code == 200, r.text
    roster = master.get(f"/api/games/{gid}").json()["roster"]["players"]
    assert {"power": "ITALY", "user": newcomer.name} in roster
    assert italy.get(f"/api/games/{gid}/orders").status_code == 403  # the late player lost the seat
    assert newcomer.get(f"/api/games/{gid}/orders").status_code == 200
    state = board(app_client, gid)
    assert state["disorder"] == [] and state["calls"] == []
    assert newcomer.post(f"/api/takeover/{token}", {}).status_code == 409  # the call is closed
    assert app_client.get("/api/takeover/nope").status_code == 404


def test_master_publishes_and_withdraws_a_call(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client, deadlines=SHORT)
    assert players["ITALY"].post(f"/api/games/{gid}/replacements", {"power": "ENGLAND"}).status_code == 403
    r = master.post(f"/api/games/{gid}/replacements", {"power": "england"})
    assert r.status_code == 201 and r.json()["reason"] == "master"
    assert master.post(f"/api/games/{gid}/replacements", {"power": "ATLANTIS"}).status_code == 409
    assert [c["power"] for c in board(app_client, gid)["calls"]] == ["ENGLAND"]
    r = app_client.delete(f"/api/games/{gid}/replacements/ENGLAND", headers=master.headers)
    assert r.status_code == 200 and r.json()["calls"] == []


def test_civil_disorder_is_not_waited_for_and_ends_when_the_player_is_back(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, master, players = start_game(app_client, deadlines=SHORT, lateness={"disorder_after": 1})
    ready_all_but(gid, players, "ITALY")
    clock.advance(601)
    worker.tick(site)
    assert board(app_client, gid)["disorder"] == ["ITALY"]
    ready_all_but(gid, players, "ITALY")  # everyone else is ready: the step does not wait for Italy
    assert phase(master, gid) != "F1901M"
    # the player comes back: giving orders ends the disorder
    r = players["ITALY"].put(f"/api/games/{gid}/orders", {"orders": []})
    assert r.status_code == 200
    assert board(app_client, gid)["disorder"] == []


def test_fixed_time_deadlines_in_the_game_time_zone(app_client: TestClient) -> None:
    # the manual clock starts on Tuesday 1 January 2030 at 00:00 UTC; a day's phase ends at 20:00 in Paris
    gid, master, _ = start_game(
        app_client, deadlines={"M": 86400}, lateness={"deadline_time": "20:00", "timezone": "Europe/Paris"}
    )
    assert deadline(master, gid) == datetime.fromisoformat("2030-01-02T19:00:00+00:00")


def test_nothing_is_processed_on_a_rest_day(app_client: TestClient, site: Site, clock: ManualClock) -> None:
    gid, master, players = start_game(app_client, deadlines=SHORT, lateness={"rest_days": ["tue"]})
    # Tuesday: the deadline moves to Wednesday, and a step everyone is ready for waits too
    assert deadline(master, gid) == datetime.fromisoformat("2030-01-02T00:10:00+00:00")
    ready_all_but(gid, players, "ITALY")
    players["ITALY"].put(f"/api/games/{gid}/orders", {"ready": True})
    worker.tick(site)
    assert phase(master, gid) == "S1901M"
    clock.advance(24 * 3600 + 600)
    worker.tick(site)
    assert phase(master, gid) == "F1901M"
