"""The JSON API of lateness: presets, a game's settings and public board, the site-wide board,
calls for a replacement and the take-over of a seat."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field

from arbitre.server import lateness, services
from arbitre.server.fields import ShortText, Strict
from arbitre.server.guesses import takeover_attempt
from arbitre.server.lateness import Call, GameBoard, LatenessSettings, Offer, SiteBoard, Taken
from arbitre.server.visit import reading, writing
from arbitre.store.lateness import presets_data
from arbitre.store.models import MASTER

router = APIRouter(prefix="/api", tags=["lateness"])

Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


class LatenessIn(Strict):
    """Lateness settings: a preset (``none``, ``casual``, ``tournament``), then any setting over it
    (see ``docs/server.md``, "Lateness")."""

    preset: Literal["none", "casual", "tournament"] = "none"
    grace_minutes: int | None = Field(default=None, strict=True, ge=0, le=1440)
    excuses: int | None = Field(default=None, strict=True, ge=0, le=10)
    extensions: int | None = Field(default=None, strict=True, ge=0, le=10)
    extension_hours: int | None = Field(default=None, strict=True, ge=1, le=168)
    disorder_after: int | None = Field(default=None, strict=True, ge=1, le=20)
    replace_on_disorder: bool | None = Field(default=None, strict=True)
    bot_after_missed: int | None = Field(default=None, strict=True, ge=1, le=20)
    rest_days: list[Day] | None = Field(default=None, max_length=7)
    deadline_time: str | None = Field(default=None, max_length=5, pattern=r"^[0-2][0-9]:[0-5][0-9]$")
    timezone: ShortText | None = Field(default=None, max_length=64)

    def settings(self) -> dict[str, Any]:
        """The settings given (a ``null`` optional number is kept only where ``null`` means "never")."""
        data = self.model_dump(exclude_unset=True)
        return {k: v for k, v in data.items() if v is not None or k in ("disorder_after", "bot_after_missed")}


class CallIn(Strict):
    """A call for a replacement of one power."""

    power: ShortText = Field(max_length=24)


@router.get("/lateness/presets")
def presets() -> dict[str, LatenessSettings]:
    """Every lateness preset's settings."""
    return {name: LatenessSettings(**data) for name, data in presets_data().items()}


@router.get("/lateness")
def site_board(request: Request) -> SiteBoard:
    """The site-wide board: the newest missed deadlines, the open calls for a replacement, yellow cards, of
    the games you may know exist (private games: their members only)."""
    with reading(request) as v:
        return lateness.site_board(v.session, v.actor.user.id if v.actor.user else None)


@router.get("/games/{game_id}/lateness")
def game_board(game_id: int, request: Request) -> GameBoard:
    """A game's board: its lateness settings, missed deadlines, civil disorder, open calls (anyone who may
    know the game: a private game's board is its members')."""
    with reading(request) as v:
        return lateness.game_board(v.session, v.game(game_id, member=False).row)


@router.put("/games/{game_id}/lateness")
def put_lateness(game_id: int, body: LatenessIn, request: Request) -> GameBoard:
    """(Master) set the game's lateness settings: a preset, then any setting over it."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        lateness.set_lateness(v.session, seat, body.settings())
        return lateness.game_board(v.session, seat.row)


@router.post("/games/{game_id}/replacements", status_code=201)
def post_call(game_id: int, body: CallIn, request: Request) -> Call:
    """(Master) publish a call for a replacement of a power: its take-over link is public."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        return lateness.call_data(lateness.call_replacement(v.session, v.site, seat, body.power))


@router.delete("/games/{game_id}/replacements/{power}")
def delete_call(game_id: int, power: str, request: Request) -> GameBoard:
    """(Master) withdraw the open call for a power."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        lateness.withdraw_call(v.session, v.site, seat, power[:24])
        return lateness.game_board(v.session, seat.row)


@router.get("/takeover/{token}")
def get_takeover(token: str, request: Request) -> Offer:
    """What a take-over link offers: the game and the power (and whether the call is still open).  A private
    game's link exists only for its members."""
    with reading(request) as v:
        call, row = lateness.takeover_info(v.session, token[:64], v.actor.user)
        return lateness.offer(call, row, services.summary(row))


@router.post("/takeover/{token}")
def post_takeover(token: str, request: Request) -> Taken:
    """Take the seat a take-over link offers (you must be logged in and have no other role in the game; in a
    private game, be one of its observers)."""
    with takeover_attempt(request, token[:64]), writing(request) as v:
        user = v.user()
        row = lateness.take_over(v.session, v.site, token[:64], user)
        return Taken(game=services.summary(row), power=lateness.takeover_info(v.session, token[:64], user)[0].power)
