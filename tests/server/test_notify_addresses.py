"""Where a webhook may be sent: the address that was checked, never another, and no unsafe range.

- A DNS stub answers the webhook's name with a public address first, then with loopback (DNS
  rebinding).  The sender resolves once and connects to the checked address (a test connector takes
  that address to a TLS server on loopback that stands for the public host), keeping the name for the
  ``Host`` header, TLS SNI and the certificate check; the loopback service the second answer points
  to accepts no connection at all.
- Every unsafe range is refused, with the address drawn anywhere inside it (hypothesis), whether the
  URL names it or a name resolves to it, at setting time and at sending time, and nothing is connected.
"""

from __future__ import annotations

import ipaddress
import shutil
import socket
import ssl
import subprocess
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.server.app import create_app, make_site
from arbitre.server.clock import ManualClock
from arbitre.server.notify import sender, webhook
from arbitre.server.site import Settings, Site
from arbitre.store.models import Delivery
from tests.server.conftest import POWERS, Api
from tests.server.test_notify_stall import _read_request

NAME = "hook.example"
PUBLIC = "1.1.1.1"
"""The public address the stub gives first (a test connector takes it to the stand-in server)."""

UNSAFE = [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
    "::/128",
    "::1/128",
    "::ffff:0:0/96",
    "::/96",
    "64:ff9b::/96",
    "64:ff9b:1::/48",
    "2001::/32",
    "2001:db8::/32",
    "2002::/16",
    "fc00::/7",
    "fe80::/10",
    "fec0::/10",
    "ff00::/8",
]
"""Every range the brief names: loopback, private, link-local, multicast, reserved, unspecified, CGNAT,
documentation, IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo, site-local, ULA."""


def _inside(net: str) -> st.SearchStrategy[Any]:
    network = ipaddress.ip_network(net)
    return st.integers(0, network.num_addresses - 1).map(lambda i: network[i])


ADDRESSES = st.sampled_from(UNSAFE).flatmap(_inside)


class Dns:
    """A resolver stub for :data:`NAME`: each lookup gives the next answer (the last one repeats)."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.calls = 0
        self.real = socket.getaddrinfo

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != NAME:
            return self.real(host, port, *args, **kwargs)
        self.calls += 1
        ip = self.answers[min(self.calls, len(self.answers)) - 1]
        family = socket.AF_INET6 if ":" in ip else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (ip, int(port or 0)))]


class Connector:
    """The network as the test builds it: records every address connected to; the public one is the stand-in."""

    def __init__(self, standin_port: int) -> None:
        self.standin_port = standin_port
        self.calls: list[tuple[str, int]] = []

    def __call__(self, address: str, port: int, timeout: float) -> socket.socket:
        self.calls.append((address, port))
        if address != PUBLIC:
            raise ConnectionRefusedError(f"the test network has no route to {address}")
        return socket.create_connection(("127.0.0.1", self.standin_port), timeout=timeout)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Self-signed certificates (and keys) for hook.example and for another name."""
    if shutil.which("openssl") is None:
        pytest.fail("these tests need the openssl command (Debian: openssl)")
    folder = tmp_path_factory.mktemp("hookcerts")
    out = {}
    for name in (NAME, "other.example"):
        cert, key = folder / f"{name}.pem", folder / f"{name}.key"
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={name}"),
                *("-addext", f"subjectAltName=DNS:{name}", "-keyout", str(key), "-out", str(cert)),
            ],
            check=True,
            capture_output=True,
        )
        out[name] = (cert, key)
    return out


