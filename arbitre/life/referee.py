"""A game's life: start when full, take orders, process steps by readiness or deadline, master actions.

Every function runs inside the caller's write transaction and expects the game
row to be locked (:func:`arbitre.store.games.get_game` with ``lock=True``), so
one game's changes are serialized across threads and processes.  A processed
step inserts an :class:`~arbitre.store.models.Adjudication` row whose unique
key guarantees it happens once, whatever the number of server processes.

Steps: a phase has at least the ``orders`` step; a rule module may declare
more (:mod:`arbitre.rules.phase_steps`).  The engine's phase progress
(:class:`arbitre.judge.Progress`, held by ``Game.progress``) is the one owner of
the step, what it accepts and how it ends; the server keeps it as the game row
(``games.data``: :meth:`arbitre.judge.Game.state_data`, the current phase only)
and the open step's submissions (one row per power, read and checked once when
given and kept in normal form, with the power's ready switch).  Closing a step
returns the engine's :class:`~arbitre.judge.Transition`, stored as one
``game_records`` row; readers of played phases read those rows (no replay).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbitre.adjudicator import OrderResult
from arbitre.interface.mila.influence import Known, audiences
from arbitre.judge import ORDERS, Game
from arbitre.judge.game import record_from_data, transition_to_data
from arbitre.judge.seating import assign_by_preferences
from arbitre.life.cache import GameCache, load_game, working_copy
from arbitre.life.lateness import at_processing, hold_deadline
from arbitre.life.milasteps import known_before, write_steps
from arbitre.life.stored import ready_of, state_of, write_state
from arbitre.life.turns import (
    Closing,
    Gone,
    Plan,
    Submission,
    Turn,
    closing,
    ending,
    open_turn,
    play,
    play_locked,
    powers_to_act,
    read_step_orders,
    submission,
)
from arbitre.store.botseats import bot_seats, unseat_bot
from arbitre.store.db import Database
from arbitre.store.games import GameRuleError, memberships, player_of_power
from arbitre.store.lateness import lateness_of
from arbitre.store.missed import end_disorder, in_disorder
from arbitre.store.models import (
    ACTIVE,
    FINISHED,
    FORMING,
    MASTER,
    OBSERVER,
    PAUSED,
    PLAYER,
    Adjudication,
    GameRow,
    Membership,
    User,
)
from arbitre.store.orders import orders_of_step, save_orders
from arbitre.store.records import add_record, lock_record
from arbitre.store.replacements import close_calls
from arbitre.store.schedule import is_rest_day, next_deadline

log = logging.getLogger("arbitre.store")
T = TypeVar("T")
R = TypeVar("R")
__all__ = ["Referee", "SubmitResult", "check_step_orders", "powers_to_act", "read_step_orders"]


def current_step(game: Game) -> str:
    """The step the game is in inside its phase (``orders`` unless a rule module added steps)."""
    return game.step


def check_step_orders(game: Game, power: str, lines: list[str]) -> list[OrderResult]:
    """Check what ``power`` gives in the current step: its orders, or its one change."""
    return read_step_orders(game, power, lines)[1]


def deadline_key(game: Game) -> str:
    """Which deadline setting applies now: the step's name, or the phase kind for the orders step."""
    step = current_step(game)
    return game.phase.kind if step == ORDERS else step


@dataclass
class SubmitResult:
    """What a submission did: the rejected orders (kept; they will fail) and whether a step was processed."""

    rejected: list[OrderResult]
    processed: bool


