"""Pages for bot seats (the master's controls) and sandboxes (open, play, step, branch, share)."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from arbitre.server import bots, sandbox
from arbitre.server.auth import Actor, site_of
from arbitre.server.errors import Problem, bad_request, not_found
from arbitre.server.flash import flash_redirect
from arbitre.server.pages import redirect, render
from arbitre.server.viewing import map_svg
from arbitre.server.visit import reading, writing
from arbitre.store.models import MASTER
from arbitre.store.sandboxes import Sandbox, sandbox_by_token, sandboxes_of

router = APIRouter(include_in_schema=False)


@router.post("/games/{game_id}/bots")
def bot_seat(
    game_id: int,
    request: Request,
    csrf: str = Form(""),
    action: str = Form(""),
    power: str = Form(""),
    kind: str = Form("house"),
) -> Response:
    """The master gives a seat to a bot (``seat``) or takes it away (``unseat``)."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        if action == "seat":
            bots.put_bot(v.session, v.site, seat, power, kind)
        elif action == "unseat":
            bots.remove_bot(v.session, seat, power)
        else:
            raise bad_request(f"unknown action {action!r}; known: seat, unseat", "bad_action")
    return redirect(f"/games/{game_id}/master", "done")


@router.post("/games/{game_id}/bot-settings")
def bot_settings(
    game_id: int, request: Request, csrf: str = Form(""), votes: str = Form("abstain"), after_missed: str = Form("")
) -> Response:
    """The master sets how votes and scores treat bot seats, and after how many missed steps a bot steps in."""
    with writing(request, csrf) as v:
        seat = v.game(game_id, lock=True, roles=(MASTER,))
        try:
            missed = int(after_missed) if after_missed.strip() else None
        except ValueError as err:
            raise bad_request(f"{after_missed!r} is not a whole number of steps", "bad_settings") from err
        bots.set_settings(v.session, seat, votes, missed)
    return redirect(f"/games/{game_id}/master", "done")


@router.post("/games/{game_id}/sandbox")
def open_sandbox(game_id: int, request: Request, csrf: str = Form(""), index: str = Form("")) -> Response:
    """Open a sandbox from the current phase (or played phase ``index``) as you may see it."""
    with writing(request, csrf) as v:
        seat = v.game(game_id)
        try:
            at = int(index) if index.strip() else None
        except ValueError as err:
            raise bad_request(f"{index!r} is not a phase number", "bad_phase") from err
        box = sandbox.open_from_game(v.session, v.site, seat, at, v.actor.lang)
        box_id = box.id
    return redirect(f"/sandboxes/{box_id}")


@router.get("/sandboxes", response_class=HTMLResponse)
def list_sandboxes(request: Request) -> Response:
    """Your sandboxes."""
    with reading(request) as v:
        user = v.user()
        return render(request, v.actor, "sandboxes.html", {"boxes": sandboxes_of(v.session, user.id)})


def _page(
    request: Request, box: Sandbox, shared: bool, actor: Actor, rejected: list[dict[str, object]] | None = None
) -> Response:
    state = sandbox.sandbox_state(box, shared).data()
    where = f"/s/{box.share_token}" if shared else f"/sandboxes/{box.id}"
    state["svg"] = f"{where}/map.svg?c={box.cursor}&n={state['count']}"
    return render(request, actor, "sandbox.html", {"x": state, "svg": state["svg"], "rejected": rejected})


@router.get("/sandboxes/{sandbox_id}", response_class=HTMLResponse)
def sandbox_page(sandbox_id: int, request: Request) -> Response:
    """Your sandbox: the phase under the cursor, the orders form at the newest phase, step, branch, share."""
    with reading(request) as v:
        box = sandbox.owned(v.session, sandbox_id, v.user().id)
        return _page(request, box, False, v.actor)


@router.get("/s/{token}", response_class=HTMLResponse)
def shared_page(token: str, request: Request) -> Response:
    """A shared sandbox, read-only, for anyone with the link."""
    with reading(request) as v:
        box = sandbox_by_token(v.session, token[:64])
        if box is None:
            raise not_found("this sandbox")
        return _page(request, box, True, v.actor)


@router.post("/sandboxes/{sandbox_id}/adjudicate")
def sandbox_adjudicate(sandbox_id: int, request: Request, csrf: str = Form(""), orders: str = Form("")) -> Response:
    """Adjudicate the newest phase of your sandbox with orders for every power."""
    with writing(request, csrf) as v:
        box = sandbox.owned(v.session, sandbox_id, v.user().id)
        rejected = sandbox.adjudicate(box, orders.splitlines())
        if rejected:  # post/redirect/get: the sandbox page lists them, with the orders as typed
            return flash_redirect(
                request, f"/sandboxes/{sandbox_id}", {"rejected": [r.data() for r in rejected], "orders_text": orders}
            )
    return redirect(f"/sandboxes/{sandbox_id}", "processed")


@router.post("/sandboxes/{sandbox_id}/step")
def sandbox_step(sandbox_id: int, request: Request, csrf: str = Form(""), delta: int = Form(0)) -> Response:
    """Step back (``-1``) or forward (``1``)."""
    with writing(request, csrf) as v:
        box = sandbox.owned(v.session, sandbox_id, v.user().id)
        sandbox.step(box, max(-1, min(1, delta)))
    return redirect(f"/sandboxes/{sandbox_id}")


@router.post("/sandboxes/{sandbox_id}/branch")
def sandbox_branch(sandbox_id: int, request: Request, csrf: str = Form("")) -> Response:
    """A new sandbox from the phase under the cursor."""
    with writing(request, csrf) as v:
        user = v.user()
        box = sandbox.owned(v.session, sandbox_id, user.id)
        new_id = sandbox.branch(v.session, v.site, box, user.id).id
    return redirect(f"/sandboxes/{new_id}")


@router.get("/sandboxes/{sandbox_id}/map.svg")
def sandbox_map(sandbox_id: int, request: Request) -> Response:
    """The map of your sandbox's phase under the cursor."""
    with reading(request) as v:
        box = sandbox.owned(v.session, sandbox_id, v.user().id)
        return _svg(box)


@router.get("/s/{token}/map.svg")
def shared_map(token: str, request: Request) -> Response:
    """The map of a shared sandbox."""
    site = site_of(request)
    with site.db.reading() as s:
        box = sandbox_by_token(s, token[:64])
        if box is None:
            raise not_found("this sandbox")
        return _svg(box)


def _svg(box: Sandbox) -> Response:
    game = sandbox.game_of(box)
    view = game.phase_view(box.cursor, MASTER) if box.cursor < len(game.history) else game.view(MASTER)
    svg = map_svg(view)
    if svg is None:
        raise Problem(404, "not_found", "the map renderer is not installed")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=60"})
