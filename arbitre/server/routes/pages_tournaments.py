"""The tournament page: its settings, players, rounds with their seating, and standings (public)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from arbitre.server.auth import identify, site_of
from arbitre.server.errors import not_found
from arbitre.server.pages import render
from arbitre.store.tournaments import Tournament, tournament_data

router = APIRouter(include_in_schema=False)


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def tournament_page(tournament_id: int, request: Request) -> Response:
    """A tournament's public page."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        found = s.get(Tournament, tournament_id)
        if found is None:
            raise not_found("this tournament")
        data = tournament_data(s, found, lambda row: site.referee.game(s, row))
        return render(request, actor, "tournament.html", {"tm": data})
