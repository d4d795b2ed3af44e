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
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbitre.adjudicator import ILLEGAL, INVALID, OrderResult
from arbitre.judge import ORDERS, Accepts, Game, StepError, Transition
from arbitre.judge.game import transition_to_data
from arbitre.judge.seating import assign_by_preferences
from arbitre.life.cache import GameCache, load_game, working_copy
from arbitre.orders import OrderError
from arbitre.store.botseats import bot_seats, unseat_bot
from arbitre.store.db import Database
from arbitre.store.games import GameRuleError, memberships, player_of_power
from arbitre.store.lateness import lateness_of
from arbitre.store.missed import at_processing, end_disorder, hold_deadline, in_disorder
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
    OrderRow,
    User,
)
from arbitre.store.orders import orders_of_step, save_orders
from arbitre.store.records import add_record
from arbitre.store.replacements import close_calls
from arbitre.store.schedule import is_rest_day, next_deadline

log = logging.getLogger("arbitre.store")


def current_step(game: Game) -> str:
    """The step the game is in inside its phase (``orders`` unless a rule module added steps)."""
    return game.step


def powers_to_act(game: Game) -> list[str]:
    """The powers that must (or may) act in the current step."""
    return [] if game.is_over else game.powers_to_order()


def check_step_orders(game: Game, power: str, lines: list[str]) -> list[OrderResult]:
    """Check what ``power`` gives in the current step: its orders, or its one change."""
    return read_step_orders(game, power, lines)[1]


def read_step_orders(game: Game, power: str, lines: list[str]) -> tuple[list[str], list[OrderResult]]:
    """Read what ``power`` gives in the current step, once: the lines in normal form (empty ones out) and the
    rejected ones (kept: they fail).  In a step that accepts one change, the one line is that change."""
    if game.current_step.accepts == Accepts.ORDERS:
        return game.progress.read_orders(power, lines)
    given = [line.strip() for line in lines if line.strip()]
    if len(given) > 1:
        why = f"in the {game.step} step a power changes one order only"
        return given, [OrderResult(power, given[1], None, INVALID, "one_change", why)]
    for line in given:
        try:
            return [game.check_change(power, line).format()], []
        except (OrderError, StepError) as err:
            return given, [OrderResult(power, line, None, ILLEGAL, game.step, str(err))]
    return [], []


MAX_COMBINED_ORDERS = 400
"""The most orders several combined submissions of one power may add up to (DATC 4.D.1 option)."""


def combined_lines(before: OrderRow | None, lines: list[str]) -> list[str]:
    """DATC 4.D.1 ``combined``: a submission adds its orders to the ones sent earlier in the step."""
    earlier = list(before.lines) if before is not None and before.lines else []
    if len(earlier) + len(lines) > MAX_COMBINED_ORDERS:
        raise GameRuleError(f"at most {MAX_COMBINED_ORDERS} orders in all the sets of one phase")
    return [*earlier, *lines]


def restore_step_orders(game: Game, power: str, lines: list[str]) -> None:
    """Hand a power's stored submission for the current step back to the engine's progress.

    Orders were read and checked when given and are stored in normal form: they are taken as they are.
    A change is taken if the engine still accepts it (one refused when given is left out, as it was told).
    """
    if game.current_step.accepts == Accepts.ORDERS:
        game.pending[power] = list(lines)
        return
    for line in lines[:1]:
        try:
            game.set_change(power, line)
        except (OrderError, StepError):
            log.info("%s: change %r refused when given, left out at the close of the %s step", power, line, game.step)


def deadline_key(game: Game) -> str:
    """Which deadline setting applies now: the step's name, or the phase kind for the orders step."""
    step = current_step(game)
    return game.phase.kind if step == ORDERS else step


