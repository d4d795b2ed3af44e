"""The webhook channel: each notification POSTed as JSON to the recipient's own URL, signed with their secret.

- **Where**: an ``https://`` URL whose host resolves only to public addresses.  A private,
  loopback, link-local, reserved or multicast address is refused (the server must not be made to call
  its own network: SSRF), when the URL is set and again before each send (the name may have moved).
  Plain ``http://`` is allowed only to a loopback address, and only when the site allows it
  (``ARBITRE_WEBHOOK_HTTP_LOOPBACK=1``, for tests and local tools).
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
from typing import Any
from urllib.parse import urlsplit

import httpx

TIMEOUT = 10.0
"""Seconds a webhook POST may take (the sender's lease is longer)."""
MAX_URL = 500
"""The longest webhook URL."""
SIGNATURE = "X-Arbitre-Signature"
DELIVERY = "X-Arbitre-Delivery"


class WebhookError(ValueError):
    """A webhook URL that may not be called, or an answer that is not a success."""


def new_secret() -> str:
    """A fresh signing secret (shown to its owner once)."""
    return secrets.token_urlsafe(32)


def check_url(url: str, *, http_loopback: bool) -> tuple[str, int]:
    """Refuse a URL the server may not call; returns its host and port.

    ``http_loopback``: plain http is allowed to a loopback address (tests, local tools).
    """
    if len(url) > MAX_URL:
        raise WebhookError(f"a webhook URL has at most {MAX_URL} characters")
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
        if not address.is_global or address.is_multicast:
            raise WebhookError(f"{parts.hostname} is a private, local or reserved address: not called")
    return parts.hostname, port


def resolve(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """Every address ``host`` names (an unknown name is an error)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:
        raise WebhookError(f"{host[:60]} cannot be resolved") from err
    out = []
    for info in infos:
        raw = str(info[4][0]).split("%", 1)[0]  # an IPv6 zone ("fe80::1%eth0") is not part of the address
        out.append(ipaddress.ip_address(raw))
    if not out:
        raise WebhookError(f"{host[:60]} cannot be resolved")
    return out


def payload(item: dict[str, Any], site_url: str, delivery: str) -> bytes:
    """The JSON body: the notification as the recipient's list shows it, with an absolute link."""
    body = {
        "delivery": delivery,
        "kind": item["kind"],
        "game": item["game"],
        "subject": item["subject"],
        "text": item["text"],
        "link": f"{site_url}{item['link']}",
        "at": item["at"],
    }
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` and the hex HMAC-SHA256 of ``body``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def post(url: str, secret: str, body: bytes, delivery: str, *, http_loopback: bool) -> None:
    """POST ``body`` to ``url`` (checked again first); raises :class:`WebhookError` or ``httpx.HTTPError``."""
    check_url(url, http_loopback=http_loopback)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "arbitre-webhook",
        SIGNATURE: sign(secret, body),
        DELIVERY: delivery,
    }
    with httpx.Client(timeout=TIMEOUT, follow_redirects=False, trust_env=False) as client:
        answer = client.post(url, content=body, headers=headers)
    if not 200 <= answer.status_code < 300:
        raise WebhookError(f"the webhook answered {answer.status_code}")
