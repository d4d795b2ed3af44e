"""Kill the server (SIGKILL) in the middle of an adjudication and restart it: no order and no phase is lost."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select, update

from arbitre.server.app import make_site
from arbitre.server.site import Settings
from arbitre.store.games import get_game
from arbitre.store.models import Adjudication, GameRow
from arbitre.store.orders import orders_of_step
from tests.server.conftest import POWERS


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``uvicorn arbitre.server.asgi:app`` in a child process."""

    def __init__(self, db_url: str, log: Path, pause: float) -> None:
        self.port = _free_port()
        env = {
            **os.environ,
            "ARBITRE_DATABASE_URL": db_url,
            "ARBITRE_TEST_ADJUDICATION_PAUSE": str(pause),
            "ARBITRE_WORKER_INTERVAL": "0.2",
        }
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

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self.log.close()

    def stop(self) -> None:
        """A normal stop."""
        self.proc.terminate()
        try:
            self.proc.wait(30)
        finally:
            self.log.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        if s.proc.poll() is None:
            s.kill()


def _client(url: str, name: str, password: str = "password123") -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=60)
    c.post("/api/register", json={"name": name, "password": password})
    token = c.post("/api/tokens", json={"name": name, "password": password}).json()["token"]
    c.headers["Authorization"] = f"Bearer {token}"
    return c


def test_kill_during_adjudication_loses_nothing(db_url: str, tmp_path: Path, servers: list[Server]) -> None:
    log = tmp_path / "server.log"
    server = Server(db_url, log, pause=30)
    servers.append(server)
    master = _client(server.url, "gamemaster")
    gid = master.post("/api/games", json={"name": "crash", "assignment": "choice", "deadlines": {"M": 3600}}).json()[
        "id"
    ]
    players = {}
    for p in POWERS:
        players[p] = _client(server.url, p.lower())
        assert players[p].post(f"/api/games/{gid}/join", json={"role": "player", "power": p}).status_code == 200
    assert players["FRANCE"].put(f"/api/games/{gid}/orders", json={"orders": ["A PAR - BUR", "F BRE - MAO"]}).is_success
    assert players["GERMANY"].put(f"/api/games/{gid}/orders", json={"orders": ["A MUN - RUH"]}).is_success
    for p in POWERS[:-1]:
        assert players[p].put(f"/api/games/{gid}/orders", json={"ready": True}).json()["processed"] is False

    # 1. the last "ready" starts the adjudication; the server dies in the middle of it
    def last_ready() -> None:
        with contextlib.suppress(httpx.HTTPError):
            players["TURKEY"].put(f"/api/games/{gid}/orders", json={"ready": True})

    t = threading.Thread(target=last_ready)
    t.start()
    time.sleep(2.0)
    server.kill()
    t.join(60)

    site = make_site(Settings(database_url=db_url, run_worker=False))
    with site.db.reading() as s:
        row = get_game(s, gid)
        assert row is not None and row.phase == "S1901M" and row.status == "active"
        orders = orders_of_step(s, gid, "S1901M", "orders")
        assert orders["FRANCE"].lines == ["A PAR - BUR", "F BRE - MAO"]
        assert orders["GERMANY"].lines == ["A MUN - RUH"]
        assert {p for p, r in orders.items() if r.ready} == set(POWERS[:-1])
        assert s.scalar(select(func.count()).select_from(Adjudication)) == 0

    # 2. restart; the deadline passes while the worker adjudicates; kill it again in the middle
    with site.db.writing() as s:
        s.execute(update(GameRow).where(GameRow.id == gid).values(deadline_at=datetime.now(UTC) - timedelta(seconds=1)))
    server = Server(db_url, log, pause=30)
    servers.append(server)
    time.sleep(2.0)  # the worker (every 0.2 s) is now inside the adjudication
    server.kill()
    site.referee.cache.forget(gid)
    with site.db.reading() as s:
        row = get_game(s, gid)
        assert row is not None and row.phase == "S1901M"
        assert orders_of_step(s, gid, "S1901M", "orders")["FRANCE"].lines == ["A PAR - BUR", "F BRE - MAO"]

    # 3. restart normally: the overdue deadline is processed once, with every order
    server = Server(db_url, log, pause=0)
    servers.append(server)
    for _ in range(100):
        state = master.get(f"{server.url}/api/games/{gid}").json()
        if state["game"]["phase"] != "S1901M":
            break
        time.sleep(0.2)
    assert state["game"]["phase"] == "F1901M"
    units = {(u["power"], u["place"]) for u in state["view"]["units"]}
    assert {("FRANCE", "BUR"), ("FRANCE", "MAO"), ("GERMANY", "RUH")} <= units
    server.stop()
    with site.db.reading() as s:
        assert s.scalar(select(func.count()).select_from(Adjudication)) == 1
    site.db.dispose()
