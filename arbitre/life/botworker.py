"""The deadline worker's bot pass: every bot seat that owes orders in its game's current step gives them."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, undefer

from arbitre.bots import make_bot
from arbitre.judge import Accepts, Game
from arbitre.life.referee import Referee, powers_to_act
from arbitre.life.turns import Gone, Plan, Submission, Turn, play, submission
from arbitre.store.botseats import bot_seats
from arbitre.store.db import Database
from arbitre.store.models import ACTIVE, BotSeat, GameRow

log = logging.getLogger("arbitre.store.bots")


def act_due_bots(db: Database, referee: Referee, now: datetime, limit: int = 50) -> int:
    """The worker's pass: every bot seat that has not yet acted in its game's current step gives its orders.

    Each game is one write transaction holding its row lock; the orders go
    through ``referee.submit`` (ready), like a person's, so the step is
    processed when everyone is ready.  Returns how many bot seats acted.
    """
    with db.reading() as s:
        ids = sorted(
            {
                gid
                for (gid,) in s.execute(
                    select(BotSeat.game_id).join(GameRow, GameRow.id == BotSeat.game_id).where(GameRow.status == ACTIVE)
                )
            }
        )
    acted = 0
    for game_id in ids[:limit]:
        try:
            acted += play(_bots_plan(db, referee, game_id, now))
        except Gone:  # finished meanwhile, or taken by another process
            continue
        except Exception:  # one broken game must not stop the others
            log.exception("game %s: the bots could not act", game_id)
            referee.cache.forget(game_id)
    return acted


def _bots_plan(db: Database, referee: Referee, game_id: int, now: datetime) -> Plan[Session, list[Submission], int]:
    """One game's bots through :func:`~arbitre.life.turns.play`: every due bot seat's orders computed from the
    turn read (one after the other, until a step closes), written if the game did not change meanwhile."""
    seats: list[dict[str, BotSeat]] = []

    def row(session: Session, lock: bool) -> tuple[Session, GameRow]:
        stmt = select(GameRow).where(GameRow.id == game_id, GameRow.status == ACTIVE).options(undefer(GameRow.data))
        found = session.scalars(stmt.with_for_update(skip_locked=True) if lock else stmt).first()
        if found is None:
            raise Gone(game_id)
        marker = f"{found.phase}/{found.step}"
        seats.append({p: s for p, s in bot_seats(session, found.id).items() if s.acted != marker})
        return session, found

    def compute(turn: Turn) -> list[Submission]:
        done: list[Submission] = []
        for power, seat in sorted(seats[-1].items()):
            if power not in powers_to_act(turn.game):
                continue
            given = submission(turn, power, bot_orders(turn.game, seat), True, None)
            done.append(given)
            if given.closing is not None:
                break
            turn = given.then(turn)
        return done

    def store(session: Session, _: Session, found: GameRow, done: list[Submission]) -> int:
        marker = f"{found.phase}/{found.step}"
        for given in done:
            seats[-1][given.power].acted = marker
            referee.write_submission(session, found, given, now)
        return len(done)

    return Plan(db.reading, db.writing, row, lambda s, r: referee.turn(s, r, now), compute, store)


def bot_orders(game: Game, seat: BotSeat) -> list[str]:
    """What the seat's bot gives for the current step, from its power's view and legal orders only."""
    bot = make_bot(seat.kind, seat.seed)
    view = game.view(seat.power)
    legal = game.legal_orders(seat.power)
    # What the step accepts decides, not its name: a module's later step may take whole orders again.
    if game.current_step.accepts == Accepts.ONE_CHANGE:
        change = bot.reaction(game.rules, view, legal)
        return [change] if change else []
    return bot.orders(game.rules, view, legal)