@dataclass
class Referee:
    """Applies the game lifecycle to rows; holds the per-process game cache.

    ``pause_seconds`` makes each adjudication wait inside its transaction (used
    only by the crash test to kill a server in the middle of one).
    """

    cache: GameCache = field(default_factory=GameCache)
    pause_seconds: float = 0.0
    rng: Callable[[], random.Random] = random.SystemRandom

    # ----------------------------------------------------------------- reading
    def game(self, session: Session, row: GameRow) -> Game:
        """The engine game of ``row`` (cached; treat as read-only)."""

        def fetch() -> Any:
            data = (
                row.data if "data" in row.__dict__ else session.scalar(select(GameRow.data).where(GameRow.id == row.id))
            )
            # in a step after a lock, what the lock revealed to whom comes from the lock's record
            lock = lock_record(session, row.id, row.phase) if row.step != ORDERS else None
            return state_of(data or {}, lock)

        return load_game(self.cache, row.id, row.version, fetch)

    # ----------------------------------------------------------------- storing
    @staticmethod
    def deadline(session: Session, row: GameRow, game: Game, now: datetime) -> datetime:
        """When the step starting now ends: its length, on the game's calendar (fixed time, rest days)."""
        seconds = row.deadlines.get(deadline_key(game), 86400)
        return next_deadline(now, seconds, lateness_of(session, row.id).calendar)

    def _save(self, session: Session, row: GameRow, game: Game, now: datetime, *, steps: int = 1) -> None:
        write_state(row, game)
        row.version += steps
        if game.is_over:
            row.status = FINISHED
            row.result = game.status
            row.deadline_at = None
            row.remaining_seconds = None
        elif row.status == PAUSED:
            row.remaining_seconds = row.deadlines.get(deadline_key(game), 86400)
        else:
            row.deadline_at = self.deadline(session, row, game, now)
        # Not the live game: readers get the game read from the stored state, as every other process
        # does, so every process gives the same answers (reading it adjudicates nothing).
        Database.after_commit(session, lambda: self.cache.forget(row.id))

    # ----------------------------------------------------------------- start
    def maybe_start(self, session: Session, row: GameRow, now: datetime) -> bool:
        """Start a forming game whose seats are all taken: assign powers and start the clock."""
        if row.status != FORMING:
            return False
        game = self.game(session, row)
        powers = game.powers()
        players = [m for m in memberships(session, row.id) if m.role == PLAYER]
        bots = bot_seats(session, row.id)  # seats the master gave to bots count as taken
        if len(players) + len(bots) < len(powers):
            return False
        rng = self.rng()
        chosen = {m.id: m.wanted_power for m in players if m.wanted_power in powers}
        if row.assignment == "preferences":
            # The drawn order only breaks ties; the seating itself is the pure, fair rule of judge.seating.
            unseated = [m for m in players if m.id not in chosen]
            rng.shuffle(unseated)
            left = [p for p in powers if p not in bots and p not in chosen.values()]
            seating = assign_by_preferences(
                [str(m.id) for m in unseated], left, {str(m.id): list(m.preferences or []) for m in unseated}
            )
            chosen.update({m.id: seating[str(m.id)] for m in unseated})
        free = [p for p in powers if p not in chosen.values() and p not in bots]
        rng.shuffle(free)
        for m in players:
            m.power = chosen.get(m.id) or free.pop()
        session.flush()
        row.status = ACTIVE
        row.deadline_at = self.deadline(session, row, game, now)
        row.version += 1
        version = row.version
        Database.after_commit(session, lambda: self.cache.put(row.id, version, game))
        return True

    # ----------------------------------------------------------------- turns
    def turn(self, session: Session, row: GameRow, now: datetime) -> Turn:
        """The game's turn as ``session`` sees it: the current position and the open step's submissions (no
        replay), who is in civil disorder and whether ``now`` is a rest day (see :mod:`arbitre.life.turns`)."""
        game = self.game(session, row)
        orders = orders_of_step(session, row.id, row.phase, game.step)
        resting = is_rest_day(now, lateness_of(session, row.id).calendar)
        return open_turn(game, row, orders, in_disorder(session, row.id), resting)

    def locked(
        self, session: Session, row: GameRow, now: datetime, compute: Callable[[Turn], T], store: Callable[[T], R]
    ) -> R:
        """Read, compute and write ``row``'s turn inside the caller's write transaction (the row is locked)."""
        return play_locked(
            Plan(
                _outside,
                _outside,
                lambda v, lock: (session, row),
                lambda s, r: self.turn(s, r, now),
                compute,
                lambda v, s, r, value: store(value),
            ),
            session,
        )

    # ----------------------------------------------------------------- orders
    def write_submission(self, session: Session, row: GameRow, done: Submission, now: datetime) -> SubmitResult:
        """Write what :func:`~arbitre.life.turns.submission` computed: the power's submission row, its return
        from civil disorder, and the closing it caused."""
        # the ready switch stored is the engine's (the submission's game holds it after the submission)
        save_orders(session, row.id, row.phase, done.step, done.power, done.lines, ready_of(done.game, done.power), now)
        if done.power in in_disorder(session, row.id):  # the player is back
            end_disorder(session, row.id, done.power)
        if done.closing is not None:
            self.write_closing(session, row, done.closing, "ready", now)
        return SubmitResult(done.rejected, done.closing is not None)

    def submit(
        self,
        session: Session,
        row: GameRow,
        power: str,
        lines: list[str] | None,
        ready: bool | None,
        now: datetime,
        expected_phase: str | None = None,
    ) -> SubmitResult:
        """Save ``power``'s orders and/or ready switch inside the caller's write transaction (the row locked);
        the step is processed when every power is ready.  Routes use :func:`~arbitre.life.turns.play` instead,
        which computes outside the write transaction."""
        return self.locked(
            session,
            row,
            now,
            lambda turn: submission(turn, power, lines, ready, expected_phase),
            lambda done: self.write_submission(session, row, done, now),
        )

    # ----------------------------------------------------------------- processing
    def write_closing(self, session: Session, row: GameRow, done: Closing, trigger: str, now: datetime) -> None:
        """Write what :func:`~arbitre.life.turns.closing` computed: per closed step one ``adjudications`` row
        (exactly once) and one record, then the game's new state."""
        played = row.played
        rules = done.game.rules
        mila: dict[str, Known] | None = None  # each audience's MILA timeline, stored with each played phase
        for transition in done.transitions:
            session.add(
                Adjudication(game_id=row.id, phase=transition.phase, step=transition.step, trigger=trigger, done_at=now)
            )
            session.flush()  # a second processing of this step fails here: exactly once
            index = played if transition.adjudicated else None
            data = transition_to_data(transition)
            add_record(session, row.id, transition.phase, transition.step, index, data)
            if transition.adjudicated:  # from the record as its readers read it
                if mila is None:
                    mila = known_before(session, row.id, rules, audiences(rules.game_map), played)
                mila = write_steps(session, row.id, rules, played, record_from_data(rules, data), mila)
            played += 1 if transition.adjudicated else 0
            trigger = "empty"
        if self.pause_seconds:
            time.sleep(self.pause_seconds)
        self._save(session, row, done.game, now, steps=len(done.transitions))
        for phase, step in done.steps:
            log.info("game %s: %s of %s processed, now %s", row.id, step, phase, row.phase)

    def write_deadline(self, session: Session, row: GameRow, done: Closing, now: datetime) -> None:
        """A deadline passed: hold it (grace, extension, excuse), or note who missed it and write the closing."""
        if hold_deadline(session, row, self.game(session, row), now):
            return
        at_processing(session, row, working_copy(self.game(session, row)), now)  # yellow cards, disorder, bots
        self.write_closing(session, row, done, "deadline", now)

    def process_due(self, db: Database, now: datetime, limit: int = 100) -> int:
        """Process every step whose deadline has passed; each through :func:`~arbitre.life.turns.play` (the
        closing is computed in a read transaction and written if the game did not change meanwhile, else
        computed again).  Returns the count.

        Due rows are locked with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so several processes share the work
        without doing any step twice (the ``adjudications`` row's unique key makes sure of it).
        """
        done = 0
        failed: set[int] = set()
        skipped: set[int] = set()
        while done < limit:
            current = -1
            try:
                with db.reading() as session:
                    stmt = (
                        select(GameRow.id)
                        .where(GameRow.status == ACTIVE, GameRow.deadline_at <= now)
                        .order_by(GameRow.deadline_at)
                        .limit(1)
                    )
                    if failed or skipped:
                        stmt = stmt.where(GameRow.id.not_in(failed | skipped))
                    seen = session.scalars(stmt).first()
                if seen is None:
                    return done
                current = seen
                skipped.add(current)
                play(self.deadline_plan(db, current, now))
                done += 1
            except Gone:  # processed meanwhile (by another process), or being processed
                continue
            except Exception:  # one broken game must not stop the others
                log.exception("game %s: processing the deadline failed", current)
                failed.add(current)
                self.cache.forget(current)
        return done

    def deadline_plan(self, db: Database, game_id: int, now: datetime) -> Plan[Session, Closing, None]:
        """How the deadline worker plays a due game: its closing, written unless the deadline is held."""

        def due(session: Session, lock: bool) -> tuple[Session, GameRow]:
            stmt = select(GameRow).where(GameRow.id == game_id, GameRow.status == ACTIVE, GameRow.deadline_at <= now)
            row = session.scalars(stmt.with_for_update(skip_locked=True) if lock else stmt).first()
            if row is None:
                raise Gone(game_id)
            return session, row

        return Plan(
            db.reading,
            db.writing,
            due,
            lambda s, r: self.turn(s, r, now),
            closing,
            lambda v, s, r, value: self.write_deadline(s, r, value, now),
        )

    # ----------------------------------------------------------------- master console
    def pause(self, row: GameRow, now: datetime) -> None:
        """Stop the clock; the time left is kept."""
        if row.status != ACTIVE:
            raise GameRuleError("only a running game can be paused")
        left = (row.deadline_at - now).total_seconds() if row.deadline_at else 0
        row.remaining_seconds = max(60, int(left))
        row.deadline_at = None
        row.status = PAUSED
        row.version += 1

    def resume(self, row: GameRow, now: datetime) -> None:
        """Restart the clock with the time that was left."""
        if row.status != PAUSED:
            raise GameRuleError("the game is not paused")
        row.deadline_at = now + timedelta(seconds=row.remaining_seconds or 60)
        row.remaining_seconds = None
        row.status = ACTIVE
        row.version += 1

    def extend(self, row: GameRow, seconds: int, now: datetime) -> None:
        """Give more time for the current step."""
        if not 0 < seconds <= 30 * 24 * 3600:
            raise GameRuleError("an extension is between 1 second and 30 days")
        if row.status == PAUSED:
            row.remaining_seconds = (row.remaining_seconds or 0) + seconds
        elif row.status == ACTIVE and row.deadline_at is not None:
            row.deadline_at = max(row.deadline_at, now) + timedelta(seconds=seconds)
        else:
            raise GameRuleError("only a running or paused game has a deadline")
        row.version += 1

    def adjudicate_now(self, session: Session, row: GameRow, now: datetime) -> None:
        """Process the current step at once, with the orders given so far (inside the caller's transaction)."""
        self.locked(session, row, now, closing, lambda done: self.write_closing(session, row, done, "master", now))

    def replace_player(self, session: Session, row: GameRow, power: str, user: User, now: datetime) -> None:
        """Give ``power`` to ``user`` (who may be an observer of the game, but not its master or a player).

        The power leaves civil disorder and its calls for a replacement close (taken by ``user``).
        """
        self._replace(session, row, power, user)
        end_disorder(session, row.id, power)
        close_calls(session, row.id, power, now, user.id)

    def _replace(self, session: Session, row: GameRow, power: str, user: User) -> None:
        seat = player_of_power(session, row.id, power)
        if unseat_bot(session, row, power) and seat is None:  # a bot held the seat: the replacement arrived
            seat = Membership(game_id=row.id, user_id=user.id, role=PLAYER, power=power)
            for m in memberships(session, row.id):
                if m.user_id == user.id:
                    if m.role in (MASTER, PLAYER):
                        raise GameRuleError(f"{user.name} already has a role in this game")
                    session.delete(m)
                    session.flush()
            session.add(seat)
            session.flush()
            return
        if seat is None:
            raise GameRuleError(f"nobody holds {power} in this game")
        for m in memberships(session, row.id):
            if m.user_id == user.id:
                if m.role in (MASTER, PLAYER):
                    raise GameRuleError(f"{user.name} already has a role in this game")
                if m.role == OBSERVER:
                    session.delete(m)
                    session.flush()
        seat.user_id = user.id
        row.version += 1

    def write_ending(self, session: Session, row: GameRow, game: Game, now: datetime) -> None:
        """Write the game as :func:`~arbitre.life.turns.ending` ended it."""
        self._save(session, row, game, now)

    def concede(self, session: Session, row: GameRow, now: datetime, power: str) -> None:
        """End the game won by ``power``: every other power conceded it (inside the caller's transaction)."""
        self.locked(
            session,
            row,
            now,
            lambda t: ending(t, "concede", [power]),
            lambda g: self.write_ending(session, row, g, now),
        )

    def finish(
        self, session: Session, row: GameRow, now: datetime, draw: bool, powers: list[str] | None = None
    ) -> None:
        """Declare a draw (among ``powers``, default every power still in) or end the game (inside the
        caller's transaction)."""
        how = "draw" if draw else "end"
        self.locked(
            session, row, now, lambda t: ending(t, how, powers), lambda g: self.write_ending(session, row, g, now)
        )


def _outside() -> AbstractContextManager[Session]:
    raise RuntimeError("this plan runs inside its caller's write transaction")


def ready_powers(session: Session, row: GameRow) -> set[str]:
    """The powers whose ready switch is on in the current step."""
    return {p for p, r in orders_of_step(session, row.id, row.phase, row.step).items() if r.ready}


def my_orders(session: Session, row: GameRow, power: str) -> tuple[list[str], bool]:
    """A power's own orders for the current step, and its ready switch."""
    r = orders_of_step(session, row.id, row.phase, row.step).get(power)
    return (list(r.lines), r.ready) if r else ([], False)
