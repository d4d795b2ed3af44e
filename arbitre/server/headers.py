"""Security and caching headers on every answer (an ASGI middleware, so new routes get them too).

- ``Content-Security-Policy``: scripts, styles, images and connections from
  the site itself only (and the maps' dark theme, allowed by its hash); no plug-ins; no framing (``frame-ancestors 'none'``,
  and ``X-Frame-Options: DENY`` for older browsers); forms post to the site.
- ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: same-origin``.
- Caching: what a route answers depends on who asks (the cookie or the bearer
  token), so every answer but the static files carries
  ``Vary: Cookie, Authorization``, and ``Cache-Control: no-store`` unless the
  route chose a ``private`` policy itself (the maps, whose URLs name the viewer).
"""

from __future__ import annotations

import base64
import hashlib

from arbitre.render.svg import DARK
from arbitre.server.boundary import ASGIApp, Message, Receive, Scope, Send

MAP_STYLE = "'sha256-" + base64.b64encode(hashlib.sha256(DARK.encode()).digest()).decode() + "'"
"""The one inline style allowed: the maps' own dark theme (:data:`arbitre.render.svg.DARK`), by its hash, so it
applies in a map put in the page and in a map shown as an image, and no other inline style does."""
CSP = (
    f"default-src 'self'; script-src 'self'; style-src 'self' {MAP_STYLE}; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every answer."""

_ALWAYS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware adding the security headers and the viewer-dependent caching rules."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope.get("path", "").startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() not in {name for name, _ in _ALWAYS}
                ]
                headers += _ALWAYS
                if not static:
                    cache = [v for k, v in headers if k.lower() == b"cache-control"]
                    headers = [(k, v) for k, v in headers if k.lower() not in (b"cache-control", b"vary")]
                    private = bool(cache) and cache[0].lower().startswith(b"private")
                    headers.append((b"cache-control", cache[0] if private else b"no-store"))
                    headers.append((b"vary", b"Cookie, Authorization"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
