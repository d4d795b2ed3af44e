"""The notification outbox: rows written in the same transaction as the change they report.

Two ways in:

- :func:`enqueue` — any code that makes a change worth telling (a vote opened or
  decided, a call for a replacement…) calls it inside its own write transaction::

      from arbitre.store.outbox import Event, enqueue
      enqueue(session, Event("vote_opened", game_id, key=f"vote:{vote.id}", data={"vote": vote.id}), now)

- :class:`OutboxHook` — the store reports its own changes: a processed step
  (an :class:`~arbitre.store.models.Adjudication` row), a game that starts or
  ends (its ``status``), a press message.  It watches every flush of a write
  transaction and writes the notifications just before that transaction
  commits, so they commit with the change or not at all.

A notification holds no words and nothing secret: only what it is about (phase
names, a message id, a deadline).  Its reader knows it by its number among the
reader's own notifications (``Notification.number``), never by its row id.  Its text is written when it is read or sent,
from the recipient's own view and in the recipient's language
(:mod:`arbitre.server.notify`).  Each notification gets one
:class:`~arbitre.store.models.Delivery` row per outside channel the recipient
wants (e-mail); senders claim those rows (:mod:`arbitre.store.deliveries`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, String, cast, event, func, inspect, or_, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from arbitre.store.access import known_game_ids
from arbitre.store.models import (
    ACTIVE,
    FINISHED,
    FORMING,
    MASTER,
    PLAYER,
    Adjudication,
    Delivery,
    GameRow,
    Membership,
    Message,
    Notification,
    User,
)

PHASE = "phase"
"""A phase (or a step inside it) was processed."""
DEADLINE = "deadline"
"""The deadline is near (at the time the player chose)."""
MESSAGE = "message"
"""A press message the recipient may read."""
VOTE_OPENED = "vote_opened"
"""A vote was opened (written by the votes code through :func:`enqueue`)."""
VOTE_DECIDED = "vote_decided"
"""A vote passed or failed."""
REPLACEMENT = "replacement"
"""A call for a replacement player in one of the recipient's games (its master and other players)."""
CALLS = "calls"
"""A call for a replacement player in any game of the site (for users who asked for them: off by default)."""
STARTED = "started"
"""The game started."""
FINISHED_KIND = "finished"
"""The game ended (victory, draw, or ended by its master)."""

KINDS = (PHASE, DEADLINE, MESSAGE, VOTE_OPENED, VOTE_DECIDED, REPLACEMENT, STARTED, FINISHED_KIND, CALLS)
"""Every kind of notification, in the order the account page lists them."""
OPT_IN = (CALLS,)
"""The kinds a user gets only after turning them on (``User.notify_on``); every other kind is on until turned
off (``User.notify_off``)."""
SITE, EMAIL, WEBHOOK = "site", "email", "webhook"
CHANNELS = (SITE, EMAIL, WEBHOOK)
"""Where a notification can go: the site's list, e-mail, the user's webhook."""
OUTSIDE = (EMAIL, WEBHOOK)
"""The channels a sender delivers (the site's list is read from the outbox itself)."""


@dataclass(frozen=True)
class Event:
    """Something to tell: its kind, its game, what makes it one event, and its data (no words, no secrets).

    ``users`` are the recipients' ids; ``None`` means every member of the game
    (master, players, observers).  ``key`` identifies the event: enqueuing the
    same kind and key twice for a user writes one notification.
    """

    kind: str
    game_id: int | None
    key: str
    data: dict[str, Any] = field(default_factory=dict)
    users: tuple[int, ...] | None = None


def wants(user: User, channel: str, kind: str) -> bool:
    """Does ``user`` want ``kind`` on ``channel`` (and has somewhere to receive it)?"""
    switch = f"{channel}:{kind}"
    if kind in OPT_IN:
        if switch not in (user.notify_on or []):
            return False
    elif switch in (user.notify_off or []):
        return False
    if channel == EMAIL:
        return bool(user.email)
    if channel == WEBHOOK:
        return bool(user.webhook_url and user.webhook_secret)
    return True


