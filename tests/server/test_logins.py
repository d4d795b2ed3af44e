"""Logins that serve people (issue 23): many honest logins at once are served, a flood from one place refuses
no one elsewhere, the limits live in the database (two server processes share them), forwarded addresses are
believed only from trusted proxies; join codes and take-over links are limited; a reset request does the same
work whether the account exists or not; a too-large body gets a 413 its client can read."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import event

from arbitre.server import actions, passwords
from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.guesses import JOIN_CODE_ADDRESS, JOIN_CODE_GAME, TAKEOVER_ADDRESS
from arbitre.server.notify.mail import SmtpServer
from arbitre.server.proxies import client_of, parse_proxies
from arbitre.server.site import Settings, Site
from arbitre.server.throttle import ACCOUNT_LIMIT, ADDRESS_FAILURES, PER_ADDRESS
from tests.server.browser import live_server
from tests.server.conftest import Api
from tests.server.smtp_sink import Sink

pytestmark = pytest.mark.usefixtures("quick_hashes")

RIGHT, WRONG = "password123", "not-the-password"


class Arrivals:
    """An ASGI wrapper counting the requests that reached the server."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.count = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            self.count += 1
        await self.app(scope, receive, send)


class Held:
    """Password checks held (once armed) until released, as if every hash were slow: requests pile up."""

    def __init__(self) -> None:
        self.armed = False
        self.release = threading.Event()


@pytest.fixture
def held_hashes(monkeypatch: pytest.MonkeyPatch) -> Held:
    """Password checks that :func:`_all_at_once` holds until every request reached the server."""
    held = Held()
    real = actions.verify_password

    def slow(password_hash: str, password: str) -> bool:
        if held.armed:
            held.release.wait(60)
        return real(password_hash, password)

    monkeypatch.setattr(actions, "verify_password", slow)
    return held


def asgi_client(app: Any, address: str) -> httpx.AsyncClient:
    """An HTTP client of ``app`` whose requests come from ``address``."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 40000)), base_url="http://t")


async def _all_at_once(arrivals: Arrivals, held: Held, calls: list[Callable[[], Any]]) -> list[httpx.Response]:
    """Send every call at once; release the held hashes once all reached the server and it answered those it
    would answer at once (a refusal does not wait for a hash)."""
    held.armed = True
    tasks = [asyncio.ensure_future(c()) for c in calls]
    while arrivals.count < len(calls):
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)
    held.release.set()
    return list(await asyncio.gather(*tasks))


def test_eight_honest_logins_at_once_are_all_served(app_client: TestClient, held_hashes: Held) -> None:
    """Today's gate refused the 4th password check at once (8 at once: 5 refused); now they wait their turn."""
    names = [f"honest{i}" for i in range(8)]
    for name in names:
        Api(app_client, name)
    arrivals = Arrivals(app_client.app)

    async def run() -> list[httpx.Response]:
        clients = [asgi_client(arrivals, f"192.0.2.{i + 1}") for i in range(8)]
        calls = [
            (lambda c=c, n=n: c.post("/api/tokens", json={"name": n, "password": RIGHT}))
            for c, n in zip(clients, names, strict=True)
        ]
        try:
            return await _all_at_once(arrivals, held_hashes, calls)
        finally:
            for c in clients:
                await c.aclose()

    answers = asyncio.run(run())
    assert [r.status_code for r in answers] == [201] * 8, [r.text for r in answers]


def test_eight_logins_at_once_from_one_address_are_all_served(app_client: TestClient, held_hashes: Held) -> None:
    """A club behind one address (a café, a school) logs in together."""
    names = [f"club{i}" for i in range(PER_ADDRESS)]
    for name in names:
        Api(app_client, name)
    arrivals = Arrivals(app_client.app)

    async def run() -> list[httpx.Response]:
        async with asgi_client(arrivals, "192.0.2.50") as c:
            calls = [(lambda n=n: c.post("/api/tokens", json={"name": n, "password": RIGHT})) for n in names]
            return await _all_at_once(arrivals, held_hashes, calls)

    assert [r.status_code for r in asyncio.run(run())] == [201] * PER_ADDRESS


