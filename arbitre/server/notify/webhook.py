"""The webhook channel: each notification POSTed as JSON to the recipient's own URL, signed with their secret.

- **Where**: an ``https://`` URL whose host resolves only to public unicast addresses
  (:mod:`~arbitre.server.notify.addresses` names every refused range: private, loopback, link-local,
  CGNAT, NAT64, 6to4, Teredo, IPv4-mapped…), checked when the URL is set and again before each send
  (the name may have moved).  Before a send the name is resolved **once**; every address it gives is
  checked, and the connection is made to that checked address (the ``Host`` header, TLS SNI and the
  certificate check still use the name), so a DNS answer that changes between the check and the
  connection (rebinding) cannot lead to another address.  Plain ``http://`` is allowed only to a
  loopback address, and only when the site allows it (``ARBITRE_WEBHOOK_HTTP_LOOPBACK=1``, for tests
  and local tools).
- **How long**: the whole exchange (connection, TLS, request, answer) has one wall-clock deadline
  (``ARBITRE_WEBHOOK_DEADLINE``, 10 s); a server that answers one byte at a time is cut at it.  Only the
  answer's status line is read, at most :data:`MAX_ANSWER` bytes: a huge answer costs nothing.
- **What**: the notification as its recipient's site list shows it (:func:`payload`): written from the
  recipient's own view, language and time zone, naming no account.
- **Signed**: ``X-Arbitre-Signature: sha256=<hex>``, the HMAC-SHA256 of the exact body bytes with the
  recipient's secret (shown once, when the URL is set).  ``X-Arbitre-Delivery`` is the same on every
  attempt of one notification: a receiver drops a copy it already has (a sender that crashed after
  the POST and before marking it sent posts it again after its lease).
- Redirects are not followed; any answer but 2xx is a failure, tried again later.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import secrets
import socket
import ssl
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from arbitre.server.notify.addresses import Address, refusal
from arbitre.server.notify.deadline import Deadline

if TYPE_CHECKING:
    from arbitre.server.notify.letters import NoteItem

DEADLINE = 10.0
"""Seconds a whole webhook exchange may take by default (``ARBITRE_WEBHOOK_DEADLINE``; the lease is longer)."""
MAX_URL = 500
"""The longest webhook URL."""
MAX_ANSWER = 4096
"""The most bytes of an answer read: its status line must be within them."""
SIGNATURE = "X-Arbitre-Signature"
DELIVERY = "X-Arbitre-Delivery"


class WebhookError(ValueError):
    """A webhook URL that may not be called, or an answer that is not a success."""


@dataclass(frozen=True)
class Target:
    """A checked webhook URL: where to connect (the checked addresses) and what to ask for."""

    scheme: str
    host: str
    """The name as written (for SNI, the certificate check and the ``Host`` header)."""
    port: int
    path: str
    """The path and query, as sent in the request line."""
    addresses: tuple[Address, ...]
    """Every address the name resolved to, each one checked."""

    @property
    def host_header(self) -> str:
        """The ``Host`` header: the name (an IPv6 literal in brackets), with the port when not the default."""
        name = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return name if self.port == default else f"{name}:{self.port}"


def new_secret() -> str:
    """A fresh signing secret (shown to its owner once)."""
    return secrets.token_urlsafe(32)


def check_url(url: str, *, http_loopback: bool) -> Target:
    """Refuse a URL the server may not call; returns it checked, with the addresses its name resolved to.

    ``http_loopback``: plain http is allowed to a loopback address (tests, local tools).
    """
    if len(url) > MAX_URL:
        raise WebhookError(f"a webhook URL has at most {MAX_URL} characters")
    if not url.isascii() or any(ord(c) <= 0x20 or ord(c) == 0x7F for c in url):
        raise WebhookError("a webhook URL holds no space, control or non-ASCII character (encode them as %XX)")
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise WebhookError("a webhook URL is https://host/path")
    if parts.username or parts.password:
        raise WebhookError("a webhook URL carries no user name or password (the signature authenticates)")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as err:
        raise WebhookError(f"bad port: {err}") from err
    addresses = resolve(parts.hostname, port)
    loopback = all(a.is_loopback for a in addresses)
    if parts.scheme == "http" and not (http_loopback and loopback):
        raise WebhookError("a webhook URL is https (plain http only to this machine, when the site allows it)")
    for address in addresses:
        if address.is_loopback and parts.scheme == "http" and http_loopback:
            continue
        why = refusal(address)
        if why is not None:
            raise WebhookError(
                f"{parts.hostname[:60]} is a private, local or reserved address ({address}: {why}): not called"
            )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, tuple(addresses))


def resolve(host: str, port: int) -> list[Address]:
    """Every address ``host`` names (an unknown name is an error)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:
        raise WebhookError(f"{host[:60]} cannot be resolved") from err
    out: list[Address] = []
    for info in infos:
        raw = str(info[4][0]).split("%", 1)[0]  # an IPv6 zone ("fe80::1%eth0") is not part of the address
        address = ipaddress.ip_address(raw)
        if address not in out:
            out.append(address)
    if not out:
        raise WebhookError(f"{host[:60]} cannot be resolved")
    return out


