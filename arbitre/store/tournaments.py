"""Tournaments: a director, players, rounds of games seated by a balanced rule, standings.

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

import random
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from arbitre.judge import Game
from arbitre.judge.scoring import SYSTEMS
from arbitre.judge.tournament import Standing, seat_round, sitting_out, standings
from arbitre.store.access import may_know
from arbitre.store.botseats import excluded_from_scores
from arbitre.store.endings import Ending, check_ending, ending_of, scores, store_ending
from arbitre.store.games import GameRuleError, GameSettings, create_game, get_game, memberships, user_names
from arbitre.store.lateness import parse, store_lateness
from arbitre.store.missed import MissedDeadline
from arbitre.store.models import FINISHED, PLAYER, Base, GameRow, Membership, User, UTCDateTime

CANDIDATES = 40
"""How many groupings of players into boards a round tries (shuffled), keeping the one of least repeats."""


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


def create_tournament(
    session: Session,
    director: User,
    name: str,
    scoring: str,
    lateness: str,
    last_year: int | None,
    card_penalty: float,
    now: datetime,
) -> Tournament:
    """A new tournament directed by ``director`` (checked: a name, a known scoring system and lateness preset)."""
    if not name.strip():
        raise GameRuleError("name: a tournament needs a name")
    if scoring not in SYSTEMS:
        raise GameRuleError(f"scoring: one of {', '.join(SYSTEMS)}")
    parse({"preset": lateness})  # raises on an unknown preset
    if not 0 <= card_penalty <= 100:
        raise GameRuleError("card_penalty: points per yellow card, from 0 to 100")
    t = Tournament(
        name=name.strip()[:80],
        director_id=director.id,
        scoring=scoring,
        lateness=lateness,
        last_year=last_year,
        card_penalty=card_penalty,
        created_at=now,
    )
    session.add(t)
    session.flush()
    return t


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
    if str(user_id) in _played(session, t.id):
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


def _played(session: Session, tournament_id: int) -> dict[str, Counter[str]]:
    """User id (as text) → how often they were seated on each power in the tournament's games."""
    out: dict[str, Counter[str]] = {}
    for tg in games_of(session, tournament_id):
        for m in memberships(session, tg.game_id):
            power = m.power or m.wanted_power
            if m.role == PLAYER and power:
                out.setdefault(str(m.user_id), Counter())[power] += 1
    return out


def start_round(
    session: Session,
    t: Tournament,
    director: User,
    deadlines: dict[str, int],
    now: datetime,
    rng: random.Random,
    start: Callable[[GameRow], object],
) -> list[GameRow]:
    """Seat the players who joined on new games for the next round (some sit out when they do not fill
    whole boards; invited players who have not accepted are never seated); ``start`` starts each game (it is
    full).  The games are public (a tournament is)."""
    registered = [str(u) for u in sorted(players_of(session, t.id))]
    powers = Game.new(t.map_name).powers()
    if len(registered) < len(powers):
        raise GameRuleError(
            f"players: a round needs at least {len(powers)} players who joined; {len(registered)} have joined"
        )
    played = _played(session, t.id)
    draw = registered[:]
    rng.shuffle(draw)
    out = set(sitting_out({p: sum(played.get(p, Counter()).values()) for p in registered}, len(powers), draw))
    players = [p for p in registered if p not in out]
    boards = len(players) // len(powers)
    groupings = [[players[i * len(powers) : (i + 1) * len(powers)] for i in range(boards)]]
    for _ in range(CANDIDATES if boards > 1 else 0):
        shuffled = players[:]
        rng.shuffle(shuffled)
        groupings.append([shuffled[i * len(powers) : (i + 1) * len(powers)] for i in range(boards)])
    seating = seat_round(groupings, powers, played)
    number = max((g.round for g in games_of(session, t.id)), default=0) + 1
    rows = []
    for b, board in enumerate(seating.boards, 1):
        row = create_game(
            session,
            director,
            GameSettings(
                name=f"{t.name} — {number}.{b}"[:80],
                map_name=t.map_name,
                assignment="choice",
                deadlines=dict(deadlines),
                last_year=t.last_year,
            ),
            now,
        )
        store_lateness(session, row.id, parse({"preset": t.lateness}))
        ending = check_ending(Game.new(t.map_name), t.scoring, t.last_year, None)
        store_ending(session, row.id, ending)
        for user_id, power in sorted(board.items()):
            session.add(Membership(game_id=row.id, user_id=int(user_id), role=PLAYER, wanted_power=power))
        session.add(TournamentGame(tournament_id=t.id, game_id=row.id, round=number))
        session.flush()
        start(row)
        rows.append(row)
    return rows


