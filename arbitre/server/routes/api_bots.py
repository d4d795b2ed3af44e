"""The JSON API of bot seats and sandboxes (the same answers as the pages)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from arbitre.server import bots, sandbox, services
from arbitre.server.answers import BotSummary, GameBots
from arbitre.server.auth import site_of
from arbitre.server.errors import not_found
from arbitre.server.visit import reading, writing
from arbitre.store.models import MASTER
from arbitre.store.sandboxes import sandbox_by_token, sandboxes_of

router = APIRouter(prefix="/api", tags=["bots and sandboxes"])


class Strict(BaseModel):
    """Request bodies refuse unknown fields."""

    model_config = ConfigDict(extra="forbid")


class BotIn(Strict):
    """Give a power's seat to a bot."""

    power: str = Field(max_length=24)
    kind: Literal["house", "hold", "random"] = "house"


class BotSettingsIn(Strict):
    """How votes and scores treat bot seats; after how many missed steps a bot takes a seat (``null``: never)."""

    votes: Literal["abstain", "exclude", "count"] = "abstain"
    after_missed: int | None = Field(default=None, ge=1, le=20)


class SandboxIn(Strict):
    """Open a sandbox from the current phase, or from played phase ``index``."""

    index: int | None = Field(default=None, ge=0, le=100000)


class SandboxOrdersIn(Strict):
    """Orders for every power, ``POWER: ORDER`` each."""

    orders: list[str] = Field(max_length=400)


class StepIn(Strict):
    """Move the cursor: ``-1`` back, ``1`` forward."""

    delta: Literal[-1, 1]


@router.get("/games/{game_id}/bots")
def get_bots(game_id: int, request: Request) -> BotSummary:
    """The seats played by a bot and the game's bot settings."""
    with reading(request) as v:
        seat = v.game(game_id)
        return services.bot_summary(v.session, seat.row.id)


@router.post("/games/{game_id}/bots")
def post_bot(game_id: int, body: BotIn, request: Request) -> GameBots:
    """(Master) give a seat to a bot: an empty seat before the start, a seat in civil disorder after."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        bots.put_bot(v.session, v.site, seat, body.power, body.kind)
        bots_now = services.bot_summary(v.session, game_id)
        return GameBots(
            seats=bots_now.seats,
            settings=bots_now.settings,
            votes_choices=bots_now.votes_choices,
            game=services.summary(seat.row),
        )


@router.delete("/games/{game_id}/bots/{power}")
def delete_bot(game_id: int, power: str, request: Request) -> BotSummary:
    """(Master) take the bot out of a seat."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        bots.remove_bot(v.session, seat, power[:24])
        return services.bot_summary(v.session, game_id)


@router.put("/games/{game_id}/bots/settings")
def put_bot_settings(game_id: int, body: BotSettingsIn, request: Request) -> BotSummary:
    """(Master) set how votes and scores treat bot seats, and the lateness rule."""
    with writing(request) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        bots.set_settings(v.session, seat, body.votes, body.after_missed)
        return services.bot_summary(v.session, game_id)


@router.post("/games/{game_id}/sandboxes", status_code=201)
def post_sandbox(game_id: int, body: SandboxIn, request: Request) -> sandbox.SandboxState:
    """Open a sandbox from a position as you may see it (the whole board once the game is over)."""
    with writing(request) as v:
        seat = v.game(game_id)
        return sandbox.sandbox_state(sandbox.open_from_game(v.session, v.site, seat, body.index, v.actor.lang), False)


@router.get("/sandboxes")
def get_sandboxes(request: Request) -> list[sandbox.SandboxItem]:
    """Your sandboxes."""
    with reading(request) as v:
        user = v.user()
        return [sandbox.SandboxItem(id=b.id, name=b.name) for b in sandboxes_of(v.session, user.id)]


@router.get("/sandboxes/{sandbox_id}")
def get_sandbox(sandbox_id: int, request: Request) -> sandbox.SandboxState:
    """Your sandbox at its cursor."""
    with reading(request) as v:
        box = sandbox.owned(v.session, sandbox_id, v.user().id)
        return sandbox.sandbox_state(box, False)


@router.post("/sandboxes/{sandbox_id}/adjudicate")
def adjudicate_sandbox(sandbox_id: int, body: SandboxOrdersIn, request: Request) -> sandbox.Adjudicated:
    """Adjudicate the newest phase with orders for every power; the rejected ones are returned (they fail)."""
    with writing(request) as v:
        box = sandbox.owned(v.session, sandbox_id, v.user().id)
        rejected = sandbox.adjudicate(box, body.orders)
        return sandbox.Adjudicated(**dict(sandbox.sandbox_state(box, False)), rejected=rejected)


@router.post("/sandboxes/{sandbox_id}/step")
def step_sandbox(sandbox_id: int, body: StepIn, request: Request) -> sandbox.SandboxState:
    """Step back or forward."""
    with writing(request) as v:
        box = sandbox.owned(v.session, sandbox_id, v.user().id)
        sandbox.step(box, body.delta)
        return sandbox.sandbox_state(box, False)


@router.post("/sandboxes/{sandbox_id}/branch", status_code=201)
def branch_sandbox(sandbox_id: int, request: Request) -> sandbox.SandboxState:
    """A new sandbox from the phase under the cursor."""
    with writing(request) as v:
        user = v.user()
        box = sandbox.owned(v.session, sandbox_id, user.id)
        return sandbox.sandbox_state(sandbox.branch(v.session, v.site, box, user.id), False)


@router.get("/shared/{token}")
def shared_sandbox(token: str, request: Request) -> sandbox.SandboxState:
    """A shared sandbox, read-only (no login needed)."""
    site = site_of(request)
    with site.db.reading() as s:
        box = sandbox_by_token(s, token[:64])
        if box is None:
            raise not_found("this sandbox")
        return sandbox.sandbox_state(box, True)
