"""Games and memberships as stored: find, lock, list, count seats, roles.

Creating a game and seating its players (the settings checked, the engine's first position) is the
game's life, in :mod:`arbitre.life.forming`; this module only reads and writes the rows."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ScalarSelect, and_, bindparam, func, or_, select
from sqlalchemy.orm import Session, undefer

from arbitre.store.access import known_games
from arbitre.store.drafts import remember_draft
from arbitre.store.models import (
    ACTIVE,
    FINISHED,
    FORMING,
    PAUSED,
    PLAYER,
    BotSeat,
    DraftRow,
    GameRow,
    Membership,
    User,
)


class GameRuleError(ValueError):
    """A request the game's state or settings do not allow (the message says why; ``where`` names the field)."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.where = where


def get_game(session: Session, game_id: int, *, lock: bool = False, with_data: bool = False) -> GameRow | None:
    """The game ``game_id``; ``lock`` takes its row lock for the rest of the transaction."""
    stmt = select(GameRow).where(GameRow.id == game_id)
    if with_data:
        stmt = stmt.options(undefer(GameRow.data))
    if lock:
        stmt = stmt.with_for_update()
    return session.scalars(stmt).first()


_GAME_AND_MEMBERSHIP = (
    select(GameRow, Membership, DraftRow)
    .outerjoin(Membership, and_(Membership.game_id == GameRow.id, Membership.user_id == bindparam("user_id")))
    .outerjoin(
        DraftRow,
        and_(
            DraftRow.game_id == GameRow.id,
            DraftRow.power == Membership.power,
            DraftRow.user_id == bindparam("user_id"),
        ),
    )
    .where(GameRow.id == bindparam("game_id"))
)
"""Built once (every page and API read of a game runs it): SQLAlchemy then finds its compiled form without
building the statement and its cache key again."""


def game_and_membership(
    session: Session, game_id: int, user_id: int | None
) -> tuple[GameRow | None, Membership | None]:
    """The game ``game_id`` and ``user_id``'s membership in it, in one query (no lock, engine data deferred)."""
    if user_id is None:
        return get_game(session, game_id), None
    found = session.execute(_GAME_AND_MEMBERSHIP, {"game_id": game_id, "user_id": user_id}).first()
    if found is None:
        return None, None
    remember_draft(session, game_id, user_id, found[2])  # the game page reads it without a query of its own
    return found[0], found[1]


def memberships(session: Session, game_id: int) -> list[Membership]:
    """Everyone in a game."""
    return list(session.scalars(select(Membership).where(Membership.game_id == game_id).order_by(Membership.id)))


def membership_of(session: Session, game_id: int, user_id: int) -> Membership | None:
    """The user's role in a game, if any."""
    return session.scalars(
        select(Membership).where(Membership.game_id == game_id, Membership.user_id == user_id)
    ).first()


def games_of(session: Session, user_id: int) -> list[tuple[GameRow, Membership]]:
    """The games a user is in, with the role."""
    rows = session.execute(
        select(GameRow, Membership)
        .join(Membership, Membership.game_id == GameRow.id)
        .where(Membership.user_id == user_id)
        .order_by(GameRow.id.desc())
    )
    return [(g, m) for g, m in rows]


def player_count(session: Session, game_id: int) -> int:
    """How many players have joined."""
    return (
        session.scalar(
            select(func.count()).select_from(Membership).where(Membership.game_id == game_id, Membership.role == PLAYER)
        )
        or 0
    )


def seats_of(session: Session, game_ids: list[int]) -> dict[int, int]:
    """Seats taken (players and bots) per game."""
    if not game_ids:
        return {}
    out = dict.fromkeys(game_ids, 0)
    players = session.execute(
        select(Membership.game_id, func.count())
        .where(Membership.game_id.in_(game_ids), Membership.role == PLAYER)
        .group_by(Membership.game_id)
    )
    bots = session.execute(
        select(BotSeat.game_id, func.count()).where(BotSeat.game_id.in_(game_ids)).group_by(BotSeat.game_id)
    )
    for gid, n in [*players, *bots]:
        out[gid] += n
    return out


def _taken_column() -> ScalarSelect[int]:
    """Seats taken in the game of the row being selected (players and bots), as a column of the same query."""
    players = (
        select(func.count(Membership.id))
        .where(Membership.game_id == GameRow.id, Membership.role == PLAYER)
        .correlate(GameRow)
        .scalar_subquery()
    )
    bots = select(func.count(BotSeat.id)).where(BotSeat.game_id == GameRow.id).correlate(GameRow).scalar_subquery()
    return (players + bots).label("taken")  # type: ignore[return-value]