def tournament_standings(session: Session, t: Tournament, game_of: Callable[[GameRow], Game]) -> list[Standing]:
    """Standings: each player's scores in the finished games, less the penalty for their yellow cards (the
    players who joined, and those who left after playing)."""
    names = user_names(session, set(players_of(session, t.id, (JOINED, LEFT))))
    got: dict[str, list[float]] = {n: [] for n in names.values()}
    cards: dict[str, int] = {}
    game_ids = [tg.game_id for tg in games_of(session, t.id)]
    for game_id in game_ids:
        row = get_game(session, game_id)
        if row is None or row.status != FINISHED:
            continue
        result = scores(game_of(row), ending_of(session, game_id), excluded_from_scores(session, game_id))
        if result is None:
            continue
        holders = {m.power: m.user_id for m in memberships(session, game_id) if m.role == PLAYER and m.power}
        for power, value in result["scores"].items():
            if power in holders and holders[power] in names:
                got[names[holders[power]]].append(value)
    if game_ids:
        for (user_id,) in session.execute(
            select(MissedDeadline.user_id).where(MissedDeadline.game_id.in_(game_ids), MissedDeadline.carded)
        ):
            if user_id in names:
                cards[names[user_id]] = cards.get(names[user_id], 0) + 1
    return standings(got, cards, t.card_penalty)


def tournament_data(
    session: Session, t: Tournament, game_of: Callable[[GameRow], Game], reader: int | None = None
) -> dict[str, Any]:
    """A tournament as ``reader`` (a user id; ``None``: a visitor) may see it: settings, players, rounds with
    their seating (the games the reader may know exist), standings; ``you``: the reader's status; the
    pending invitations for its director only (an invitation names nobody in public before it is accepted)."""
    ids = players_of(session, t.id)
    invited = players_of(session, t.id, (INVITED,)) if reader == t.director_id else []
    names = user_names(session, set(ids) | set(invited) | {t.director_id})
    rounds: dict[int, list[dict[str, Any]]] = {}
    seated: dict[int, set[int]] = {}
    for tg in games_of(session, t.id):
        row = get_game(session, tg.game_id)
        everyone = memberships(session, tg.game_id) if row is not None else []
        if row is None or not may_know(row, next((m for m in everyone if m.user_id == reader), None)):
            continue
        members = [m for m in everyone if m.role == PLAYER]
        seated.setdefault(tg.round, set()).update(m.user_id for m in members)
        seats = {
            m.power or m.wanted_power: names.get(m.user_id) or user_names(session, {m.user_id}).get(m.user_id)
            for m in members
        }
        rounds.setdefault(tg.round, []).append(
            {
                "id": row.id,
                "name": row.name,
                "status": row.status,
                "phase": row.phase,
                "seats": dict(sorted(seats.items())),
            }
        )
    ending = Ending(t.scoring, t.last_year, None)
    return {
        "id": t.id,
        "name": t.name,
        "director": names.get(t.director_id),
        "settings": {
            **ending.to_data(),
            "scoring_title": SYSTEMS[t.scoring].title,
            "lateness": t.lateness,
            "card_penalty": t.card_penalty,
            "map": t.map_name,
        },
        "players": sorted(names[i] for i in ids),
        "invited": sorted(names[i] for i in invited),
        "you": {
            "status": status_of(session, t, reader) if reader is not None else None,
            "director": reader is not None and reader == t.director_id,
        },
        "rounds": [
            {
                "round": n,
                "games": games,
                # players who joined but were not seated in the round (who sat it out, or joined since)
                "not_playing": sorted(names[i] for i in ids if i not in seated[n]),
            }
            for n, games in sorted(rounds.items())
        ],
        "standings": [s.__dict__ for s in tournament_standings(session, t, game_of)],
    }
