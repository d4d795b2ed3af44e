"""The tournament page: its settings, players, rounds with their seating, and standings (public)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from arbitre.server.errors import not_found
from arbitre.server.pages import render
from arbitre.server.visit import reading
from arbitre.store.tournaments import Tournament, tournament_data

router = APIRouter(include_in_schema=False)


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def tournament_page(tournament_id: int, request: Request) -> Response:
    """A tournament's public page."""
    with reading(request) as v:
        found = v.session.get(Tournament, tournament_id)
        if found is None:
            raise not_found("this tournament")
        data = tournament_data(v.session, found, lambda row: v.site.referee.game(v.session, row))
        return render(request, v.actor, "tournament.html", {"tm": data})
