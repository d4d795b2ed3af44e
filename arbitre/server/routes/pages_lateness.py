"""Lateness pages: the public boards (site-wide and per game), the master's calls for a replacement,
the take-over page a call's link opens, and the creation form's lateness fields."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from arbitre.server import lateness, services
from arbitre.server.guesses import takeover_attempt
from arbitre.server.pages import redirect, render
from arbitre.server.visit import reading, writing
from arbitre.store.lateness import PRESET_NAMES, presets_data
from arbitre.store.models import MASTER
from arbitre.store.schedule import WEEKDAYS
from arbitre.words.translate import N_

router = APIRouter(include_in_schema=False)


SHOWN_WORDS = (
    N_("mon"),
    N_("tue"),
    N_("wed"),
    N_("thu"),
    N_("fri"),
    N_("sat"),
    N_("sun"),
    N_("none (processed at the deadline)"),
    N_("casual"),
    N_("tournament"),
    N_("custom"),
    N_("none"),
)
"""Words the lateness pages show from data (preset names, days): listed here so the catalogs hold them."""


async def lateness_form(request: Request) -> dict[str, Any]:
    """The creation form's lateness fields: ``lateness_preset``, ``lateness_timezone``,
    ``lateness_time`` (HH:MM, optional) and ``lateness_rest`` (days), as the settings' mapping."""
    form = await request.form()
    preset = str(form.get("lateness_preset") or "none")
    out: dict[str, Any] = {"preset": preset if preset in PRESET_NAMES else preset[:20]}
    zone = str(form.get("lateness_timezone") or "").strip()
    if zone and zone != "UTC":
        out["timezone"] = zone[:64]
    at = str(form.get("lateness_time") or "").strip()
    if at:
        out["deadline_time"] = at[:8]
    rest = [str(d)[:10] for d in form.getlist("lateness_rest")][: len(WEEKDAYS)]
    if rest:
        out["rest_days"] = rest
    return out


def form_context() -> dict[str, Any]:
    """What the creation form's lateness fields offer: the presets and the days of the week."""
    return {"lateness_presets": presets_data(), "weekdays": WEEKDAYS}


@router.get("/lateness", response_class=HTMLResponse)
def site_board(request: Request) -> Response:
    """The site-wide board of missed deadlines, open calls for a replacement and yellow cards."""
    with reading(request) as v:
        board = lateness.site_board(v.session, v.actor.user.id if v.actor.user else None).data()
        return render(request, v.actor, "lateness_site.html", {"board": board})


@router.get("/games/{game_id}/lateness", response_class=HTMLResponse)
def game_board(game_id: int, request: Request) -> Response:
    """A game's public lateness board (its settings too); the master may call for a replacement here."""
    with reading(request) as v:
        seat = v.game(game_id, member=False)
        powers = v.site.referee.game(v.session, seat.row).powers()
        return render(
            request,
            v.actor,
            "lateness_game.html",
            {
                "board": lateness.game_board(v.session, seat.row).data(),
                "g": services.summary(seat.row).data(),
                "role": seat.role,
                "powers": powers,
            },
        )


@router.post("/games/{game_id}/replacements")
def call(
    game_id: int, request: Request, csrf: str = Form(""), power: str = Form(""), action: str = Form("call")
) -> Response:
    """The master publishes (``call``) or withdraws (``withdraw``) a call for a replacement."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        if action == "withdraw":
            lateness.withdraw_call(v.session, v.site, seat, power[:24])
        else:
            lateness.call_replacement(v.session, v.site, seat, power[:24])
    return redirect(f"/games/{game_id}/lateness", "done")


@router.get("/takeover/{token}", response_class=HTMLResponse)
def takeover_page(token: str, request: Request) -> Response:
    """What a take-over link offers, with the button that takes the seat (or a link to log in first)."""
    with reading(request) as v:
        found, row = lateness.takeover_info(v.session, token[:64], v.actor.user)
        return render(
            request,
            v.actor,
            "takeover.html",
            {
                "call": lateness.call_data(found, row).data(),
                "g": services.summary(row).data(),
                "token": found.token,
                "login_next": "/login?next=" + quote(f"/takeover/{found.token}"),
            },
        )


@router.post("/takeover/{token}")
def takeover(token: str, request: Request, csrf: str = Form("")) -> Response:
    """Take the seat; the game page opens as its new player."""
    with takeover_attempt(request, token[:64]), writing(request, csrf) as v:
        row = lateness.take_over(v.session, v.site, token[:64], v.user())
        game_id = row.id
    return redirect(f"/games/{game_id}", "done")
