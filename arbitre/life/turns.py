"""The one way to read, compute and write a game: load its turn, run a pure function, write with the version check.

Every change to a game's play (a submission, a ready switch, a deadline, the master's adjudication or end of
the game, a bot's orders) goes through :func:`play`:

1. **read**: in a read transaction, :func:`open_turn` loads the game's current position and its open step's
   submissions (every power's orders in normal form and ready switch) into a :class:`Turn` (no replay: the
   position is the game row's, the submissions the open step's rows);
2. **compute**: a pure function of the :class:`Turn` (no I/O, no clock) says what happens, for instance
   :func:`submission` or :func:`closing`, whose closed steps are the engine's
   :class:`~arbitre.judge.Transition` values;
3. **write**: in a write transaction the game row is locked and its ``generation`` compared with the one the
   turn was read at (compare-and-set: the generation grows with every write to the game or its rows); if it
   is the same the result is written, else the turn is read and computed again.  After :data:`MAX_RETRIES`
   conflicts in a row it is computed inside the write transaction, where nobody can change it.

So the slow part (reading every order line, adjudicating) never holds the database's writer, and no
concurrent write is lost or applied twice: a result is only written over the very state it was computed
from (and each adjudicated step's ``adjudications`` row makes it happen once whatever the processes).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy.orm import Session

from arbitre.adjudicator import ILLEGAL, INVALID, OrderResult
from arbitre.judge import ORDERS, Accepts, Game, StepError, Transition
from arbitre.orders import OrderError
from arbitre.store.games import GameRuleError
from arbitre.store.models import ACTIVE, FINISHED, PAUSED, GameRow, OrderRow

log = logging.getLogger("arbitre.life")

MAX_RETRIES = 3
"""How many times :func:`play` reads and computes a turn again because the game changed meanwhile."""
MAX_STEPS_AT_ONCE = 20
"""The most steps one closing goes through (steps nobody has to act in follow at once)."""
MAX_COMBINED_ORDERS = 400
"""The most orders several combined submissions of one power may add up to (DATC 4.D.1 option)."""


@dataclass(frozen=True)
class Turn:
    """A game as one read saw it, the only input of the pure functions: its current position and open step.

    ``game`` holds the current position, the step, every power's stored submission (``pending``, or the one
    change of a reaction step) and ready switch (``confirmed``).  It is the reader's own copy.
    """

    game_id: int
    generation: int
    """The game's generation when read (the compare-and-set key)."""
    status: str
    phase: str
    game: Game
    disorder: frozenset[str]
    """Powers in civil disorder (not waited for)."""
    resting: bool
    """Is it a rest day of the game's calendar (nothing is processed)?"""

    @property
    def step(self) -> str:
        """The open step's name."""
        return self.game.step


def restore_submission(game: Game, power: str, lines: list[str]) -> None:
    """Hand a power's stored submission for the current step back to the engine's progress, as it was stored.

    Every line was read and checked once, when it was given, and stored in normal form (a refused change is
    never stored): nothing is read or checked again here.
    """
    if game.current_step.accepts == Accepts.ORDERS:
        game.pending[power] = list(lines)
    elif lines:
        game.changes = {**game.changes, power: lines[0]}


def open_turn(game: Game, row: GameRow, orders: dict[str, OrderRow], disorder: set[str], resting: bool) -> Turn:
    """The turn of ``row``: ``game`` (the cached state, copied here) with the open step's ``orders`` restored."""
    game = game.copy()
    for power, given in orders.items():
        if power in game.rules.game_map.powers:
            restore_submission(game, power, list(given.lines or []))
            if given.ready:
                game.confirmed.add(power)
    return Turn(row.id, row.generation, row.status, row.phase, game, frozenset(disorder), resting)


def powers_to_act(game: Game) -> list[str]:
    """The powers that must (or may) act in the current step."""
    return [] if game.is_over else game.powers_to_order()


