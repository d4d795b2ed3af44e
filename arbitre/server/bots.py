"""Bot seats on the server: what pages and the API say about them, and the master's actions.

The master may give any seat to the house bot: an empty seat before the game
starts (it then counts as taken), or a seat in civil disorder during the game.
The bot plays until a replacement arrives (the master's ``replace`` gives the
seat to a person, or the master takes the bot away).  Bots give their orders
from the deadline worker (:func:`arbitre.store.botseats.act_due_bots`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from arbitre.server.errors import bad_request, conflict, forbidden
from arbitre.server.services import Seat
from arbitre.server.site import Site
from arbitre.store.botseats import bot_seats, seat_bot, store_settings, unseat_bot
from arbitre.store.games import GameRuleError, player_of_power
from arbitre.store.models import FINISHED, FORMING, MASTER


def _master(seat: Seat) -> None:
    if seat.role != MASTER:
        raise forbidden("only the game master may do this")


def put_bot(session: Session, site: Site, seat: Seat, power: str, kind: str = "house") -> None:
    """The master gives ``power``'s seat to a bot (an empty seat before the start, any seat after)."""
    _master(seat)
    row = seat.row
    if row.status == FINISHED:
        raise conflict("the game is over")
    game = site.referee.game(session, row)
    power = (power or "").strip().upper()
    if row.status == FORMING and any(m.wanted_power == power for m in _players(session, row.id)):
        raise conflict(f"a player asked for {power}; a bot takes only an empty seat before the start")
    if (
        row.status != FORMING
        and player_of_power(session, row.id, power) is None
        and power in game.powers()
        and power not in bot_seats(session, row.id)
    ):
        raise conflict(f"nobody holds {power}")
    try:
        seat_bot(session, row, power, game.powers(), "empty" if row.status == FORMING else "disorder", kind)
    except GameRuleError as err:
        raise bad_request(str(err), "bad_bot") from err
    site.referee.maybe_start(session, row, site.now())


def remove_bot(session: Session, seat: Seat, power: str) -> None:
    """The master takes the bot out of ``power``'s seat (its player, if any, plays again)."""
    _master(seat)
    if not unseat_bot(session, seat.row, (power or "").strip().upper()):
        raise conflict(f"no bot holds {power}")


def set_settings(session: Session, seat: Seat, votes: str | None, after_missed: int | None) -> None:
    """The master sets how votes and scores treat bot seats, and the lateness rule."""
    _master(seat)
    try:
        store_settings(session, seat.row.id, votes, after_missed)
    except GameRuleError as err:
        raise bad_request(str(err), "bad_settings") from err
    seat.row.version += 1


def _players(session: Session, game_id: int) -> list[Any]:
    from arbitre.store.games import memberships
    from arbitre.store.models import PLAYER

    return [m for m in memberships(session, game_id) if m.role == PLAYER]
