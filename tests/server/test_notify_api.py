"""The site's notification list and the notification settings, through the API (SQLite and PostgreSQL)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Site
from arbitre.store.outbox import VOTE_DECIDED, VOTE_OPENED, Event, enqueue
from tests.server.conftest import start_game


def test_the_list_counts_unread_and_marks_read(app_client: TestClient) -> None:
    gid, master, players = start_game(app_client)
    france = players["FRANCE"]
    listed = france.get("/api/notifications").json()
    assert listed["unread"] == 1
    (started,) = listed["items"]
    assert started["kind"] == "started" and started["game"] == gid and not started["read"]
    assert started["subject"] == "Test has started" and "Your power: France." in started["text"]
    assert started["link"] == f"/games/{gid}"
    assert players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "psst"}).status_code == 201
    assert players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "GERMANY", "body": "hush"}).status_code == 201
    listed = france.get("/api/notifications").json()
    assert listed["unread"] == 2 and [i["kind"] for i in listed["items"]] == ["message", "started"]
    assert "> psst" in listed["items"][0]["text"] and "hush" not in str(listed)
    page = france.get("/notifications")
    assert page.status_code == 200 and 'id="unread">2<' in page.text and "psst" in page.text
    r = france.post("/api/notifications/read", {"ids": [listed["items"][0]["id"]]})
    assert r.json() == {"marked": 1, "unread": 1}
    assert france.post("/api/notifications/read", {}).json() == {"marked": 1, "unread": 0}
    # someone else's notification cannot be marked
    other = players["GERMANY"].get("/api/notifications").json()["items"][0]["id"]
    assert france.post("/api/notifications/read", {"ids": [other]}).json()["marked"] == 0
    assert players["GERMANY"].get("/api/notifications").json()["unread"] == 2
    # paging: older than an id
    older = france.get(f"/api/notifications?before={listed['items'][0]['id']}").json()["items"]
    assert [i["kind"] for i in older] == ["started"]
    assert master.get("/api/notifications?limit=0").json()["error"]["where"] == "query.limit"
    assert app_client.get("/api/notifications").status_code == 401


def test_settings_are_checked_and_kinds_turned_off_per_channel(app_client: TestClient) -> None:
    gid, _master, players = start_game(app_client)
    france = players["FRANCE"]
    got = france.get("/api/me/notifications").json()
    assert got["email"] == "" and got["time_zone"] == "UTC" and got["remind_minutes"] is None and got["off"] == []
    bad = {
        "email": ("not an address", "body.email"),
        "time_zone": ("Mars/Olympus", "body.time_zone"),
        "remind_minutes": (0, "body.remind_minutes"),
        "off": (["pigeon:message"], "body.off[0]"),
    }
    for field, (value, where) in bad.items():
        r = france.put("/api/me/notifications", {field: value})
        assert r.status_code == 422 and r.json()["error"]["where"] == where, (field, r.text)
    assert france.put("/api/me/notifications", {"colour": "red"}).status_code == 422
    r = france.put("/api/me/notifications", {"off": ["site:message"], "time_zone": "Europe/Paris"})
    assert r.status_code == 200 and r.json()["off"] == ["site:message"] and r.json()["time_zone"] == "Europe/Paris"
    assert france.get("/api/me/notifications").json()["email"] == ""  # left out: unchanged
    assert players["ENGLAND"].post(f"/api/games/{gid}/messages", {"to": "FRANCE", "body": "psst"}).status_code == 201
    assert [i["kind"] for i in france.get("/api/notifications").json()["items"]] == ["started"]


def test_deadline_reminders_come_at_the_chosen_time_once(
    app_client: TestClient, site: Site, clock: ManualClock
) -> None:
    gid, _master, players = start_game(app_client, deadlines={"M": 86400})
    for p in ("FRANCE", "GERMANY", "ITALY"):
        assert (
            players[p].put("/api/me/notifications", {"remind_minutes": 60, "time_zone": "Asia/Tokyo"}).status_code
            == 200
        )
    assert players["ITALY"].put(f"/api/games/{gid}/orders", {"orders": [], "ready": True}).status_code == 200
    clock.advance(86400 - 61 * 60)
    assert sender.remind(site) == 0  # 61 minutes before: not yet
    clock.advance(120)
    assert sender.remind(site) == 2  # France and Germany; Italy is ready; the others asked for nothing
    assert sender.remind(site) == 0  # once
    (note,) = [i for i in players["FRANCE"].get("/api/notifications").json()["items"] if i["kind"] == "deadline"]
    assert note["subject"] == "Test: the deadline of Spring 1901, movement is near"
    assert "Wednesday 2 January 2030, 09:00 (Asia/Tokyo)" in note["text"]
    assert "You have not given orders yet." in note["text"]
    assert not [i for i in players["ITALY"].get("/api/notifications").json()["items"] if i["kind"] == "deadline"]


def test_other_code_enqueues_in_its_transaction_once_per_key(app_client: TestClient, site: Site) -> None:
    gid, _master, players = start_game(app_client)
    vote = Event(VOTE_OPENED, gid, "vote-1", {"vote": "draw", "powers": ["FRANCE", "ENGLAND"]})
    with site.db.writing() as s:
        assert enqueue(s, vote, site.now()) == 8
        assert enqueue(s, vote, site.now()) == 0
    try:
        with site.db.writing() as s:
            enqueue(s, Event(VOTE_DECIDED, gid, "vote-1", {"vote": "draw", "passed": True}), site.now())
            raise RuntimeError("the vote's own change failed")
    except RuntimeError:
        pass
    items = players["GERMANY"].get("/api/notifications").json()["items"]
    assert [i["kind"] for i in items] == ["vote_opened", "started"]  # the rolled-back one is gone with its change
    assert items[0]["subject"] == "Test: vote — draw"
    assert "Powers named: England, France." in items[0]["text"]
