"""The JSON API of tournaments: create, invite players, join (accepting an invitation), decline or leave,
seat a round, read standings.  Nobody is seated in a round without having joined."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import Field

from arbitre.life.tournaments import TournamentView
from arbitre.server import tournaments
from arbitre.server.fields import Deadlines, ShortText, Strict
from arbitre.server.tournaments import TournamentItem
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
    """A player to invite, by user name."""

    user: ShortText = Field(max_length=40)


class RoundIn(Strict):
    """A round's deadlines (seconds, keyed M, R, A and the declared steps)."""

    deadlines: Deadlines = {}


@router.post("/tournaments", status_code=201)
def create(body: TournamentIn, request: Request) -> TournamentView:
    """Create a tournament; you are its director (you master its games)."""
    with writing(request) as v:
        t = tournaments.create(
            v.session, v.site, v.user(), body.name, body.scoring, body.lateness, body.last_year, body.card_penalty
        )
        return tournaments.data(v.site, v.session, t, v.actor.user)


@router.get("/tournaments")
def index(request: Request) -> list[TournamentItem]:
    """Every tournament, newest first: name, director, scoring, players who joined, rounds so far, and
    ``you``: your status in it (``invited``: the director invites you; ``joined``; ``left``; or ``null``)."""
    with reading(request) as v:
        return tournaments.listing(v.session, v.actor.user)


@router.get("/tournaments/{tournament_id}")
def get(tournament_id: int, request: Request) -> TournamentView:
    """A tournament: settings, players who joined, rounds with their seating, standings (anyone may read it);
    ``you``: your status; ``invited``: the invitations not yet accepted (its director only)."""
    with reading(request) as v:
        return tournaments.data(v.site, v.session, tournaments.find(v.session, tournament_id), v.actor.user)


@router.post("/tournaments/{tournament_id}/players")
def invite(tournament_id: int, body: PlayerIn, request: Request) -> TournamentView:
    """(Director) invite a player by name: they play once they accept (``POST .../join``)."""
    with writing(request) as v:
        t = tournaments.find(v.session, tournament_id)
        tournaments.require_director(t, v.user())
        tournaments.invite_player(v.session, t, body.user)
        return tournaments.data(v.site, v.session, t, v.actor.user)


@router.delete("/tournaments/{tournament_id}/players/{user}")
def remove(tournament_id: int, user: str, request: Request) -> TournamentView:
    """(Director) withdraw an invitation, or leave a player out of the later rounds."""
    with writing(request) as v:
        t = tournaments.find(v.session, tournament_id)
        tournaments.require_director(t, v.user())
        tournaments.remove_player(v.session, t, user[:40])
        return tournaments.data(v.site, v.session, t, v.actor.user)


@router.post("/tournaments/{tournament_id}/join")
def join(tournament_id: int, request: Request) -> TournamentView:
    """Join the tournament (accepting its director's invitation, if you have one): the next rounds seat you."""
    with writing(request) as v:
        t = tournaments.find(v.session, tournament_id)
        user = v.user()
        tournaments.join_tournament(v.session, t, user)
        return tournaments.data(v.site, v.session, t, user)


@router.post("/tournaments/{tournament_id}/leave")
def leave(tournament_id: int, request: Request) -> TournamentView:
    """Decline the tournament's invitation, or leave it: the later rounds do not seat you (a game you already
    play goes on)."""
    with writing(request) as v:
        t = tournaments.find(v.session, tournament_id)
        user = v.user()
        tournaments.leave_tournament(v.session, t, user.id)
        return tournaments.data(v.site, v.session, t, user)


@router.post("/tournaments/{tournament_id}/rounds", status_code=201)
def new_round(tournament_id: int, body: RoundIn, request: Request) -> TournamentView:
    """(Director) seat every player who joined on the next round's games, balanced over the powers (invited
    players who have not accepted are not seated)."""
    with writing(request) as v:
        t = tournaments.find(v.session, tournament_id)
        user = v.user()
        tournaments.require_director(t, user)
        tournaments.next_round(v.session, v.site, t, user, dict(body.deadlines))
        return tournaments.data(v.site, v.session, t, user)
