"""The deadline worker's bot pass: every bot seat that owes orders in its game's current step gives them."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import undefer

from arbitre.bots import make_bot
from arbitre.judge import Game
from arbitre.life.referee import Referee, powers_to_act
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
            with db.writing() as session:
                stmt = (
                    select(GameRow)
                    .where(GameRow.id == game_id, GameRow.status == ACTIVE)
                    .options(undefer(GameRow.data))
                    .with_for_update(skip_locked=True)
                )
                row = session.scalars(stmt).first()
                if row is None:
                    continue
                marker = f"{row.phase}/{row.step}"
                game = referee.game(session, row)
                due = [
                    seat
                    for power, seat in bot_seats(session, row.id).items()
                    if seat.acted != marker and power in powers_to_act(game)
                ]
                for seat in due:
                    game = referee.game(session, row)
                    if row.status != ACTIVE or f"{row.phase}/{row.step}" != marker:
                        break
                    seat.acted = marker
                    referee.submit(session, row, seat.power, bot_orders(game, seat), True, now)
                    acted += 1
        except Exception:  # one broken game must not stop the others
            log.exception("game %s: the bots could not act", game_id)
            referee.cache.forget(game_id)
    return acted


def bot_orders(game: Game, seat: BotSeat) -> list[str]:
    """What the seat's bot gives for the current step, from its power's view and legal orders only."""
    bot = make_bot(seat.kind, seat.seed)
    view = game.view(seat.power)
    legal = game.legal_orders(seat.power)
    if game.step != "orders":
        change = bot.reaction(game.rules, view, legal)
        return [change] if change else []
    return bot.orders(game.rules, view, legal)
