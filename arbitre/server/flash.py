"""Post/redirect/get: what a form's answer must show travels to the page it redirects to.

Every page form answers ``303 See Other`` to an address that answers GET, so a reload never offers to
post the form again and the page's live update asks an address that exists. What the answer has to show
once (the problems found, the form as typed, a token shown once) goes with the redirect in a short-lived,
signed, HTTP-only cookie read by the next render of that address and then deleted.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from itsdangerous import BadData, URLSafeTimedSerializer

from arbitre.server.auth import site_of

FLASH_COOKIE = "arbitre_flash"
FLASH_MAX_AGE = 300
"""Seconds the flash is kept (it is meant for the very next page)."""
MAX_FLASH = 3600
"""Characters of the cookie at most (browsers keep about 4 KB per cookie)."""
DROP_FIRST = ("form", "rejected", "orders_text")
"""What is left out, in this order, when the flash would not fit in a cookie (the problems are kept)."""


def _serializer(request: Request) -> URLSafeTimedSerializer:
    return site_of(request).signer.flash_serializer()


def flash_redirect(request: Request, url: str, context: dict[str, Any], note: str | None = None) -> RedirectResponse:
    """A 303 to ``url`` whose next render shows ``context`` (template names: ``problems``, ``form``…)."""
    if note:
        url += ("&" if "?" in url else "?") + "note=" + quote(note)
    response = RedirectResponse(url, status_code=303)
    path = url.split("?", 1)[0]
    ctx: dict[str, Any] = dict(context)
    value = _serializer(request).dumps({"path": path, "ctx": ctx})
    for key in DROP_FIRST:
        if len(value) <= MAX_FLASH:
            break
        if isinstance(ctx.get(key), list):
            ctx[key] = ctx[key][:10]
        else:
            ctx.pop(key, None)  # the page then shows its defaults
        value = _serializer(request).dumps({"path": path, "ctx": ctx})
    if len(value) > MAX_FLASH:  # the problems alone are too long: keep the first ones
        ctx = {k: (v[:5] if isinstance(v, list) else v) for k, v in ctx.items() if k not in DROP_FIRST}
        value = _serializer(request).dumps({"path": path, "ctx": ctx})
    if len(value) <= MAX_FLASH:
        response.set_cookie(
            FLASH_COOKIE,
            value,
            max_age=FLASH_MAX_AGE,
            httponly=True,
            samesite="lax",
            secure=site_of(request).settings.secure_cookies,
        )
    return response


def take_flash(request: Request, response: Response | None = None) -> dict[str, Any]:
    """The context flashed for this address (empty if none, forged, stale or meant for another page); the
    cookie is deleted on ``response`` once read."""
    raw = request.cookies.get(FLASH_COOKIE)
    if not raw or len(raw) > MAX_FLASH:
        return {}
    try:
        data = _serializer(request).loads(raw, max_age=FLASH_MAX_AGE)
    except (BadData, json.JSONDecodeError):
        return {}
    if not isinstance(data, dict) or data.get("path") != request.url.path or not isinstance(data.get("ctx"), dict):
        return {}
    return dict(data["ctx"])


def clear_flash(request: Request, response: Response) -> None:
    """Delete the flash cookie on ``response`` if the request carried one."""
    if FLASH_COOKIE in request.cookies:
        response.delete_cookie(FLASH_COOKIE, httponly=True, samesite="lax")
