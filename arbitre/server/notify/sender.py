"""The notification sender: a loop in every server process that delivers the outbox, each delivery once.

Each run (:func:`tick`):

1. writes the "deadline soon" notifications that came due (one per player and
   deadline: the outbox's unique key keeps one when two processes write it);
2. claims a batch of pending deliveries (:func:`arbitre.store.deliveries.claim`:
   ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, the single writer on SQLite) under
   a lease longer than an SMTP exchange may take;
3. writes each letter (recipient's view, language and time zone) and sends it
   outside any transaction;
4. marks it sent, only if this sender still owns it.

A crash between 3 and 4 leaves the row claimed; when its lease runs out another
sender sends it again with the same ``Message-ID`` (``<n{number}.email.{tag}@host>``), which
mail systems use to recognise a copy.  A crash before 3 sends nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
import uuid
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from arbitre.server.notify import letters, webhook
from arbitre.server.notify.mail import Envelope, SmtpServer, build
from arbitre.server.site import Site
from arbitre.store import deliveries
from arbitre.store.lifecycle import powers_to_act, ready_powers
from arbitre.store.models import ACTIVE, PLAYER, GameRow, Membership, Notification, User
from arbitre.store.outbox import DEADLINE, EMAIL, WEBHOOK, Event, enqueue, wants
from arbitre.words import translator

log = logging.getLogger("arbitre.notify")


def lease(site: Site) -> timedelta:
    """How long a claimed delivery stays with its sender (``ARBITRE_NOTIFY_LEASE``; longer than a send may take)."""
    return timedelta(seconds=site.settings.notify_lease)


RETRY = timedelta(minutes=1)
"""How long a failed delivery waits before it is tried again."""
LONGEST_REMINDER = 7 * 24 * 60
"""The earliest "deadline soon" a user may ask for: a week before (in minutes)."""
OWNER = f"{uuid.uuid4().hex[:16]}"
"""This process's sender id (written into the deliveries it claims)."""


def message_id(site: Site, note: Notification, channel: str) -> str:
    """The stable ``Message-ID`` of one notification on one channel (the same on every attempt).

    It holds the notification's number among its recipient's own notifications (never its row id, which
    counts everyone's: a private exchange between two others would move it) and a digest, by the site's
    signing key, of the recipient and the site: unique per recipient and per installation (a database made
    anew never reuses an id), and telling nothing of anyone else.
    """
    tag = site.signer.csrf_token(f"message-id:{note.user_id}")[:16]
    return f"<n{note.number}.{channel}.{tag}@{host(site)}>"


def host(site: Site) -> str:
    """The site's host name (from ``ARBITRE_SITE_URL``)."""
    return urlsplit(site.settings.site_url).hostname or "arbitre.invalid"


def unsubscribe_url(site: Site, user_id: int, kind: str) -> str:
    """The one-click link that turns ``kind`` off for e-mail (works without logging in)."""
    token = site.signer.make_fixed_token("unsubscribe", {"u": user_id, "k": kind})
    return f"{site.settings.site_url}/unsubscribe/{token}"


def email_text(site: Site, letter: letters.Letter, user: User, kind: str) -> str:
    """The e-mail's body: the letter, its link, and the unsubscribe and settings links."""
    _ = translator(user.lang)
    parts = [*letter.paragraphs, f"{site.settings.site_url}{letter.link}", "-- "]
    parts.append(
        "\n".join(
            [
                _("You get this e-mail because of your notification settings on {site}.", site=host(site)),
                _(
                    "Stop e-mails of this kind ({kind}): {url}",
                    kind=_.gettext(letters.KIND_NAMES.get(kind, kind)),
                    url=unsubscribe_url(site, user.id, kind),
                ),
                _("All your notification settings: {url}", url=f"{site.settings.site_url}/account"),
            ]
        )
    )
    return "\n\n".join(parts) + "\n"


def compose(site: Site, note: Notification, user: User) -> Any:
    """The e-mail of ``note`` for ``user`` (an :class:`email.message.EmailMessage`)."""
    with site.db.reading() as s:
        letter = letters.write(s, site.referee, note, user)
    sender = site.settings.mail_from or f"arbitre@{host(site)}"
    envelope = Envelope(
        sender=sender,
        to=user.email or "",
        message_id=message_id(site, note, EMAIL),
        date=note.created_at,
        unsubscribe_url=unsubscribe_url(site, user.id, note.kind),
        lang=user.lang,
    )
    return build(envelope, letter.subject, email_text(site, letter, user, note.kind))


def channels(site: Site) -> tuple[str, ...]:
    """The outside channels this process can deliver (e-mail when an SMTP server is set; webhooks always)."""
    return ((EMAIL,) if site.settings.smtp_url else ()) + (WEBHOOK,)


def webhook_body(site: Site, note: Notification, user: User) -> bytes:
    """The webhook body of ``note`` for ``user``: the letter written from their view, as JSON."""
    with site.db.reading() as s:
        letter = letters.write(s, site.referee, note, user)
    return webhook.payload(letter.item(note), site.settings.site_url, message_id(site, note, WEBHOOK))