def test_a_flood_from_one_address_does_not_refuse_a_login_from_another(
    app_client: TestClient, held_hashes: Held
) -> None:
    Api(app_client, "flooder")
    Api(app_client, "victim")
    arrivals = Arrivals(app_client.app)
    flood = 20

    async def run() -> tuple[list[int], int]:
        async with asgi_client(arrivals, "203.0.113.66") as a, asgi_client(arrivals, "198.51.100.7") as b:
            calls: list[Callable[[], Any]] = [
                (lambda: a.post("/api/tokens", json={"name": "flooder", "password": RIGHT})) for _ in range(flood)
            ]
            calls.append(lambda: b.post("/api/tokens", json={"name": "victim", "password": RIGHT}))
            answers = await _all_at_once(arrivals, held_hashes, calls)
        return [r.status_code for r in answers[:-1]], answers[-1].status_code

    flooded, honest = asyncio.run(run())
    assert honest == 201
    # the flooding address holds its places in the queue; the rest of its flood is refused, and only it
    assert sorted(flooded) == [201] * PER_ADDRESS + [429] * (flood - PER_ADDRESS)


def test_wrong_passwords_from_one_address_do_not_lock_the_owner_out_elsewhere(app_client: TestClient) -> None:
    Api(app_client, "owner")
    attacker = TestClient(app_client.app, client=("203.0.113.5", 1000))
    owner = TestClient(app_client.app, client=("198.51.100.20", 1000))
    for _ in range(ACCOUNT_LIMIT.limit):
        assert attacker.post("/api/tokens", json={"name": "owner", "password": WRONG}).status_code == 401
    r = attacker.post("/api/tokens", json={"name": "owner", "password": RIGHT})
    assert r.status_code == 429 and r.json()["error"]["where"] == "name"  # locked there, even the right one
    assert owner.post("/api/tokens", json={"name": "owner", "password": RIGHT}).status_code == 201
    assert owner.post("/api/tokens", json={"name": "owner", "password": WRONG}).status_code == 401  # counts apart


def test_a_right_password_is_not_counted_as_a_failure(app_client: TestClient) -> None:
    Api(app_client, "regular")
    c = TestClient(app_client.app, client=("192.0.2.77", 1000))
    for _ in range(ACCOUNT_LIMIT.limit + 5):
        assert c.post("/api/tokens", json={"name": "regular", "password": RIGHT}).status_code == 201


def test_the_limits_hold_across_two_server_processes(db_url: str, clock: ManualClock) -> None:
    """Two app instances on one database (as ``--workers 2``): ten failures in all, not ten each."""
    one = make_site(Settings(database_url=db_url, run_worker=False), clock)
    two = make_site(Settings(database_url=db_url, run_worker=False), clock)
    try:
        with TestClient(create_app(site=one)) as a, TestClient(create_app(site=two)) as b:
            Api(a, "shared")
            statuses = [
                (a if i % 2 else b).post("/api/tokens", json={"name": "shared", "password": WRONG}).status_code
                for i in range(ACCOUNT_LIMIT.limit + 2)
            ]
            assert statuses == [401] * ACCOUNT_LIMIT.limit + [429] * 2
    finally:
        one.db.dispose()
        two.db.dispose()


def _served_as_by_arbitre_serve(monkeypatch: pytest.MonkeyPatch, url: str) -> Any:
    """The app wrapped as ``arbitre serve`` has uvicorn wrap it (its proxy-header handling included or not)."""
    from arbitre.cli.serve import serve

    captured: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: captured.update(options))
    monkeypatch.setenv("ARBITRE_DATABASE_URL", url)
    monkeypatch.delenv("ARBITRE_TRUSTED_PROXIES", raising=False)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    serve(database=url, demo=False)
    site = make_site(Settings.from_env())
    options = {k: v for k, v in captured.items() if k not in ("host", "port", "workers", "log_level")}
    config = uvicorn.Config(create_app(site=site), **options)
    config.load()
    return config.loaded_app, site


