"""Games and memberships: create, find, lock, join, roles."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, undefer

from arbitre.judge import Game
from arbitre.rules.facets import StepRules
from arbitre.rules.phase_steps import Step, declared_steps
from arbitre.store.models import FORMING, MASTER, OBSERVER, PLAYER, BotSeat, GameRow, Membership, User
from arbitre.variants import RULE_MODULES

PRESS_LEVELS = ("none", "public", "full")
"""Press settings: only with the master; plus public messages; plus private messages between powers."""
ASSIGNMENTS = ("random", "choice")
"""How powers are assigned: at random when the game fills, or each player picks a free power."""


def registered_steps() -> tuple[Step, ...]:
    """Every step after ``orders`` that a registered rule module declares, each name once (deadlines per step)."""
    modules = (module.factory({}) for module in RULE_MODULES)
    return declared_steps(m for m in modules if isinstance(m, StepRules))


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
    """A request the game's state or settings do not allow (the message says why)."""


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
        data=game.to_data(),
        result="",
        version=1,
        created_at=now,
        show_progress=settings.show_progress,
    )
    session.add(row)
    session.flush()
    session.add(Membership(game_id=row.id, user_id=master.id, role=MASTER))
    session.flush()
    return row


def get_game(session: Session, game_id: int, *, lock: bool = False, with_data: bool = False) -> GameRow | None:
    """The game ``game_id``; ``lock`` takes its row lock for the rest of the transaction."""
    stmt = select(GameRow).where(GameRow.id == game_id)
    if with_data:
        stmt = stmt.options(undefer(GameRow.data))
    if lock:
        stmt = stmt.with_for_update()
    return session.scalars(stmt).first()


def list_games(session: Session, limit: int = 200) -> list[GameRow]:
    """The most recent games (without their engine data)."""
    return list(session.scalars(select(GameRow).order_by(GameRow.id.desc()).limit(limit)))


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
    session: Session, game: GameRow, user: User, role: str, powers: list[str], wanted: str | None = None
) -> Membership:
    """Add ``user`` as a player (of ``wanted`` if the game lets players choose) or as an observer."""
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
                raise GameRuleError("powers are assigned at random in this game")
            if wanted not in powers:
                raise GameRuleError(f"{wanted} is not a power of this game")
            taken = {x.wanted_power for x in memberships(session, game.id) if x.role == PLAYER} | set(bots)
            if wanted in taken:
                raise GameRuleError(f"{wanted} is already taken")
        m = Membership(game_id=game.id, user_id=user.id, role=PLAYER, wanted_power=wanted or None)
    else:
        raise GameRuleError(f"unknown role {role!r}")
    session.add(m)
    session.flush()
    return m


def player_of_power(session: Session, game_id: int, power: str) -> Membership | None:
    """The membership holding ``power``."""
    return session.scalars(select(Membership).where(Membership.game_id == game_id, Membership.power == power)).first()


def user_names(session: Session, ids: set[int]) -> dict[int, str]:
    """User names by id."""
    if not ids:
        return {}
    return {row.id: row.name for row in session.execute(select(User.id, User.name).where(User.id.in_(ids)))}
