"""The JSON API of tournaments: create, register players, seat a round, read standings."""

from __future__ import annotations

import random
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field
from sqlalchemy.orm import Session

from arbitre.server.auth import site_of
from arbitre.server.errors import bad_request, conflict, forbidden, not_found
from arbitre.server.fields import Deadlines, ShortText, Strict
from arbitre.server.site import Site
from arbitre.server.visit import writing
from arbitre.store.accounts import user_by_name
from arbitre.store.games import DEFAULT_DEADLINES, GameRuleError
from arbitre.store.models import User
from arbitre.store.tournaments import Tournament, add_player, create_tournament, start_round, tournament_data

router = APIRouter(prefix="/api", tags=["tournaments"])


class TournamentIn(Strict):
    """A new tournament: the settings of its games, and the points a yellow card costs."""

    name: ShortText
    scoring: Literal["draw-size", "sum-of-squares", "c-diplo", "c-diplo-100"] = "c-diplo"
    lateness: Literal["none", "casual", "tournament"] = "tournament"
    last_year: int | None = Field(default=None, strict=True, ge=1901, le=2901)
    card_penalty: float = Field(default=1.0, ge=0, le=100)


class PlayerIn(Strict):
    """A player to register, by user name."""

    user: ShortText = Field(max_length=40)


class RoundIn(Strict):
    """A round's deadlines (seconds, keyed M, R, A and the declared steps)."""

    deadlines: Deadlines = {}


def _tournament(site: Site, s: Session, tournament_id: int) -> Tournament:
    found = s.get(Tournament, tournament_id)
    if found is None:
        raise not_found("this tournament")
    return found


def _director(t: Tournament, user: User) -> None:
    if t.director_id != user.id:
        raise forbidden("only the tournament's director may do this")


def _data(site: Site, s: Session, t: Tournament) -> dict[str, Any]:
    return tournament_data(s, t, lambda row: site.referee.game(s, row))


@router.post("/tournaments", status_code=201)
def create(body: TournamentIn, request: Request) -> dict[str, Any]:
    """Create a tournament; you are its director (you master its games)."""
    with writing(request) as v:
        try:
            t = create_tournament(
                v.session,
                v.user(),
                body.name,
                body.scoring,
                body.lateness,
                body.last_year,
                body.card_penalty,
                v.site.now(),
            )
        except GameRuleError as err:
            raise bad_request(str(err), "bad_settings", str(err).split(":", 1)[0]) from err
        return _data(v.site, v.session, t)


@router.get("/tournaments/{tournament_id}")
def get(tournament_id: int, request: Request) -> dict[str, Any]:
    """A tournament: settings, players, rounds with their seating, standings (anyone may read it)."""
    site = site_of(request)
    with site.db.reading() as s:
        return _data(site, s, _tournament(site, s, tournament_id))


@router.post("/tournaments/{tournament_id}/players")
def register(tournament_id: int, body: PlayerIn, request: Request) -> dict[str, Any]:
    """(Director) register a player by name."""
    with writing(request) as v:
        t = _tournament(v.site, v.session, tournament_id)
        _director(t, v.user())
        user = user_by_name(v.session, body.user)
        if user is None:
            raise bad_request(f"no user called {body.user!r}", "bad_player", "user")
        try:
            add_player(v.session, t, user)
        except GameRuleError as err:
            raise conflict(str(err)) from err
        return _data(v.site, v.session, t)


@router.post("/tournaments/{tournament_id}/rounds", status_code=201)
def new_round(tournament_id: int, body: RoundIn, request: Request) -> dict[str, Any]:
    """(Director) seat every registered player on the next round's games, balanced over the powers."""
    with writing(request) as v:
        t = _tournament(v.site, v.session, tournament_id)
        user = v.user()
        _director(t, user)
        unknown = [k for k in body.deadlines if k not in DEFAULT_DEADLINES]
        if unknown:
            raise bad_request(f"unknown deadline {unknown[0]!r}", "bad_settings", "deadlines")
        try:
            start_round(
                v.session,
                t,
                user,
                {**DEFAULT_DEADLINES, **body.deadlines},
                v.site.now(),
                random.SystemRandom(),
                lambda row: v.site.referee.maybe_start(v.session, row, v.site.now()),
            )
        except GameRuleError as err:
            raise conflict(str(err)) from err
        return _data(v.site, v.session, t)