def test_rotating_x_forwarded_for_from_an_untrusted_client_does_not_escape_the_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    served, site = _served_as_by_arbitre_serve(monkeypatch, f"sqlite:///{tmp_path / 'serve.sqlite3'}")

    async def run() -> list[int]:
        async with asgi_client(served, "127.0.0.1") as c:  # a client on loopback, as before a local proxy
            return [
                (
                    await c.post(
                        "/api/tokens",
                        json={"name": f"nobody{i}", "password": WRONG},
                        headers={"X-Forwarded-For": f"198.51.100.{i + 1}"},
                    )
                ).status_code
                for i in range(ADDRESS_FAILURES.limit + 1)
            ]

    try:
        statuses = asyncio.run(run())
    finally:
        site.db.dispose()
    assert statuses == [401] * ADDRESS_FAILURES.limit + [429]


def test_a_trusted_proxy_names_the_client_and_no_one_else_does(db_url: str, clock: ManualClock) -> None:
    site = make_site(Settings(database_url=db_url, run_worker=False, trusted_proxies="10.0.0.0/8, 192.0.2.7"), clock)
    try:
        app = create_app(site=site)
        proxy = TestClient(app, client=("10.1.2.3", 1000))
        Api(proxy, "gina")

        def attempt(client: TestClient, forwarded: str | None) -> int:
            headers = {"X-Forwarded-For": forwarded} if forwarded else {}
            return client.post("/api/tokens", json={"name": "gina", "password": WRONG}, headers=headers).status_code

        assert [attempt(proxy, "203.0.113.9") for _ in range(ACCOUNT_LIMIT.limit)] == [401] * ACCOUNT_LIMIT.limit
        assert attempt(proxy, "203.0.113.9") == 429  # the forwarded client is counted
        assert attempt(proxy, "203.0.113.10") == 401  # another client behind the same proxy is not locked
        assert attempt(proxy, "203.0.113.10, 203.0.113.9") == 429  # what the client wrote first proves nothing
        assert attempt(proxy, "203.0.113.9, 192.0.2.7") == 429  # a chain of trusted proxies is walked back
        stranger = TestClient(app, client=("198.51.100.1", 1000))
        assert attempt(stranger, "203.0.113.10") == 401  # counted on the stranger itself, not on its header
        for _ in range(ACCOUNT_LIMIT.limit - 1):
            attempt(stranger, "203.0.113.77")
        assert attempt(stranger, "203.0.113.78") == 429  # rotating its header changes nothing
    finally:
        site.db.dispose()


def test_client_of_reads_the_forwarded_chain_from_its_end() -> None:
    trusted = parse_proxies("10.0.0.0/8 ::1")
    assert client_of("10.0.0.1", ["198.51.100.1"], trusted) == "198.51.100.1"
    assert client_of("10.0.0.1", ["1.1.1.1, 198.51.100.1"], trusted) == "198.51.100.1"
    assert client_of("10.0.0.1", ["198.51.100.1", "10.0.0.2"], trusted) == "198.51.100.1"  # two header lines
    assert client_of("10.0.0.1", ["198.51.100.1:4711"], trusted) == "198.51.100.1"
    assert client_of("::1", ["[2001:db8::1]:80"], trusted) == "2001:db8::1"
    assert client_of("10.0.0.1", ["not-an-address"], trusted) == "10.0.0.1"
    assert client_of("10.0.0.1", [], trusted) == "10.0.0.1"
    assert client_of("198.51.100.1", ["10.0.0.1"], trusted) == "198.51.100.1"  # not a proxy: ignored
    assert client_of("198.51.100.1", ["203.0.113.1"], ()) == "198.51.100.1"  # no proxy named: never believed
    with pytest.raises(ValueError, match="ARBITRE_TRUSTED_PROXIES: 'localhost'"):
        parse_proxies("10.0.0.0/8, localhost")


