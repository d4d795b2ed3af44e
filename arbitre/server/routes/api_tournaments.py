"""The JSON API of tournaments: create, register players, seat a round, read standings."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field

from arbitre.server import tournaments
from arbitre.server.fields import Deadlines, ShortText, Strict
from arbitre.server.visit import reading, writing

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


@router.post("/tournaments", status_code=201)
def create(body: TournamentIn, request: Request) -> dict[str, Any]:
    """Create a tournament; you are its director (you master its games)."""
    with writing(request) as v:
        t = tournaments.create(
            v.session, v.site, v.user(), body.name, body.scoring, body.lateness, body.last_year, body.card_penalty
        )
        return tournaments.data(v.site, v.session, t)


@router.get("/tournaments")
def index(request: Request) -> list[dict[str, Any]]:
    """Every tournament, newest first: name, director, scoring, players and rounds so far."""
    with reading(request) as v:
        return tournaments.listing(v.session)


@router.get("/tournaments/{tournament_id}")
def get(tournament_id: int, request: Request) -> dict[str, Any]:
    """A tournament: settings, players, rounds with their seating, standings (anyone may read it)."""
    with reading(request) as v:
        return tournaments.data(v.site, v.session, tournaments.find(v.session, tournament_id))


@router.post("/tournaments/{tournament_id}/players")
def register(tournament_id: int, body: PlayerIn, request: Request) -> dict[str, Any]:
    """(Director) register a player by name."""
    with writing(request) as v:
        t = tournaments.find(v.session, tournament_id)
        tournaments.require_director(t, v.user())
        tournaments.register(v.session, t, body.user)
        return tournaments.data(v.site, v.session, t)


@router.post("/tournaments/{tournament_id}/rounds", status_code=201)
def new_round(tournament_id: int, body: RoundIn, request: Request) -> dict[str, Any]:
    """(Director) seat every registered player on the next round's games, balanced over the powers."""
    with writing(request) as v:
        t = tournaments.find(v.session, tournament_id)
        user = v.user()
        tournaments.require_director(t, user)
        tournaments.next_round(v.session, v.site, t, user, dict(body.deadlines))
        return tournaments.data(v.site, v.session, t)