def send_webhook(site: Site, note: Notification, user: User) -> None:
    """POST one notification to the user's webhook (raises on failure)."""
    body = webhook_body(site, note, user)
    webhook.post(
        user.webhook_url or "",
        user.webhook_secret or "",
        body,
        message_id(site, note, WEBHOOK),
        http_loopback=site.settings.webhook_http_loopback,
    )


def send_due(site: Site, owner: str = OWNER, limit: int = 20) -> int:
    """Claim and send a batch of pending deliveries; returns how many were sent."""
    usable = channels(site)
    if not usable:
        return 0
    now = site.now()
    with site.db.writing() as s:
        claimed = deliveries.claim(s, owner, now, lease(site), limit, usable)
    sent = 0
    smtp = SmtpServer.parse(site.settings.smtp_url) if EMAIL in usable else None
    with contextlib.ExitStack() as stack:
        connection: Any = None
        for n, c in enumerate(claimed):
            if (site.now() - now) * 2 >= lease(site):  # half the lease is gone: hand the rest back unsent
                with site.db.writing() as s:
                    deliveries.release(s, [x.delivery_id for x in claimed[n:]], owner)
                break
            if not wants(c.user, c.channel, c.notification.kind):
                with site.db.writing() as s:
                    deliveries.finish(s, c.delivery_id, owner, site.now(), deliveries.DROPPED, "turned off")
                continue
            try:
                if c.channel == EMAIL and smtp is not None:
                    message = compose(site, c.notification, c.user)
                    if connection is None:  # one SMTP connection for the batch
                        connection = stack.enter_context(smtp.connect())
                    connection.send_message(message)
                elif c.channel == WEBHOOK:
                    send_webhook(site, c.notification, c.user)
            except (smtplib.SMTPException, OSError, ValueError, httpx.HTTPError) as err:
                log.warning("notification %s: sending by %s failed: %s", c.notification.id, c.channel, err)
                with site.db.writing() as s:
                    deliveries.failed(s, c.delivery_id, owner, site.now(), RETRY, f"{type(err).__name__}: {err}")
                if c.channel == EMAIL:
                    connection = None  # the connection may be broken: open a new one for the next
                continue
            with site.db.writing() as s:
                if deliveries.finish(s, c.delivery_id, owner, site.now()):
                    sent += 1
    return sent


def remind(site: Site, now: datetime | None = None) -> int:
    """Write the "deadline soon" notifications that came due; returns how many users were told."""
    now = now or site.now()
    due: dict[int, tuple[str, str, datetime, str, list[int]]] = {}
    with site.db.reading() as s:
        rows = s.execute(
            select(GameRow, Membership.user_id, Membership.power, User.remind_minutes)
            .join(Membership, Membership.game_id == GameRow.id)
            .join(User, User.id == Membership.user_id)
            .where(
                GameRow.status == ACTIVE,
                GameRow.deadline_at > now,
                GameRow.deadline_at <= now + timedelta(minutes=LONGEST_REMINDER),
                Membership.role == PLAYER,
                User.remind_minutes.is_not(None),
            )
        ).all()
        for row, user_id, power, minutes in rows:
            deadline = row.deadline_at
            if deadline is None or minutes is None or deadline - timedelta(minutes=int(minutes)) > now:
                continue
            key = _reminder_key(row, deadline)
            told = s.scalar(
                select(Notification.id).where(
                    Notification.user_id == user_id, Notification.dedupe == f"{DEADLINE}:{row.id}:{key}"
                )
            )
            if told is not None:
                continue
            game = site.referee.game(s, row)
            if power not in powers_to_act(game) or power in ready_powers(s, row):
                continue
            due.setdefault(row.id, (row.phase, row.step, deadline, key, []))[4].append(user_id)
    told_count = 0
    for gid, (phase, step, deadline, key, users) in sorted(due.items()):
        data = {"phase": phase, "step": step, "deadline": deadline.isoformat()}
        with site.db.writing() as s:
            told_count += enqueue(s, Event(DEADLINE, gid, key, data, tuple(users)), now)
    return told_count


def _reminder_key(row: GameRow, deadline: datetime) -> str:
    return f"{row.phase}:{row.step}:{int(deadline.timestamp())}"


def tick(site: Site) -> int:
    """One run of the sender: due reminders, then a batch of deliveries.  Returns how many were sent."""
    try:
        remind(site)
    except Exception:  # a broken game must not stop the deliveries
        log.exception("writing the deadline reminders failed")
    total = 0
    while True:
        sent = send_due(site)
        total += sent
        if sent == 0:
            return total


async def run(site: Site, stop: asyncio.Event) -> None:
    """Call :func:`tick` every ``notify_interval`` seconds until ``stop`` is set."""
    while not stop.is_set():
        try:
            await run_in_threadpool(tick, site)
        except Exception:  # keep the loop alive whatever one run does
            log.exception("notification sender run failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=site.settings.notify_interval)
