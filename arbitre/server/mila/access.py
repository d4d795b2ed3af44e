"""Who a MILA client is in a game, and what it may read: roles, seats, press, the site's refusals as MILA's.

Roles: the game's master is MILA's omniscient observer (``omniscient_type``), a player is its power, an
observer is ``observer_type``.  Only games MILA's client can draw are served: the standard map with no rule
module (rule options are fine: they change rulings, not what is on the board).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from arbitre.interface.mila.influence import Influence, Known
from arbitre.server import services
from arbitre.server.auth import Actor
from arbitre.server.errors import Problem
from arbitre.server.mila import board
from arbitre.server.mila.protocol import MilaError
from arbitre.store.messages import count_for, messages_after, messages_in
from arbitre.store.models import MASTER, PLAYER, GameRow, User

MAP = "standard"
"""The one map MILA's client and arbitre draw alike."""
PAGE = 500
"""Messages read at once."""


def problem(err: Problem, error_type: str = "ResponseException") -> MilaError:
    where = f" ({err.where})" if err.where else ""
    return MilaError(f"{err.message}{where}", error_type)


@contextmanager
def site_errors(error_type: str = "ResponseException") -> Iterator[None]:
    """The site's refusals (:class:`Problem`) as MILA errors."""
    try:
        yield
    except Problem as err:
        raise problem(err, "GameIdException" if err.status == 404 else error_type) from err


def actor(user: User) -> Actor:
    return Actor(user=user, nonce="", lang=user.lang or "en", by_token=True)


def user_of(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise MilaError("this account no longer exists", "TokenException")
    return user


def game_number(value: str) -> int:
    if not value.isdigit() or len(value) > 12:
        raise MilaError(f"no game {value[:40]!r} here (game ids are numbers)", "GameIdException")
    return int(value)


def representable(row: GameRow) -> None:
    """Refuse a game MILA's client cannot represent (another map, or a rule module)."""
    if row.map_name != MAP or row.rules:
        rules = f" with rule modules {', '.join(row.rules)}" if row.rules else ""
        raise MilaError(
            f"game {row.id} is played on the {row.map_name} map{rules}: MILA's client can only represent the "
            f"standard map without rule modules; play it on the site or through the JSON API",
            "GameIdException",
        )


def mila_rules(row: GameRow) -> list[str]:
    """The MILA rules that describe the site's settings of a game."""
    rules = ["REAL_TIME"]  # a power's orders count as submitted at once (see set_orders)
    if row.assignment == "choice":
        rules.append("POWER_CHOICE")
    rules.append({"none": "NO_PRESS", "public": "PUBLIC_PRESS"}.get(row.press, "PRESS"))
    return sorted(r for r in rules if r != "PRESS")


def role_of(seat: services.Seat) -> str:
    """The MILA role of a member."""
    if seat.role == MASTER:
        return board.OMNISCIENT_TYPE
    if seat.role == PLAYER:
        if seat.member is None:
            return board.OBSERVER_TYPE
        return seat.power or seat.member.wanted_power or board.OBSERVER_TYPE
    return board.OBSERVER_TYPE


def viewer_of(role: str) -> str:
    """The view builder's viewer id of a MILA role."""
    if role == board.OMNISCIENT_TYPE:
        return "master"
    if role == board.OBSERVER_TYPE:
        return "observer"
    return role


def press_name(role: str) -> str:
    """The name a MILA role reads press under."""
    if role == board.OMNISCIENT_TYPE:
        return "MASTER"
    return "OBSERVER" if role == board.OBSERVER_TYPE else role


@dataclass(frozen=True)
class Seen:
    """What a client was told of a game: its status, the played phases and the messages it read."""

    status: str
    played: int
    """How many phases of the game's history (arbitre's, left-out ones included) it knows."""
    visible: int
    """How many MILA phases it knows."""
    messages: int
    influence: Influence
    """The starting influence with the board of every known record but the first applied: what the next
    phases are built on, so that they are built from the new records alone."""

    def known(self) -> Known:
        """Where the client's timeline stands."""
        return Known(self.played, self.visible, self.influence)


def seat_of(s: Session, user_id: int, game_id: str, role: str, *, lock: bool = False) -> services.Seat:
    """The requester's seat in a game, which must be the role its client claims."""
    user = user_of(s, user_id)
    with site_errors():
        seat = services.open_game(s, game_number(game_id), actor(user), lock=lock)
    representable(seat.row)
    if role_of(seat) != role:
        raise MilaError(f"you are not {role[:40]} in game {game_id}", "GameRoleException")
    return seat


def messages_of(s: Session, row: GameRow, role: str, phases: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Every message ``role`` may read in the game (only those written in ``phases`` when given), as MILA's
    messages."""
    out: list[dict[str, Any]] = []
    reader = press_name(role)
    if phases is not None:
        return [d for m in messages_in(s, row.id, reader, phases) for d in board.message_data(m)]
    total = count_for(s, row.id, reader)
    for start in range(0, total, PAGE):
        for m in messages_after(s, row.id, reader, start, PAGE):
            out.extend(board.message_data(m))
    return out


def controllers(s: Session, seat: services.Seat) -> dict[str, str]:
    """Who plays each power, as the requester's roster shows it (``anonymous`` in an anonymous game)."""
    roster = services.roster(s, seat.row, seat)
    out = {}
    for p in roster.players:
        if p.power:
            out[p.power] = p.user or "anonymous"
    return out


def power_of(seat: services.Seat, asked: str | None) -> str:
    power = seat.power
    if seat.role != PLAYER or not power:
        raise MilaError("only a player holding a power does this (the game has not started?)", "GameRoleException")
    if asked and asked.upper() != power:
        raise MilaError(f"you play {power}, not {asked[:40]}", "GameRoleException")
    return power