# ----------------------------------------------------------------------------- join codes and take-over links
def _private_game(client: TestClient, code: str) -> tuple[int, str]:
    master = Api(client, f"gm{uuid.uuid4().hex[:6]}")
    r = master.post("/api/games", {"name": "Secret", "private": True, "join_code": code})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    token = master.get(f"/api/games/{gid}").json()["invitation"]["path"].rsplit("/", 1)[1]
    return gid, token


def _player(app: Any, address: str) -> Api:
    return Api(TestClient(app, client=(address, 1000)), f"p{uuid.uuid4().hex[:8]}")


def test_join_code_guessing_is_throttled_per_address_and_per_game(app_client: TestClient) -> None:
    """A 4-digit code fell in 21 s: now 10 wrong codes per address in 15 minutes, 30 per game in an hour."""
    _, token = _private_game(app_client, "4711")
    guesser = _player(app_client.app, "203.0.113.1")
    for code in range(JOIN_CODE_ADDRESS.limit):
        r = guesser.post(f"/api/invitations/{token}/join", {"role": "observer", "code": f"{code:04d}"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_code"
    r = guesser.post(f"/api/invitations/{token}/join", {"role": "observer", "code": "4711"})
    assert r.status_code == 429 and r.json()["error"]["where"] == "code"  # even the right code waits
    friend = _player(app_client.app, "198.51.100.1")
    assert friend.post(f"/api/invitations/{token}/join", {"role": "observer", "code": "4711"}).status_code == 200
    # the game's own limit: guessers spread over many addresses
    wrong = JOIN_CODE_ADDRESS.limit  # already counted on the game
    address = 2
    while wrong < JOIN_CODE_GAME.limit:
        other = _player(app_client.app, f"203.0.113.{address}")
        for _ in range(min(JOIN_CODE_ADDRESS.limit, JOIN_CODE_GAME.limit - wrong)):
            assert other.post(f"/api/invitations/{token}/join", {"role": "observer", "code": "0000"}).status_code == 403
            wrong += 1
        address += 1
    late = _player(app_client.app, "192.0.2.200")
    r = late.post(f"/api/invitations/{token}/join", {"role": "observer", "code": "0001"})
    assert r.status_code == 429 and r.json()["error"]["where"] == "code"


def test_join_code_limits_hold_across_two_server_processes(db_url: str, clock: ManualClock) -> None:
    one = make_site(Settings(database_url=db_url, run_worker=False), clock)
    two = make_site(Settings(database_url=db_url, run_worker=False), clock)
    try:
        with TestClient(create_app(site=one)) as a, TestClient(create_app(site=two)) as b:
            _, token = _private_game(a, "4711")
            players = [_player(x.app, "203.0.113.1") for x in (a, b)]
            statuses = [
                players[i % 2].post(f"/api/invitations/{token}/join", {"role": "observer", "code": "0000"}).status_code
                for i in range(JOIN_CODE_ADDRESS.limit + 1)
            ]
            assert statuses == [403] * JOIN_CODE_ADDRESS.limit + [429]
    finally:
        one.db.dispose()
        two.db.dispose()


def test_take_over_attempts_are_throttled(app_client: TestClient) -> None:
    guesser = _player(app_client.app, "203.0.113.3")
    for i in range(TAKEOVER_ADDRESS.limit):
        assert guesser.post(f"/api/takeover/guess{i:04d}", {}).status_code == 404
    r = guesser.post("/api/takeover/guess9999", {})
    assert r.status_code == 429 and r.json()["error"]["where"] == "path"
    other = _player(app_client.app, "198.51.100.3")
    assert other.post("/api/takeover/guess9999", {}).status_code == 404  # another address is not refused


# ----------------------------------------------------------------------------- password reset
def test_a_reset_request_does_the_same_work_for_known_and_unknown_accounts(
    mail_client: TestClient, sink: tuple[str, Sink], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Proved by structure, not by a stopwatch: during the request, the same database statements (with the same
    parameters), no e-mail and the same hand-over; the account is looked up and mailed only afterwards."""
    site: Site = mail_client.app.state.site  # type: ignore[attr-defined]
    dora = Api(mail_client, "dora")
    assert dora.put("/api/me/notifications", {"email": "dora@example.org"}).status_code == 200
    handed: list[Callable[[], Any]] = []
    if hasattr(site, "chores"):  # (before the fix, the request itself looked the account up and sent the e-mail)
        monkeypatch.setattr(site.chores, "hand_over", handed.append)
    sends: list[Any] = []
    real_send = SmtpServer.send
    monkeypatch.setattr(SmtpServer, "send", lambda self, message: sends.append(message))
    lookups: list[str] = []
    real_find = passwords.find_account
    monkeypatch.setattr(passwords, "find_account", lambda s, who: lookups.append(who) or real_find(s, who))
    statements: list[tuple[str, str]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        statements.append((statement, repr(parameters)))

    event.listen(site.db.engine, "before_cursor_execute", record)
    anonymous = TestClient(mail_client.app)
    work: dict[str, Any] = {}
    try:
        for who in ("dora@example.org", "nobody@example.org", "dora", "nobody"):
            statements.clear()
            sends.clear()
            before = len(handed)
            r = anonymous.post("/api/password-reset", json={"who": who})
            work[who] = (r.status_code, r.content, list(statements), len(sends), len(handed) - before, list(lookups))
    finally:
        event.remove(site.db.engine, "before_cursor_execute", record)
    assert work["dora@example.org"] == work["nobody@example.org"] == work["dora"] == work["nobody"]
    status, _, _, sent_during, handed_over, looked_up = work["dora"]
    assert status == 202 and sent_during == 0 and handed_over == 1 and looked_up == []
    # afterwards: the hand-over finds the account and sends to it; for nobody, nothing
    monkeypatch.setattr(SmtpServer, "send", real_send)
    for job in handed:
        job()
    _, received = sink
    assert len(received.messages("dora@example.org")) == 2 and len(received.messages()) == 2


# ----------------------------------------------------------------------------- too-large bodies
@pytest.fixture
def served(site: Site) -> Iterator[tuple[str, int]]:
    """The app served by uvicorn on a loopback port: its host and port."""
    with live_server(site) as url:
        parts = urlsplit(url)
        assert parts.hostname and parts.port
        yield parts.hostname, parts.port


def _send_and_read(where: tuple[str, int], head: bytes, body: bytes) -> bytes:
    """Send a request as a client on a slow line does (the body in pieces, a pause between them), then read
    the answer's head."""
    with socket.create_connection(where, timeout=60) as s:
        try:
            s.sendall(head)
            for at in range(0, len(body), 65536):
                s.sendall(body[at : at + 65536])
                time.sleep(0.005)
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except OSError as err:  # a reset or broken pipe: the client never read its answer
            pytest.fail(f"the client could not read the answer: {err!r}")
    return answer


def test_a_two_megabyte_body_gets_a_413_its_client_reads(served: tuple[str, int]) -> None:
    body = b'{"x": "' + b"a" * (2 * 1024 * 1024) + b'"}'
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    answer = _send_and_read(served, head, body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_a_two_megabyte_chunked_body_gets_a_413_its_client_reads(served: tuple[str, int]) -> None:
    piece = b"a" * 65536
    body = b"".join(f"{len(piece):x}\r\n".encode() + piece + b"\r\n" for _ in range(32)) + b"0\r\n\r\n"
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    answer = _send_and_read(served, head, body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
