"""Bot seats: which powers of a game the house bot plays, why, and the game's bot settings.

A seat is given to a bot by the game master (at creation for an empty seat,
or later for a seat in civil disorder), or by the lateness setting
``bot_after_missed`` (a bot takes the seat of a power that missed that many
steps in a row).  A bot plays until a replacement arrives: the master gives the
seat to a person (``replace``) or takes the bot away.

Bots order through :meth:`arbitre.life.referee.Referee.submit`, exactly as
people do, from the deadline worker, each game in its
own write transaction holding the game's row lock (:mod:`arbitre.life.botworker`).
A bot is asked with its power's view and legal orders only.

Each seat's seed is random and secret (:data:`SEED_BITS` bits from :mod:`secrets`, drawn when
a bot takes the seat, never shown): the house bot is deterministic for its seed, so a seed
anyone could work out (it once was the game id × 100 + the power's index) would let an
opponent compute the bot's orders from its own view before the deadline.
"""

from __future__ import annotations

import secrets

from sqlalchemy import ForeignKey, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.bots import BOTS
from arbitre.store.games import GameRuleError
from arbitre.store.models import Base, BotSeat, GameRow

BOT_VOTES = ("abstain", "exclude", "count")
"""How votes and scores treat bot seats: ``abstain`` (a bot never votes; its seat is left out of
unanimity), ``exclude`` (the seat is left out of votes and scores), ``count`` (the seat counts like a
player's, its centres and result included)."""
REASONS = ("master", "empty", "disorder", "lateness")
"""Why a bot holds a seat."""
SEED_BITS = 63
"""How many random bits a bot seat's seed has (it fits the signed 64-bit column)."""


def new_seed() -> int:
    """A fresh secret seed for a bot seat."""
    return secrets.randbits(SEED_BITS)


class BotSetting(Base):
    """A game's bot settings: how votes and scores treat bot seats; after how many missed steps a bot steps in."""

    __tablename__ = "bot_settings"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    votes: Mapped[str] = mapped_column(String(16), default="abstain")
    after_missed: Mapped[int | None] = mapped_column(Integer, nullable=True)


class MissedSteps(Base):
    """How many steps in a row a power let pass without being ready (for ``after_missed``)."""

    __tablename__ = "missed_steps"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    power: Mapped[str] = mapped_column(String(24), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


def bot_seats(session: Session, game_id: int) -> dict[str, BotSeat]:
    """Power → its bot seat, for the powers a bot plays."""
    rows = session.scalars(select(BotSeat).where(BotSeat.game_id == game_id)).all()
    return {r.power: r for r in sorted(rows, key=lambda r: r.power)}


def bot_settings(session: Session, game_id: int) -> BotSetting:
    """The game's bot settings (the defaults when none were stored)."""
    found = session.get(BotSetting, game_id)
    return found if found is not None else BotSetting(game_id=game_id, votes="abstain", after_missed=None)


def excluded_from_scores(session: Session, game_id: int) -> frozenset[str]:
    """The powers whose seats a bot holds, when the game's bot setting leaves bot seats out of scores."""
    if bot_settings(session, game_id).votes != "exclude":
        return frozenset()
    return frozenset(bot_seats(session, game_id))


def store_settings(session: Session, game_id: int, votes: str | None, after_missed: int | None) -> BotSetting:
    """Set the game's bot settings (checked: ``votes`` in :data:`BOT_VOTES`, ``after_missed`` 1–20 or none)."""
    if votes is not None and votes not in BOT_VOTES:
        raise GameRuleError(f"bot_votes is one of {', '.join(BOT_VOTES)}")
    if after_missed is not None and (isinstance(after_missed, bool) or not 1 <= after_missed <= 20):
        raise GameRuleError("bot_after_missed is a number of missed steps from 1 to 20 (or none)")
    found = session.get(BotSetting, game_id)
    if found is None:
        found = BotSetting(game_id=game_id, votes=votes or "abstain", after_missed=after_missed)
        session.add(found)
    else:
        found.votes = votes or found.votes
        found.after_missed = after_missed
    session.flush()
    return found


def seat_bot(
    session: Session, row: GameRow, power: str, powers: list[str], reason: str = "master", kind: str = "house"
) -> BotSeat:
    """Give ``power`` to a bot (replacing the bot already there), with a new random secret seed."""
    power = power.upper()
    if power not in powers:
        raise GameRuleError(f"{power!r} is not a power of this game ({', '.join(powers)})")
    if kind not in BOTS:
        raise GameRuleError(f"unknown bot {kind!r}; known: {', '.join(sorted(BOTS))}")
    if reason not in REASONS:
        raise GameRuleError(f"unknown reason {reason!r}")
    seat = bot_seats(session, row.id).get(power)
    if seat is None:
        seat = BotSeat(game_id=row.id, power=power)
        session.add(seat)
    seat.kind, seat.seed, seat.reason, seat.since, seat.acted = (
        kind,
        new_seed(),
        reason,
        row.phase,
        "",
    )
    session.flush()
    row.version += 1
    return seat


def unseat_bot(session: Session, row: GameRow, power: str) -> bool:
    """Take the bot out of ``power``'s seat (a replacement arrived); ``False`` when no bot held it."""
    seat = bot_seats(session, row.id).get(power.upper())
    if seat is None:
        return False
    session.delete(seat)
    session.flush()
    row.version += 1
    return True
