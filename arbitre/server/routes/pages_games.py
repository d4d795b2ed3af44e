"""Game pages: create, join, the board and orders, history, messages, the master console."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from arbitre.judge.votes import DEFAULT_SECRET
from arbitre.judge.votes import KINDS as VOTE_KINDS
from arbitre.life.forming import DEFAULT_DEADLINES, BotsRequest, GameSettings, registered_steps
from arbitre.life.referee import SubmitResult
from arbitre.maps import available_maps, load_map
from arbitre.rules.options import options_catalogue
from arbitre.server import actions, live, services
from arbitre.server.auth import site_of
from arbitre.server.engine_words import engine_message
from arbitre.server.errors import Problem
from arbitre.server.fields import MAX_ITEMS, MAX_LINE, minutes_field
from arbitre.server.flash import flash_redirect
from arbitre.server.guesses import join_code_guess
from arbitre.server.lateness import settings_from
from arbitre.server.milaexport import exportable_game, may_export
from arbitre.server.pages import redirect, render
from arbitre.server.routes.pages_lateness import form_context, lateness_form
from arbitre.server.routes.pages_scores import FORM_DEFAULTS as ENDING_DEFAULTS
from arbitre.server.routes.pages_scores import ending_form
from arbitre.server.routes.pages_scores import form_context as scoring_context
from arbitre.server.services import Seat
from arbitre.server.site import Site
from arbitre.server.viewing import (
    PAGE_IDS,
    current_view,
    map_svg,
    map_tag,
    power_colour,
    renderer_available,
)
from arbitre.server.visit import NO_CSRF, Visit, reading, writing
from arbitre.store.models import MASTER, PLAYER
from arbitre.variants import RULE_MODULES
from arbitre.views import View

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
                request_ = GameSettings(
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
                    bots=BotsRequest(tuple(bots), bot_votes[:16]) if bots or bot_votes != "abstain" else None,
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
                {"j": services.join_page(v.site, v.session, seat).data(), "action": f"/games/{game_id}/join"},
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
            {"j": services.join_page(v.site, v.session, seat).data(), "action": f"/invite/{token}/join"},
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

    def answer(v: Visit, seat: Seat, result: SubmitResult) -> Response:
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

    return actions.submit_orders(
        site_of(request),
        lambda: reading(request, csrf),
        lambda: writing(request, csrf),
        lambda v, lock: (v.session, v.game(game_id, lock=lock, roles=(PLAYER,))),
        lines,
        bool(ready),
        phase or None,
        answer,
    )


@router.get("/games/{game_id}/history", response_class=HTMLResponse)
def history(game_id: int, request: Request) -> Response:
    """The list of played phases."""
    with reading(request) as v:
        seat = v.game(game_id)
        phases = [p.data() for p in services.history(v.site, v.session, seat)]
        frames = [_map_url(seat, p["index"]) for p in phases] if renderer_available() else []
        return render(
            request,
            v.actor,
            "history.html",
            {
                "game": services.summary(seat.row).data(),
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
        data = services.history_phase(v.site, v.session, seat, index).data()
        count = seat.row.played
        after = (
            services.history_phase(v.site, v.session, seat, index + 1).view
            if index + 1 < count
            else services.game_state(v.site, v.session, seat).view
        )
        return render(
            request,
            v.actor,
            "phase.html",
            {
                "game": services.summary(seat.row).data(),
                "p": data,
                "role": seat.role,
                "svg": _map_url(
                    seat, index, services.played_view(v.site, v.session, seat.row, index, seat.viewer), v.actor.lang
                ),
                "index": index,
                "count": count,
                "next_view": after,
            },
        )


def _game_context(site: Site, session: Session, seat: services.Seat, lang: str) -> dict[str, Any]:
    """What the game page of a member shows: their state, their board's address (the page fetches and
    inlines it, so its places can be clicked), the last phase."""
    state = services.game_state(site, session, seat).data()
    game = site.referee.game(session, seat.row)
    last_phase = services.last_phase(site, session, seat)
    last = last_phase.data() if last_phase else None
    return {
        "s": state,
        "svg": _map_url(seat, None, current_view(game, seat.viewer), lang),
        "svg_fetch": renderer_available(),
        "page_ids": " ".join(PAGE_IDS),
        "colour": power_colour(seat.power, seat.row.map_name),
        "last": last,
        "last_svg": _map_url(seat, last["index"]) if last else None,
        "recipients": services.recipients(site, session, seat),
    }


def _map_url(seat: services.Seat, index: int | None, view: View | None = None, lang: str = "en") -> str | None:
    """The address of a map as ``seat`` sees it.  It names the viewer (``as``), so a browser shared by two
    players never shows one the other's cached map; with ``view`` it also carries the map's tag (``v``),
    which moves only when this reader's own view does, so the address names one picture for ever."""
    if not renderer_available():
        return None
    where = "" if index is None else f"/history/{index}"
    tag = "" if view is None else f"v={map_tag(view, lang)}&"
    return f"/games/{seat.row.id}{where}/map.svg?{tag}as={quote(seat.viewer)}"


@router.get("/games/{game_id}/map.svg")
def current_map(game_id: int, request: Request) -> Response:
    """The map of the current phase as you see it."""
    return _map(game_id, None, request)


