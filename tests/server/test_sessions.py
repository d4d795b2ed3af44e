"""Sessions live on the server (logout ends them), logins are throttled, password hashing is bounded."""

from __future__ import annotations

import os
import re
import sys
import threading

from fastapi.testclient import TestClient

from arbitre.server.site import Site
from arbitre.server.throttle import ACCOUNT_LIMIT, HASH_NICENESS, HashGate
from tests.server.conftest import Api


def _csrf(c: TestClient, page: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get(page).text)
    assert m
    return m.group(1)


def _login(c: TestClient, name: str, password: str = "password123") -> int:
    r = c.post("/login", data={"name": name, "password": password, "csrf": _csrf(c, "/login")}, follow_redirects=False)
    return r.status_code


def test_logout_ends_the_session_on_the_server(app_client: TestClient, site: Site) -> None:
    Api(app_client, "alice")
    c = TestClient(app_client.app)
    assert _login(c, "alice") == 303
    stolen = c.cookies.get("arbitre_session")
    assert stolen and c.get("/api/me").status_code == 200
    r = c.post("/logout", data={"csrf": _csrf(c, "/")}, follow_redirects=False)
    assert r.status_code == 303
    replay = TestClient(app_client.app)
    replay.cookies.set("arbitre_session", stolen)
    assert replay.get("/api/me").status_code == 401  # the copied cookie opens nothing any more
    assert replay.get("/account", follow_redirects=False).status_code == 303  # sent to the login page


def test_log_out_everywhere_and_revoke_one(app_client: TestClient, site: Site) -> None:
    Api(app_client, "bob")
    phone, laptop, tablet = (TestClient(app_client.app) for _ in range(3))
    for c in (phone, laptop, tablet):
        assert _login(c, "bob") == 303
    page = laptop.get("/account").text
    ids = [int(x) for x in re.findall(r"/account/sessions/(\d+)/end", page)]
    assert len(ids) == 3 and "this session" in page
    # the laptop ends the phone's session (the newest first: tablet, laptop, phone)
    r = laptop.post(f"/account/sessions/{min(ids)}/end", data={"csrf": _csrf(laptop, "/")}, follow_redirects=False)
    assert r.status_code == 303
    assert phone.get("/api/me").status_code == 401 and tablet.get("/api/me").status_code == 200
    # another user cannot end bob's sessions
    Api(app_client, "mallory")
    evil = TestClient(app_client.app)
    assert _login(evil, "mallory") == 303
    r = evil.post(f"/account/sessions/{max(ids)}/end", data={"csrf": _csrf(evil, "/")}, follow_redirects=False)
    # post/redirect/get: back to mallory's own account page, which says there is no such session
    assert r.status_code == 303 and r.headers["location"] == "/account"
    assert "this session does not exist" in evil.get("/account").text
    assert tablet.get("/api/me").status_code == 200 and evil.get("/api/me").status_code == 200
    r = laptop.post("/account/sessions/end-all", data={"csrf": _csrf(laptop, "/")}, follow_redirects=False)
    assert r.status_code == 303
    assert laptop.get("/api/me").status_code == 401 and tablet.get("/api/me").status_code == 401


def test_login_is_throttled_per_account_and_per_address(app_client: TestClient, site: Site) -> None:
    Api(app_client, "carol")
    Api(app_client, "dave")
    c = TestClient(app_client.app)
    for _ in range(ACCOUNT_LIMIT.limit):
        r = c.post(
            "/login",
            data={"name": "carol", "password": "wrong-password", "csrf": _csrf(c, "/login")},
            follow_redirects=False,
        )
        # post/redirect/get: back to the login page, which says so; no session was opened
        assert r.status_code == 303 and r.headers["location"] == "/login"
        assert "Wrong user name or password." in c.get("/login").text
        assert c.get("/api/me").status_code == 401
    r = c.post(
        "/login", data={"name": "carol", "password": "password123", "csrf": _csrf(c, "/login")}, follow_redirects=False
    )
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0  # even the right password waits
    assert c.get("/api/me").status_code == 401
    r = app_client.post("/api/tokens", json={"name": "CAROL", "password": "password123"})
    assert r.status_code == 429 and r.json()["error"]["where"] == "name"
    assert _login(c, "dave") == 303  # another account is not locked
    for i in range(30):
        app_client.post("/api/tokens", json={"name": f"nobody{i % 3}", "password": "whatever1"})
    r = app_client.post("/api/tokens", json={"name": "dave", "password": "password123"})
    assert r.status_code == 429 and r.json()["error"]["where"] == "address"


def test_hashes_run_on_a_low_priority_thread() -> None:
    """The gate's hashing thread is the least urgent on the machine (Linux), not the request's thread."""
    gate = HashGate(slots=1)
    caller = threading.get_native_id()
    worker, niceness = gate.run(lambda: (threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0)))
    assert worker != caller
    if sys.platform == "linux":
        assert os.getpriority(os.PRIO_PROCESS, worker) == HASH_NICENESS
        assert os.getpriority(os.PRIO_PROCESS, caller) < HASH_NICENESS  # the request's thread is untouched
    assert niceness >= 0
