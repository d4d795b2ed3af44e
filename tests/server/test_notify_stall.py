"""Notifications that one user cannot stall, against real sockets on loopback (both databases).

- a webhook that answers one byte every few seconds is cut at its wall-clock deadline (a per-read
  timeout never fires on it);
- a webhook that answers 300 MB costs the sender a few KB: it stops reading at the status line;
- while one user's webhook stalls, another user's webhook and the e-mails (the real SMTP sink) are
  delivered by the sender's loop: e-mail has its own lane, webhooks a pool of workers, and a
  recipient has one delivery in flight at most.

No timing is asserted beyond "finished before the test's own generous timeout".
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender
from arbitre.server.site import Settings, Site
from arbitre.store import deliveries
from arbitre.store.models import Delivery
from tests.server.conftest import POWERS, Api
from tests.server.test_notify_webhook import Hook

GENEROUS = 60.0
"""The test's own timeout (seconds) for what must finish."""


class RawServer:
    """A TCP server on loopback whose every connection is handled by ``answer(connection, server)`` in a thread.

    It counts the connections it accepted and the bytes it wrote; :meth:`close` ends every handler.
    """

    def __init__(self, answer: Callable[[socket.socket, RawServer], None], http: bool = True) -> None:
        self.answer = answer
        self.http = http
        """Read an HTTP request before answering (else the answer speaks first: SMTP)."""
        self.stop = threading.Event()
        self.accepted = 0
        self.written = 0
        self.holding = 0
        """Connections being answered right now."""
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                self.accepted += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with self.lock:
            self.holding += 1
        try:
            with conn:
                if self.http:
                    _read_request(conn)
                self.answer(conn, self)
        except OSError:
            pass  # the client went away
        finally:
            with self.lock:
                self.holding -= 1

    def write(self, conn: socket.socket, data: bytes) -> None:
        """Send ``data`` and count it."""
        conn.sendall(data)
        with self.lock:
            self.written += len(data)

    def close(self) -> None:
        """Stop accepting and end every handler."""
        self.stop.set()
        self.listener.close()


def _read_request(conn: socket.socket) -> bytes:
    """Read one HTTP request (headers and a Content-Length body)."""
    conn.settimeout(GENEROUS)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
        0,
    )
    while len(body) < length:
        chunk = conn.recv(4096)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def trickle(conn: socket.socket, server: RawServer) -> None:
    """Answer one byte every two seconds, for as long as the client listens and the server runs."""
    for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" * 1000:
        if server.stop.wait(2.0):
            return
        server.write(conn, bytes([byte]))


def huge(conn: socket.socket, server: RawServer) -> None:
    """A 200 answer of 300 MB, written as fast as the client reads it."""
    size = 300 * 1024 * 1024
    server.write(conn, f"HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n\r\n".encode())
    chunk = b"x" * (1024 * 1024)
    for _ in range(300):
        if server.stop.is_set():
            return
        server.write(conn, chunk)


def smtp_trickle(conn: socket.socket, server: RawServer) -> None:
    """An SMTP server that accepts everything, then answers the end of the message one byte every two seconds."""
    conn.settimeout(GENEROUS)
    reader = conn.makefile("rb")
    server.write(conn, b"220 slow.example ESMTP\r\n")
    in_data = False
    for line in reader:
        if in_data:
            if line in (b".\r\n", b".\n"):
                for byte in b"250 " + b"q" * 200 + b"\r\n":  # 400 s for the whole line
                    if server.stop.wait(2.0):
                        return
                    server.write(conn, bytes([byte]))
            continue
        verb = line[:4].upper()
        if verb == b"EHLO":
            server.write(conn, b"250-slow.example\r\n250 8BITMIME\r\n")
        elif verb == b"DATA":
            in_data = True
            server.write(conn, b"354 go on\r\n")
        elif verb == b"QUIT":
            server.write(conn, b"221 bye\r\n")
            return
        else:
            server.write(conn, b"250 ok\r\n")


@pytest.fixture
def servers() -> Iterator[list[RawServer]]:
    """The raw servers a test starts (closed at its end)."""
    made: list[RawServer] = []
    yield made
    for s in made:
        s.close()


def _site(db_url: str, clock: ManualClock, **settings: Any) -> Site:
    made = Settings(
        database_url=db_url, run_worker=False, site_url="https://arbitre.example", webhook_http_loopback=True
    )
    for name, value in settings.items():
        setattr(made, name, value)
    return make_site(made, clock)


def _players(client: TestClient) -> tuple[int, dict[str, Api]]:
    """A game of seven players made one by one (their user ids follow POWERS), not started yet."""
    tag = uuid.uuid4().hex[:5]
    master = Api(client, f"stgm{tag}")
    gid = master.post("/api/games", {"name": "Stall", "assignment": "choice", "deadlines": {"M": 86400}}).json()["id"]
    return gid, {p: Api(client, f"st{p.lower()[:3]}{tag}") for p in POWERS}


def _start(gid: int, players: dict[str, Api]) -> None:
    for p, api in players.items():
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200


def _in_thread(target: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(target()), daemon=True)
    thread.start()
    return thread, out


