"""Game pages: create, join, the board and orders, history, messages, the master console."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from arbitre.judge.votes import DEFAULT_SECRET
from arbitre.judge.votes import KINDS as VOTE_KINDS
from arbitre.maps import available_maps, load_map
from arbitre.rules.options import options_catalogue
from arbitre.server import actions, live, services
from arbitre.server.engine_words import engine_message
from arbitre.server.errors import Problem
from arbitre.server.fields import MAX_ITEMS, MAX_LINE, minutes_field
from arbitre.server.flash import flash_redirect
from arbitre.server.guesses import join_code_guess
from arbitre.server.lateness import settings_from
from arbitre.server.milaexport import exportable_game, may_export
from arbitre.server.pages import redirect, render
from arbitre.server.precheck import checked_orders
from arbitre.server.routes.pages_lateness import form_context, lateness_form
from arbitre.server.routes.pages_scores import FORM_DEFAULTS as ENDING_DEFAULTS
from arbitre.server.routes.pages_scores import ending_form
from arbitre.server.routes.pages_scores import form_context as scoring_context
from arbitre.server.site import Site
from arbitre.server.viewing import (
    current_view,
    inline_svg,
    map_svg,
    power_colour,
    renderer_available,
)
from arbitre.server.visit import reading, writing
from arbitre.store.games import DEFAULT_DEADLINES, registered_steps
from arbitre.store.models import MASTER, PLAYER
from arbitre.variants import RULE_MODULES

router = APIRouter(include_in_schema=False)


def _options(text: str, problems: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_ITEMS:
        problems.append(f"at most {MAX_ITEMS} options")
        return out
    for line in lines:
        if "=" not in line:
            problems.append(f"option {line.strip()[:MAX_LINE]!r} must be written name=value")
            continue
        name, value = line.split("=", 1)
        if len(name.strip()) > 80 or len(value.strip()) > MAX_LINE:
            problems.append(f"an option name is at most 80 characters and its value at most {MAX_LINE}")
            continue
        out[name.strip()] = value.strip()
    return out


def _form_page(request: Request, actor: Any, form: dict[str, Any], problems: list[str], status: int = 200) -> Response:
    """The creation form, filled with ``form`` (what the user typed) and listing every problem."""
    return render(
        request,
        actor,
        "new_game.html",
        {
            "maps": available_maps(),
            "modules": [m for m in RULE_MODULES if m.for_map is None],
            "steps": [step.name for step in registered_steps()],
            "catalogue": options_catalogue(),
            "powers": _map_powers(),
            "vote_kinds": VOTE_KINDS,
            "form": form,
            "problems": problems,
            **form_context(),
            **scoring_context(),
        },
        status=status,
    )


def _map_powers() -> dict[str, list[str]]:
    """Each map's powers (the creator who plays picks or ranks among them)."""
    return {m: list(load_map(m).powers) for m in available_maps()}


async def _step_deadlines(request: Request) -> dict[str, str]:
    """The form's ``deadline_<step>`` fields of the steps rule modules declare (minutes, as typed)."""
    form = await request.form()
    out: dict[str, str] = {}
    for step in registered_steps():
        value = form.get(f"deadline_{step.name}")
        if isinstance(value, str) and value.strip():
            out[step.name] = value
    return out