def enqueue(session: Session, ev: Event, now: datetime) -> int:
    """Write ``ev``'s notifications (one per recipient, with its deliveries) in ``session``'s transaction.

    Recipients who turned the kind off everywhere get nothing; a recipient who
    already has this event (same kind and key) is skipped, also when another
    process wrote it at the same moment.  Returns how many were written.
    """
    if ev.kind not in KINDS:
        raise ValueError(f"unknown notification kind {ev.kind!r}")
    users = list(ev.users) if ev.users is not None else _members(session, ev.game_id)
    if not users:
        return 0
    dedupe = f"{ev.kind}:{ev.game_id or 0}:{ev.key}"[:160]
    done = set(
        session.scalars(
            select(Notification.user_id).where(Notification.dedupe == dedupe, Notification.user_id.in_(users))
        )
    )
    written = 0
    for user_id in sorted(set(users) - done):
        user = session.get(User, user_id)
        if user is None:
            continue
        channels = [c for c in OUTSIDE if wants(user, c, ev.kind)]
        in_site = wants(user, SITE, ev.kind)
        if not channels and not in_site:
            continue
        for _attempt in range(NUMBER_ATTEMPTS):
            try:
                with session.begin_nested():  # another process may write the same event now: keep one
                    note = Notification(
                        user_id=user_id,
                        kind=ev.kind,
                        game_id=ev.game_id,
                        data=dict(ev.data),
                        dedupe=dedupe,
                        created_at=now,
                        in_site=in_site,
                        number=next_number(session, user_id),
                    )
                    session.add(note)
                    session.flush()
                    for channel in channels:
                        session.add(Delivery(notification_id=note.id, channel=channel, state="pending", attempts=0))
                    session.flush()
            except (IntegrityError, OperationalError):
                # the same event written by another process (keep theirs), or its number taken by another
                # process's notification to this user (or a deadlock on it): number it again, seeing theirs
                if _has(session, user_id, dedupe):
                    break
                continue
            written += 1
            break
    return written


NUMBER_ATTEMPTS = 5
"""How many times a notification is numbered again when other processes took its number meanwhile."""


def next_number(session: Session, user_id: int) -> int:
    """The number of the user's next notification: one more than their newest (1 for their first).

    Readers see this number, never the row id: the row id counts every user's notifications, so it would
    tell a reader how many others got (a private exchange between two other powers, say).
    """
    found = session.scalar(select(func.max(Notification.number)).where(Notification.user_id == user_id))
    return int(found or 0) + 1


def _has(session: Session, user_id: int, dedupe: str) -> bool:
    return (
        session.scalar(select(Notification.id).where(Notification.user_id == user_id, Notification.dedupe == dedupe))
        is not None
    )


def opted_in(session: Session, kind: str) -> list[int]:
    """The users who turned ``kind`` (an :data:`OPT_IN` kind) on for some channel, by id."""
    # a coarse filter in SQL (the JSON list as text names the kind), the exact one here
    rows = session.scalars(select(User).where(cast(User.notify_on, String).like(f"%:{kind}%")))
    return sorted(u.id for u in rows if any(s.endswith(f":{kind}") for s in (u.notify_on or [])))


def _members(session: Session, game_id: int | None) -> list[int]:
    if game_id is None:
        return []
    return list(session.scalars(select(Membership.user_id).where(Membership.game_id == game_id)))


def message_readers(session: Session, msg: Message) -> list[int]:
    """Who is told of a press message: the members who may read it, but not its writer.

    A public message goes to every member; one to powers to those powers'
    players; one to the master to the master.  (The master may read every
    message on the messages page, but is told only of those addressed to them
    or to everyone.)
    """
    members = list(session.scalars(select(Membership).where(Membership.game_id == msg.game_id)))
    out = []
    for m in members:
        if m.user_id == msg.sender_id:
            continue
        if (
            msg.recipient == "*"
            or ("MASTER" in msg.recipients and m.role == MASTER)
            or (m.role == PLAYER and m.power in msg.recipients)
        ):
            out.append(m.user_id)
    return out


@dataclass
class _Seen:
    """What one write transaction did that is worth telling (collected flush by flush)."""

    steps: dict[int, list[tuple[str, str, datetime]]] = field(default_factory=dict)
    """Per game: the steps processed (phase, step, when), in order."""
    started: set[int] = field(default_factory=set)
    finished: set[int] = field(default_factory=set)
    messages: list[int] = field(default_factory=list)