def payload(item: NoteItem, site_url: str, delivery: str) -> bytes:
    """The JSON body: the notification as the recipient's list shows it, with an absolute link."""
    body = {
        "delivery": delivery,
        "kind": item.kind,
        "game": item.game,
        "subject": item.subject,
        "text": item.text,
        "link": f"{site_url}{item.link}",
        "at": item.at,
    }
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` and the hex HMAC-SHA256 of ``body``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def open_socket(address: str, port: int, timeout: float) -> socket.socket:
    """A TCP connection to exactly ``address`` (an IP address, never a name: nothing is resolved again)."""
    return socket.create_connection((address, port), timeout=timeout)


def tls_context() -> ssl.SSLContext:
    """The TLS settings of a webhook: the system's trusted authorities, the name checked."""
    return ssl.create_default_context()


def post(url: str, secret: str, body: bytes, delivery: str, *, http_loopback: bool, deadline: float = DEADLINE) -> None:
    """POST ``body`` to ``url`` (checked again first) within ``deadline`` seconds in all.

    Raises :class:`WebhookError`, or ``OSError`` (:class:`~arbitre.server.notify.deadline.DeadlineExceeded`
    when cut at the deadline).
    """
    target = check_url(url, http_loopback=http_loopback)
    head = [
        f"POST {target.path} HTTP/1.1",
        f"Host: {target.host_header}",
        "User-Agent: arbitre-webhook",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        f"{SIGNATURE}: {sign(secret, body)}",
        f"{DELIVERY}: {delivery}",
        "Connection: close",
    ]
    request = ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body
    limit = Deadline(deadline, f"the webhook {target.host[:60]}")
    with limit.watch():
        status = _exchange(target, request, limit)
    if not 200 <= status < 300:
        raise WebhookError(f"the webhook answered {status}")


def _exchange(target: Target, request: bytes, limit: Deadline) -> int:
    """Connect to the first checked address that answers, send ``request``, return the answer's status."""
    sock: socket.socket | None = None
    failure: OSError | None = None
    for address in target.addresses:
        try:
            sock = open_socket(str(address), target.port, limit.left())
            break
        except OSError as err:
            failure = err
    if sock is None:
        raise failure or WebhookError(f"{target.host[:60]}: no address to connect to")
    limit.add(sock)
    try:
        if target.scheme == "https":
            sock.settimeout(limit.left())
            sock = tls_context().wrap_socket(sock, server_hostname=target.host)
            limit.add(sock)
        sock.settimeout(limit.left())
        sock.sendall(request)
        return _status(sock, limit)
    finally:
        sock.close()


def _status(sock: socket.socket, limit: Deadline) -> int:
    """The status code of the answer, read from at most :data:`MAX_ANSWER` bytes (1xx answers skipped)."""
    data, total = b"", 0
    while True:
        while b"\r\n" in data:
            code = _code(data.split(b"\r\n", 1)[0])
            if not 100 <= code < 200:
                return code
            if b"\r\n\r\n" not in data:  # the rest of an interim answer's headers is still to come
                break
            data = data.split(b"\r\n\r\n", 1)[1]
        if total >= MAX_ANSWER:
            raise WebhookError(f"the webhook gave no HTTP status line in the first {MAX_ANSWER} bytes of its answer")
        sock.settimeout(limit.left())
        chunk = sock.recv(MAX_ANSWER - total)
        if not chunk:
            if limit.expired:
                raise limit.error()
            raise WebhookError("the webhook closed the connection without an answer")
        data += chunk
        total += len(chunk)


def _code(line: bytes) -> int:
    parts = line.split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not (parts[1].isdigit() and len(parts[1]) == 3):
        raise WebhookError("the webhook's answer is not HTTP")
    return int(parts[1])
