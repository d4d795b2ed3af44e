"""What the lateness settings do at a deadline, and the public record of missed deadlines.

At a deadline with orders missing (a power that must act, is not ready and gave
no orders; bots and powers in civil disorder are not waited for):

1. the grace period, once per step: the deadline moves by ``grace_minutes``;
2. each late power's miss is recorded (once per step: the public board);
3. an automatic extension while the step has some left: the deadline moves by ``extension_hours``;
4. a late player with an excuse left uses it: the deadline moves by ``extension_hours``;
5. otherwise the step is processed without their orders: each unexcused miss is a yellow card,
   counts towards civil disorder (``disorder_after`` steps in a row) and towards the bot rule
   (``bot_after_missed``, :func:`arbitre.store.botseats.note_missed`).

Every function runs in the caller's write transaction, with the game row locked.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Boolean, ForeignKey, Integer, String, UniqueConstraint, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.judge import Game
from arbitre.store.botseats import MissedSteps, bot_seats, note_missed
from arbitre.store.games import player_of_power
from arbitre.store.lateness import Lateness, lateness_of, step_state
from arbitre.store.models import Base, GameRow, UTCDateTime
from arbitre.store.orders import orders_of_step
from arbitre.store.replacements import publish_call
from arbitre.store.schedule import next_deadline


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


def waited_for(session: Session, row: GameRow, game: Game) -> list[str]:
    """The powers the current step waits for: those that must act, less bot seats and civil disorder."""
    skip = set(bot_seats(session, row.id)) | in_disorder(session, row.id)
    return [p for p in game.powers_to_order() if p not in skip] if not game.is_over else []


def late_powers(session: Session, row: GameRow, game: Game) -> list[str]:
    """The powers waited for whose orders are missing now (not ready and no orders given)."""
    given = orders_of_step(session, row.id, row.phase, row.step)
    return [p for p in waited_for(session, row, game) if not (p in given and (given[p].ready or given[p].lines))]


def _record(session: Session, row: GameRow, power: str, now: datetime) -> MissedDeadline:
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


def hold_deadline(session: Session, row: GameRow, game: Game, now: datetime) -> bool:
    """At a passed deadline: move it (grace, extension, excuse) instead of processing?  ``True`` if moved."""
    rules = lateness_of(session, row.id)
    if not _has_rules(rules):
        return False
    late = late_powers(session, row, game)
    if not late:
        return False
    state = step_state(session, row.id, f"{row.phase}/{row.step}")
    current = dict(state.step_state)
    if rules.grace_minutes and not current.get("graced"):
        current["graced"] = True
        state.step_state = current
        _move(row, now + timedelta(minutes=rules.grace_minutes))
        return True
    misses = [_record(session, row, p, now) for p in late]
    if current.get("extended", 0) < rules.extensions:
        current["extended"] = current.get("extended", 0) + 1
        state.step_state = current
        _move(row, next_deadline(now, rules.extension_hours * 3600, rules.calendar))
        return True
    excused = False
    for miss in misses:
        if (
            not miss.excused
            and miss.user_id is not None
            and excuses_used(session, row.id, miss.user_id) < rules.excuses
        ):
            miss.excused = excused = True
    if excused:
        session.flush()
        _move(row, next_deadline(now, rules.extension_hours * 3600, rules.calendar))
        return True
    return False


def _has_rules(rules: Lateness) -> bool:
    return bool(rules.grace_minutes or rules.extensions or rules.excuses)


def _move(row: GameRow, at: datetime) -> None:
    row.deadline_at = at
    row.version += 1


def at_processing(session: Session, row: GameRow, game: Game, now: datetime) -> list[str]:
    """A step is processed at its deadline: card the unexcused misses, count the steps missed in a row,
    put powers in civil disorder and seat bots as the settings say.  Returns the powers newly in disorder.

    A power already in civil disorder is not carded again, but its misses still count for the bot rule.
    """
    rules = lateness_of(session, row.id)
    seats = set(bot_seats(session, row.id))
    disorder = in_disorder(session, row.id)
    given = orders_of_step(session, row.id, row.phase, row.step)
    counts: dict[str, int] = {}
    fallen: list[str] = []
    for power in [p for p in game.powers_to_order() if p not in seats]:
        counter = session.get(MissedSteps, (row.id, power))
        if counter is None:
            counter = MissedSteps(game_id=row.id, power=power, count=0)
            session.add(counter)
        if power in given and (given[power].ready or given[power].lines):
            counter.count = 0
            continue
        if power not in disorder:
            miss = _record(session, row, power, now)
            if miss.excused:  # an excused miss neither counts nor breaks the run
                continue
            miss.carded = True
        counter.count += 1
        counts[power] = counter.count
        if rules.disorder_after is not None and counter.count >= rules.disorder_after and power not in disorder:
            session.add(Disorder(game_id=row.id, power=power, since=row.phase))
            fallen.append(power)
    session.flush()
    if rules.replace_on_disorder:
        for power in fallen:
            publish_call(session, row, power, game.powers(), "disorder", now)
    note_missed(session, row, game, counts)
    return fallen
