"""Exactly once with two server processes on one PostgreSQL database, and a sender that died after its claim.

Both processes run the notification sender against one SMTP sink.  Changes
are made through both; every notification must reach the sink exactly once
(one e-mail per Message-ID, as many as the outbox holds), including those a
third sender claimed and never sent (it "crashed"): they go out once its lease
has run out.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import SystemClock
from arbitre.server.site import Settings
from arbitre.store import deliveries
from arbitre.store.models import Delivery, Notification
from tests.server.conftest import PG_URL, POWERS
from tests.server.smtp_sink import ARTIFACTS, Sink, SmtpSink
from tests.server.test_events_processes import Process, tokens

pytestmark = pytest.mark.skipif(not PG_URL, reason="ARBITRE_TEST_POSTGRES_URL is not set")

LEASE = 15.0
"""The servers' lease (seconds): short, so that the dead sender's rows come back within the test."""


@pytest.fixture
def sink() -> Iterator[tuple[str, Sink]]:
    """The SMTP sink both processes send to."""
    folder = ARTIFACTS / "two_processes"
    for old in folder.glob("*"):
        old.unlink()
    server = SmtpSink(folder)
    with server as received:
        yield server.url, received


def test_every_notification_is_sent_once_by_two_processes(
    postgres_db: str, tmp_path: Path, sink: tuple[str, Sink], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, received = sink
    monkeypatch.setenv("ARBITRE_SMTP_URL", url)
    monkeypatch.setenv("ARBITRE_NOTIFY_INTERVAL", "0.2")
    monkeypatch.setenv("ARBITRE_NOTIFY_LEASE", str(LEASE))
    monkeypatch.setenv("ARBITRE_SITE_URL", "https://two.example")
    site = make_site(Settings(database_url=postgres_db, run_worker=False))  # migrates once, first
    keys = tokens(postgres_db, ["gm", *(p.lower() for p in POWERS)])
    # Before the servers start: e-mail settings, a game that fills (8 "started" notifications), and a sender
    # that claims five of them and dies without sending: its lease must run out before anyone sends them.
    with TestClient(create_app(site=site)) as local:
        for n, name in enumerate(keys):
            auth = {"Authorization": f"Bearer {keys[name]}"}
            r = local.put(
                "/api/me/notifications",
                json={"email": f"{name}@two.example", "time_zone": "Europe/Paris"},
                headers=auth,
            )
            assert r.status_code == 200, r.text
            if n % 2:
                assert local.put("/api/me", json={"lang": "fr"}, headers=auth).status_code == 200
        gm = {"Authorization": f"Bearer {keys['gm']}"}
        gid = local.post("/api/games", json={"name": "Twice", "assignment": "choice"}, headers=gm).json()["id"]
        for p in POWERS:
            auth = {"Authorization": f"Bearer {keys[p.lower()]}"}
            r = local.post(f"/api/games/{gid}/join", json={"role": "player", "power": p}, headers=auth)
            assert r.status_code == 200, r.text
    with site.db.writing() as s:
        dead = deliveries.claim(s, "dead", SystemClock().now(), timedelta(seconds=LEASE), 5)
    assert len(dead) == 5
    a = Process(postgres_db, tmp_path / "a.log")
    b = Process(postgres_db, tmp_path / "b.log")
    clients: list[httpx.Client] = []
    try:

        def client(proc: Process, name: str) -> httpx.Client:
            c = httpx.Client(base_url=proc.url, timeout=30, headers={"Authorization": f"Bearer {keys[name]}"})
            clients.append(c)
            return c

        via = {name: (client(a, name), client(b, name)) for name in keys}
        gm_a, gm_b = via["gm"]
        # press through both processes, and two processed phases
        for round_ in range(3):
            for i, p in enumerate(POWERS):
                proc = via[p.lower()][(i + round_) % 2]
                r = proc.post(f"/api/games/{gid}/messages", json={"to": "*", "body": f"round {round_} from {p}"})
                assert r.status_code == 201, r.text
        assert gm_b.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200
        assert gm_a.post(f"/api/games/{gid}/master", json={"action": "adjudicate"}).status_code == 200

        with site.db.reading() as s:
            expected = s.query(Delivery).count()
        # 8 starts, 3 × 7 public messages told to 7 members each, 2 × 8 processed phases
        assert expected == 8 + 3 * 7 * 7 + 2 * 8
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with site.db.reading() as s:
                states = deliveries.counts(s)
            if states.get("sent", 0) == expected:
                break
            time.sleep(0.3)
        assert states == {"sent": expected}
        time.sleep(1.0)  # anything sent twice would arrive now
        ids = Counter(str(m.message["Message-ID"]) for m in received.messages())
        assert len(ids) == expected
        assert max(ids.values()) == 1, [i for i, n in ids.items() if n > 1]
        with site.db.reading() as s:
            notes = s.query(Notification).count()
            dead_again = [s.get(Delivery, d.delivery_id) for d in dead]
        assert notes == expected  # one e-mail channel: one delivery per notification
        assert all(d is not None and d.owner != "dead" and d.attempts == 2 for d in dead_again)
        with site.db.reading() as s:
            owners = Counter(o for (o,) in s.query(Delivery.owner))
        print("deliveries sent by each process:", sorted(owners.values()))  # both usually share the work
    finally:
        for c in clients:
            c.close()
        for proc in (a, b):
            proc.stop()
        site.db.dispose()
