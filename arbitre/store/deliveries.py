"""Claiming outbox deliveries: each pending delivery goes to one sender at a time, under a lease.

A sender (any server process) claims a batch in one short write transaction:
the rows are picked with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL (two senders
never pick the same row, and neither waits for the other) and inside SQLite's
``BEGIN IMMEDIATE`` (one writer at a time), then marked with the sender's
``owner`` id and ``lease_until``.  It sends outside any transaction, then marks
each row ``sent`` — only if it still owns it.  A sender that dies between its
claim and its mark leaves a row whose lease runs out; another sender claims it
again and sends it with the same ``Message-ID``, so that a copy that did leave
before the crash is recognised as the same message.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from arbitre.store.models import Delivery, Notification, User

PENDING, SENT, DROPPED = "pending", "sent", "dropped"
"""States of a delivery."""
MAX_ATTEMPTS = 8
"""A delivery that failed this many times is dropped (its error is kept)."""
LONGEST_WAIT = timedelta(hours=1)
"""The longest wait before another attempt (the backoff doubles up to it)."""


@dataclass(frozen=True)
class Claimed:
    """A delivery claimed by one sender, with its notification and recipient loaded."""

    delivery_id: int
    channel: str
    attempts: int
    notification: Notification
    user: User


def claim(
    session: Session,
    owner: str,
    now: datetime,
    lease: timedelta,
    limit: int = 20,
    channels: tuple[str, ...] = ("email",),
    *,
    one_per_user: bool = False,
) -> list[Claimed]:
    """Claim up to ``limit`` pending deliveries on ``channels`` whose lease is free or ran out (in ``session``'s
    write transaction).

    ``one_per_user``: at most one delivery per recipient, and none of a recipient with a delivery on these
    channels in flight (claimed by any sender, its lease running): one recipient's slow endpoint holds at
    most one sender's worker, and each recipient's deliveries leave in order.
    """
    free = (
        Delivery.state == PENDING,
        Delivery.channel.in_(channels),
        or_(Delivery.lease_until.is_(None), Delivery.lease_until <= now),
    )
    if one_per_user:
        busy = (
            select(Notification.user_id)
            .join(Delivery, Delivery.notification_id == Notification.id)
            .where(
                Delivery.state == PENDING,
                Delivery.channel.in_(channels),
                Delivery.owner != "",
                Delivery.lease_until > now,
            )
        )
        firsts = list(
            session.scalars(
                select(func.min(Delivery.id))
                .join(Notification, Notification.id == Delivery.notification_id)
                .where(*free, Notification.user_id.not_in(busy))
                .group_by(Notification.user_id)
                .order_by(func.min(Delivery.id))
                .limit(limit)
            )
        )
        if not firsts:
            return []
        pick = select(Delivery.id).where(Delivery.id.in_(firsts), *free)
    else:
        pick = select(Delivery.id).where(*free)
    ids = list(session.scalars(pick.order_by(Delivery.id).limit(limit).with_for_update(skip_locked=True)))
    if not ids:
        return []
    session.execute(
        update(Delivery)
        .where(Delivery.id.in_(ids))
        .values(owner=owner, lease_until=now + lease, attempts=Delivery.attempts + 1)
    )
    out = []
    rows = session.execute(
        select(Delivery, Notification, User)
        .join(Notification, Notification.id == Delivery.notification_id)
        .join(User, User.id == Notification.user_id)
        .where(Delivery.id.in_(ids), Delivery.owner == owner)
        .order_by(Delivery.id)
        .execution_options(populate_existing=True)
    ).all()
    for d, n, u in rows:
        out.append(Claimed(d.id, d.channel, d.attempts, n, u))
    return out


def finish(session: Session, delivery_id: int, owner: str, now: datetime, state: str = SENT, error: str = "") -> bool:
    """Mark a claimed delivery ``sent`` (or ``dropped``); False if this sender no longer owns it."""
    result = session.execute(
        update(Delivery)
        .where(Delivery.id == delivery_id, Delivery.owner == owner, Delivery.state == PENDING)
        .values(state=state, sent_at=now if state == SENT else None, error=error[:200], lease_until=None)
    )
    return bool(getattr(result, "rowcount", 0))


def release(session: Session, delivery_ids: list[int], owner: str) -> None:
    """Hand claimed deliveries back unsent (a sender running late), so that any sender may claim them now."""
    session.execute(
        update(Delivery)
        .where(Delivery.id.in_(delivery_ids), Delivery.owner == owner, Delivery.state == PENDING)
        .values(lease_until=None)
    )


def failed(session: Session, delivery_id: int, owner: str, now: datetime, retry_in: timedelta, error: str) -> None:
    """A send failed: try again after ``retry_in``, doubled at each further attempt up to :data:`LONGEST_WAIT`
    (dropped after :data:`MAX_ATTEMPTS` attempts)."""
    row = session.get(Delivery, delivery_id)
    if row is None or row.owner != owner or row.state != PENDING:
        return
    row.error = error[:200]
    row.owner = ""  # no longer in flight: the wait before the next attempt is no claim
    if row.attempts >= MAX_ATTEMPTS:
        row.state = DROPPED
        row.lease_until = None
    else:
        row.lease_until = now + min(retry_in * 2 ** max(row.attempts - 1, 0), LONGEST_WAIT)


def counts(session: Session) -> dict[str, int]:
    """How many deliveries are in each state (for tests and the docs' checks)."""
    return {
        state: int(n) for state, n in session.execute(select(Delivery.state, func.count()).group_by(Delivery.state))
    }
