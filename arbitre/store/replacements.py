"""Calls for a replacement: a take-over link for one power of a game, published by the master or by the
civil-disorder rule (``replace_on_disorder``).

Whoever follows the link and logs in may take the seat (if they have no other
role in the game): the late player loses it (:meth:`arbitre.life.referee.Referee.replace_player`).
The calls of a public game are public: the site-wide lateness board lists the open ones.  A private
game's calls follow the site's one rule (:mod:`arbitre.store.access`): only its members see them, and
only they may take the seat (an observer the master invited).

A new call is told in its own transaction (:func:`announce`, through the notification outbox): to the
game's master and its other players (kind ``replacement``), and, when the game is public, to every user
of the site who turned the ``calls`` kind on (off by default).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import ForeignKey, Integer, Select, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.store.access import may_know
from arbitre.store.games import GameRuleError
from arbitre.store.models import ACTIVE, MASTER, PAUSED, PLAYER, Base, GameRow, Membership, UTCDateTime
from arbitre.store.outbox import CALLS, REPLACEMENT, Event, enqueue, opted_in

REASONS = ("master", "disorder")
"""Who published a call: the game master, or the civil-disorder rule."""


class ReplacementCall(Base):
    """A published call for a replacement of ``power``, reached through its ``token`` (the take-over link)."""

    __tablename__ = "replacement_calls"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(24))
    token: Mapped[str] = mapped_column(String(64), unique=True)
    reason: Mapped[str] = mapped_column(String(16), default="master")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    taken_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)


def open_calls(
    session: Session, game_id: int | None = None, *, known: Select[int] | None = None
) -> list[ReplacementCall]:
    """The open calls of one game (or of every game whose id is in ``known``: see
    :func:`arbitre.store.access.known_game_ids`), oldest first."""
    stmt = select(ReplacementCall).where(ReplacementCall.closed_at.is_(None)).order_by(ReplacementCall.id)
    if game_id is not None:
        stmt = stmt.where(ReplacementCall.game_id == game_id)
    if known is not None:
        stmt = stmt.where(ReplacementCall.game_id.in_(known))
    return list(session.scalars(stmt))


def publish_call(
    session: Session, row: GameRow, power: str, powers: list[str], reason: str, now: datetime
) -> ReplacementCall:
    """Publish a call for ``power`` (the open one if there is one already)."""
    power = power.upper()
    if power not in powers:
        raise GameRuleError(f"{power[:24]!r} is not a power of this game ({', '.join(powers)})")
    if row.status not in (ACTIVE, PAUSED):
        raise GameRuleError("only a running game calls for a replacement")
    if reason not in REASONS:
        raise GameRuleError(f"unknown reason {reason!r}")
    found = next((c for c in open_calls(session, row.id) if c.power == power), None)
    if found is not None:
        return found
    call = ReplacementCall(game_id=row.id, power=power, token=secrets.token_urlsafe(24), reason=reason, created_at=now)
    session.add(call)
    session.flush()
    row.version += 1
    announce(session, row, call, now)
    return call


def link(call: ReplacementCall) -> str:
    """The call's take-over link (a path on the site; public, like the call)."""
    return f"/takeover/{call.token}"


def announce(session: Session, row: GameRow, call: ReplacementCall, now: datetime) -> None:
    """Write the notifications of a new call: the game's master and other players, then the users who asked
    for every call of the site.

    The notification names the power, never the player who held it (in an anonymous game too); its words
    (and the deadline in each reader's time zone) are written for each reader
    (:mod:`arbitre.server.notify.letters`).
    """
    data = {
        "call": call.id,
        "power": call.power,
        "link": link(call),
        "reason": call.reason,
        "phase": row.phase,
        "deadline": row.deadline_at.isoformat() if row.deadline_at else None,
    }
    seats = session.execute(
        select(Membership.user_id, Membership.role, Membership.power).where(Membership.game_id == row.id)
    ).all()
    told = sorted({u for u, role, power in seats if role == MASTER or (role == PLAYER and power != call.power)})
    members = {u for u, _, _ in seats}
    key = f"call:{call.id}"
    enqueue(session, Event(REPLACEMENT, row.id, key, data, tuple(told)), now)
    # the site's one rule: outsiders hear of a call only when an outsider may know the game exists
    others = tuple(u for u in opted_in(session, CALLS) if u not in members) if may_know(row, None) else ()
    enqueue(session, Event(CALLS, row.id, key, data, others), now)


def call_by_token(session: Session, token: str) -> ReplacementCall | None:
    """The call a take-over link names (open or closed)."""
    return session.scalars(select(ReplacementCall).where(ReplacementCall.token == token[:64])).first()


def close_calls(session: Session, game_id: int, power: str, now: datetime, taken_by: int | None) -> None:
    """Close the open calls for ``power`` (the seat was taken, or the master withdrew the call)."""
    for call in open_calls(session, game_id):
        if call.power == power:
            call.closed_at = now
            call.taken_by = taken_by
    session.flush()
