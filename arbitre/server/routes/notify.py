"""Notifications: the site's list (page and API), each user's settings, and the one-click unsubscribe link.

The list shows each notification written for its reader (their view, language
and time zone, :mod:`arbitre.server.notify.letters`).  The unsubscribe link of
an e-mail works without logging in: its token is signed by the site and names
the account and the kind; following it shows a confirmation button, and a
``POST`` to it (what mail programs send for RFC 8058's one-click unsubscribe)
turns that kind of e-mail off.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any
from urllib.parse import quote
from zoneinfo import available_timezones

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import AfterValidator, Field, StringConstraints
from sqlalchemy.orm import Session

from arbitre.server.answers import Answer
from arbitre.server.auth import site_of
from arbitre.server.errors import Problem, bad_request
from arbitre.server.fields import RowId, Strict
from arbitre.server.notify import letters, webhook
from arbitre.server.pages import redirect, render
from arbitre.server.security import UnsubscribeClaim
from arbitre.server.site import Site
from arbitre.server.visit import NO_CSRF, reading, writing
from arbitre.store.models import Notification, User
from arbitre.store.outbox import CHANNELS, KINDS, OPT_IN, mark_read, site_list, unread_count, wants
from arbitre.words import translator

router = APIRouter(tags=["notifications"])

EMAIL_RE = re.compile(r"^[^@\s<>\"(),;:\\\[\]]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$")
"""A plain e-mail address (local part without quoting or comments, a dotted domain)."""
LONGEST_REMINDER = 7 * 24 * 60
"""The earliest reminder: a week before the deadline (minutes)."""


@cache
def time_zones() -> frozenset[str]:
    """Every IANA time zone name this server knows."""
    return frozenset(available_timezones() | {"UTC"})


def _email(value: str) -> str:
    if value and not EMAIL_RE.match(value):
        raise ValueError("not an e-mail address (name@example.org)")
    return value


def _zone(value: str) -> str:
    if value not in time_zones():
        raise ValueError("not a time zone name (Europe/Paris, America/New_York, UTC…)")
    return value


def _switch(value: str) -> str:
    channel, _, kind = value.partition(":")
    if channel not in CHANNELS or kind not in KINDS:
        raise ValueError(
            f"a switch is channel:kind with a channel in {', '.join(CHANNELS)} and a kind in {', '.join(KINDS)}"
        )
    return value


Email = Annotated[str, StringConstraints(max_length=254), AfterValidator(_email)]
"""An e-mail address ("" for none)."""
TimeZone = Annotated[str, StringConstraints(max_length=64), AfterValidator(_zone)]
"""An IANA time zone name."""


def _opt_in(value: str) -> str:
    if value.partition(":")[2] not in OPT_IN:
        raise ValueError(f"only these kinds are turned on here: {', '.join(OPT_IN)} (the others are on unless off)")
    return value


def _opt_out(value: str) -> str:
    if value.partition(":")[2] in OPT_IN:
        raise ValueError(f"{', '.join(OPT_IN)} are off unless listed in 'on'")
    return value


Switch = Annotated[str, StringConstraints(max_length=40), AfterValidator(_switch), AfterValidator(_opt_out)]
"""``channel:kind`` of a kind that is on until turned off, e.g. ``email:message``."""
OptInSwitch = Annotated[str, StringConstraints(max_length=40), AfterValidator(_switch), AfterValidator(_opt_in)]
"""``channel:kind`` of an opt-in kind, e.g. ``email:calls``."""


class NotifySettingsIn(Strict):
    """Notification settings; a field left out is left as it is."""

    email: Email | None = None
    """Where e-mails go ("" or ``null``: no e-mail)."""
    time_zone: TimeZone | None = None
    remind_minutes: Annotated[int, Field(ge=1, le=LONGEST_REMINDER)] | None = None
    """How long before a deadline to be reminded (``null``: never)."""
    off: Annotated[list[Switch], Field(max_length=len(KINDS) * len(CHANNELS))] | None = None
    """The kinds turned off, per channel (``email:message``…); every other kind is on (opt-in kinds: see ``on``)."""
    on: Annotated[list[OptInSwitch], Field(max_length=len(OPT_IN) * len(CHANNELS))] | None = None
    """The opt-in kinds turned on, per channel (``site:calls``…); they are off until turned on."""


class ReadIn(Strict):
    """Which notifications to mark read, by their ``id`` in your list (``ids`` left out: all)."""

    ids: Annotated[list[RowId], Field(max_length=200)] | None = None


class NotifySettings(Answer):
    """A user's notification settings: e-mail, time zone, reminder, the switches turned off and the opt-in ones
    turned on (``channel:kind``), the webhook URL, and the kinds, opt-in kinds and channels there are."""

    email: str
    time_zone: str
    remind_minutes: int | None
    off: list[str]
    on: list[str]
    webhook: str
    kinds: list[str]
    opt_in: list[str]
    channels: list[str]


class Notice(letters.NoteItem):
    """A notification of the list, written for its reader: its number among the reader's own, read or not."""

    id: int
    read: bool


