"""Tournament pages: the list, the creation form, and each tournament's page (public), where its
director invites players and seats the next round, and where anyone logged in joins, accepts or declines
an invitation, or leaves."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from arbitre.judge.scoring import SYSTEMS
from arbitre.server import tournaments
from arbitre.server.auth import Actor
from arbitre.server.errors import Problem
from arbitre.server.fields import minutes_field
from arbitre.server.flash import flash_redirect
from arbitre.server.pages import redirect, render
from arbitre.server.routes.api_tournaments import TournamentIn
from arbitre.server.visit import reading, writing
from arbitre.store.lateness import PRESET_NAMES

router = APIRouter(include_in_schema=False)

BLANK = {"name": "", "scoring": "c-diplo", "lateness": "tournament", "last_year": "", "card_penalty": "1"}
"""The creation form as first shown."""


@router.get("/tournaments", response_class=HTMLResponse)
def index(request: Request) -> Response:
    """Every tournament, newest first."""
    with reading(request) as v:
        listing = [item.data() for item in tournaments.listing(v.session, v.actor.user)]
        return render(request, v.actor, "tournaments.html", {"tournaments": listing})


def _form(request: Request, actor: Actor, form: dict[str, str], problems: list[str], status: int = 200) -> Response:
    context = {
        "form": form,
        "problems": problems,
        "systems": {n: s.title for n, s in SYSTEMS.items()},
        "presets": list(PRESET_NAMES),
    }
    return render(request, actor, "new_tournament.html", context, status=status)


@router.get("/tournaments/new", response_class=HTMLResponse)
def new_form(request: Request) -> Response:
    """The form that creates a tournament (log in first)."""
    with reading(request) as v:
        v.user()
        return _form(request, v.actor, dict(BLANK), [])


@router.post("/tournaments/new")
def create(
    request: Request,
    csrf: str = Form(""),
    name: str = Form(""),
    scoring: str = Form("c-diplo"),
    lateness: str = Form("tournament"),
    last_year: str = Form(""),
    card_penalty: str = Form("1"),
) -> Response:
    """Create the tournament (you direct it) and open its page; the form again, with every problem listed."""
    form = {
        "name": name[:200],
        "scoring": scoring[:40],
        "lateness": lateness[:40],
        "last_year": last_year[:10],
        "card_penalty": card_penalty[:10],
    }
    with writing(request, csrf) as v:
        user = v.user()
        try:
            body = TournamentIn.model_validate(
                {
                    "name": form["name"],
                    "scoring": form["scoring"],
                    "lateness": form["lateness"],
                    "last_year": int(form["last_year"]) if form["last_year"].strip().isdigit() else None,
                    "card_penalty": form["card_penalty"],
                },
                strict=False,
            )
        except ValidationError as err:
            problems = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in err.errors()]
            return flash_redirect(request, "/tournaments/new", {"form": form, "problems": problems})
        if form["last_year"].strip() and body.last_year is None:
            problems = [f"last_year: {form['last_year']!r} is not a year"]
            return flash_redirect(request, "/tournaments/new", {"form": form, "problems": problems})
        t = tournaments.create(
            v.session, v.site, user, body.name, body.scoring, body.lateness, body.last_year, body.card_penalty
        )
        tournament_id = t.id
    return redirect(f"/tournaments/{tournament_id}", "done")


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def tournament_page(tournament_id: int, request: Request) -> Response:
    """A tournament's public page; its director also finds the forms that invite and seat players, anyone
    logged in the buttons that join, accept, decline or leave."""
    with reading(request) as v:
        found = tournaments.find(v.session, tournament_id)
        context: dict[str, Any] = {
            "tm": asdict(tournaments.data(v.site, v.session, found, v.actor.user)),
            "director": v.actor.user is not None and v.actor.user.id == found.director_id,
        }
        return render(request, v.actor, "tournament.html", context)


@router.post("/tournaments/{tournament_id}/players")
def invite(tournament_id: int, request: Request, csrf: str = Form(""), user: str = Form("")) -> Response:
    """(Director) invite a player by user name."""
    with writing(request, csrf) as v:
        t = tournaments.find(v.session, tournament_id)
        tournaments.require_director(t, v.user())
        tournaments.invite_player(v.session, t, user.strip()[:40])
    return redirect(f"/tournaments/{tournament_id}", "done")


@router.post("/tournaments/{tournament_id}/players/remove")
def remove(tournament_id: int, request: Request, csrf: str = Form(""), user: str = Form("")) -> Response:
    """(Director) withdraw an invitation, or leave a player out of the later rounds."""
    with writing(request, csrf) as v:
        t = tournaments.find(v.session, tournament_id)
        tournaments.require_director(t, v.user())
        tournaments.remove_player(v.session, t, user.strip()[:40])
    return redirect(f"/tournaments/{tournament_id}", "done")


@router.post("/tournaments/{tournament_id}/join")
def join(tournament_id: int, request: Request, csrf: str = Form("")) -> Response:
    """Join the tournament, accepting its invitation if you have one."""
    with writing(request, csrf) as v:
        t = tournaments.find(v.session, tournament_id)
        tournaments.join_tournament(v.session, t, v.user())
    return redirect(f"/tournaments/{tournament_id}", "done")


@router.post("/tournaments/{tournament_id}/leave")
def leave(tournament_id: int, request: Request, csrf: str = Form("")) -> Response:
    """Decline the invitation, or leave the tournament."""
    with writing(request, csrf) as v:
        t = tournaments.find(v.session, tournament_id)
        tournaments.leave_tournament(v.session, t, v.user().id)
    return redirect(f"/tournaments/{tournament_id}", "done")


@router.post("/tournaments/{tournament_id}/rounds")
async def new_round(tournament_id: int, request: Request) -> Response:
    """(Director) seat the next round, with its deadlines in minutes."""
    form = await request.form()
    problems: list[str] = []
    deadlines = {k: minutes_field(str(form.get(f"deadline_{k}") or "1440"), k, problems) for k in ("M", "R", "A")}
    with writing(request, str(form.get("csrf") or "")) as v:
        t = tournaments.find(v.session, tournament_id)
        user = v.user()
        tournaments.require_director(t, user)
        if problems:
            raise Problem(400, "bad_settings", "; ".join(problems), "deadlines")
        tournaments.next_round(v.session, v.site, t, user, deadlines)
    return redirect(f"/tournaments/{tournament_id}", "done")