def read_step_orders(game: Game, power: str, lines: list[str]) -> tuple[list[str], list[OrderResult]]:
    """Read what ``power`` gives in the current step, once: the lines in normal form (empty ones out) and the
    rejected ones (kept: they fail).  In a step that accepts one change, the one line is that change, and a
    refused change is not kept (the power's locked orders stand)."""
    if game.current_step.accepts == Accepts.ORDERS:
        return game.progress.read_orders(power, lines)
    given = [line.strip() for line in lines if line.strip()]
    if len(given) > 1:
        why = f"in the {game.step} step a power changes one order only"
        return [], [OrderResult(power, given[1], None, INVALID, "one_change", why)]
    for line in given:
        try:
            return [game.check_change(power, line).format()], []
        except (OrderError, StepError) as err:
            return [], [OrderResult(power, line, None, ILLEGAL, game.step, str(err))]
    return [], []


# --------------------------------------------------------------------- pure functions of a turn
@dataclass(frozen=True)
class Closing:
    """The closing of a turn's open step and the steps after it nobody acts in: one transition per closed step
    (each stored as one record) and the game after them."""

    transitions: tuple[Transition, ...]
    game: Game

    @property
    def steps(self) -> tuple[tuple[str, str], ...]:
        """The (phase, step) pairs closed."""
        return tuple((t.phase, t.step) for t in self.transitions)


def close_steps(game: Game, running: bool = True) -> Closing:
    """Close ``game``'s current step with its submissions, then every following step nobody has to act in
    (only while ``running``); ``game`` is changed (pass a copy)."""
    transitions: list[Transition] = []
    for _ in range(MAX_STEPS_AT_ONCE):
        transitions.append(game.close_transition())
        if game.is_over or powers_to_act(game) or not running:
            break
    return Closing(tuple(transitions), game)


def closing(turn: Turn) -> Closing:
    """What a deadline or the master's adjudication does: close the open step with the orders given so far."""
    if turn.status not in (ACTIVE, PAUSED):
        raise GameRuleError("this game is not running")
    return close_steps(turn.game.copy(), turn.status == ACTIVE)


@dataclass(frozen=True)
class Submission:
    """What one power's submission does: the lines stored (normal form; ``None``: unchanged), its ready switch
    (``None``: unchanged), the rejected lines (kept: they fail) and, when it made everyone ready, the closing."""

    power: str
    step: str
    lines: list[str] | None
    ready: bool | None
    rejected: list[OrderResult]
    closing: Closing | None
    game: Game
    """The game with the submission, before any closing (the next submission of the same turn starts there)."""

    def then(self, turn: Turn) -> Turn:
        """``turn`` as this submission left it (for several submissions computed at once, e.g. the bots')."""
        return Turn(turn.game_id, turn.generation, turn.status, turn.phase, self.game, turn.disorder, turn.resting)


def submission(turn: Turn, power: str, lines: list[str] | None, ready: bool | None, phase: str | None) -> Submission:
    """A power's orders and/or ready switch given to ``turn``; the step closes when every power is ready.

    Each line is read and checked here, once; in a DATC 4.D.1 ``combined`` game the lines add to the ones
    stored earlier in the step.  Raises :class:`GameRuleError` when the game does not take them.
    """
    if turn.status not in (ACTIVE, PAUSED):
        raise GameRuleError("this game is not running")
    if phase and phase.upper() != turn.phase:
        raise GameRuleError(f"the game has moved on to {turn.phase}; your orders were for {phase}")
    game = turn.game.copy()
    if power not in powers_to_act(game):
        raise GameRuleError(f"{power} has nothing to order in {turn.phase}")
    step = game.step
    normal: list[str] | None = None
    rejected: list[OrderResult] = []
    if lines is not None:
        if step == ORDERS and game.rules.options.order_sets == "combined":
            earlier = game.pending.get(power, [])
            if len(earlier) + len(lines) > MAX_COMBINED_ORDERS:
                raise GameRuleError(f"at most {MAX_COMBINED_ORDERS} orders in all the sets of one phase")
            lines = [*earlier, *lines]
        normal, rejected = read_step_orders(game, power, lines)
        if game.current_step.accepts == Accepts.ORDERS:
            game.pending[power] = list(normal)
        elif normal:
            game.changes = {**game.changes, power: normal[0]}
        else:
            game.changes = {p: c for p, c in game.changes.items() if p != power}
    if ready is not None:
        game.confirmed = (game.confirmed | {power}) if ready else (game.confirmed - {power})
    awaited = [p for p in powers_to_act(game) if p not in turn.disorder - {power}]
    done = turn.status == ACTIVE and not turn.resting and all(p in game.confirmed for p in awaited)
    return Submission(power, step, normal, ready, rejected, close_steps(game.copy()) if done else None, game)


