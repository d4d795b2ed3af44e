"""Rendering pages: Jinja2 templates with the visitor's language and CSRF token."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session
from starlette.routing import Match

from arbitre.server.auth import Actor, identify, set_visitor_cookies, site_of
from arbitre.server.errors import Problem
from arbitre.server.flash import clear_flash, flash_redirect, take_flash
from arbitre.server.i18n import translator
from arbitre.server.local_times import time_formatter
from arbitre.server.power_names import power_namer, power_names
from arbitre.server.rendered import PLACEHOLDERS, digest
from arbitre.server.services import unread_messages
from arbitre.server.site import Site
from arbitre.server.wording import result_text
from arbitre.store.outbox import unread_count
from arbitre.words.phases import phase_namer, phase_words

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))
# Templates ship with the package: a restart picks up a change, so no page render checks the files again
# (ARBITRE_TEMPLATE_RELOAD=1, a setting for working on the templates, checks them on every render).
RELOAD = os.environ.get("ARBITRE_TEMPLATE_RELOAD") == "1"
TEMPLATES.env.auto_reload = RELOAD

NOTES = {
    "saved": "Orders saved.",
    "processed": "The phase was adjudicated.",
    "done": "Done.",
    "registered": "Your account was created.",
    "joined": "You joined the game.",
    "voted": "Your ballot was counted.",
    "proposed": "The vote is open.",
    "password_changed": "Your password was changed; log in with the new one.",
}
"""Notes a redirect may ask the next page to show (by key, so a link cannot inject text)."""


def duration_text(seconds: int, t: Callable[..., str]) -> str:
    """A deadline setting in words: ``2 d``, ``12 h``, ``1 h 30 min``, ``45 min``, ``30 s``."""
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n} {t(unit)}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "min"), (secs, "s")) if n]
    return " ".join(parts[:2]) or f"0 {t('s')}"


def render(
    request: Request, actor: Actor, name: str, context: dict[str, Any], status: int = 200, *, keep: bool = False
) -> HTMLResponse:
    """Render template ``name`` for ``actor`` (language, CSRF token, user).

    ``keep``: the page may come from the site's rendered pages (:mod:`arbitre.server.rendered`), keyed by all
    that the template reads; ``context`` must then hold everything the template reads besides the values set
    here (a route passing it builds it from what the reader may see)."""
    site = site_of(request)
    note = NOTES.get(request.query_params.get("note", ""))
    flashed = take_flash(request)  # what the form posted just before the redirect here must show
    t = translator(actor.lang)
    slots = {"csrf": site.signer.csrf_token(actor.nonce), "server_now": site.now().isoformat()}
    ctx = {
        "t": t,
        "duration": lambda seconds: duration_text(seconds, t),
        "power_name": power_namer(actor.lang),
        "phase_name": phase_namer(actor.lang),
        "live_words": {"powers": power_names(actor.lang), "phases": phase_words(actor.lang)},
        "local_time": time_formatter(actor.user),
        "lang": actor.lang,
        "user": actor.user,
        "note": note,
        "words": result_text,
        "unread": _unread(site, actor),
        "messages_unread": _messages_unread(site, actor, request),
        **slots,
        **context,
        **flashed,
    }
    key = _kept_key(request, actor, name, status, ctx, context) if keep and not flashed and not RELOAD else None
    if key is not None:
        template = TEMPLATES.get_template(name)
        page = site.pages.page(key, lambda: template.render({**ctx, **PLACEHOLDERS, "request": request}))
        response: HTMLResponse = HTMLResponse(page.fill(slots), status_code=status)
    else:
        response = TEMPLATES.TemplateResponse(request, name, ctx, status_code=status)
    set_visitor_cookies(response, actor, site.settings.secure_cookies)
    if flashed:
        clear_flash(request, response)
    return response


def _kept_key(
    request: Request, actor: Actor, name: str, status: int, ctx: dict[str, Any], context: dict[str, Any]
) -> bytes | None:
    """The key of a kept page: a digest of every value its template reads besides the slots (``None`` when
    the context is not JSON).  The reader's user id is in it, so a reader is only served pages made for them."""
    user = actor.user
    who = None if user is None else [user.id, user.name, user.time_zone]
    where = [str(request.base_url), request.url.path]
    return digest([name, status, actor.lang, who, where, ctx["note"], ctx["unread"], ctx["messages_unread"], context])


def _unread(site: Site, actor: Actor) -> int:
    """How many site notifications the logged-in reader has not read (shown in every page's header)."""
    if actor.user is None:
        return 0
    if actor.unread is not None:  # read with the login itself
        return actor.unread
    with site.db.reading() as s:
        return unread_count(s, actor.user.id)


def _messages_unread(site: Site, actor: Actor, request: Request) -> int:
    """How many messages of others the logged-in reader has not read in its games (the header's total): read in
    the request's own read snapshot when the page is rendered inside one (:func:`arbitre.server.visit.reading`),
    else in a snapshot of its own."""
    if actor.user is None:
        return 0
    session: Session | None = getattr(request.state, "read_session", None)
    if session is not None:
        return unread_messages(session, actor.user.id)
    with site.db.reading() as s:
        return unread_messages(s, actor.user.id)


def redirect(url: str, note: str | None = None) -> RedirectResponse:
    """A 303 redirect (after a form post), optionally with a note for the next page."""
    if note:
        url += ("&" if "?" in url else "?") + "note=" + quote(note)
    return RedirectResponse(url, status_code=303)


def render_problem(request: Request, problem: Problem) -> Response:
    """The error page for ``problem`` (a logged-out visitor asked to log in is sent to the login page)."""
    site = site_of(request)
    with site.db.reading() as s:
        try:
            actor = identify(request, s)
        except Problem:
            actor = Actor(None, "", "en")
    if problem.status == 401 and request.method == "GET":
        return redirect("/login?next=" + quote(request.url.path))
    if request.method == "POST" and problem.status not in REFUSALS:
        # post/redirect/get: the problem is shown by the page the form came from, which answers GET
        flashed = {"flash_problem": {"status": problem.status, "message": problem.message}}
        return flash_redirect(request, form_page(request), flashed)
    return render(request, actor, "error.html", {"problem": problem}, status=problem.status)


REFUSALS = (401, 403, 429)
"""Statuses of a form post that is refused outright (not logged in, forged, not yours, throttled): these keep
their status and error page, as nothing a reload could post again was accepted (a 429 also keeps its
``Retry-After`` and is held back by :class:`arbitre.server.throttle.Tarpit`, which only sees a 429)."""


def answers_get(request: Request, path: str) -> bool:
    """Does ``path`` name a page of this site that answers GET?"""
    scope = {"type": "http", "path": path, "method": "GET", "root_path": ""}
    for route in request.app.router.routes:
        if getattr(route, "path", "").startswith("/static"):
            continue
        match, _ = route.matches(scope)
        if match == Match.FULL and not path.startswith("/api/"):
            return True
    return False


def form_page(request: Request) -> str:
    """The page a posted form came from: the referring page of this site if it answers GET, else the
    form's own address or the nearest address above it that does (``/games/1/orders`` → ``/games/1``)."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc == request.url.netloc and referer.path and answers_get(request, referer.path):
        return referer.path + (f"?{referer.query}" if referer.query else "")
    parts = request.url.path.rstrip("/").split("/")
    while len(parts) > 1:
        path = "/".join(parts)
        if answers_get(request, path):
            return path
        parts.pop()
    return "/"
