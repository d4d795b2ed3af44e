"""A game before it starts: its settings checked, its creation, the players joining.

This is the game's life (:mod:`arbitre.life`), not its persistence: the settings are checked against
the engine (:meth:`arbitre.judge.Game.new` reads the map and rule modules), the first position is the
engine's, and a player's seat request is checked against the game's assignment rule.  The rows are
then written through the ORM models of :mod:`arbitre.store`.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.judge.votes import KINDS as VOTE_KINDS
from arbitre.judge.votes import VoteSettings
from arbitre.life.stored import write_state
from arbitre.rules.facets import StepRules
from arbitre.rules.phase_steps import Step, declared_steps
from arbitre.store.games import GameRuleError, membership_of, memberships, player_count
from arbitre.store.lateness import Lateness
from arbitre.store.models import FORMING, MASTER, OBSERVER, PLAYER, BotSeat, GameRow, Membership, User
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


@dataclass(frozen=True)
class BotsRequest:
    """Bot seats asked for at creation: the powers a bot plays, the bot setting for votes and scores, and after
    how many missed steps in a row a bot takes a late player's seat."""

    seats: tuple[str, ...] = ()
    votes: str | None = None
    after_missed: int | None = None


@dataclass(frozen=True)
class GameSettings:
    """A new game as its creator asks for it, typed from the edge on: the API's body
    (:meth:`arbitre.server.routes.api.GameIn.request`) and the creation form build it, and it goes as it is
    to :func:`create_game` (and to the ending, lateness and bot settings the server stores beside)."""

    name: str
    map_name: str = "standard"
    rules: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    """Rule options by name (a whole number, a word or a yes/no each)."""
    press: str = "full"
    assignment: str = "random"
    deadlines: Mapping[str, int] = field(default_factory=dict)
    """Deadlines in seconds by phase kind or step; the others are :data:`DEFAULT_DEADLINES`."""
    show_progress: bool = True
    private: bool = False
    join_code: str = ""
    anonymous: bool = False
    secret_votes: tuple[str, ...] | None = None
    """The vote kinds whose ballots are secret (``None``: :class:`arbitre.judge.votes.VoteSettings`' default)."""
    dias: bool = True
    """Does a draw include every power still in the game?"""
    creator: str = MASTER
    """The creator's role: the game's master, or one of its players (the game then has no master)."""
    power: str | None = None
    """The power a creator who plays asks for (games where players choose)."""
    preferences: tuple[str, ...] = ()
    """The powers a creator who plays would rather have, best first (games seated by preferences)."""
    last_year: int | None = None
    """The game ends in a draw once this year is played (``None``: no fixed length)."""
    target_centers: int | None = None
    """The centres a power needs to win (``None``: the map's number)."""
    scoring: str | None = None
    """The scoring system (``None``: the default one)."""
    lateness: Lateness | None = None
    """Lateness settings (``None``: the default ones)."""
    bots: BotsRequest | None = None
    """Bot seats and bot settings at creation (``None``: none)."""


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
    if settings.creator not in CREATOR_ROLES:
        raise GameRuleError(f"the creator is one of {', '.join(CREATOR_ROLES)}", "creator")
    code = settings.join_code.strip()
    if len(code) > MAX_JOIN_CODE:
        raise GameRuleError(f"a join code is at most {MAX_JOIN_CODE} characters", "join_code")
    if code and not settings.private:
        raise GameRuleError("only a private game has a join code", "join_code")
    votes = check_votes(settings.secret_votes, settings.dias)
    game = Game.new(  # raises ValueError on bad rules
        settings.map_name, list(settings.rules), dict(settings.options), settings.last_year, settings.target_centers
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
    write_state(row, game)
    session.add(row)
    session.flush()
    if settings.creator == MASTER:
        session.add(Membership(game_id=row.id, user_id=master.id, role=MASTER))
        session.flush()
    else:
        ranked = [p for p in settings.preferences if p.strip()]
        join(session, row, master, PLAYER, game.powers(), settings.power or None, ranked)
    return row


def check_votes(secret: tuple[str, ...] | None, dias: bool) -> VoteSettings:
    """The vote settings of a new game, checked (raises :class:`GameRuleError`)."""
    if secret is None:
        return VoteSettings(dias=dias)
    bad = [k for k in secret if k not in VOTE_KINDS]
    if bad:
        raise GameRuleError(f"unknown vote kind {bad[0][:40]!r}; known: {', '.join(VOTE_KINDS)}", "votes.secret")
    return VoteSettings(secret=frozenset(secret), dias=dias)


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
