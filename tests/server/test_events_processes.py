"""Two server processes on one PostgreSQL database: a change made through one reaches a stream read on the other.

The processes share nothing but the database: each ``LISTEN``s for the
``NOTIFY`` that every changing transaction sends, and builds its readers' events
from the database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from argon2 import PasswordHasher

from arbitre.server.app import make_site
from arbitre.server.clock import SystemClock
from arbitre.server.site import Settings
from arbitre.store.accounts import create_token, create_user
from tests.server.conftest import PG_URL, POWERS
from tests.server.sse import StreamReader

pytestmark = pytest.mark.skipif(not PG_URL, reason="ARBITRE_TEST_POSTGRES_URL is not set")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Process:
    """``uvicorn arbitre.server.asgi:app`` in a child process on a loopback port."""

    def __init__(self, db_url: str, log: Path) -> None:
        self.port = _free_port()
        env = {
            **os.environ,
            "ARBITRE_DATABASE_URL": db_url,
            "ARBITRE_WORKER_INTERVAL": "0.3",
            "ARBITRE_STREAM_KEEPALIVE": "600",
        }  # no re-reading by the clock: only NOTIFY wakes a stream
        self.log = log.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "arbitre.server.asgi:app",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
                "--timeout-graceful-shutdown",
                "1",
            ],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start: " + log.read_text())

    def stop(self) -> None:
        """A normal stop (SIGTERM), or SIGKILL if it hangs."""
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(20)
        self.log.close()


@pytest.fixture
def two(postgres_db: str, tmp_path: Path) -> Iterator[tuple[Process, Process]]:
    """Two server processes on one fresh PostgreSQL database."""
    make_site(Settings(database_url=postgres_db, run_worker=False)).db.dispose()  # migrate once, first
    a = Process(postgres_db, tmp_path / "a.log")
    try:
        b = Process(postgres_db, tmp_path / "b.log")
    except BaseException:
        a.stop()
        raise
    yield a, b
    for p in (a, b):
        p.stop()


def tokens(db_url: str, names: list[str]) -> dict[str, str]:
    """Accounts made straight in the database (cheap hashes: the servers only check tokens), with a token each."""
    site = make_site(Settings(database_url=db_url, run_worker=False))
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash("password123")
    out = {}
    now = SystemClock().now()
    with site.db.writing() as s:
        for name in names:
            user = create_user(s, name, cheap, "en", now)
            out[name] = create_token(s, user.id, "test", now)
    site.db.dispose()
    return out


def test_a_change_through_one_process_reaches_a_reader_on_the_other(
    two: tuple[Process, Process], postgres_db: str
) -> None:
    a, b = two
    keys = tokens(postgres_db, ["gm", *(p.lower() for p in POWERS)])

    def client(url: str, name: str) -> httpx.Client:
        return httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {keys[name]}"})

    via_a = {name: client(a.url, name) for name in keys}
    via_b = {name: client(b.url, name) for name in keys}
    gid = (
        via_a["gm"]
        .post("/api/games", json={"name": "Two", "assignment": "choice", "deadlines": {"M": 3600}})
        .json()["id"]
    )
    for p in POWERS:
        assert via_a[p.lower()].post(f"/api/games/{gid}/join", json={"role": "player", "power": p}).status_code == 200

    france_on_b = StreamReader(f"{b.url}/api/games/{gid}/events", dict(via_b["france"].headers))
    master_on_a = StreamReader(f"{a.url}/api/games/{gid}/events", dict(via_a["gm"].headers))
    try:
        france_on_b.wait_for("hello")
        master_on_a.wait_for("hello")
        # through A, read on B
        assert (
            via_a["england"]
            .post(f"/api/games/{gid}/messages", json={"to": "FRANCE", "body": "from process A"})
            .status_code
            == 201
        )
        assert france_on_b.wait_for("message").data["body"] == "from process A"
        master_on_a.wait_for("message")
        assert (
            via_a["france"].put(f"/api/games/{gid}/orders", json={"orders": ["A PAR - BUR"], "ready": True}).status_code
            == 200
        )
        france_on_b.wait_for("ready", power="FRANCE", ready=True)
        master_on_a.wait_for("ready", power="FRANCE", ready=True)
        assert via_a["gm"].post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200
        assert france_on_b.wait_for("phase").data["phase"] == "F1901M"
        # through B, read on A
        assert via_b["germany"].put(f"/api/games/{gid}/orders", json={"ready": True}).status_code == 200
        master_on_a.wait_for("ready", power="GERMANY", ready=True)
        france_on_b.wait_for("ready", power="GERMANY", ready=True)  # the game shows progress: everyone hears it
        assert via_b["gm"].post(f"/api/games/{gid}/master", json={"action": "pause"}).status_code == 200
        master_on_a.wait_for("paused")
        france_on_b.wait_for("paused")
        assert via_b["gm"].post(f"/api/games/{gid}/master", json={"action": "resume"}).status_code == 200
        master_on_a.wait_for("resumed")
        france_on_b.wait_for("resumed")
        with httpx.Client(base_url=a.url) as anon:
            assert anon.get(f"/api/games/{gid}/events").status_code == 401
        assert via_a["gm"].post(f"/api/games/{gid}/master", json={"action": "extend", "minutes": 1}).status_code == 200
        master_on_a.wait_for("deadline")
        assert france_on_b.wait_for("deadline").data["deadline"] == master_on_a.wait_for("deadline").data["deadline"]
    finally:
        france_on_b.close()
        master_on_a.close()
        for c in [*via_a.values(), *via_b.values()]:
            c.close()
    # France's orders made its orders state "partly" (a "given" event, heard with its ready switch)
    heard = ["hello", "message", "ready", "given", "phase", "ready", "paused", "resumed", "deadline"]
    assert france_on_b.kinds() == heard
    assert master_on_a.kinds() == heard
