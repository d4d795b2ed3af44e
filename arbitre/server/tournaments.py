"""What the tournament routes do, shared by the JSON API and the pages: find a tournament, check its
director, create one, invite a player, join, accept or decline an invitation, leave, seat the next round,
and read what the reader may know."""

from __future__ import annotations

import random

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arbitre.life.forming import DEFAULT_DEADLINES
from arbitre.life.tournaments import TournamentView, create_tournament, start_round, tournament_data
from arbitre.server.answers import Answer
from arbitre.server.errors import bad_request, conflict, forbidden, not_found
from arbitre.server.site import Site
from arbitre.store.accounts import user_by_name
from arbitre.store.games import GameRuleError, user_names
from arbitre.store.models import User
from arbitre.store.tournaments import (
    JOINED,
    Tournament,
    TournamentGame,
    TournamentPlayer,
    invite,
    join,
    leave,
)


class TournamentItem(Answer):
    """A tournament in the list: name, director, scoring, players who joined, rounds so far, and ``you``: the
    reader's status in it (``invited``, ``joined``, ``left`` or ``None``)."""

    id: int
    name: str
    director: str | None
    scoring: str
    players: int
    rounds: int
    you: str | None


def find(s: Session, tournament_id: int) -> Tournament:
    """The tournament, or a 404."""
    found = s.get(Tournament, tournament_id)
    if found is None:
        raise not_found("this tournament")
    return found


def require_director(t: Tournament, user: User) -> None:
    """A 403 unless ``user`` directs ``t``."""
    if t.director_id != user.id:
        raise forbidden("only the tournament's director may do this")


def data(site: Site, s: Session, t: Tournament, reader: User | None) -> TournamentView:
    """What ``reader`` (``None``: a visitor) may know about ``t`` (settings, players, rounds, standings, their
    own status; the pending invitations for its director)."""
    return tournament_data(s, t, lambda row: site.referee.game(s, row), reader.id if reader else None)


def create(
    s: Session,
    site: Site,
    director: User,
    name: str,
    scoring: str,
    lateness: str,
    last_year: int | None,
    penalty: float,
) -> Tournament:
    """A new tournament directed by ``director`` (a 400 naming the setting that is wrong)."""
    try:
        return create_tournament(s, director, name, scoring, lateness, last_year, penalty, site.now())
    except GameRuleError as err:
        raise bad_request(str(err), "bad_settings", str(err).split(":", 1)[0]) from err


def _named(s: Session, user_name: str) -> User:
    user = user_by_name(s, user_name)
    if user is None:
        raise bad_request(f"no user called {user_name!r}", "bad_player", "user")
    return user


def invite_player(s: Session, t: Tournament, user_name: str) -> None:
    """Invite the user called ``user_name`` (a 400 when there is none, a 409 when already invited or a player);
    they play once they accept."""
    try:
        invite(s, t, _named(s, user_name))
    except GameRuleError as err:
        raise conflict(str(err)) from err


def join_tournament(s: Session, t: Tournament, user: User) -> None:
    """``user`` joins ``t`` (accepting its invitation, if any); a 409 when already a player."""
    try:
        join(s, t, user)
    except GameRuleError as err:
        raise conflict(str(err)) from err


def leave_tournament(s: Session, t: Tournament, user_id: int) -> None:
    """``user_id`` leaves ``t`` or declines its invitation; a 409 when neither a player nor invited."""
    try:
        leave(s, t, user_id)
    except GameRuleError as err:
        raise conflict(str(err)) from err


def remove_player(s: Session, t: Tournament, user_name: str) -> None:
    """(Director) withdraw the invitation of ``user_name``, or leave a player out of the later rounds."""
    leave_tournament(s, t, _named(s, user_name).id)


def next_round(s: Session, site: Site, t: Tournament, director: User, deadlines: dict[str, int]) -> None:
    """Seat the next round with ``deadlines`` (seconds, over the defaults; a 400 for an unknown step,
    a 409 when the players are too few)."""
    unknown = [k for k in deadlines if k not in DEFAULT_DEADLINES]
    if unknown:
        raise bad_request(f"unknown deadline {unknown[0]!r}", "bad_settings", "deadlines")
    try:
        start_round(
            s,
            t,
            director,
            {**DEFAULT_DEADLINES, **deadlines},
            site.now(),
            random.SystemRandom(),
            lambda row: site.referee.maybe_start(s, row, site.now()),
        )
    except GameRuleError as err:
        raise conflict(str(err)) from err


def listing(s: Session, reader: User | None) -> list[TournamentItem]:
    """Every tournament, newest first: name, director, players who joined, rounds so far, and ``you``: the
    reader's status in it (``invited``, ``joined``, ``left`` or ``None``)."""
    rows = list(s.scalars(select(Tournament).order_by(Tournament.id.desc())))
    # .all(): dict() would take a Result, which has .keys(), for a mapping
    players: dict[int, int] = dict(
        s.execute(
            select(TournamentPlayer.tournament_id, func.count())
            .where(TournamentPlayer.status == JOINED)
            .group_by(TournamentPlayer.tournament_id)
        ).all()
    )
    mine: dict[int, str] = {}
    if reader is not None:
        found = s.execute(
            select(TournamentPlayer.tournament_id, TournamentPlayer.status).where(TournamentPlayer.user_id == reader.id)
        ).all()
        mine = dict(found)
    rounds: dict[int, int] = dict(
        s.execute(
            select(TournamentGame.tournament_id, func.max(TournamentGame.round)).group_by(TournamentGame.tournament_id)
        ).all()
    )
    names = user_names(s, {t.director_id for t in rows})
    return [
        TournamentItem(
            id=t.id,
            name=t.name,
            director=names.get(t.director_id),
            scoring=t.scoring,
            players=players.get(t.id, 0),
            rounds=rounds.get(t.id, 0),
            you=mine.get(t.id),
        )
        for t in rows
    ]
