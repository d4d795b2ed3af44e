"""What the lateness settings do at a deadline: grace, extensions, excuses, yellow cards, civil disorder
and the bot rule (the rules are listed in :mod:`arbitre.store.missed`, which keeps their record).

Every function runs in the caller's write transaction, with the game row locked.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.store.botseats import MissedSteps, bot_seats, bot_settings, seat_bot
from arbitre.store.lateness import Lateness, lateness_of, step_state
from arbitre.store.missed import Disorder, excuses_used, in_disorder, record_miss
from arbitre.store.models import GameRow
from arbitre.store.orders import orders_of_step
from arbitre.store.replacements import publish_call
from arbitre.store.schedule import next_deadline


def waited_for(session: Session, row: GameRow, game: Game) -> list[str]:
    """The powers the current step waits for: those that must act, less bot seats and civil disorder."""
    skip = set(bot_seats(session, row.id)) | in_disorder(session, row.id)
    return [p for p in game.powers_to_order() if p not in skip] if not game.is_over else []


def late_powers(session: Session, row: GameRow, game: Game) -> list[str]:
    """The powers waited for whose orders are missing now (not ready and no orders given)."""
    given = orders_of_step(session, row.id, row.phase, row.step)
    return [p for p in waited_for(session, row, game) if not (p in given and (given[p].ready or given[p].lines))]


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
    misses = [record_miss(session, row, p, now) for p in late]
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
            miss = record_miss(session, row, power, now)
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


def note_missed(session: Session, row: GameRow, game: Game, counts: dict[str, int]) -> list[str]:
    """At a deadline: with the ``after_missed`` setting, a power that missed that many steps in a row
    (``counts``, kept by :func:`at_processing`) gets a bot (reason ``lateness``).

    Returns the powers that got one.
    """
    setting = bot_settings(session, row.id)
    if setting.after_missed is None or game.is_over:
        return []
    seats = bot_seats(session, row.id)
    seated: list[str] = []
    for power, count in sorted(counts.items()):
        if power in seats or count < setting.after_missed:
            continue
        seat_bot(session, row, power, game.powers(), "lateness")
        counter = session.get(MissedSteps, (row.id, power))
        if counter is not None:
            counter.count = 0
        seated.append(power)
    session.flush()
    return seated
