"""The per-game facts cache and the login lookups stay exact: every change is seen at once, in the process that
made it and in another process on the same database (two sites here), and no hidden change shows."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings, Site
from arbitre.store.models import GameRow, User
from tests.server.conftest import Api, start_game


@pytest.fixture
def other(db_url: str, site: Site, clock: ManualClock) -> Iterator[TestClient]:
    """A second server process on the same database (its own caches)."""
    second = make_site(Settings(database_url=db_url, run_worker=False), clock)
    with TestClient(create_app(site=second)) as c:
        yield c
    second.db.dispose()


def _as(client: TestClient, api: Api) -> Api:
    """``api``'s account, calling ``client``'s process."""
    twin = Api.__new__(Api)
    twin.client, twin.name, twin.token, twin.headers = client, api.name, api.token, api.headers
    return twin


def _numbers(site: Site, game_id: int) -> tuple[int, int]:
    with site.db.reading() as s:
        row = s.scalars(select(GameRow).where(GameRow.id == game_id)).one()
        return row.version, row.generation


def test_every_change_is_read_at_once_by_both_processes(app_client: TestClient, other: TestClient, site: Site) -> None:
    gid, master, players = start_game(app_client)
    france, far_france = players["FRANCE"], _as(other, players["FRANCE"])
    far_master = _as(other, master)
    for reader in (france, far_france, master, far_master):  # fill both processes' caches
        assert reader.get(f"/api/games/{gid}").status_code == 200
    version, generation = _numbers(site, gid)

    assert france.put(f"/api/games/{gid}/orders", {"orders": ["A PAR - BUR"], "ready": False}).status_code == 200
    # a hidden change: the version (shown in map links) stays, the generation (never shown) moves
    assert _numbers(site, gid)[0] == version and _numbers(site, gid)[1] > generation
    for reader in (france, far_france):
        assert reader.get(f"/api/games/{gid}").json()["orders"]["lines"] == ["A PAR - BUR"]
    for reader in (master, far_master):
        assert reader.get(f"/api/games/{gid}").json()["all_orders"]["FRANCE"]["lines"] == ["A PAR - BUR"]

    # a message, through the other process
    assert far_master.post(f"/api/games/{gid}/messages", {"to": "*", "body": "hello"}).status_code == 201
    for reader in (france, far_france):
        assert [m["body"] for m in reader.get(f"/api/games/{gid}/messages").json()["messages"]] == ["hello"]

    # a vote and a ballot, each through one process, read by the other
    r = far_france.post(f"/api/games/{gid}/votes", {"kind": "pause"})
    assert r.status_code == 201, r.text
    vote = r.json()["id"]
    assert [v["id"] for v in master.get(f"/api/games/{gid}").json()["votes"]] == [vote]
    assert players["ENGLAND"].post(f"/api/games/{gid}/votes/{vote}/ballot", {"choice": "no"}).status_code == 200
    seen = far_master.get(f"/api/games/{gid}/votes").json()["votes"][0]
    assert seen["status"] == "rejected" or "ENGLAND" in str(seen)


def test_a_new_member_is_in_the_roster_of_the_other_process(app_client: TestClient, other: TestClient) -> None:
    master = Api(app_client, "gm1")
    gid = master.post("/api/games", {"name": "Roster"}).json()["id"]
    far_master = _as(other, master)
    assert far_master.get(f"/api/games/{gid}").json()["roster"]["players"] == []
    joiner = Api(app_client, "joiner")
    assert joiner.post(f"/api/games/{gid}/join", {"role": "observer"}).status_code == 200
    assert far_master.get(f"/api/games/{gid}").json()["roster"]["observers"] == ["joiner"]


def _browser(client: TestClient, name: str) -> tuple[TestClient, str]:
    b = TestClient(client.app)
    m = re.search(r'name="csrf" value="([^"]+)"', b.get("/login").text)
    assert m
    r = b.post("/login", data={"name": name, "password": "password123", "csrf": m.group(1)}, follow_redirects=False)
    assert r.status_code == 303
    token = re.search(r'name="csrf" value="([^"]+)"', b.get("/account").text)
    assert token
    return b, token.group(1)


def _elsewhere(b: TestClient, other: TestClient) -> TestClient:
    """The same browser (its cookies) talking to the other process."""
    twin = TestClient(other.app)
    for name, value in b.cookies.items():
        twin.cookies.set(name, value)
    return twin


def test_logout_ends_the_session_in_both_processes(app_client: TestClient, other: TestClient) -> None:
    Api(app_client, "lou")
    b, csrf = _browser(app_client, "lou")
    twin = _elsewhere(b, other)
    assert b.get("/api/me").status_code == 200 and twin.get("/api/me").status_code == 200
    assert b.post("/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    assert twin.get("/api/me").status_code == 401
    replay = TestClient(app_client.app)
    replay.cookies.set("arbitre_session", twin.cookies.get("arbitre_session") or "")
    assert replay.get("/api/me").status_code == 401


def test_log_out_everywhere_ends_every_session_in_both_processes(app_client: TestClient, other: TestClient) -> None:
    Api(app_client, "eve")
    one, csrf = _browser(app_client, "eve")
    two, _ = _browser(app_client, "eve")
    far_two = _elsewhere(two, other)
    assert far_two.get("/api/me").status_code == 200
    assert one.post("/account/sessions/end-all", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    assert two.get("/api/me").status_code == 401 and far_two.get("/api/me").status_code == 401


def test_a_password_change_ends_the_other_sessions_in_both_processes(app_client: TestClient, other: TestClient) -> None:
    Api(app_client, "pat")
    one, csrf = _browser(app_client, "pat")
    two, _ = _browser(app_client, "pat")
    far_two = _elsewhere(two, other)
    assert far_two.get("/api/me").status_code == 200
    r = one.post(
        "/api/me/password",
        json={"current_password": "password123", "new_password": "n3w-secret"},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 200, r.text
    assert one.get("/api/me").status_code == 200
    assert two.get("/api/me").status_code == 401 and far_two.get("/api/me").status_code == 401


def test_a_revoked_token_stops_at_once_in_both_processes(app_client: TestClient, other: TestClient) -> None:
    bot = Api(app_client, "bot")
    far_bot = _as(other, bot)
    assert bot.get("/api/me").status_code == 200 and far_bot.get("/api/me").status_code == 200
    token_id = bot.get("/api/me/tokens").json()[0]["id"]
    assert app_client.delete(f"/api/me/tokens/{token_id}", headers=bot.headers).status_code == 200
    assert bot.get("/api/me").status_code == 401 and far_bot.get("/api/me").status_code == 401


def test_a_setting_changed_in_one_process_is_read_at_once_by_the_other(
    app_client: TestClient, other: TestClient, site: Site
) -> None:
    nora = Api(app_client, "nora")
    far_nora = _as(other, nora)
    for reader in (nora, far_nora, nora, far_nora):  # both processes now answer from their login caches
        assert reader.get("/api/me/notifications").status_code == 200
    hits = site.db.logins.hits
    assert nora.get("/api/me/notifications").status_code == 200
    assert site.db.logins.hits == hits + 1  # the user came from the cache

    r = far_nora.put("/api/me/notifications", {"time_zone": "Europe/Paris", "off": ["email:message"]})
    assert r.status_code == 200, r.text
    for reader in (nora, far_nora):
        seen = reader.get("/api/me/notifications").json()
        assert seen["time_zone"] == "Europe/Paris", seen
        assert "email:message" in str(seen), seen
    r = nora.put("/api/me/notifications", {"time_zone": "Asia/Tokyo"})
    assert r.status_code == 200, r.text
    assert far_nora.get("/api/me/notifications").json()["time_zone"] == "Asia/Tokyo"


def test_an_answer_from_the_login_cache_is_the_answer_from_the_database(app_client: TestClient, site: Site) -> None:
    ada = Api(app_client, "ada")
    assert ada.put("/api/me/notifications", {"off": ["email:message"], "time_zone": "Europe/Paris"}).status_code == 200
    site.db.logins.clear()
    fresh = [ada.get(path).content for path in ("/api/me", "/api/me/notifications")]
    loads = site.db.logins.loads
    cached = [ada.get(path).content for path in ("/api/me", "/api/me/notifications")]
    assert site.db.logins.loads == loads  # nothing loaded again
    assert cached == fresh


def test_a_change_to_a_user_moves_its_revision_once_per_transaction(site: Site) -> None:
    with site.db.writing() as s:
        user = User(name="rev", password_hash="x", created_at=site.now())
        s.add(user)
        s.flush()
        uid = user.id
    with site.db.reading() as s:
        before = s.scalars(select(User.revision).where(User.id == uid)).one()
    with site.db.writing() as s:
        row = s.get(User, uid)
        assert row is not None
        row.time_zone = "Europe/Paris"
        s.flush()
        row.remind_minutes = 30  # a second flush in the same transaction
    with site.db.reading() as s:
        assert s.scalars(select(User.revision).where(User.id == uid)).one() == before + 1
    with site.db.writing() as s:
        row = s.get(User, uid)
        assert row is not None
        row.time_zone = row.time_zone  # the same value: not a change
    with site.db.reading() as s:
        assert s.scalars(select(User.revision).where(User.id == uid)).one() == before + 1