@router.get("/games/new", response_class=HTMLResponse)
def new_form(request: Request) -> Response:
    """The game creation form."""
    with reading(request) as v:
        v.user()
        form = {
            "name": "",
            "map": "standard",
            "rules": [],
            "options": "",
            "press": "full",
            "assignment": "random",
            "show_progress": True,
            "datc_option": [],
            "preset": "",
            "creator": "master",
            "power": "",
            "preferences": [],
            "private": False,
            "join_code": "",
            "anonymous": False,
            "secret": sorted(DEFAULT_SECRET),
            "dias": True,
            "bot_seats": [],
            "bot_votes": "abstain",
            **ENDING_DEFAULTS,
            **{f"deadline_{k}": str(seconds // 60) for k, seconds in DEFAULT_DEADLINES.items()},
        }
        return _form_page(request, v.actor, form, [])


@router.post("/games/new")
def create(
    request: Request,
    csrf: str = Form(""),
    name: str = Form(""),
    map: str = Form("standard"),
    rules: list[str] = Form([]),
    options: str = Form(""),
    datc_option: list[str] = Form([]),
    preset: str = Form(""),
    press: str = Form("full"),
    assignment: str = Form("random"),
    deadline_M: str = Form("1440"),
    deadline_R: str = Form("720"),
    deadline_A: str = Form("720"),
    show_progress: str = Form(""),
    creator: str = Form("master"),
    power: str = Form(""),
    preferences: list[str] = Form([]),
    private: str = Form(""),
    join_code: str = Form(""),
    anonymous: str = Form(""),
    secret: list[str] = Form([]),
    dias: str = Form(""),
    bot_seats: list[str] = Form([]),
    bot_votes: str = Form("abstain"),
    step_deadlines: dict[str, str] = Depends(_step_deadlines),
    lateness: dict[str, Any] = Depends(lateness_form),
    ending: dict[str, Any] = Depends(ending_form),
) -> Response:
    """Create a game from the form; you are its master. On a problem the form comes back as typed, with all
    the problems found."""
    form = {
        "name": name,
        "map": map,
        "rules": rules,
        "options": options,
        "press": press,
        "assignment": assignment,
        "show_progress": bool(show_progress),
        "deadline_M": deadline_M,
        "deadline_R": deadline_R,
        "deadline_A": deadline_A,
        "datc_option": datc_option,
        "preset": preset,
        "creator": creator,
        "power": power,
        "preferences": preferences,
        "private": bool(private),
        "join_code": join_code,
        "anonymous": bool(anonymous),
        "secret": secret,
        "dias": bool(dias),
        "bot_seats": bot_seats,
        "bot_votes": bot_votes[:16],
        **{f"deadline_{step}": value for step, value in step_deadlines.items()},
        "lateness_preset": lateness["preset"],
        "lateness_timezone": lateness.get("timezone", "UTC"),
        "lateness_time": lateness.get("deadline_time", ""),
        "lateness_rest": lateness.get("rest_days", []),
        **ending["typed"],
    }
    with writing(request, csrf) as v:
        user = v.user()
        problems: list[str] = list(ending["problems"])
        if not name.strip():
            problems.append("a game needs a name")
        deadlines = {
            k: minutes_field(str(form[f"deadline_{k}"]), k, problems) for k in ("M", "R", "A", *step_deadlines)
        }
        chosen = _options("\n".join([f"preset={preset}"] if preset else []) + "\n" + "\n".join(datc_option), problems)
        chosen.update(_options(options, problems))
        if not problems:
            try:
                values = ending["values"]
                bots = _form_names(bot_seats)
                request_ = actions.GameRequest(
                    name=name,
                    map_name=map,
                    rules=tuple(rules),
                    options=chosen,
                    press=press,
                    assignment=assignment,
                    deadlines=deadlines,
                    show_progress=bool(show_progress),
                    creator=creator if creator in ("master", "player") else "?",
                    power=power if creator == "player" and assignment == "choice" else None,
                    preferences=tuple(_form_names(preferences)) if creator == "player" else (),
                    private=bool(private),
                    join_code=join_code if private else "",
                    anonymous=bool(anonymous),
                    secret_votes=tuple(_form_names(secret)),
                    dias=bool(dias),
                    lateness=settings_from(lateness),
                    bots=actions.BotsRequest(tuple(bots), bot_votes[:16]) if bots or bot_votes != "abstain" else None,
                    scoring=values["scoring"],
                    last_year=values["last_year"],
                    target_centers=values["target_centers"],
                )
                row = actions.new_game(v.session, v.site, user, request_)
            except Problem as err:
                problems.append(err.message)
        if problems:  # post/redirect/get: the form comes back as typed, with its problems
            return flash_redirect(request, "/games/new", {"form": form, "problems": problems})
        game_id = row.id
    return redirect(f"/games/{game_id}")


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(game_id: int, request: Request) -> Response:
    """The game: board, your orders (players), the roster; join buttons for outsiders."""
    with reading(request) as v:
        seat = v.game(game_id, member=False)
        if seat.member is None:
            return render(
                request,
                v.actor,
                "game_outside.html",
                {"j": services.join_page(v.site, v.session, seat), "action": f"/games/{game_id}/join"},
            )
        return render(
            request,
            v.actor,
            "game.html",
            {**_game_context(v.site, v.session, seat, v.actor.lang), "live_since": live.since(v.site, v.session, seat)},
        )


@router.post("/games/{game_id}/join")
def join(
    game_id: int,
    request: Request,
    csrf: str = Form(""),
    role: str = Form("player"),
    power: str = Form(""),
    preferences: list[str] = Form([]),
    code: str = Form(""),
) -> Response:
    """Join as a player or an observer."""
    with join_code_guess(request, code), writing(request, csrf) as v:
        user = v.user()
        seat = v.game(game_id, member=False, lock=True)
        actions.join_game(v.session, v.site, seat, user, role, power or None, _form_names(preferences), code)
    return redirect(f"/games/{game_id}", "joined")


def _form_names(values: list[str]) -> list[str]:
    """Power names from a form's repeated field (empty choices left out), bounded."""
    names = [v.strip() for value in values for v in value.replace(";", ",").split(",")]
    if len(names) > MAX_ITEMS or any(len(v) > 24 for v in names):
        raise Problem(400, "bad_settings", f"at most {MAX_ITEMS} names of at most 24 characters", "form.preferences")
    return [v for v in names if v]


@router.get("/invite/{token}", response_class=HTMLResponse)
def invitation(token: str, request: Request) -> Response:
    """An invitation link: the game's settings and roster, and the forms to join it."""
    with reading(request) as v:
        seat = v.invitation(token)
        return render(
            request,
            v.actor,
            "game_outside.html",
            {"j": services.join_page(v.site, v.session, seat), "action": f"/invite/{token}/join"},
        )


@router.post("/invite/{token}/join")
def join_by_invitation(
    token: str,
    request: Request,
    csrf: str = Form(""),
    role: str = Form("player"),
    power: str = Form(""),
    preferences: list[str] = Form([]),
    code: str = Form(""),
) -> Response:
    """Join the game of an invitation link (with its join code, if it has one)."""
    with join_code_guess(request, code, invitation=token), writing(request, csrf) as v:
        user = v.user()
        seat = v.invitation(token, lock=True)
        actions.join_game(v.session, v.site, seat, user, role, power or None, _form_names(preferences), code)
        game_id = seat.row.id
    return redirect(f"/games/{game_id}", "joined")


@router.post("/games/{game_id}/orders")
def orders(
    game_id: int,
    request: Request,
    csrf: str = Form(""),
    phase: str = Form(""),
    orders: str = Form(""),
    ready: str = Form(""),
    only_ready: str = Form(""),
) -> Response:
    """Save your orders and ready switch (the form of the game page)."""
    lines = None if only_ready else orders.splitlines()
    checked = checked_orders(request, game_id, lines, csrf)  # before taking the writer
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(PLAYER,))
        result = actions.submit_orders(v.session, v.site, seat, lines, bool(ready), phase or None, checked)
        if result.rejected and not result.processed:
            rejected = [
                {
                    "order": r.text,
                    "message": engine_message(r.message or r.reason or r.outcome, r.outcome, v.actor.lang),
                }
                for r in result.rejected
            ]
            # post/redirect/get: the game page (an address that answers GET) lists what was not valid
            return flash_redirect(request, f"/games/{game_id}", {"rejected": rejected})
    return redirect(f"/games/{game_id}", "processed" if result.processed else "saved")


@router.get("/games/{game_id}/history", response_class=HTMLResponse)
def history(game_id: int, request: Request) -> Response:
    """The list of played phases."""
    with reading(request) as v:
        seat = v.game(game_id)
        phases = services.history(v.site, v.session, seat)
        frames = [_map_url(seat, p["index"]) for p in phases] if renderer_available() else []
        return render(
            request,
            v.actor,
            "history.html",
            {
                "game": services.summary(seat.row),
                "role": seat.role,
                "phases": phases,
                "frames": frames,
                "export_link": may_export(seat.role, seat.row.status) and exportable_game(v.site, v.session, seat),
            },
        )


@router.get("/games/{game_id}/history/{index}", response_class=HTMLResponse)
def history_phase(game_id: int, index: int, request: Request) -> Response:
    """One played phase as you see it."""
    with reading(request) as v:
        seat = v.game(game_id)
        data = services.history_phase(v.site, v.session, seat, index)
        count = seat.row.played
        after = (
            services.history_phase(v.site, v.session, seat, index + 1)["view"]
            if index + 1 < count
            else services.game_state(v.site, v.session, seat)["view"]
        )
        return render(
            request,
            v.actor,
            "phase.html",
            {
                "game": services.summary(seat.row),
                "p": data,
                "role": seat.role,
                "svg": _map_url(seat, index),
                "index": index,
                "count": count,
                "next_view": after,
            },
        )


def _game_context(site: Site, session: Session, seat: services.Seat, lang: str) -> dict[str, Any]:
    """What the game page of a member shows: their state, their board drawn in the page, the last phase."""
    state = services.game_state(site, session, seat)
    game = site.referee.game(session, seat.row)
    inline = inline_svg(current_view(game, seat.viewer), lang) if renderer_available() else None
    last = services.last_phase(site, session, seat)
    return {
        "s": state,
        "svg": _map_url(seat, None),
        "svg_inline": inline,
        "colour": power_colour(seat.power, seat.row.map_name),
        "last": last,
        "last_svg": _map_url(seat, last["index"]) if last else None,
        "recipients": services.recipients(site, session, seat),
    }


def _map_url(seat: services.Seat, index: int | None) -> str | None:
    if not renderer_available():
        return None
    where = "" if index is None else f"/history/{index}"
    # The URL names the viewer: a browser shared by two players never shows one the other's cached map.
    return f"/games/{seat.row.id}{where}/map.svg?v={seat.row.version}&as={quote(seat.viewer)}"


@router.get("/games/{game_id}/map.svg")
def current_map(game_id: int, request: Request) -> Response:
    """The map of the current phase as you see it."""
    return _map(game_id, None, request)


@router.get("/games/{game_id}/history/{index}/map.svg")
def history_map(game_id: int, index: int, request: Request) -> Response:
    """The map of a played phase as you see it."""
    return _map(game_id, index, request)


def _map(game_id: int, index: int | None, request: Request) -> Response:
    viewer = ""
    with reading(request) as v:
        seat = v.game(game_id)
        game = v.site.referee.game(v.session, seat.row)
        played = None if index is None else services.played_view(v.site, v.session, seat.row, index, seat.viewer)
        if index is not None and played is None:
            raise Problem(404, "not_found", f"phase {index} of this game does not exist")
        viewer = seat.viewer
        view = current_view(game, seat.viewer) if played is None else played
        svg = map_svg(view, v.actor.lang)  # cached by a digest of the view itself (arbitre.server.boards)
        if svg is None:
            raise Problem(404, "not_found", "the map renderer is not installed")
    # Cacheable only at a URL naming this viewer (see _map_url); any other URL is not kept.
    cache = "private, max-age=3600" if request.query_params.get("as") == viewer else "no-store"
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": cache})


@router.get("/games/{game_id}/messages", response_class=HTMLResponse)
def messages(game_id: int, request: Request) -> Response:
    """The messages you may read, and the form to write."""
    with reading(request) as v:
        seat = v.game(game_id)
        return render(
            request,
            v.actor,
            "messages.html",
            {
                "game": services.summary(seat.row),
                "role": seat.role,
                "m": services.press(v.session, seat),
                "live_since": live.since(v.site, v.session, seat),
                "recipients": services.recipients(v.site, v.session, seat),
            },
        )


@router.post("/games/{game_id}/messages")
def send(game_id: int, request: Request, csrf: str = Form(""), to: str = Form(""), body: str = Form("")) -> Response:
    """Send a message."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True)
        actions.send_message(v.session, v.site, seat, v.user(), to, body)
    return redirect(f"/games/{game_id}/messages", "done")


@router.get("/games/{game_id}/master", response_class=HTMLResponse)
def console(game_id: int, request: Request) -> Response:
    """The master console."""
    with reading(request) as v:
        seat = v.game(game_id, roles=(MASTER,))
        return render(
            request,
            v.actor,
            "master.html",
            {
                "s": services.game_state(v.site, v.session, seat),
                "svg": _map_url(seat, None),
                "live_since": live.since(v.site, v.session, seat),
            },
        )


@router.post("/games/{game_id}/master")
def console_action(
    game_id: int,
    request: Request,
    csrf: str = Form(""),
    action: str = Form(""),
    minutes: str = Form(""),
    power: str = Form(""),
    user: str = Form(""),
) -> Response:
    """Run a master-console action."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        text = minutes.strip()
        if text and not (text.lstrip("-").isdigit() and len(text) <= 8):
            raise Problem(400, "bad_action", f"{text[:40]!r} is not a whole number of minutes", "form.minutes")
        mins = int(text) if text else None
        actions.master_action(v.session, v.site, seat, action, mins, power or None, user or None)
    return redirect(f"/games/{game_id}/master", "done")


@router.get("/games/{game_id}/votes", response_class=HTMLResponse)
def votes(game_id: int, request: Request) -> Response:
    """The game's votes as you may see them, and the forms to propose one and to vote."""
    with reading(request) as v:
        seat = v.game(game_id)
        return render(
            request,
            v.actor,
            "votes.html",
            {
                "g": services.summary(seat.row),
                "seat_role": seat.role,
                "seat_power": seat.power,
                "v": services.votes(v.site, v.session, seat),
                "live_since": live.since(v.site, v.session, seat),
            },
        )


@router.post("/games/{game_id}/votes")
def propose_vote(
    game_id: int,
    request: Request,
    csrf: str = Form(""),
    kind: str = Form(""),
    powers: list[str] = Form([]),
    minutes: str = Form(""),
) -> Response:
    """Open a vote (your ballot is yes)."""
    text = minutes.strip()
    with writing(request, csrf) as v:
        if kind == "extend" and not (text.isdigit() and len(text) <= 6):
            raise Problem(400, "bad_vote", f"{text[:40]!r} is not a whole number of minutes", "form.minutes")
        seat = v.game(game_id, lock=True, roles=(PLAYER,))
        actions.propose_vote(
            v.session, v.site, seat, kind, _form_names(powers), int(text) if kind == "extend" else None
        )
    return redirect(f"/games/{game_id}/votes", "proposed")


@router.post("/games/{game_id}/votes/{vote_id}/ballot")
def ballot(game_id: int, vote_id: int, request: Request, csrf: str = Form(""), choice: str = Form("")) -> Response:
    """Vote yes or no."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(PLAYER,))
        actions.cast_ballot(v.session, v.site, seat, vote_id, choice)
    return redirect(f"/games/{game_id}/votes", "voted")


@router.post("/games/{game_id}/votes/{vote_id}/withdraw")
def withdraw(game_id: int, vote_id: int, request: Request, csrf: str = Form(""), what: str = Form("")) -> Response:
    """Take your ballot back (``what=ballot``), or withdraw the vote you opened (``what=vote``)."""
    if what not in ("ballot", "vote"):
        raise Problem(400, "bad_vote", "what is ballot or vote", "form.what")
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(PLAYER,))
        actions.withdraw_vote(v.session, v.site, seat, vote_id, what)
    return redirect(f"/games/{game_id}/votes", "done")


@router.post("/games/{game_id}/votes/{vote_id}/decision")
def decision(game_id: int, vote_id: int, request: Request, csrf: str = Form(""), decision: str = Form("")) -> Response:
    """The master approves or rejects an open vote."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        actions.decide_vote(v.session, v.site, seat, vote_id, decision)
    return redirect(f"/games/{game_id}/votes", "done")
