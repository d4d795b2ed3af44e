"""Fixtures for store and server tests: each runs on SQLite and, when ARBITRE_TEST_POSTGRES_URL is set, PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from arbitre.server import security
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.site import Settings, Site
from tests.server.browser import live_server
from tests.server.sse import StreamReader

PG_URL = os.environ.get("ARBITRE_TEST_POSTGRES_URL", "")
BACKENDS = [
    "sqlite",
    pytest.param("postgresql", marks=pytest.mark.skipif(not PG_URL, reason="ARBITRE_TEST_POSTGRES_URL is not set")),
]


def _admin_url() -> Any:
    url = make_url(PG_URL)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


@pytest.fixture
def postgres_db() -> Iterator[str]:
    """A new empty PostgreSQL database (dropped afterwards)."""
    admin = _admin_url()
    name = f"arbitre_t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL, once per backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    db: str = request.getfixturevalue("postgres_db")
    return db


@pytest.fixture
def clock() -> ManualClock:
    """A clock the test moves by hand."""
    return ManualClock()


@pytest.fixture
def site(db_url: str, clock: ManualClock) -> Iterator[Site]:
    """A migrated site on the test database, without the background worker."""
    s = make_site(Settings(database_url=db_url, run_worker=False), clock)
    yield s
    s.db.dispose()


@pytest.fixture
def app_client(site: Site) -> Iterator[TestClient]:
    """A test client of the app (no worker: tests call ``worker.tick``)."""
    with TestClient(create_app(site=site)) as c:
        yield c


class Api:
    """A bot-like client: registers, gets a token, calls the JSON API."""

    def __init__(self, client: TestClient, name: str, password: str = "password123") -> None:
        self.client = client
        self.name = name
        r = client.post("/api/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        r = client.post("/api/tokens", json={"name": name, "password": password})
        self.token = r.json()["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def get(self, path: str) -> Any:
        """GET and return the response."""
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: Any) -> Any:
        """POST JSON and return the response."""
        return self.client.post(path, json=body, headers=self.headers)

    def put(self, path: str, body: Any) -> Any:
        """PUT JSON and return the response."""
        return self.client.put(path, json=body, headers=self.headers)


POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def start_game(client: TestClient, rules: list[str] | None = None, **settings: Any) -> tuple[int, Api, dict[str, Api]]:
    """A running standard game: a master and seven players, each holding the power they asked for."""
    master = Api(client, f"gm{uuid.uuid4().hex[:6]}")
    body = {"name": "Test", "assignment": "choice", "rules": rules or [], **settings}
    r = master.post("/api/games", body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    players = {}
    for p in POWERS:
        api = Api(client, f"{p.lower()[:3]}{uuid.uuid4().hex[:6]}")
        r = api.post(f"/api/games/{gid}/join", {"role": "player", "power": p})
        assert r.status_code == 200, r.text
        players[p] = api
    return gid, master, players


@pytest.fixture
def sink(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any]]:
    """A real SMTP server on loopback (aiosmtpd): its URL and what it received (saved under
    ``test-artifacts/emails/<test>/``)."""
    import re

    from tests.server.smtp_sink import ARTIFACTS, SmtpSink

    folder = ARTIFACTS / re.sub(r"[^A-Za-z0-9_.-]", "_", request.node.name)
    for old in folder.glob("*"):
        old.unlink()
    server = SmtpSink(folder)
    with server as received:
        yield server.url, received


@pytest.fixture
def mail_site(db_url: str, clock: ManualClock, sink: tuple[str, Any]) -> Iterator[Site]:
    """A site that sends its e-mails to the sink (no background loops: tests run the sender)."""
    s = make_site(
        Settings(database_url=db_url, run_worker=False, smtp_url=sink[0], site_url="https://arbitre.example"), clock
    )
    yield s
    s.db.dispose()


@pytest.fixture
def mail_client(mail_site: Site) -> Iterator[TestClient]:
    """A test client of the mail site."""
    with TestClient(create_app(site=mail_site)) as c:
        yield c


@pytest.fixture
def quick_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheap password hashes, for tests that make many accounts and test something else (the event stream):
    ``pytestmark = pytest.mark.usefixtures("quick_hashes")``."""
    monkeypatch.setattr(security, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


@pytest.fixture
def client(site: Site) -> Iterator[httpx.Client]:
    """An HTTP client of the app of ``site`` served on a loopback port."""
    with live_server(site) as url, httpx.Client(base_url=url, timeout=30) as c:
        yield c


@pytest.fixture
def readers() -> Iterator[list[StreamReader]]:
    """Streams opened by a test, closed at its end."""
    opened: list[StreamReader] = []
    yield opened
    for r in opened:
        r.close()
