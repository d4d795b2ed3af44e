"""The JSON API of game length and scoring: the scoring systems, and a game's scores (public)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from arbitre.judge.scoring import SYSTEMS, System
from arbitre.server import services
from arbitre.server.answers import GameScores
from arbitre.server.visit import reading

router = APIRouter(prefix="/api", tags=["scoring"])


@router.get("/scoring")
def systems() -> dict[str, System]:
    """Every scoring system: its kind of formula, its numbers and the page its definition comes from."""
    return dict(SYSTEMS)


@router.get("/games/{game_id}/scores")
def game_scores(game_id: int, request: Request) -> GameScores:
    """A game's length and scoring settings and, once it is won or drawn, its scores (anyone may read them)."""
    with reading(request) as v:
        seat = v.game(game_id, member=False)
        game = v.site.referee.game(v.session, seat.row)
        ending = services.ending_state(v.session, seat.row, game)
        return GameScores(game=seat.row.id, status=seat.row.status, ending=ending.ending, scores=ending.scores)
