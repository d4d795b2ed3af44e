"""Games and memberships: create, find, lock, join, roles."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import ScalarSelect, and_, func, or_, select
from sqlalchemy.orm import Session, undefer

from arbitre.judge import Game
from arbitre.judge.votes import KINDS as VOTE_KINDS
from arbitre.judge.votes import VoteSettings
from arbitre.rules.facets import StepRules
from arbitre.rules.phase_steps import Step, declared_steps
from arbitre.store.access import known_games
from arbitre.store.drafts import remember_draft
from arbitre.store.models import (
    ACTIVE,
    FINISHED,
    FORMING,
    MASTER,
    OBSERVER,
    PAUSED,
    PLAYER,
    BotSeat,
    DraftRow,
    GameRow,
    Membership,
    User,
)
from arbitre.variants import RULE_MODULES

PRESS_LEVELS = ("none", "public", "full")
"""Press settings: only with the master; plus public messages; plus private messages between powers."""
ASSIGNMENTS = ("random", "choice", "preferences")
"""How powers are assigned: at random when the game fills, each player picks a free power, or by the players'
ranked preferences when the game fills (:mod:`arbitre.judge.seating`)."""
CREATOR_ROLES = (MASTER, PLAYER)
"""What the creator of a game is: its (non-playing) master, or one of its players (the game then has no master)."""
MAX_JOIN_CODE = 40
"""Longest join code of a private game."""


def registered_steps() -> tuple[Step, ...]:
    """Every step after ``orders`` that a registered rule module declares, each name once (deadlines per step)."""
    modules = (module.build({}) for module in RULE_MODULES)
    return declared_steps(m for m in modules if isinstance(m, StepRules))


def steps_of(map_name: str, rules: list[str]) -> list[str]:
    """The steps after ``orders`` that a game's rule modules (and its map's own module) declare."""
    return list(_steps_of(map_name, tuple(sorted(rules))))


@cache
def _steps_of(map_name: str, rules: tuple[str, ...]) -> tuple[str, ...]:
    modules = [m.build({}) for m in RULE_MODULES if m.name in rules or m.for_map == map_name]
    return tuple(step.name for step in declared_steps(m for m in modules if isinstance(m, StepRules)))


DEFAULT_DEADLINES = {
    "M": 24 * 3600,
    "R": 12 * 3600,
    "A": 12 * 3600,
    **{step.name: step.default_deadline for step in registered_steps()},
}
"""Default deadlines, in seconds: one per phase kind, and one per step a registered rule module declares."""
DEADLINE_KEYS = tuple(DEFAULT_DEADLINES)
"""Deadline settings: one per phase kind, and one per step a rule module adds inside a phase."""


class GameRuleError(ValueError):
    """A request the game's state or settings do not allow (the message says why; ``where`` names the field)."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.where = where


@dataclass
class GameSettings:
    """What a master chooses when creating a game."""

    name: str
    map_name: str = "standard"
    rules: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    press: str = "full"
    assignment: str = "random"
    deadlines: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_DEADLINES))
    show_progress: bool = True
    private: bool = False
    join_code: str = ""
    anonymous: bool = False
    votes: dict[str, Any] = field(default_factory=dict)
    """``{"secret": [kinds], "dias": bool}`` (missing keys: :class:`arbitre.judge.votes.VoteSettings` defaults)."""
    creator_role: str = MASTER
    creator_power: str | None = None
    """The power a creator who plays asks for (games where players choose)."""
    creator_preferences: list[str] = field(default_factory=list)
    """The powers a creator who plays would rather have, best first (games seated by preferences)."""
    last_year: int | None = None
    """The game ends in a draw once this year is played (``None``: no fixed length)."""
    target_centers: int | None = None
    """The centres a power needs to win (``None``: the map's number)."""


def create_game(session: Session, master: User, settings: GameSettings, now: datetime) -> GameRow:
    """Create a forming game with ``master`` as its game master (raises ValueError on bad settings)."""
    if not settings.name.strip():
        raise GameRuleError("a game needs a name")
    if settings.press not in PRESS_LEVELS:
        raise GameRuleError(f"press must be one of {', '.join(PRESS_LEVELS)}")
    if settings.assignment not in ASSIGNMENTS:
        raise GameRuleError(f"assignment must be one of {', '.join(ASSIGNMENTS)}")
    deadlines = dict(DEFAULT_DEADLINES)
    for key, value in settings.deadlines.items():
        if key not in DEADLINE_KEYS:
            raise GameRuleError(f"unknown deadline {key!r}; known: {', '.join(DEADLINE_KEYS)}")
        if not isinstance(value, int) or not 10 <= value <= 60 * 24 * 3600:
            raise GameRuleError(f"deadline {key!r} must be between 10 seconds and 60 days")
        deadlines[key] = value
    if settings.creator_role not in CREATOR_ROLES:
        raise GameRuleError(f"the creator is one of {', '.join(CREATOR_ROLES)}", "creator")
    code = settings.join_code.strip()
    if len(code) > MAX_JOIN_CODE:
        raise GameRuleError(f"a join code is at most {MAX_JOIN_CODE} characters", "join_code")
    if code and not settings.private:
        raise GameRuleError("only a private game has a join code", "join_code")
    votes = check_vote_settings(settings.votes)
    game = Game.new(  # raises ValueError on bad rules
        settings.map_name, settings.rules, settings.options, settings.last_year, settings.target_centers
    )
    row = GameRow(
        name=settings.name.strip()[:80],
        map_name=settings.map_name,
        rules=list(settings.rules),
        options=dict(settings.options),
        press=settings.press,
        assignment=settings.assignment,
        deadlines=deadlines,
        status=FORMING,
        phase=str(game.phase),
        step="orders",
        data=game.state_data(),
        result="",
        version=1,
        created_at=now,
        show_progress=settings.show_progress,
        private=settings.private,
        invite_token=secrets.token_urlsafe(24),  # 192 random bits: the link cannot be guessed
        join_code=code,
        anonymous=settings.anonymous,
        vote_settings=votes.to_data(),
        seats=len(game.powers()),
    )
    session.add(row)
    session.flush()
    if settings.creator_role == MASTER:
        session.add(Membership(game_id=row.id, user_id=master.id, role=MASTER))
        session.flush()
    else:
        join(session, row, master, PLAYER, game.powers(), settings.creator_power, settings.creator_preferences)
    return row