def ending(turn: Turn, how: str, powers: list[str] | None = None) -> Game:
    """The game ended by a draw (among ``powers``, default every power still in), a concession won by
    ``powers[0]`` or the master's end (``how``: ``draw``, ``concede`` or ``end``)."""
    if turn.status == FINISHED or turn.game.is_over:
        raise GameRuleError("the game is already over")
    game = turn.game.copy()
    if how == "draw":
        game.declare_draw(powers or None)
    elif how == "concede":
        game.concede((powers or [""])[0])
    else:
        game.end()
    return game


# --------------------------------------------------------------------- read, compute, write
V = TypeVar("V")
T = TypeVar("T")
R = TypeVar("R")


class Gone(Exception):
    """The game is not there to write any more (finished or taken by another process meanwhile)."""


@dataclass(frozen=True)
class Plan(Generic[V, T, R]):
    """How :func:`play` reaches a game: the transactions and, in each, the game row; the pure step; the write.

    ``read``/``write`` open a read and a write transaction (the route's own, with its checks, or the
    database's); ``row`` finds the game row in one (locked in the write one; raising :class:`Gone` or the
    route's refusal); ``turn`` loads the :class:`Turn`; ``compute`` is pure; ``store`` writes its result.
    """

    read: Callable[[], AbstractContextManager[V]]
    write: Callable[[], AbstractContextManager[V]]
    row: Callable[[V, bool], tuple[Session, GameRow]]
    turn: Callable[[Session, GameRow], Turn]
    compute: Callable[[Turn], T]
    store: Callable[[V, Session, GameRow, T], R]


def play(plan: Plan[V, T, R], retries: int | None = None) -> R:
    """Read the game's turn, compute, and write the result if the game has not changed since; else again.

    After ``retries`` (default :data:`MAX_RETRIES`) conflicts the turn is read and computed inside the write transaction (the row is locked:
    it cannot change).  Errors of the compute step (refusals) come out of the read transaction, so a refused
    request never takes the writer.
    """
    for attempt in range(MAX_RETRIES if retries is None else retries):
        with plan.read() as v:
            session, row = plan.row(v, False)
            turn = plan.turn(session, row)
            value = plan.compute(turn)
        with plan.write() as v:
            session, row = plan.row(v, True)
            if row.generation == turn.generation:
                return plan.store(v, session, row, value)
        log.info("game %s changed while computed (try %s): computed again", turn.game_id, attempt + 1)
    with plan.write() as v:
        session, row = plan.row(v, True)
        return plan.store(v, session, row, plan.compute(plan.turn(session, row)))


def play_locked(plan: Plan[V, T, R], v: V) -> R:
    """:func:`play` inside a write transaction the caller already holds (``v``), its game row locked: read,
    compute and write at once (the row cannot change meanwhile).  For changes made as a consequence of another
    (a vote that passes ends the game)."""
    session, row = plan.row(v, True)
    return plan.store(v, session, row, plan.compute(plan.turn(session, row)))