class OutboxHook:
    """Writes the notifications of what a write transaction changed, just before it commits.

    ``clock`` dates them (the server sets its own clock, so that tests can move time).
    """

    def __init__(self) -> None:
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    def attach(self, factory: sessionmaker[Session]) -> None:
        """Watch every write session made by ``factory``."""
        event.listen(factory, "after_flush", self._after_flush)
        event.listen(factory, "before_commit", self._before_commit)

    @staticmethod
    def _seen(session: Session) -> _Seen:
        seen: _Seen = session.info.setdefault("outbox", _Seen())
        return seen

    def _after_flush(self, session: Session, _context: Any) -> None:
        seen: _Seen | None = None
        for obj in session.new:
            if isinstance(obj, Adjudication):
                seen = seen or self._seen(session)
                seen.steps.setdefault(obj.game_id, []).append((obj.phase, obj.step, obj.done_at))
            elif isinstance(obj, Message):
                seen = seen or self._seen(session)
                seen.messages.append(obj.id)
        for obj in session.dirty:
            if not isinstance(obj, GameRow):
                continue
            history = inspect(obj).attrs.status.history
            if not history.has_changes():
                continue
            before = history.deleted[0] if history.deleted else None
            seen = seen or self._seen(session)
            if before == FORMING and obj.status == ACTIVE:
                seen.started.add(obj.id)
            if obj.status == FINISHED and before != FINISHED:
                seen.finished.add(obj.id)

    def _before_commit(self, session: Session) -> None:
        if session.in_nested_transaction():
            # a savepoint is released (SQLAlchemy fires before_commit for it too): wait for the real commit, so
            # that what the transaction enqueued itself (a vote decided) comes before what the hook writes
            # (the game's end)
            return
        if session.new or session.dirty or session.deleted:
            session.flush()  # what is still pending is seen by _after_flush now
        if "outbox" not in session.info:
            return
        seen: _Seen = session.info.pop("outbox")
        now = self.clock()
        for gid in sorted(seen.started):
            row = session.get(GameRow, gid)
            deadline = row.deadline_at.isoformat() if row is not None and row.deadline_at else None
            enqueue(
                session, Event(STARTED, gid, "start", {"phase": row.phase if row else "", "deadline": deadline}), now
            )
        for gid, steps in sorted(seen.steps.items()):
            row = session.get(GameRow, gid)
            if row is None:
                continue
            phase, step, _when = steps[0]
            data = {
                "from": phase,
                "from_step": step,
                "phase": row.phase,
                "step": row.step,
                "status": row.status,
                "deadline": row.deadline_at.isoformat() if row.deadline_at else None,
            }
            enqueue(session, Event(PHASE, gid, f"{phase}:{step}", data), now)
        for gid in sorted(seen.finished):
            row = session.get(GameRow, gid)
            enqueue(session, Event(FINISHED_KIND, gid, "end", {"result": row.result if row else ""}), now)
        for mid in seen.messages:
            msg = session.get(Message, mid)
            if msg is None:
                continue
            users = tuple(message_readers(session, msg))
            enqueue(session, Event(MESSAGE, msg.game_id, str(mid), {"message": mid}, users), now)
        session.info.pop("outbox", None)  # the notifications' own flushes saw nothing to tell


def _known_to(user_id: int) -> ColumnElement[bool]:
    """Notifications about no game, or about a game ``user_id`` may know exists (the site's one rule)."""
    return or_(Notification.game_id.is_(None), Notification.game_id.in_(known_game_ids(user_id)))


def unread_count(session: Session, user_id: int) -> int:
    """How many of the user's site notifications are unread."""
    from sqlalchemy import func

    return int(
        session.scalar(
            select(func.count(Notification.id)).where(
                Notification.user_id == user_id,
                Notification.in_site.is_(True),
                Notification.read_at.is_(None),
                _known_to(user_id),
            )
        )
        or 0
    )


def site_list(session: Session, user_id: int, limit: int = 50, before: int | None = None) -> list[Notification]:
    """The user's site notifications, newest first (``before``: older than this number), about games the user may
    know exist (a player replaced in a private game no longer reads about it)."""
    stmt = select(Notification).where(
        Notification.user_id == user_id, Notification.in_site.is_(True), _known_to(user_id)
    )
    if before is not None:
        stmt = stmt.where(Notification.number < before)
    return list(session.scalars(stmt.order_by(Notification.number.desc()).limit(limit)))


def mark_read(session: Session, user_id: int, ids: Iterable[int] | None, now: datetime) -> int:
    """Mark the user's notifications numbered ``ids`` (``None``: all) read; returns how many changed."""
    from sqlalchemy import update

    stmt = update(Notification).where(Notification.user_id == user_id, Notification.read_at.is_(None))
    if ids is not None:
        stmt = stmt.where(Notification.number.in_(list(ids)))
    result = session.execute(stmt.values(read_at=now))
    return int(getattr(result, "rowcount", 0))
