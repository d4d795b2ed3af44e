"""A tournament's life: created with checked settings, rounds of games seated by a balanced rule, standings.

See :mod:`arbitre.store.tournaments` for who plays (invitations, joining, leaving).  A round seats the
players on new games the director masters, each player given a power by
:func:`arbitre.judge.tournament.seat_round`; standings add the scores in the finished games and deduct
``card_penalty`` points per yellow card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.judge.scoring import SYSTEMS
from arbitre.judge.tournament import Standing, seat_round, sitting_out, standings
from arbitre.life.endings import check_ending, scores
from arbitre.life.forming import GameSettings, create_game
from arbitre.store.access import may_know
from arbitre.store.botseats import excluded_from_scores
from arbitre.store.endings import Ending, ending_of, store_ending
from arbitre.store.games import GameRuleError, get_game, memberships, user_names
from arbitre.store.lateness import parse, store_lateness
from arbitre.store.missed import MissedDeadline
from arbitre.store.models import FINISHED, PLAYER, GameRow, Membership, User
from arbitre.store.tournaments import (
    INVITED,
    JOINED,
    LEFT,
    Tournament,
    TournamentGame,
    games_of,
    played_powers,
    players_of,
    status_of,
)

CANDIDATES = 40
"""How many groupings of players into boards a round tries (shuffled), keeping the one of least repeats."""


@dataclass(frozen=True)
class TournamentSettings:
    """A tournament's settings: the length and scoring of its games, its lateness preset, the points a yellow
    card costs, its map."""

    scoring: str
    last_year: int | None
    target_centers: int | None
    scoring_title: str
    lateness: str
    card_penalty: float
    map: str


@dataclass(frozen=True)
class RoundGame:
    """A game of a round: its id, name, status, phase and who holds each power (by user name)."""

    id: int
    name: str
    status: str
    phase: str
    seats: dict[str, str | None]


@dataclass(frozen=True)
class Round:
    """A round: its number, its games, and the players who joined but sit it out (or joined since)."""

    round: int
    games: list[RoundGame]
    not_playing: list[str]


@dataclass(frozen=True)
class YourPlace:
    """The reader's status in a tournament (``invited``, ``joined``, ``left`` or ``None``) and whether they
    direct it."""

    status: str | None
    director: bool


@dataclass(frozen=True)
class Place:
    """A player's place in the standings (:class:`arbitre.judge.tournament.Standing`); ``score`` is the sum of
    the player's game scores, written ``0`` (an integer) before any game is scored."""

    player: str
    score: int | float
    games: int
    yellow_cards: int
    total: int | float

    @classmethod
    def of(cls, standing: Standing) -> Place:
        """The place of a standing, its numbers as they are."""
        return cls(standing.player, standing.score, standing.games, standing.yellow_cards, standing.total)


@dataclass(frozen=True)
class TournamentView:
    """A tournament as one reader may see it (:func:`tournament_data`)."""

    id: int
    name: str
    director: str | None
    settings: TournamentSettings
    players: list[str]
    invited: list[str]
    you: YourPlace
    rounds: list[Round]
    standings: list[Place]


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
    played = played_powers(session, t.id)
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
) -> TournamentView:
    """A tournament as ``reader`` (a user id; ``None``: a visitor) may see it: settings, players, rounds with
    their seating (the games the reader may know exist), standings; ``you``: the reader's status; the
    pending invitations for its director only (an invitation names nobody in public before it is accepted)."""
    ids = players_of(session, t.id)
    invited = players_of(session, t.id, (INVITED,)) if reader == t.director_id else []
    names = user_names(session, set(ids) | set(invited) | {t.director_id})
    rounds: dict[int, list[RoundGame]] = {}
    seated: dict[int, set[int]] = {}
    for tg in games_of(session, t.id):
        row = get_game(session, tg.game_id)
        everyone = memberships(session, tg.game_id) if row is not None else []
        if row is None or not may_know(row, next((m for m in everyone if m.user_id == reader), None)):
            continue
        members = [m for m in everyone if m.role == PLAYER]
        seated.setdefault(tg.round, set()).update(m.user_id for m in members)
        seats = {  # a round's player always asked for a power (start_round seats each with one)
            m.power or m.wanted_power or "": names.get(m.user_id) or user_names(session, {m.user_id}).get(m.user_id)
            for m in members
        }
        rounds.setdefault(tg.round, []).append(
            RoundGame(id=row.id, name=row.name, status=row.status, phase=row.phase, seats=dict(sorted(seats.items())))
        )
    ending = Ending(t.scoring, t.last_year, None)
    return TournamentView(
        id=t.id,
        name=t.name,
        director=names.get(t.director_id),
        settings=TournamentSettings(
            scoring=ending.scoring,
            last_year=ending.last_year,
            target_centers=ending.target_centers,
            scoring_title=SYSTEMS[t.scoring].title,
            lateness=t.lateness,
            card_penalty=t.card_penalty,
            map=t.map_name,
        ),
        players=sorted(names[i] for i in ids),
        invited=sorted(names[i] for i in invited),
        you=YourPlace(
            status=status_of(session, t, reader) if reader is not None else None,
            director=reader is not None and reader == t.director_id,
        ),
        rounds=[
            # not_playing: players who joined but were not seated in the round (who sat it out, or joined since)
            Round(round=n, games=games, not_playing=sorted(names[i] for i in ids if i not in seated[n]))
            for n, games in sorted(rounds.items())
        ],
        standings=[Place.of(s) for s in tournament_standings(session, t, game_of)],
    )
