"""The JSON API for bots: the same answers as the pages (OpenAPI docs at ``/api/docs``).

Authenticate with ``Authorization: Bearer <token>`` (make a token with
``POST /api/tokens`` or on the account page).  Requests made with the session
cookie instead must carry the ``X-CSRF-Token`` header on every change.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field

from arbitre.rules.options import options_catalogue
from arbitre.server import actions, services
from arbitre.server.auth import check_csrf, client_address, identify, site_of
from arbitre.server.engine_words import engine_message
from arbitre.server.errors import Problem
from arbitre.server.fields import (
    Deadlines,
    LongText,
    Minutes,
    Names,
    Options,
    Orders,
    Secret,
    ShortText,
    Strict,
)
from arbitre.server.routes.api_lateness import LatenessIn
from arbitre.store.accounts import create_token
from arbitre.store.games import games_of, list_games, player_count
from arbitre.store.models import MASTER, PLAYER

router = APIRouter(prefix="/api", tags=["api"])


class AccountIn(Strict):
    """A new account."""

    name: ShortText = Field(max_length=40)
    password: Secret
    lang: Literal["en", "fr"] = "en"


class TokenIn(Strict):
    """Credentials exchanged for a bearer token."""

    name: ShortText = Field(max_length=40)
    password: Secret
    label: ShortText = "bot"


class MeIn(Strict):
    """Account preferences."""

    lang: Literal["en", "fr"]


class GameIn(Strict):
    """A new game's settings (deadlines in seconds, keyed M, R, A and the steps rule modules declare;
    ``show_progress``: everyone sees who has given orders and who is ready)."""

    name: ShortText
    map: ShortText = "standard"
    rules: Names = []
    options: Options = {}
    press: Literal["none", "public", "full"] = "full"
    assignment: Literal["random", "choice"] = "random"
    deadlines: Deadlines = {}
    show_progress: bool = True
    """Does everyone see who has given orders and who is ready?"""
    lateness: LatenessIn | None = None
    """Lateness settings: a preset (``casual``, ``tournament``) and any setting over it."""
    last_year: int | None = Field(default=None, strict=True, ge=1, le=99999)
    """The game ends in a draw once this year is played (``null``: no fixed length)."""
    target_centers: int | None = Field(default=None, strict=True, ge=1, le=999)
    """The centres a power needs to win (``null``: the map's number)."""
    scoring: Literal["draw-size", "sum-of-squares", "c-diplo", "c-diplo-100"] = "draw-size"
    """The scoring system of the game's final page."""


class JoinIn(Strict):
    """Join as a player (optionally naming the wanted power) or as an observer."""

    role: Literal["player", "observer"] = "player"
    power: ShortText | None = None


class OrdersIn(Strict):
    """Orders (one per item; ``null`` keeps the current ones) and/or the ready switch.

    ``phase`` (optional) is the phase the orders are meant for; they are refused if
    the game has moved on.
    """

    orders: Orders | None = None
    ready: bool | None = None
    phase: ShortText | None = Field(default=None, max_length=16)


class CheckIn(Strict):
    """Orders to check without storing them."""

    orders: Orders


class MessageIn(Strict):
    """A press message: ``to`` is a power, ``MASTER`` or ``*`` (public)."""

    to: ShortText = Field(max_length=24)
    body: LongText


class MasterIn(Strict):
    """A master-console action."""

    action: Literal["pause", "resume", "extend", "adjudicate", "draw", "end", "replace"]
    minutes: Minutes | None = None
    power: ShortText | None = None
    user: ShortText | None = None
    powers: Names | None = None
    """For a draw: the powers sharing it (default: every power still in the game)."""


@router.post("/register", status_code=201)
def register(body: AccountIn, request: Request) -> dict[str, Any]:
    """Create an account."""
    site = site_of(request)
    password_hash = actions.check_account(site, body.name, body.password, client_address(request))
    with site.db.writing() as s:
        user = actions.register(s, site, body.name, password_hash, body.lang)
        return {"id": user.id, "name": user.name}


@router.post("/tokens", status_code=201)
def token(body: TokenIn, request: Request) -> dict[str, Any]:
    """Exchange a name and password for a bearer token (shown once)."""
    site = site_of(request)
    with site.db.reading() as s:  # no write transaction during the (slow) password check
        user = actions.authenticate(s, site, body.name, body.password, client_address(request))
    if user is None:
        raise Problem(401, "bad_login", "wrong user name or password")
    with site.db.writing() as s:
        return {"token": create_token(s, user.id, body.label, site.now())}


@router.get("/me")
def me(request: Request) -> dict[str, Any]:
    """The account and its games."""
    site = site_of(request)
    with site.db.reading() as s:
        user = identify(request, s).require()
        return {
            "id": user.id,
            "name": user.name,
            "lang": user.lang,
            "games": [{**services.summary(g), "role": m.role, "power": m.power} for g, m in games_of(s, user.id)],
        }


@router.put("/me")
def update_me(body: MeIn, request: Request) -> dict[str, Any]:
    """Change preferences (language of pages and reports)."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor)
        user = actor.require()
        user.lang = body.lang
        return {"id": user.id, "name": user.name, "lang": user.lang}


@router.get("/options")
def options() -> dict[str, Any]:
    """Every rule option (grouped by DATC section, the DATC preference marked) and every preset."""
    return options_catalogue()


@router.get("/games")
def games(request: Request) -> list[dict[str, Any]]:
    """Every game's public summary."""
    site = site_of(request)
    with site.db.reading() as s:
        return [services.summary(g, player_count(s, g.id)) for g in list_games(s)]


@router.post("/games", status_code=201)
def create(body: GameIn, request: Request) -> dict[str, Any]:
    """Create a game; you are its master."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor)
        data = body.model_dump()
        data["lateness"] = body.lateness.settings() if body.lateness else None
        row = actions.new_game(s, site, actor.require(), data)
        return services.summary(row, 0)


@router.get("/games/{game_id}")
def game(game_id: int, request: Request) -> dict[str, Any]:
    """A member's game page (summary, roster, their view, their orders); an outsider gets the summary."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        seat = services.open_game(s, game_id, actor, member=False)
        if seat.member is None:
            return {"game": services.summary(seat.row, player_count(s, game_id))}
        return services.game_state(site, s, seat)


@router.post("/games/{game_id}/join")
def join(game_id: int, body: JoinIn, request: Request) -> dict[str, Any]:
    """Join a game as a player or an observer."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor)
        user = actor.require()
        seat = services.open_game(s, game_id, actor, member=False, lock=True)
        actions.join_game(s, site, seat, user, body.role, body.power)
        return services.summary(seat.row, player_count(s, game_id))


@router.get("/games/{game_id}/orders")
def get_orders(game_id: int, request: Request) -> dict[str, Any]:
    """Your orders for the current step, your ready switch and the legal orders of your units."""
    site = site_of(request)
    with site.db.reading() as s:
        seat = services.open_game(s, game_id, identify(request, s), roles=(PLAYER,))
        state = services.game_state(site, s, seat)
        if "orders" not in state:
            raise Problem(409, "conflict", "you hold no power yet")
        result: dict[str, Any] = state["orders"]
        return result


@router.get("/games/{game_id}/legal")
def legal(game_id: int, request: Request) -> dict[str, Any]:
    """The legal orders of your units now, keyed by unit place (what the map and the picker offer).

    Made by the engine from what your power may see; in a reaction step, only the
    changes the engine accepts there (``one_line``: the one change replaces the box).
    """
    site = site_of(request)
    with site.db.reading() as s:
        seat = services.open_game(s, game_id, identify(request, s), roles=(PLAYER,))
        return services.legal_data(site, s, seat)


@router.put("/games/{game_id}/orders")
def put_orders(game_id: int, body: OrdersIn, request: Request) -> dict[str, Any]:
    """Replace your orders and/or set your ready switch; the step is processed when everyone is ready."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor)
        seat = services.open_game(s, game_id, actor, lock=True, roles=(PLAYER,))
        result = actions.submit_orders(s, site, seat, body.orders, body.ready, body.phase)
        rejected = [
            {
                "order": r.text,
                "outcome": r.outcome,
                "reason": r.reason,
                "message": engine_message(r.message or "", r.outcome, actor.lang) or None,
            }
            for r in result.rejected
        ]
        return {"rejected": rejected, "processed": result.processed, "phase": seat.row.phase, "step": seat.row.step}


@router.post("/games/{game_id}/check")
def check(game_id: int, body: CheckIn, request: Request) -> dict[str, Any]:
    """Check orders without storing them: the engine's messages for the lines it rejects."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        check_csrf(request, actor)
        seat = services.open_game(s, game_id, actor, roles=(PLAYER,))
        errors = actions.check_orders(site, s, seat, body.orders)
        for e in errors:  # the engine's words in the reader's language
            e["message"] = engine_message(e["message"], e["outcome"], actor.lang)
        return {"errors": errors}


@router.get("/games/{game_id}/history")
def history(game_id: int, request: Request) -> list[dict[str, Any]]:
    """The played phases."""
    site = site_of(request)
    with site.db.reading() as s:
        return services.history(site, s, services.open_game(s, game_id, identify(request, s)))


@router.get("/games/{game_id}/history/{index}")
def history_phase(game_id: int, index: int, request: Request) -> dict[str, Any]:
    """One played phase as you see it: board, orders and results, report."""
    site = site_of(request)
    with site.db.reading() as s:
        return services.history_phase(site, s, services.open_game(s, game_id, identify(request, s)), index)


@router.get("/games/{game_id}/messages")
def messages(game_id: int, request: Request) -> dict[str, Any]:
    """The messages you may read, and where you may write."""
    site = site_of(request)
    with site.db.reading() as s:
        seat = services.open_game(s, game_id, identify(request, s))
        return {**services.press(s, seat), "recipients": services.recipients(site, s, seat)}


@router.post("/games/{game_id}/messages", status_code=201)
def post_message(game_id: int, body: MessageIn, request: Request) -> dict[str, Any]:
    """Send a message (press settings permitting)."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor)
        seat = services.open_game(s, game_id, actor, lock=True)
        actions.send_message(s, site, seat, actor.require(), body.to, body.body)
        return {"ok": True}


@router.post("/games/{game_id}/master")
def master(game_id: int, body: MasterIn, request: Request) -> dict[str, Any]:
    """Master console: pause, resume, extend (minutes), adjudicate, draw (powers), end, replace (power, user)."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor)
        seat = services.open_game(s, game_id, actor, lock=True, roles=(MASTER,))
        actions.master_action(s, site, seat, body.action, body.minutes, body.power, body.user, body.powers)
        return services.summary(seat.row)