class Notices(Answer):
    """The reader's notifications (newest first) and how many are unread."""

    unread: int
    items: list[Notice]


class Marked(Answer):
    """How many notifications were just marked read, and how many are still unread."""

    marked: int
    unread: int


class WebhookSet(Answer):
    """A webhook just set: its URL and its signing secret (shown this once)."""

    url: str
    secret: str


def settings_data(user: User) -> NotifySettings:
    """A user's notification settings as the API shows them."""
    return NotifySettings(
        email=user.email or "",
        time_zone=user.time_zone or "UTC",
        remind_minutes=user.remind_minutes,
        off=sorted(s for s in user.notify_off or [] if s.partition(":")[2] not in OPT_IN),
        on=sorted(user.notify_on or []),
        webhook=user.webhook_url or "",
        kinds=list(KINDS),
        opt_in=list(OPT_IN),
        channels=list(CHANNELS),
    )


def account_context(user: User) -> dict[str, Any]:
    """What the account page's notification section shows: the settings, the kinds and the time zones."""
    return {
        "notify": settings_data(user).data(),
        "notify_kinds": [(kind, letters.KIND_NAMES[kind]) for kind in KINDS],
        "notify_channels": list(CHANNELS),
        "zones": sorted(time_zones()),
    }


def item(site: Site, s: Session, note: Notification, user: User) -> Notice:
    """One notification of the list, written for ``user``."""
    letter = letters.write(s, site.referee, note, user)
    return Notice(id=note.number, **dict(letter.item(note)), read=note.read_at is not None)


@router.get("/api/notifications")
def list_notifications(request: Request, before: int | None = None, limit: int = 50) -> Notices:
    """Your site notifications, newest first (``before``: older than this id), and how many are unread.

    A notification's ``id`` is its number among your own notifications (1 for your first): it counts nothing
    that others get."""
    if not 1 <= limit <= 200:
        raise bad_request("limit is 1 to 200", "bad_query", "query.limit")
    if before is not None and not 1 <= before <= 2**31 - 1:
        raise bad_request("before is a notification id", "bad_query", "query.before")
    with reading(request) as v:
        user = v.user()
        notes = site_list(v.session, user.id, limit, before)
        return Notices(unread=unread_count(v.session, user.id), items=[item(v.site, v.session, n, user) for n in notes])


@router.post("/api/notifications/read")
def read_notifications(body: ReadIn, request: Request) -> Marked:
    """Mark some of your notifications (or all) read."""
    with writing(request) as v:
        user = v.user()
        changed = mark_read(v.session, user.id, body.ids, v.site.now())
        return Marked(marked=changed, unread=unread_count(v.session, user.id))


@router.get("/api/me/notifications")
def get_settings(request: Request) -> NotifySettings:
    """Your notification settings: e-mail, time zone, reminder, and the kinds turned off per channel."""
    with reading(request) as v:
        return settings_data(v.user())


@router.put("/api/me/notifications")
def put_settings(body: NotifySettingsIn, request: Request) -> NotifySettings:
    """Change your notification settings (fields left out stay as they are)."""
    with writing(request) as v:
        user = v.user()
        given = body.model_fields_set
        if "email" in given:
            user.email = body.email or None
        if "time_zone" in given:
            user.time_zone = body.time_zone or "UTC"
        if "remind_minutes" in given:
            user.remind_minutes = body.remind_minutes
        if "off" in given:
            user.notify_off = sorted(set(body.off or []))
        if "on" in given:
            user.notify_on = sorted(set(body.on or []))
        return settings_data(user)


class WebhookIn(Strict):
    """Where to POST your notifications: an https URL on a public address."""

    url: Annotated[str, StringConstraints(min_length=1, max_length=webhook.MAX_URL)]


def set_webhook(site: Site, user: User, url: str, where: str) -> str:
    """Check ``url`` (an error names ``where``), store it as ``user``'s webhook with a new signing secret,
    and return that secret (shown to the user this once)."""
    try:
        webhook.check_url(url, http_loopback=site.settings.webhook_http_loopback)
    except webhook.WebhookError as err:
        raise bad_request(str(err), "bad_webhook", where) from err
    user.webhook_url = url
    user.webhook_secret = webhook.new_secret()
    return user.webhook_secret


def remove_webhook(user: User) -> None:
    """Forget ``user``'s webhook and its secret: nothing more is posted."""
    user.webhook_url = None
    user.webhook_secret = None


@router.put("/api/me/webhook")
def put_webhook(body: WebhookIn, request: Request) -> WebhookSet:
    """Set your webhook URL; the answer carries a new signing secret, shown this once (HMAC-SHA256 of each body,
    in ``X-Arbitre-Signature: sha256=<hex>``)."""
    with writing(request) as v:
        secret = set_webhook(v.site, v.user(), body.url, "body.url")
        return WebhookSet(url=body.url, secret=secret)