def taken_seats(session: Session, game_id: int) -> int:
    """Seats taken in a game: its players and its bots."""
    return seats_of(session, [game_id])[game_id]


def chosen_powers(session: Session, game_id: int) -> list[str]:
    """Powers already asked for by a player or held by a bot (games where players choose)."""
    wanted = {m.wanted_power for m in memberships(session, game_id) if m.role == PLAYER and m.wanted_power}
    bots = set(session.scalars(select(BotSeat.power).where(BotSeat.game_id == game_id)))
    return sorted(wanted | bots)


LOBBY_ORDER = {FORMING: 0, ACTIVE: 1, PAUSED: 1, FINISHED: 2}
"""The lobby lists open games first, then running games, then finished ones."""


def _visible(user_id: int | None, limit: int) -> Any:
    """The ids of the newest ``limit`` games ``user_id`` may see in the lobby (public ones and their own)."""
    return select(GameRow.id).where(known_games(user_id)).order_by(GameRow.id.desc()).limit(limit)


def _lobby_order(rows: list[tuple[GameRow, int]]) -> list[tuple[GameRow, int]]:
    def place(item: tuple[GameRow, int]) -> tuple[int, int]:
        g, taken = item
        open_seat = g.status == FORMING and (g.seats is None or taken < g.seats)
        return (0 if open_seat else max(1, LOBBY_ORDER.get(g.status, 1)), -g.id)

    return sorted(rows, key=place)


def lobby_games(session: Session, user_id: int | None, limit: int = 200) -> list[tuple[GameRow, int]]:
    """The games ``user_id`` may see in the lobby (public ones, and private ones they are in), with the seats
    taken: open games with a free seat first, then running games, then finished ones (newest first in each)."""
    return home_games(session, user_id, limit)[0]


def home_games(
    session: Session, user_id: int | None, limit: int = 200
) -> tuple[list[tuple[GameRow, int]], list[tuple[GameRow, Membership]]]:
    """The lobby (as :func:`lobby_games`) and the games ``user_id`` is in with their role, newest first (as
    :func:`games_of`), read in one query."""
    visible = _visible(user_id, limit)
    if user_id is None:
        found = session.execute(
            select(GameRow, _taken_column()).where(GameRow.id.in_(visible)).order_by(GameRow.id.desc())
        )
        return _lobby_order([(g, int(taken or 0)) for g, taken in found]), []
    stmt = (
        select(GameRow, Membership, _taken_column(), GameRow.id.in_(visible))
        .outerjoin(Membership, and_(Membership.game_id == GameRow.id, Membership.user_id == user_id))
        .where(or_(Membership.id.is_not(None), GameRow.id.in_(_visible(user_id, limit))))
        .order_by(GameRow.id.desc())
    )
    rows = session.execute(stmt).all()
    lobby = [(g, int(taken or 0)) for g, _m, taken, shown in rows if shown]
    mine = [(g, m) for g, m, _taken, _shown in rows if m is not None]
    return _lobby_order(lobby), mine


def game_by_invitation(session: Session, token: str) -> GameRow | None:
    """The game whose invitation link carries ``token``."""
    if not token or len(token) > 64:
        return None
    return session.scalars(select(GameRow).where(GameRow.invite_token == token)).first()


def invitation_and_membership(
    session: Session, token: str, user_id: int | None
) -> tuple[GameRow | None, Membership | None]:
    """The game whose invitation link carries ``token`` and ``user_id``'s membership in it, in one query."""
    if user_id is None:
        return game_by_invitation(session, token), None
    if not token or len(token) > 64:
        return None, None
    stmt = (
        select(GameRow, Membership)
        .outerjoin(Membership, and_(Membership.game_id == GameRow.id, Membership.user_id == user_id))
        .where(GameRow.invite_token == token)
    )
    found = session.execute(stmt).first()
    return (None, None) if found is None else (found[0], found[1])


def player_of_power(session: Session, game_id: int, power: str) -> Membership | None:
    """The membership holding ``power``."""
    return session.scalars(select(Membership).where(Membership.game_id == game_id, Membership.power == power)).first()


def user_names(session: Session, ids: set[int]) -> dict[int, str]:
    """User names by id."""
    if not ids:
        return {}
    return {row.id: row.name for row in session.execute(select(User.id, User.name).where(User.id.in_(ids)))}