def check_vote_settings(data: dict[str, Any]) -> VoteSettings:
    """The vote settings of a new game, checked (raises :class:`GameRuleError`)."""
    unknown = sorted(set(data) - {"secret", "dias"})
    if unknown:
        raise GameRuleError(f"unknown vote setting {unknown[0]!r}; known: secret, dias", "votes")
    secret = data.get("secret")
    if secret is not None:
        if not isinstance(secret, list) or not all(isinstance(k, str) for k in secret):
            raise GameRuleError("votes.secret is a list of vote kinds", "votes.secret")
        bad = [k for k in secret if k not in VOTE_KINDS]
        if bad:
            raise GameRuleError(f"unknown vote kind {bad[0][:40]!r}; known: {', '.join(VOTE_KINDS)}", "votes.secret")
    if not isinstance(data.get("dias", True), bool):
        raise GameRuleError("votes.dias is true or false", "votes.dias")
    return VoteSettings.from_data(data)


def get_game(session: Session, game_id: int, *, lock: bool = False, with_data: bool = False) -> GameRow | None:
    """The game ``game_id``; ``lock`` takes its row lock for the rest of the transaction."""
    stmt = select(GameRow).where(GameRow.id == game_id)
    if with_data:
        stmt = stmt.options(undefer(GameRow.data))
    if lock:
        stmt = stmt.with_for_update()
    return session.scalars(stmt).first()


def game_and_membership(
    session: Session, game_id: int, user_id: int | None
) -> tuple[GameRow | None, Membership | None]:
    """The game ``game_id`` and ``user_id``'s membership in it, in one query (no lock, engine data deferred)."""
    if user_id is None:
        return get_game(session, game_id), None
    stmt = (
        select(GameRow, Membership, DraftRow)
        .outerjoin(Membership, and_(Membership.game_id == GameRow.id, Membership.user_id == user_id))
        .outerjoin(
            DraftRow,
            and_(DraftRow.game_id == GameRow.id, DraftRow.power == Membership.power, DraftRow.user_id == user_id),
        )
        .where(GameRow.id == game_id)
    )
    found = session.execute(stmt).first()
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


def join(
    session: Session,
    game: GameRow,
    user: User,
    role: str,
    powers: list[str],
    wanted: str | None = None,
    preferences: list[str] | None = None,
) -> Membership:
    """Add ``user`` as a player (of ``wanted`` if the game lets players choose; with their ranked
    ``preferences`` if it seats players by preferences) or as an observer."""
    if membership_of(session, game.id, user.id) is not None:
        raise GameRuleError("you are already in this game")
    if role == OBSERVER:
        m = Membership(game_id=game.id, user_id=user.id, role=OBSERVER)
    elif role == PLAYER:
        if game.status != FORMING:
            raise GameRuleError("this game is not taking players")
        bots = {b.power for b in session.scalars(select(BotSeat).where(BotSeat.game_id == game.id))}  # taken
        if player_count(session, game.id) + len(bots) >= len(powers):
            raise GameRuleError("this game is full")
        if wanted:
            wanted = wanted.upper()
            if game.assignment != "choice":
                raise GameRuleError("players do not choose their power in this game", "power")
            if wanted not in powers:
                raise GameRuleError(f"{wanted[:24]} is not a power of this game", "power")
            taken = {x.wanted_power for x in memberships(session, game.id) if x.role == PLAYER} | set(bots)
            if wanted in taken:
                raise GameRuleError(f"{wanted} is already taken", "power")
        ranked = check_preferences(game, powers, preferences or [])
        m = Membership(game_id=game.id, user_id=user.id, role=PLAYER, wanted_power=wanted or None, preferences=ranked)
    else:
        raise GameRuleError(f"unknown role {role!r}")
    session.add(m)
    session.flush()
    return m


def check_preferences(game: GameRow, powers: list[str], preferences: list[str]) -> list[str] | None:
    """A player's ranked powers, checked (``None`` when there are none)."""
    if not preferences:
        return None
    if game.assignment != "preferences":
        raise GameRuleError("players do not rank powers in this game", "preferences")
    ranked = [p.upper() for p in preferences]
    for p in ranked:
        if p not in powers:
            raise GameRuleError(f"{p[:24]} is not a power of this game", "preferences")
    if len(set(ranked)) != len(ranked):
        raise GameRuleError("each power is ranked once", "preferences")
    return ranked


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