@router.delete("/api/me/webhook")
def delete_webhook(request: Request) -> NotifySettings:
    """Remove your webhook (and its secret): nothing more is posted to it."""
    with writing(request) as v:
        user = v.user()
        remove_webhook(user)
        return settings_data(user)


# ----------------------------------------------------------------------------- pages
@router.get("/notifications", response_class=HTMLResponse, include_in_schema=False)
def notifications_page(request: Request) -> Response:
    """Your notifications (newest first)."""
    with reading(request) as v:
        user = v.user()
        notes = site_list(v.session, user.id, 100)
        _ = translator(user.lang)
        items = [
            {**item(v.site, v.session, n, user).data(), "when": letters.when(n.created_at, user, _)} for n in notes
        ]
        return render(
            request, v.actor, "notifications.html", {"items": items, "unread": unread_count(v.session, user.id)}
        )


@router.post("/notifications/read", include_in_schema=False)
def notifications_read(request: Request, csrf: str = Form("")) -> Response:
    """Mark every notification read (the page's button)."""
    with writing(request, csrf) as v:
        mark_read(v.session, v.user().id, None, v.site.now())
    return redirect("/notifications", "done")


@router.post("/account/notifications", include_in_schema=False)
def settings_form(
    request: Request,
    csrf: str = Form(""),
    email: str = Form(""),
    time_zone: str = Form("UTC"),
    remind_minutes: str = Form(""),
    on: list[str] = Form([]),
) -> Response:
    """The account page's notification settings form (a checkbox ``on`` per channel and kind)."""
    try:
        email = _email(email.strip()[:254])
    except ValueError as err:
        raise bad_request(str(err), "bad_settings", "form.email") from err
    if time_zone not in time_zones():
        raise bad_request("not a time zone name (Europe/Paris, UTC…)", "bad_settings", "form.time_zone")
    minutes: int | None = None
    if remind_minutes.strip():
        if not remind_minutes.strip().isdigit() or not 1 <= int(remind_minutes.strip()) <= LONGEST_REMINDER:
            raise bad_request(
                f"a reminder is 1 to {LONGEST_REMINDER} minutes before the deadline",
                "bad_settings",
                "form.remind_minutes",
            )
        minutes = int(remind_minutes.strip())
    if len(on) > len(KINDS) * len(CHANNELS):
        raise bad_request("too many switches", "bad_settings", "form.on")
    with writing(request, csrf) as v:
        user = v.user()
        user.email = email or None
        user.time_zone = time_zone
        user.remind_minutes = minutes
        switches = {f"{c}:{k}": k for c in CHANNELS for k in KINDS}
        user.notify_off = sorted(s for s, k in switches.items() if k not in OPT_IN and s not in set(on))
        user.notify_on = sorted(s for s, k in switches.items() if k in OPT_IN and s in set(on))
    return redirect("/account", "done")


# ----------------------------------------------------------------------------- unsubscribe (no login)
def _unsubscribe_target(site: Site, token: str) -> tuple[int, str]:
    claim = site.signer.read_fixed_token(UnsubscribeClaim, token)
    if claim is None or claim.k not in KINDS:
        raise Problem(404, "not_found", "this unsubscribe link is not valid")
    return claim.u, claim.k


@router.get("/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
def unsubscribe_page(token: str, request: Request) -> Response:
    """Ask to confirm (a link opened by a mail scanner must change nothing)."""
    site = site_of(request)
    user_id, kind = _unsubscribe_target(site, token)
    with reading(request) as v:
        user = v.session.get(User, user_id)
        if user is None:
            raise Problem(404, "not_found", "this unsubscribe link is not valid")
        v.actor.lang = user.lang
        context = {"kind": letters.KIND_NAMES[kind], "token": token, "done": not wants(user, "email", kind)}
        return render(request, v.actor, "unsubscribe.html", context)


@router.post("/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
def unsubscribe(token: str, request: Request) -> Response:
    """Turn this kind of e-mail off (RFC 8058 one-click: mail programs ``POST`` here without a login)."""
    site = site_of(request)
    user_id, kind = _unsubscribe_target(site, token)
    with writing(request, NO_CSRF) as v:  # the signed link is the proof (no login, no form)
        user = v.session.get(User, user_id)
        if user is None:
            raise Problem(404, "not_found", "this unsubscribe link is not valid")
        switch = f"email:{kind}"
        if kind in OPT_IN:
            user.notify_on = sorted(set(user.notify_on or []) - {switch})
        elif switch not in (user.notify_off or []):
            user.notify_off = sorted({*(user.notify_off or []), switch})
    return redirect(f"/unsubscribe/{quote(token)}")  # post/redirect/get: the page now says it is done