@router.get("/games/{game_id}/history/{index}/map.svg")
def history_map(game_id: int, index: int, request: Request) -> Response:
    """The map of a played phase as you see it."""
    return _map(game_id, index, request)


IMMUTABLE = "private, max-age=31536000, immutable"
"""The caching of a map at an address carrying its own tag: that address never names another picture."""


def _map(game_id: int, index: int | None, request: Request) -> Response:
    """A map as the requester sees it, with its tag as ``ETag`` (``If-None-Match`` answered by 304).

    ``as`` names the reader the address was made for: another reader asking it is refused (403), so a map
    address never gives one reader another's view.  Caching (always ``private``): immutable when ``v`` is
    the map's current tag, revalidated (``no-cache``) at an address naming the reader without it, not kept
    at an address naming no reader."""
    asked = request.query_params.get("as")
    with reading(request) as v:
        seat = v.game(game_id)
        if asked is not None and asked != seat.viewer:
            raise Problem(403, "forbidden", "this map's address was made for another reader of the game")
        game = v.site.referee.game(v.session, seat.row)
        played = None if index is None else services.played_view(v.site, v.session, seat.row, index, seat.viewer)
        if index is not None and played is None:
            raise Problem(404, "not_found", f"phase {index} of this game does not exist")
        view = current_view(game, seat.viewer) if played is None else played
        if not renderer_available():
            raise Problem(404, "not_found", "the map renderer is not installed")
        tag = map_tag(view, v.actor.lang)
        if asked is None:
            cache = "no-store"
        else:
            cache = IMMUTABLE if request.query_params.get("v") == tag else "private, no-cache"
        headers = {"Cache-Control": cache, "ETag": f'"{tag}"'}
        if asked is not None and _matches(request.headers.get("if-none-match", ""), tag):
            return Response(status_code=304, headers=headers)
        svg = map_svg(view, v.actor.lang)  # cached by a digest of the view itself (arbitre.server.boards)
        if svg is None:
            raise Problem(404, "not_found", "the map renderer is not installed")
    return Response(svg, media_type="image/svg+xml", headers=headers)


def _matches(if_none_match: str, tag: str) -> bool:
    """Does an ``If-None-Match`` header name ``tag`` (weakly: a compressed copy's ``W/`` tag counts)?"""
    for item in if_none_match.split(","):
        item = item.strip()
        if item.startswith("W/"):
            item = item[2:]
        if item == "*" or item == f'"{tag}"':
            return True
    return False


@router.get("/games/{game_id}/messages", response_class=HTMLResponse)
def messages(game_id: int, request: Request, c: str | None = None) -> Response:
    """Your conversations with their unread counts, the messages of one (``c``: its id) or of all, and the
    form to write.  Showing messages marks their conversations read (the counts shown are those before)."""
    with writing(request, NO_CSRF) as v:  # writes only the reader's own read marks
        seat = v.game(game_id)
        press = services.press(v.session, seat, c).data()
        if c is not None and not any(x["id"] == c for x in press["conversations"]):
            raise Problem(404, "not_found", f"conversation {c} does not exist")
        services.read_conversation(v.session, seat, c)
        current = next((x for x in press["conversations"] if x["id"] == c), None)
        if current is not None:
            current["unread"] = 0  # read now, as it is shown
        return render(
            request,
            v.actor,
            "messages.html",
            {
                "game": services.summary(seat.row).data(),
                "role": seat.role,
                "m": press,
                "current": current,
                "live_since": live.since(v.site, v.session, seat),
                "recipients": services.recipients(v.site, v.session, seat),
            },
        )


@router.post("/games/{game_id}/messages")
def send(
    game_id: int, request: Request, csrf: str = Form(""), to: list[str] = Form([]), body: str = Form("")
) -> Response:
    """Send a message to the recipients ticked (one or several; ``*`` alone for public press)."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True)
        msg = actions.send_message(v.session, v.site, seat, v.user(), to, body)
        key = msg.conversation
    return redirect(f"/games/{game_id}/messages?c={quote(key, safe=',*')}", "done")


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
                "s": services.game_state(v.site, v.session, seat).data(),
                "svg": _map_url(
                    seat, None, current_view(v.site.referee.game(v.session, seat.row), seat.viewer), v.actor.lang
                ),
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
    text = minutes.strip()

    def find(v: Visit, lock: bool) -> tuple[Session, Seat]:
        seat = v.game(game_id, lock=lock, roles=(MASTER,))
        if text and not (text.lstrip("-").isdigit() and len(text) <= 8):
            raise Problem(400, "bad_action", f"{text[:40]!r} is not a whole number of minutes", "form.minutes")
        return v.session, seat

    mins = int(text) if text and text.lstrip("-").isdigit() and len(text) <= 8 else None
    actions.master_action(
        site_of(request),
        lambda: reading(request, csrf),
        lambda: writing(request, csrf),
        find,
        action,
        mins,
        power or None,
        user or None,
    )
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
                "g": services.summary(seat.row).data(),
                "seat_role": seat.role,
                "seat_power": seat.power,
                "v": services.votes(v.site, v.session, seat).data(),
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
