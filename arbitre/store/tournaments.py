"""Tournaments as stored: a director, players, the games of each round.

Creating a tournament, seating a round and the standings are the game's life
(:mod:`arbitre.life.tournaments`); this module reads and writes the rows.

Nobody plays in a tournament without saying so: the director invites a player
(:func:`invite`), who accepts or declines; anyone may also join by themself
(:func:`join`), and a player may leave (:func:`leave`): they are not seated in
later rounds (a game they already play goes on).  A round seats only the players
who joined (status :data:`JOINED`).

A round seats the players on new games the director masters, each player given
a power by :func:`arbitre.judge.tournament.seat_round` (each player meets each
power at most once where possible).  When the players do not fill whole boards,
those who played the most games sit the round out
(:func:`arbitre.judge.tournament.sitting_out`, ties drawn at random).  Standings add the players' scores in the finished
games (under each game's scoring system) and deduct ``card_penalty`` points per
yellow card they got in the tournament's games.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from sqlalchemy import Float, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.store.games import GameRuleError, memberships
from arbitre.store.models import PLAYER, Base, User, UTCDateTime


class Tournament(Base):
    """A tournament: its director, the settings of its games, and its yellow-card penalty."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    director_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    map_name: Mapped[str] = mapped_column(String(40), default="standard")
    scoring: Mapped[str] = mapped_column(String(32), default="c-diplo")
    lateness: Mapped[str] = mapped_column(String(16), default="tournament")
    last_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    card_penalty: Mapped[float] = mapped_column(Float, default=1.0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


INVITED = "invited"
"""A player the director invited, who has not accepted yet: never seated."""
JOINED = "joined"
"""A player who accepted an invitation or joined by themself: seated by the next rounds."""
LEFT = "left"
"""A player who left after being seated in a round: kept in the standings, never seated again."""


class TournamentPlayer(Base):
    """A person's place in a tournament: :data:`INVITED`, :data:`JOINED` or :data:`LEFT`."""

    __tablename__ = "tournament_players"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), default=INVITED, server_default=INVITED)


class TournamentGame(Base):
    """A game of a tournament's round."""

    __tablename__ = "tournament_games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)

    __table_args__ = (UniqueConstraint("game_id", name="uq_tournament_game"),)


def players_of(session: Session, tournament_id: int, statuses: tuple[str, ...] = (JOINED,)) -> list[int]:
    """The user ids of the tournament's people whose status is one of ``statuses`` (by default: the players
    who joined, the only ones a round seats)."""
    return list(
        session.scalars(
            select(TournamentPlayer.user_id).where(
                TournamentPlayer.tournament_id == tournament_id, TournamentPlayer.status.in_(statuses)
            )
        )
    )


def status_of(session: Session, t: Tournament, user_id: int) -> str | None:
    """``user_id``'s status in ``t`` (``None``: neither invited nor a player)."""
    found = session.get(TournamentPlayer, (t.id, user_id))
    return found.status if found is not None else None


def invite(session: Session, t: Tournament, user: User) -> None:
    """The director invites ``user``: they are a player once they accept (:func:`join`).  The director
    naming themself joins at once (they said so)."""
    found = session.get(TournamentPlayer, (t.id, user.id))
    if found is not None and found.status != LEFT:
        already = "already a player" if found.status == JOINED else "already invited"
        raise GameRuleError(f"{user.name} is {already}")
    status = JOINED if user.id == t.director_id else INVITED
    if found is None:
        session.add(TournamentPlayer(tournament_id=t.id, user_id=user.id, status=status))
    else:
        found.status = status
    session.flush()


def join(session: Session, t: Tournament, user: User) -> None:
    """``user`` joins ``t``: accepts the director's invitation, joins by themself, or comes back after leaving."""
    found = session.get(TournamentPlayer, (t.id, user.id))
    if found is None:
        session.add(TournamentPlayer(tournament_id=t.id, user_id=user.id, status=JOINED))
    elif found.status == JOINED:
        raise GameRuleError("you are already a player of this tournament")
    else:
        found.status = JOINED
    session.flush()


def leave(session: Session, t: Tournament, user_id: int) -> None:
    """``user_id`` leaves ``t`` (or declines its invitation, or the director withdraws it): not seated in
    later rounds.  Someone already seated in a round stays in the standings (:data:`LEFT`)."""
    found = session.get(TournamentPlayer, (t.id, user_id))
    if found is None or found.status == LEFT:
        raise GameRuleError("not a player of this tournament, nor invited")
    if str(user_id) in played_powers(session, t.id):
        found.status = LEFT
    else:
        session.delete(found)
    session.flush()


def games_of(session: Session, tournament_id: int) -> list[TournamentGame]:
    """The tournament's games, by round."""
    return list(
        session.scalars(
            select(TournamentGame)
            .where(TournamentGame.tournament_id == tournament_id)
            .order_by(TournamentGame.round, TournamentGame.id)
        )
    )


def played_powers(session: Session, tournament_id: int) -> dict[str, Counter[str]]:
    """User id (as text) → how often they were seated on each power in the tournament's games."""
    out: dict[str, Counter[str]] = {}
    for tg in games_of(session, tournament_id):
        for m in memberships(session, tg.game_id):
            power = m.power or m.wanted_power
            if m.role == PLAYER and power:
                out.setdefault(str(m.user_id), Counter())[power] += 1
    return out
