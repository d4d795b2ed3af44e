"""Calls for a replacement: a take-over link for one power of a game, published by the master or by the
civil-disorder rule (``replace_on_disorder``).

Whoever follows the link and logs in may take the seat (if they have no other
role in the game): the late player loses it (:meth:`arbitre.store.lifecycle.Referee.replace_player`).
The calls are public: the site-wide lateness board lists the open ones.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.store.games import GameRuleError
from arbitre.store.models import ACTIVE, PAUSED, Base, GameRow, UTCDateTime

REASONS = ("master", "disorder")
"""Who published a call: the game master, or the civil-disorder rule."""

CallListener = Callable[[Session, GameRow, "ReplacementCall"], None]
CALL_LISTENERS: list[CallListener] = []
"""Called in the publishing transaction for each new call (the hook for notifications: register a
function that enqueues them; nothing is registered by default)."""


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


def open_calls(session: Session, game_id: int | None = None) -> list[ReplacementCall]:
    """The open calls of one game (or of every game), oldest first."""
    stmt = select(ReplacementCall).where(ReplacementCall.closed_at.is_(None)).order_by(ReplacementCall.id)
    if game_id is not None:
        stmt = stmt.where(ReplacementCall.game_id == game_id)
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
    for listener in CALL_LISTENERS:
        listener(session, row, call)
    return call


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
