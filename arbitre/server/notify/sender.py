"""The notification sender: a loop in every server process that delivers the outbox, each delivery once.

Each run of the loop (:func:`step`):

1. writes the "deadline soon" notifications that came due (one per player and
   deadline: the outbox's unique key keeps one when two processes write it);
2. starts the sending lanes (:mod:`~arbitre.server.notify.lanes`) on their free
   workers: e-mail on its own lane, webhooks on a bounded pool, each send under
   a wall-clock deadline.  A lane claims pending deliveries
   (:func:`arbitre.store.deliveries.claim`: ``FOR UPDATE SKIP LOCKED`` on
   PostgreSQL, the single writer on SQLite) under a lease longer than a send may
   take, writes each letter (recipient's view, language and time zone), sends
   it outside any transaction, and marks it sent, only if it still owns it.

A crash between the send and the mark leaves the row claimed; when its lease runs
out another sender sends it again with the same ``Message-ID``
(``<n{number}.email.{tag}@host>``), which mail systems use to recognise a copy.  A crash
before the send sends nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from arbitre.life.referee import powers_to_act, ready_powers
from arbitre.server.notify import letters, webhook
from arbitre.server.notify.lanes import OWNER as OWNER
from arbitre.server.notify.lanes import RETRY as RETRY
from arbitre.server.notify.lanes import Dispatcher
from arbitre.server.notify.lanes import channels as channels
from arbitre.server.notify.lanes import lease as lease
from arbitre.server.notify.mail import Envelope, build
from arbitre.server.security import UnsubscribeClaim
from arbitre.server.site import Site
from arbitre.store.models import ACTIVE, PLAYER, GameRow, Membership, Notification, User
from arbitre.store.outbox import DEADLINE, EMAIL, WEBHOOK, Event, enqueue
from arbitre.words import translator

log = logging.getLogger("arbitre.notify")

LONGEST_REMINDER = 7 * 24 * 60
"""The earliest "deadline soon" a user may ask for: a week before (in minutes)."""


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
    token = site.signer.make_fixed_token(UnsubscribeClaim(u=user_id, k=kind))
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
        deadline=site.settings.webhook_deadline,
    )


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


def dispatcher(site: Site, owner: str = OWNER) -> Dispatcher:
    """This process's sending lanes for ``site`` (see :mod:`~arbitre.server.notify.lanes`)."""
    return Dispatcher(site, compose, send_webhook, owner)


def step(site: Site, lanes: Dispatcher) -> int:
    """One run of the loop: due reminders, then work for the lanes' free workers (not waited for)."""
    try:
        remind(site)
    except Exception:  # a broken game must not stop the deliveries
        log.exception("writing the deadline reminders failed")
    return lanes.fill()


def send_due(site: Site, owner: str = OWNER) -> int:
    """Send every due delivery now and wait for the lanes to finish; returns how many were sent."""
    lanes = dispatcher(site, owner)
    try:
        lanes.fill()
        return lanes.join()
    finally:
        lanes.close()


def tick(site: Site) -> int:
    """One run of the sender, waited for: due reminders, then every due delivery.  Returns how many were sent."""
    try:
        remind(site)
    except Exception:  # a broken game must not stop the deliveries
        log.exception("writing the deadline reminders failed")
    return send_due(site)


async def run(site: Site, stop: asyncio.Event) -> None:
    """Run :func:`step` every ``notify_interval`` seconds until ``stop`` is set; the lanes send meanwhile."""
    lanes = dispatcher(site)
    try:
        while not stop.is_set():
            try:
                await run_in_threadpool(step, site, lanes)
            except Exception:  # keep the loop alive whatever one run does
                log.exception("notification sender run failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=site.settings.notify_interval)
    finally:
        lanes.close()