@dataclass(frozen=True)
class CheckedOrders:
    """A power's orders checked against one version of a game in a read transaction, so that the check (parsing
    and judging every line) is done before the write transaction and does not hold the database's writer.

    The write uses it only if the game is still at ``version`` and the lines are the same; else it checks again.
    """

    game_id: int
    version: int
    power: str
    lines: tuple[str, ...]
    normal: tuple[str, ...]
    """The lines in normal form, as stored."""
    rejected: tuple[OrderResult, ...]

    def fits(self, row: GameRow, power: str, lines: list[str]) -> bool:
        """Was this check made on the same game version, power and lines?"""
        return (self.game_id, self.version, self.power, self.lines) == (row.id, row.version, power, tuple(lines))


MAX_STEPS_AT_ONCE = 20
"""The most steps one processing goes through (steps nobody has to act in follow at once)."""
MAX_RETRIES = 3
"""How many times :meth:`Referee.process_due` computes a step again because the game changed meanwhile."""


@dataclass(frozen=True)
class PreparedSteps:
    """The processing of a game's current step (and the steps after it nobody acts in), computed from the game
    at ``generation``: the engine's transitions (one per closed step, each stored as one record), the game after
    them and its stored form.  Written only if the game is still at ``generation`` when its row is locked."""

    game_id: int
    generation: int
    transitions: tuple[Transition, ...]
    game: Game
    data: Any

    @property
    def steps(self) -> tuple[tuple[str, str], ...]:
        """The (phase, step) pairs processed."""
        return tuple((t.phase, t.step) for t in self.transitions)


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
            if "data" in row.__dict__:
                return row.data
            return session.scalar(select(GameRow.data).where(GameRow.id == row.id))

        return load_game(self.cache, row.id, row.version, fetch)

    # ----------------------------------------------------------------- storing
    @staticmethod
    def deadline(session: Session, row: GameRow, game: Game, now: datetime) -> datetime:
        """When the step starting now ends: its length, on the game's calendar (fixed time, rest days)."""
        seconds = row.deadlines.get(deadline_key(game), 86400)
        return next_deadline(now, seconds, lateness_of(session, row.id).calendar)

    def _save(
        self, session: Session, row: GameRow, game: Game, now: datetime, *, data: Any = None, steps: int = 1
    ) -> None:
        row.data = game.state_data() if data is None else data
        row.played = game.played
        row.phase = str(game.phase)
        row.step = current_step(game)
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

    # ----------------------------------------------------------------- orders
    def precheck(self, session: Session, row: GameRow, power: str, lines: list[str] | None) -> CheckedOrders | None:
        """Check orders ahead of :meth:`submit`, in a read transaction; ``None`` when there is nothing to check
        ahead (no lines, a game not taking them, or combined order sets, which depend on the stored orders)."""
        if lines is None or row.status not in (ACTIVE, PAUSED):
            return None
        game = self.game(session, row)
        if power not in powers_to_act(game):
            return None
        if current_step(game) == ORDERS and game.rules.options.order_sets == "combined":
            return None
        normal, rejected = read_step_orders(game, power, lines)
        return CheckedOrders(row.id, row.version, power, tuple(lines), tuple(normal), tuple(rejected))

    def submit(
        self,
        session: Session,
        row: GameRow,
        power: str,
        lines: list[str] | None,
        ready: bool | None,
        now: datetime,
        expected_phase: str | None = None,
        checked: CheckedOrders | None = None,
    ) -> SubmitResult:
        """Save ``power``'s orders and/or ready switch; process the step when every power is ready (``checked``:
        the lines' check made ahead by :meth:`precheck`, used if the game has not changed since)."""
        if row.status not in (ACTIVE, PAUSED):
            raise GameRuleError("this game is not running")
        if expected_phase and expected_phase.upper() != row.phase:
            raise GameRuleError(f"the game has moved on to {row.phase}; your orders were for {expected_phase}")
        game = self.game(session, row)
        step = current_step(game)
        if power not in powers_to_act(game):
            raise GameRuleError(f"{power} has nothing to order in {row.phase}")
        if lines is not None and step == ORDERS and game.rules.options.order_sets == "combined":
            lines = combined_lines(orders_of_step(session, row.id, row.phase, step).get(power), lines)
        normal: list[str] | None = None
        if lines is None:
            rejected = []
        elif checked is not None and checked.fits(row, power, lines):
            normal, rejected = list(checked.normal), list(checked.rejected)
        else:
            normal, rejected = read_step_orders(game, power, lines)
        save_orders(session, row.id, row.phase, step, power, normal, ready, now)
        if power in in_disorder(session, row.id):  # the player is back
            end_disorder(session, row.id, power)
        processed = False
        resting = is_rest_day(now, lateness_of(session, row.id).calendar)  # nothing is processed on a rest day
        if row.status == ACTIVE and not resting and self.all_ready(session, row, game):
            self.process(session, row, "ready", now)
            processed = True
        return SubmitResult(rejected, processed)

    def all_ready(self, session: Session, row: GameRow, game: Game) -> bool:
        """Has every power that must act switched to ready (powers in civil disorder are not waited for)?"""
        disorder = in_disorder(session, row.id)
        needed = [p for p in powers_to_act(game) if p not in disorder]
        rows = orders_of_step(session, row.id, row.phase, current_step(game))
        return all(p in rows and rows[p].ready for p in needed)

    # ----------------------------------------------------------------- processing
    def process(
        self, session: Session, row: GameRow, trigger: str, now: datetime, prepared: PreparedSteps | None = None
    ) -> None:
        """Process the current step with the stored orders, and go on through steps nobody has to act in.

        ``prepared``: the same processing already computed by :meth:`prepare` from this very state of the game
        (the caller checked its ``generation``); only its result is written here."""
        if trigger == "deadline":
            # yellow cards, civil disorder, calls, bots (act next step)
            at_processing(session, row, working_copy(self.game(session, row)), now)
        self._store_prepared(session, row, prepared or self.prepare(session, row), trigger, now)

    def prepare(self, session: Session, row: GameRow) -> PreparedSteps:
        """Close the game's current step with the stored submissions, and the steps after it nobody acts in:
        the engine's transitions and the game after them, computed but not written (``session`` may be a read
        transaction).  The one loop over steps: :meth:`process` writes what it returns.

        The result belongs to ``row.generation``: :meth:`process_due` writes it only if the game's generation is
        still the same once the row is locked (no order, ready switch, setting or step changed meanwhile)."""
        game = working_copy(self.game(session, row))
        phase = row.phase
        transitions: list[Transition] = []
        for _ in range(MAX_STEPS_AT_ONCE):
            for power, orders in orders_of_step(session, row.id, phase, game.step).items():
                if power in game.rules.game_map.powers:
                    restore_step_orders(game, power, list(orders.lines))
            transitions.append(game.close_transition())
            phase = str(game.phase)
            if game.is_over or powers_to_act(game) or row.status != ACTIVE:
                break
        return PreparedSteps(row.id, row.generation, tuple(transitions), game, game.state_data())

    def _store_prepared(
        self, session: Session, row: GameRow, prepared: PreparedSteps, trigger: str, now: datetime
    ) -> None:
        """Write what :meth:`prepare` computed: per closed step one ``adjudications`` row (exactly once) and one
        record, then the game's new state."""
        played = row.played
        for transition in prepared.transitions:
            session.add(
                Adjudication(game_id=row.id, phase=transition.phase, step=transition.step, trigger=trigger, done_at=now)
            )
            session.flush()  # a second processing of this step fails here: exactly once
            index = played if transition.adjudicated else None
            add_record(session, row.id, transition.phase, transition.step, index, transition_to_data(transition))
            played += 1 if transition.adjudicated else 0
            trigger = "empty"
        if self.pause_seconds:
            time.sleep(self.pause_seconds)
        self._save(session, row, prepared.game, now, data=prepared.data, steps=len(prepared.transitions))
        for phase, step in prepared.steps:
            log.info("game %s: %s of %s processed, now %s", row.id, step, phase, row.phase)

    def process_due(self, db: Database, now: datetime, limit: int = 100) -> int:
        """Process every step whose deadline has passed; each in its own transaction.  Returns the count.

        The adjudication is done outside any write transaction, so that it never holds SQLite's writer: the
        game and its orders are read and the steps computed in a read transaction (:meth:`prepare`), then a
        short write transaction locks the row and writes the result if the game's ``generation`` is still the
        one read (a submission or a setting that came in between moves it: the step is computed again).  After
        :data:`MAX_RETRIES` moves in a row the step is computed inside the write transaction, as a fallback.

        Due rows are locked with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so several processes share the work
        without doing any step twice (the ``adjudications`` row's unique key makes sure of it).
        """
        done = 0
        failed: set[int] = set()
        skipped: set[int] = set()
        tries: dict[int, int] = {}
        while done < limit:
            current = -1
            try:
                with db.reading() as session:
                    stmt = (
                        select(GameRow)
                        .where(GameRow.status == ACTIVE, GameRow.deadline_at <= now)
                        .order_by(GameRow.deadline_at)
                        .limit(1)
                    )
                    if failed or skipped:
                        stmt = stmt.where(GameRow.id.not_in(failed | skipped))
                    seen = session.scalars(stmt).first()
                    if seen is None:
                        return done
                    current = seen.id
                    prepared = self.prepare(session, seen) if tries.get(current, 0) < MAX_RETRIES else None
                with db.writing() as session:
                    row = session.scalars(
                        select(GameRow)
                        .where(GameRow.id == current, GameRow.status == ACTIVE, GameRow.deadline_at <= now)
                        .with_for_update(skip_locked=True)
                    ).first()
                    if row is None:  # processed meanwhile (by another process), or being processed
                        skipped.add(current)
                        continue
                    if prepared is not None and prepared.generation != row.generation:
                        tries[current] = tries.get(current, 0) + 1
                        continue  # the game changed since it was read: read and compute again
                    if not hold_deadline(session, row, self.game(session, row), now):  # grace, extension, excuse
                        self.process(session, row, "deadline", now, prepared)
                done += 1
                skipped.add(current)
            except Exception:  # one broken game must not stop the others
                log.exception("game %s: processing the deadline failed", current)
                failed.add(current)
                self.cache.forget(current)
        return done

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
        """Process the current step at once, with the orders given so far."""
        if row.status not in (ACTIVE, PAUSED):
            raise GameRuleError("this game is not running")
        self.process(session, row, "master", now)

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

    def concede(self, session: Session, row: GameRow, now: datetime, power: str) -> None:
        """End the game won by ``power``: every other power conceded it."""
        if row.status == FINISHED:
            raise GameRuleError("the game is already over")
        game = working_copy(self.game(session, row))
        game.concede(power)
        self._save(session, row, game, now)

    def finish(
        self, session: Session, row: GameRow, now: datetime, draw: bool, powers: list[str] | None = None
    ) -> None:
        """Declare a draw (among ``powers``, default every power still in) or end the game."""
        if row.status == FINISHED:
            raise GameRuleError("the game is already over")
        game = working_copy(self.game(session, row))
        if draw:
            game.declare_draw(powers or None)
        else:
            game.end()
        self._save(session, row, game, now)


def ready_powers(session: Session, row: GameRow) -> set[str]:
    """The powers whose ready switch is on in the current step."""
    return {p for p, r in orders_of_step(session, row.id, row.phase, row.step).items() if r.ready}


def my_orders(session: Session, row: GameRow, power: str) -> tuple[list[str], bool]:
    """A power's own orders for the current step, and its ready switch."""
    r = orders_of_step(session, row.id, row.phase, row.step).get(power)
    return (list(r.lines), r.ready) if r else ([], False)