class TlsServer:
    """An HTTPS server on loopback: counts connections, keeps the SNI names and requests, answers 204."""

    def __init__(self, cert: tuple[Path, Path]) -> None:
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(str(cert[0]), str(cert[1]))
        self.sni: list[str | None] = []
        self.context.sni_callback = lambda _sock, name, _ctx: self.sni.append(name)  # type: ignore[assignment,func-returns-value]
        self.accepted = 0
        self.requests: list[bytes] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(30)
            with self.context.wrap_socket(conn, server_side=True) as tls:
                self.requests.append(_read_request(tls))
                tls.sendall(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        except (OSError, ssl.SSLError):
            pass

    def close(self) -> None:
        """Stop serving."""
        self.stop.set()
        self.listener.close()


@pytest.fixture
def hook_site(db_url: str, clock: ManualClock) -> Iterator[Site]:
    """A site without e-mail (webhooks only)."""
    s = make_site(Settings(database_url=db_url, run_worker=False, site_url="https://arbitre.example"), clock)
    yield s
    s.db.dispose()


def _player_with_hook(client: TestClient, url: str) -> tuple[int, dict[str, Api]]:
    tag = uuid.uuid4().hex[:5]
    master = Api(client, f"dngm{tag}")
    gid = master.post("/api/games", {"name": "Dns", "assignment": "choice", "deadlines": {"M": 86400}}).json()["id"]
    players = {p: Api(client, f"dn{p.lower()[:3]}{tag}") for p in POWERS}
    r = players["FRANCE"].put("/api/me/webhook", {"url": url})
    assert r.status_code == 200, r.text
    return gid, players


def _join(gid: int, players: dict[str, Api]) -> None:
    for p, api in players.items():
        assert api.post(f"/api/games/{gid}/join", {"role": "player", "power": p}).status_code == 200


def test_the_connection_goes_to_the_address_that_was_checked(
    hook_site: Site,
    certificates: dict[str, tuple[Path, Path]],
    monkeypatch: pytest.MonkeyPatch,
    quick_hashes: None,
) -> None:
    internal = TlsServer(certificates[NAME])  # the loopback service the rebound name points to
    standin = TlsServer(certificates[NAME])  # the public host
    try:
        monkeypatch.setenv("SSL_CERT_FILE", str(certificates[NAME][0]))
        dns = Dns([PUBLIC, "127.0.0.1"])
        monkeypatch.setattr(socket, "getaddrinfo", dns)
        connector = Connector(standin.port)
        monkeypatch.setattr(webhook, "open_socket", connector, raising=False)
        url = f"https://{NAME}:{internal.port}/hook?x=1"
        with TestClient(create_app(site=hook_site)) as client:
            gid, players = _player_with_hook(client, url)
            _join(gid, players)
            dns.calls = 0  # from here: public at the check, loopback at any later lookup
            assert sender.tick(hook_site) == 1
        assert internal.accepted == 0, "a connection reached the loopback service"
        assert dns.calls == 1  # resolved once
        assert connector.calls == [(PUBLIC, internal.port)]
        ((request),) = standin.requests
        head = request.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")
        assert head[0] == "POST /hook?x=1 HTTP/1.1"
        assert f"Host: {NAME}:{internal.port}" in head  # the name, not the address
        assert standin.sni == [NAME]  # TLS names the host; its certificate was checked against it
    finally:
        internal.close()
        standin.close()


def test_the_certificate_is_checked_against_the_name(
    hook_site: Site,
    certificates: dict[str, tuple[Path, Path]],
    monkeypatch: pytest.MonkeyPatch,
    quick_hashes: None,
) -> None:
    wrong = TlsServer(certificates["other.example"])  # trusted, but for another name
    try:
        monkeypatch.setenv("SSL_CERT_FILE", str(certificates["other.example"][0]))
        monkeypatch.setattr(socket, "getaddrinfo", Dns([PUBLIC]))
        monkeypatch.setattr(webhook, "open_socket", Connector(wrong.port), raising=False)
        with TestClient(create_app(site=hook_site)) as client:
            gid, players = _player_with_hook(client, f"https://{NAME}/hook")
            _join(gid, players)
            assert sender.tick(hook_site) == 0
        with hook_site.db.reading() as s:
            (row,) = s.query(Delivery).all()
        assert "CERTIFICATE_VERIFY_FAILED" in row.error or "certificate" in row.error.lower(), row.error
        assert wrong.requests == []
    finally:
        wrong.close()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(address=ADDRESSES, literal=st.booleans())
def test_every_unsafe_range_is_refused(address: Any, literal: bool) -> None:
    host = (f"[{address}]" if address.version == 6 else str(address)) if literal else NAME
    url = f"https://{host}/hook"
    connector = Connector(0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket, "getaddrinfo", Dns([str(address)]))
        mp.setattr(webhook, "open_socket", connector, raising=False)
        with pytest.raises(webhook.WebhookError, match="private, local or reserved"):
            webhook.check_url(url, http_loopback=True)  # when the URL is set
        with pytest.raises(webhook.WebhookError, match="private, local or reserved"):
            webhook.post(url, "secret", b"{}", "d1", http_loopback=True)  # and before each send
    assert connector.calls == []


@pytest.mark.parametrize(
    "address",
    [
        "2002:101:101::1",  # 6to4 around the public 1.1.1.1: the whole range is refused
        "2002:7f00:1::1",  # 6to4 around 127.0.0.1
        "64:ff9b::7f00:1",  # NAT64 to 127.0.0.1
        "64:ff9b::808:808",  # NAT64 to the public 8.8.8.8: refused (we cannot see where the gateway goes)
        "::ffff:127.0.0.1",
        "::ffff:8.8.8.8",
        "::127.0.0.1",
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    ],
)
def test_addresses_that_carry_an_ipv4_address_are_refused(address: str) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket, "getaddrinfo", Dns([address]))
        with pytest.raises(webhook.WebhookError, match="private, local or reserved"):
            webhook.check_url(f"https://{NAME}/hook", http_loopback=False)


@pytest.mark.parametrize("address", ["1.1.1.1", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4007:80e::200e"])
def test_public_addresses_are_accepted(address: str) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket, "getaddrinfo", Dns([address]))
        webhook.check_url(f"https://{NAME}/hook", http_loopback=False)
