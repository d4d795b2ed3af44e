"""Which IP addresses a webhook may be sent to: public unicast addresses only (no SSRF into our own networks).

Refused, with the range named: loopback, private, link-local, multicast, reserved, unspecified, CGNAT
(100.64.0.0/10), documentation and benchmarking ranges, and the IPv6 ranges that carry an IPv4 address
to somewhere we cannot check (IPv4-mapped ``::ffff:0:0/96``, IPv4-compatible ``::/96``, NAT64
``64:ff9b::/96`` and ``64:ff9b:1::/48``, 6to4 ``2002::/16``, Teredo ``2001::/32``), site-local
``fec0::/10`` and unique-local ``fc00::/7``.  Whatever the list says, an address the standard library
does not call global is refused too, and so is one whose embedded IPv4 address is not public.
"""

from __future__ import annotations

import ipaddress

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_V4 = (
    ("0.0.0.0/8", "unspecified (this network)"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared (CGNAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "reserved (IETF protocol assignments)"),
    ("192.0.2.0/24", "documentation"),
    ("192.88.99.0/24", "reserved (6to4 relay)"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
)
_V6 = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::ffff:0:0/96", "IPv4-mapped"),
    ("::/96", "IPv4-compatible"),
    ("64:ff9b::/96", "NAT64"),
    ("64:ff9b:1::/48", "NAT64 (local use)"),
    ("100::/64", "discard"),
    ("2001::/32", "Teredo"),
    ("2001:db8::/32", "documentation"),
    ("2002::/16", "6to4"),
    ("3fff::/20", "documentation"),
    ("fc00::/7", "unique local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
)
REFUSED: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.ip_network(net), why) for net, why in (*_V4, *_V6)
)
"""Every refused network with the name of its range."""


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo server), if any."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[0]
    value = int(address)
    if value >> 32 == 0 and value > 1:  # IPv4-compatible ::a.b.c.d
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if address in ipaddress.ip_network("64:ff9b::/96") or address in ipaddress.ip_network("64:ff9b:1::/48"):
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    return None


def refusal(address: Address) -> str | None:
    """Why ``address`` may not be called (the range's name), or ``None`` for a public unicast address."""
    for network, why in REFUSED:
        if address.version == network.version and address in network:
            inner = embedded_ipv4(address)
            return f"{why} ({inner})" if inner is not None else why
    inner = embedded_ipv4(address)
    if inner is not None and refusal(inner) is not None:
        return f"carries the address {inner}"
    if address.is_multicast:
        return "multicast"
    if not address.is_global:
        return "not a public address"
    return None