def test_a_webhook_answering_one_byte_at_a_time_is_cut_at_its_deadline(
    db_url: str, clock: ManualClock, servers: list[RawServer], quick_hashes: None
) -> None:
    slow = RawServer(trickle)
    servers.append(slow)
    site = _site(db_url, clock, webhook_deadline=1.0)
    try:
        with TestClient(create_app(site=site)) as client:
            gid, players = _players(client)
            assert players["FRANCE"].put("/api/me/webhook", {"url": slow.url}).status_code == 200
            _start(gid, players)
            thread, out = _in_thread(lambda: sender.tick(site))
            thread.join(GENEROUS)
            assert not thread.is_alive(), "the sender is still held by the slow webhook"
            assert out == [0]
            with site.db.reading() as s:
                (row,) = s.query(Delivery).all()
            assert row.state == deliveries.PENDING and "cut" in row.error, row.error
            assert row.lease_until == clock.now() + sender.RETRY  # tried again later, like any failure
    finally:
        site.db.dispose()


def test_a_huge_webhook_answer_is_not_read(
    db_url: str, clock: ManualClock, servers: list[RawServer], quick_hashes: None
) -> None:
    big = RawServer(huge)
    servers.append(big)
    site = _site(db_url, clock, webhook_deadline=GENEROUS)
    try:
        with TestClient(create_app(site=site)) as client:
            gid, players = _players(client)
            assert players["ENGLAND"].put("/api/me/webhook", {"url": big.url}).status_code == 200
            _start(gid, players)
            thread, out = _in_thread(lambda: sender.tick(site))
            thread.join(GENEROUS)
            assert not thread.is_alive()
            assert out == [1]  # a 200: sent
            end = time.monotonic() + GENEROUS
            while big.holding and time.monotonic() < end:  # the server notices the closed connection
                time.sleep(0.05)
            # The sender read a status line and closed: the server could write no more than the sockets'
            # buffers hold (a few MB), not the 300 MB a reader of the whole answer takes in.
            assert big.holding == 0
            assert big.written < 64 * 1024 * 1024, big.written
    finally:
        site.db.dispose()


class Loop:
    """The server's sender loop (:func:`sender.run`) in a thread of its own, stopped at the end."""

    def __init__(self, site: Site) -> None:
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self._run, args=(site,), daemon=True)
        self.thread.start()

    def _run(self, site: Site) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(sender.run(site, self.stop))

    def close(self) -> None:
        """Stop the loop and wait for it."""
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(GENEROUS)
        assert not self.thread.is_alive()
        self.loop.close()


def _wait(condition: Callable[[], bool]) -> bool:
    end = time.monotonic() + GENEROUS
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_email_and_other_webhooks_are_delivered_while_one_webhook_stalls(
    db_url: str, clock: ManualClock, sink: tuple[str, Any], servers: list[RawServer], quick_hashes: None
) -> None:
    url, received = sink
    slow = RawServer(trickle)
    servers.append(slow)
    fast = Hook()
    # The stalling webhook's deadline is longer than the test: only separate lanes let the rest through.
    site = _site(db_url, clock, smtp_url=url, notify_interval=0.05, webhook_deadline=10 * GENEROUS, notify_workers=2)
    loop: Loop | None = None
    try:
        with TestClient(create_app(site=site)) as client:
            gid, players = _players(client)
            austria, england, france = (players[p] for p in POWERS[:3])  # user ids in this order
            assert austria.put("/api/me/webhook", {"url": slow.url}).status_code == 200
            assert england.put("/api/me/webhook", {"url": fast.url}).status_code == 200
            assert france.put("/api/me/notifications", {"email": "france@stall.example"}).status_code == 200
            _start(gid, players)
            # a second notification for the stalled user: it waits behind the first (one in flight per user)
            assert england.post(f"/api/games/{gid}/messages", {"to": POWERS[0], "body": "hello"}).status_code == 201
            with site.db.reading() as s:
                order = [(d.channel, d.notification_id) for d in s.query(Delivery).order_by(Delivery.id)]
            assert order[0][0] == "webhook"  # the stalling webhook is the first delivery of the outbox
            loop = Loop(site)
            assert _wait(lambda: len(received.messages("france@stall.example")) == 1), "no e-mail while it stalls"
            assert _wait(lambda: len(fast.received) == 1), "no webhook for England while Austria's stalls"

            def counts() -> dict[str, int]:
                with site.db.reading() as s:
                    return deliveries.counts(s)

            assert _wait(lambda: counts() == {"sent": 2, "pending": 2}), counts()  # both marked sent
            assert slow.holding == 1 and slow.accepted == 1  # still stalling; its second one not started
    finally:
        slow.close()  # the stalled exchange ends now (the client sees the connection close)
        if loop is not None:
            loop.close()
        fast.close()
        site.db.dispose()


def test_an_smtp_server_answering_one_byte_at_a_time_is_cut_at_the_deadline(
    db_url: str, clock: ManualClock, servers: list[RawServer], quick_hashes: None
) -> None:
    slow = RawServer(smtp_trickle, http=False)
    servers.append(slow)
    site = _site(db_url, clock, smtp_url=f"smtp://127.0.0.1:{slow.port}", smtp_deadline=1.0)
    try:
        with TestClient(create_app(site=site)) as client:
            gid, players = _players(client)
            assert players["ITALY"].put("/api/me/notifications", {"email": "italy@stall.example"}).status_code == 200
            _start(gid, players)
            thread, out = _in_thread(lambda: sender.tick(site))
            thread.join(GENEROUS)
            assert not thread.is_alive(), "the sender is still held by the slow SMTP server"
            assert out == [0]
            with site.db.reading() as s:
                (row,) = s.query(Delivery).all()
            assert row.state == deliveries.PENDING and "cut" in row.error, row.error
    finally:
        site.db.dispose()
