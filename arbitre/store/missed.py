"""The public record of missed deadlines and of powers in civil disorder, as stored.

What the lateness settings do at a deadline (grace, extensions, excuses, cards, civil disorder) is the
game's life, in :mod:`arbitre.life.lateness`; this module reads and writes the rows that record them:

At a deadline with orders missing (a power that must act, is not ready and gave
no orders; bots and powers in civil disorder are not waited for):

1. the grace period, once per step: the deadline moves by ``grace_minutes``;
2. each late power's miss is recorded (once per step: the public board);
3. an automatic extension while the step has some left: the deadline moves by ``extension_hours``;
4. a late player with an excuse left uses it: the deadline moves by ``extension_hours``;
5. otherwise the step is processed without their orders: each unexcused miss is a yellow card,
   counts towards civil disorder (``disorder_after`` steps in a row) and towards the bot rule
   (``bot_after_missed``, :func:`arbitre.life.lateness.note_missed`).

Every function runs in the caller's write transaction, with the game row locked.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Integer, String, UniqueConstraint, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.store.botseats import MissedSteps
from arbitre.store.games import player_of_power
from arbitre.store.models import Base, GameRow, UTCDateTime


class MissedDeadline(Base):
    """A power that let a deadline pass with its orders missing (one row per step), and what came of it.

    ``excused``: its player used an excuse; ``carded``: the step was processed
    without its orders and it was not excused (a yellow card for ``user_id``).
    """

    __tablename__ = "missed_deadlines"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(16))
    step: Mapped[str] = mapped_column(String(24))
    power: Mapped[str] = mapped_column(String(24))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
    excused: Mapped[bool] = mapped_column(Boolean, default=False)
    carded: Mapped[bool] = mapped_column(Boolean, default=False)

    __table_args__ = (UniqueConstraint("game_id", "phase", "step", "power", name="uq_missed_step_power"),)


class Disorder(Base):
    """A power in civil disorder: its player missed ``disorder_after`` steps in a row; nobody waits for it."""

    __tablename__ = "civil_disorder"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    power: Mapped[str] = mapped_column(String(24), primary_key=True)
    since: Mapped[str] = mapped_column(String(16))


def in_disorder(session: Session, game_id: int) -> set[str]:
    """The powers of the game in civil disorder."""
    return set(session.scalars(select(Disorder.power).where(Disorder.game_id == game_id)))


def end_disorder(session: Session, game_id: int, power: str) -> None:
    """The power has a player again (they came back, or a replacement took the seat)."""
    found = session.get(Disorder, (game_id, power))
    if found is not None:
        session.delete(found)
    counter = session.get(MissedSteps, (game_id, power))
    if counter is not None:
        counter.count = 0
    session.flush()


def record_miss(session: Session, row: GameRow, power: str, now: datetime) -> MissedDeadline:
    """The row of ``power``'s miss of the current step, added (neither excused nor carded) the first time."""
    found = session.scalars(
        select(MissedDeadline).where(
            MissedDeadline.game_id == row.id,
            MissedDeadline.phase == row.phase,
            MissedDeadline.step == row.step,
            MissedDeadline.power == power,
        )
    ).first()
    if found is None:
        seat = player_of_power(session, row.id, power)
        found = MissedDeadline(
            game_id=row.id,
            phase=row.phase,
            step=row.step,
            power=power,
            user_id=seat.user_id if seat else None,
            at=now,
            excused=False,
            carded=False,
        )
        session.add(found)
        session.flush()
    return found


def excuses_used(session: Session, game_id: int, user_id: int | None) -> int:
    """How many excuses the player has used in this game."""
    if user_id is None:
        return 0
    return (
        session.scalar(
            select(func.count())
            .select_from(MissedDeadline)
            .where(MissedDeadline.game_id == game_id, MissedDeadline.user_id == user_id, MissedDeadline.excused)
        )
        or 0
    )
