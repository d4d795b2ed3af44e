"""Game pages: create, join, the board and orders, history, messages, the master console."""

from __future__ import annotations

import threading

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from arbitre.maps import available_maps
from arbitre.rules.options import options_catalogue
from arbitre.server import actions, services
from arbitre.server.auth import check_csrf, identify, site_of
from arbitre.server.errors import Problem, bad_request
from arbitre.server.pages import redirect, render
from arbitre.server.viewing import current_view, map_svg, phase_view, renderer_available
from arbitre.store.games import DEFAULT_DEADLINES
from arbitre.store.models import MASTER, PLAYER
from arbitre.variants import REGISTRY

router = APIRouter(include_in_schema=False)
_MAPS_LOCK = threading.Lock()


def _options(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        if "=" not in line:
            raise bad_request(f"option {line.strip()!r} must be written name=value", "bad_settings")
        name, value = line.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def _minutes(value: str, key: str) -> int:
    try:
        return int(round(float(value) * 60))
    except ValueError as err:
        raise bad_request(f"deadline {key}: {value!r} is not a number of minutes", "bad_settings") from err


@router.get("/games/new", response_class=HTMLResponse)
def new_form(request: Request) -> Response:
    """The game creation form."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        actor.require()
        return render(request, actor, "new_game.html", {"maps": available_maps(), "modules": sorted(REGISTRY),
                                                        "deadlines": {k: v // 60 for k, v in DEFAULT_DEADLINES.items()},
                                                        "catalogue": options_catalogue(),
                                                        "error": None})


@router.post("/games/new")
def create(request: Request, csrf: str = Form(""), name: str = Form(""), map: str = Form("standard"),
           rules: list[str] = Form([]), options: str = Form(""), datc_option: list[str] = Form([]),
           preset: str = Form(""), press: str = Form("full"),
           assignment: str = Form("random"), deadline_M: str = Form("1440"), deadline_R: str = Form("720"),
           deadline_A: str = Form("720"), deadline_reaction: str = Form("360")) -> Response:
    """Create a game from the form; you are its master."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        user = actor.require()
        deadlines = {"M": _minutes(deadline_M, "M"), "R": _minutes(deadline_R, "R"), "A": _minutes(deadline_A, "A"),
                     "reaction": _minutes(deadline_reaction, "reaction")}
        chosen = _options("\n".join([f"preset={preset}"] if preset else []) + "\n" + "\n".join(datc_option))
        chosen.update(_options(options))
        row = actions.new_game(s, site, user, {"name": name, "map": map, "rules": rules, "options": chosen,
                                               "press": press, "assignment": assignment, "deadlines": deadlines})
        game_id = row.id
    return redirect(f"/games/{game_id}")


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(game_id: int, request: Request) -> Response:
    """The game: board, your orders (players), the roster; join buttons for outsiders."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        seat = services.open_game(s, game_id, actor, member=False)
        if seat.member is None:
            game = site.referee.game(s, seat.row)
            return render(request, actor, "game_outside.html", {"game": services.summary(seat.row),
                                                                "powers": game.powers()})
        state = services.game_state(site, s, seat)
        return render(request, actor, "game.html", {"s": state, "svg": _map_url(seat, None),
                                                    "recipients": services.recipients(site, s, seat)})


@router.post("/games/{game_id}/join")
def join(game_id: int, request: Request, csrf: str = Form(""), role: str = Form("player"),
         power: str = Form("")) -> Response:
    """Join as a player or an observer."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        user = actor.require()
        seat = services.open_game(s, game_id, actor, member=False, lock=True)
        actions.join_game(s, site, seat, user, role, power or None)
    return redirect(f"/games/{game_id}", "done")


@router.post("/games/{game_id}/orders")
def orders(game_id: int, request: Request, csrf: str = Form(""), phase: str = Form(""), orders: str = Form(""),
           ready: str = Form(""), only_ready: str = Form("")) -> Response:
    """Save your orders and ready switch (the form of the game page)."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        seat = services.open_game(s, game_id, actor, lock=True, roles=(PLAYER,))
        lines = None if only_ready else orders.splitlines()
        result = actions.submit_orders(s, site, seat, lines, bool(ready), phase or None)
        if result.rejected and not result.processed:
            state = services.game_state(site, s, seat)
            rejected = [{"order": r.text, "message": r.message or r.reason or r.outcome} for r in result.rejected]
            return render(request, actor, "game.html", {"s": state, "svg": _map_url(seat, None), "rejected": rejected,
                                                        "recipients": services.recipients(site, s, seat)})
    return redirect(f"/games/{game_id}", "processed" if result.processed else "saved")


@router.get("/games/{game_id}/history", response_class=HTMLResponse)
def history(game_id: int, request: Request) -> Response:
    """The list of played phases."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        seat = services.open_game(s, game_id, actor)
        return render(request, actor, "history.html", {"game": services.summary(seat.row), "role": seat.role,
                                                       "phases": services.history(site, s, seat)})


@router.get("/games/{game_id}/history/{index}", response_class=HTMLResponse)
def history_phase(game_id: int, index: int, request: Request) -> Response:
    """One played phase as you see it."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        seat = services.open_game(s, game_id, actor)
        data = services.history_phase(site, s, seat, index)
        count = len(services.history(site, s, seat))
        return render(request, actor, "phase.html", {"game": services.summary(seat.row), "p": data, "role": seat.role,
                                                     "svg": _map_url(seat, index), "index": index, "count": count})


def _map_url(seat: services.Seat, index: int | None) -> str | None:
    if not renderer_available():
        return None
    where = "" if index is None else f"/history/{index}"
    return f"/games/{seat.row.id}{where}/map.svg?v={seat.row.version}"


@router.get("/games/{game_id}/map.svg")
def current_map(game_id: int, request: Request) -> Response:
    """The map of the current phase as you see it."""
    return _map(game_id, None, request)


@router.get("/games/{game_id}/history/{index}/map.svg")
def history_map(game_id: int, index: int, request: Request) -> Response:
    """The map of a played phase as you see it."""
    return _map(game_id, index, request)


def _map(game_id: int, index: int | None, request: Request) -> Response:
    site = site_of(request)
    with site.db.reading() as s:
        seat = services.open_game(s, game_id, identify(request, s))
        game = site.referee.game(s, seat.row)
        if index is not None and not 0 <= index < len(game.history):
            raise Problem(404, "not_found", f"phase {index} of this game does not exist")
        key = (seat.row.id, seat.row.version, seat.viewer, index)
        svg = site.maps.get(key)
        if svg is None:
            view = current_view(game, seat.viewer) if index is None else phase_view(game, index, seat.viewer)
            svg = map_svg(view)
            if svg is None:
                raise Problem(404, "not_found", "the map renderer is not installed")
            with _MAPS_LOCK:
                site.maps[key] = svg
                while len(site.maps) > 64:
                    site.maps.pop(next(iter(site.maps)))
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})



@router.get("/games/{game_id}/messages", response_class=HTMLResponse)
def messages(game_id: int, request: Request) -> Response:
    """The messages you may read, and the form to write."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        seat = services.open_game(s, game_id, actor)
        return render(request, actor, "messages.html", {"game": services.summary(seat.row), "role": seat.role,
                                                        "m": services.press(s, seat),
                                                        "recipients": services.recipients(site, s, seat)})


@router.post("/games/{game_id}/messages")
def send(game_id: int, request: Request, csrf: str = Form(""), to: str = Form(""), body: str = Form("")) -> Response:
    """Send a message."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        seat = services.open_game(s, game_id, actor, lock=True)
        actions.send_message(s, site, seat, actor.require(), to, body)
    return redirect(f"/games/{game_id}/messages", "done")


@router.get("/games/{game_id}/master", response_class=HTMLResponse)
def console(game_id: int, request: Request) -> Response:
    """The master console."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        seat = services.open_game(s, game_id, actor, roles=(MASTER,))
        return render(request, actor, "master.html", {"s": services.game_state(site, s, seat),
                                                      "svg": _map_url(seat, None)})


@router.post("/games/{game_id}/master")
def console_action(game_id: int, request: Request, csrf: str = Form(""), action: str = Form(""),
                   minutes: str = Form(""), power: str = Form(""), user: str = Form("")) -> Response:
    """Run a master-console action."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        seat = services.open_game(s, game_id, actor, lock=True, roles=(MASTER,))
        try:
            mins = int(minutes) if minutes.strip() else None
        except ValueError as err:
            raise Problem(400, "bad_action", f"{minutes!r} is not a whole number of minutes") from err
        actions.master_action(s, site, seat, action, mins, power or None, user or None)
    return redirect(f"/games/{game_id}/master", "done")
