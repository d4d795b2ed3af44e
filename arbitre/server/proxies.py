"""Which address a request comes from: the peer's, or what a trusted reverse proxy says it forwarded.

``X-Forwarded-For`` is believed only when the peer is one of the proxies the
operator named (``ARBITRE_TRUSTED_PROXIES``: addresses or CIDR networks); from
anyone else it is ignored, so a client cannot pick the address its attempts are
counted against.  The forwarded chain is read from its end: the last address
that is not a trusted proxy is the client (the entries before it were written by
the client itself and prove nothing).  ``X-Forwarded-Proto`` from a trusted proxy
sets the scheme.

An ASGI middleware (:class:`ClientAddress`), the outermost of the app, so every
route, limit and session sees the same address (``scope["client"]``).  The web
server's own proxy-header handling must be off: ``arbitre serve`` turns uvicorn's
off (``uvicorn --no-proxy-headers`` when running uvicorn by hand).
"""

from __future__ import annotations

import ipaddress
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(text: str) -> tuple[Network, ...]:
    """The networks named by ``text`` (addresses or CIDR networks, separated by commas or spaces).

    Raises ``ValueError`` naming the entry that is neither."""
    out: list[Network] = []
    for entry in text.replace(",", " ").split():
        try:
            out.append(ipaddress.ip_network(entry, strict=False))
        except ValueError as err:
            raise ValueError(f"ARBITRE_TRUSTED_PROXIES: {entry!r} is not an address or a network (CIDR)") from err
    return tuple(out)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    return ip.ipv4_mapped or ip if isinstance(ip, ipaddress.IPv6Address) else ip


def client_of(peer: str, forwarded_for: list[str], trusted: tuple[Network, ...]) -> str:
    """The client's address: ``peer`` unless it is a trusted proxy, then the last untrusted forwarded address."""

    def is_trusted(ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
        return ip is not None and any(ip.version == n.version and ip in n for n in trusted)

    if not is_trusted(_ip(peer)):
        return peer
    client = peer
    hops = [h for value in forwarded_for for h in value.split(",") if h.strip()]
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            break  # a malformed entry: trust nothing before it
        client = str(ip)
        if not is_trusted(ip):
            break
    return client


class ClientAddress:
    """ASGI middleware setting ``scope["client"]`` (and the scheme) from a trusted proxy's headers."""

    def __init__(self, app: Any, trusted: tuple[Network, ...]) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Rewrite the client address when the peer is a trusted proxy; else pass the request on untouched."""
        peer = scope.get("client")
        if self.trusted and scope["type"] in ("http", "websocket") and peer:
            headers = scope.get("headers", [])
            forwarded = [v.decode("latin-1") for k, v in headers if k.lower() == b"x-forwarded-for"]
            client = client_of(str(peer[0]), forwarded, self.trusted)
            if client != peer[0]:
                scope = dict(scope, client=(client, 0))
                protos = [v.decode("latin-1").strip().lower() for k, v in headers if k.lower() == b"x-forwarded-proto"]
                if protos and protos[-1] in ("http", "https"):
                    scheme = protos[-1] if scope["type"] == "http" else {"http": "ws", "https": "wss"}[protos[-1]]
                    scope["scheme"] = scheme
        await self.app(scope, receive, send)
