"""``GET /api/games/{id}/events``: a member's live event stream (server-sent events, :mod:`arbitre.server.live`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from arbitre.server import live
from arbitre.server.auth import site_of
from arbitre.server.visit import reading

router = APIRouter(prefix="/api", tags=["api"])

EXAMPLE = (
    "retry: 3000\n\n"
    "id: 2.active.S1901M.orders.-.1795000000.-.0.0.0.-.nnnnnnn\nevent: hello\n"
    'data: {"game":7,"status":"active","phase":"S1901M","step":"orders","result":"","deadline":'
    '"2026-11-18T08:26:40+00:00","remaining_seconds":null,"played":0,"ready":[]}\n\n'
    "id: 2.active.S1901M.orders.-.1795000000.-.0.0.4.-.nnnnnnn\nevent: ready\n"
    'data: {"game":7,"phase":"S1901M","step":"orders","power":"FRANCE","ready":true}\n\n'
    "id: 2.active.F1901M.orders.-.1795086400.-.1.0.0.-.nnnnnnn\nevent: phase\n"
    'data: {"game":7,"status":"active","phase":"F1901M","step":"orders","result":"","deadline":'
    '"2026-11-19T08:26:40+00:00","remaining_seconds":null,"played":1,"ready":[],"from":"S1901M"}\n\n'
    "id: 2.active.F1901M.orders.-.1795086400.-.1.1.0.-.nnnnnnn\nevent: message\n"
    'data: {"game":7,"phase":"F1901M","from":"ENGLAND","to":"FRANCE","body":"Channel?",'
    '"at":"2026-11-18T09:00:00+00:00"}\n\n'
    ": keep-alive\n\n"
)


@router.get(
    "/games/{game_id}/events",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "A stream of server-sent events (`text/event-stream`), open until the client leaves.",
            "content": {"text/event-stream": {"schema": {"type": "string"}, "example": EXAMPLE}},
        },
        401: {"description": "not logged in, or a bad token"},
        403: {"description": "not a member of this game"},
        404: {"description": "no such game"},
    },
)
async def events(
    game_id: int,
    request: Request,
    last_event_id: Annotated[
        str | None,
        Header(
            max_length=700,
            description=("The id of the last event received; the stream then starts with what changed since."),
        ),
    ] = None,
    since: Annotated[
        str | None,
        Query(
            max_length=700,
            description=(
                "The same as `Last-Event-ID`, for a first connection that cannot send headers (a page passes the "
                "id it was rendered at)."
            ),
        ),
    ] = None,
) -> StreamingResponse:
    """Live events of a game, built from **your own view** (as every other answer): members only.

    Authenticate with `Authorization: Bearer <token>` or the session cookie. Each event has an `event:`
    type, one `data:` line of JSON and (the last of each batch) an `id:`; reconnecting with that id in
    `Last-Event-ID` (browsers do it by themselves) sends what changed in between, so nothing is lost.
    A comment line (`: keep-alive`) comes every 20 s counted from the stream's start, whatever happens in
    the game (its timing tells nothing of others' activity); the server ends a stream 15 minutes after its
    start and the client reconnects.

    | event | when | data |
    |---|---|---|
    | `hello` | first event of a new connection (no `Last-Event-ID`) | the state (below) |
    | `started` | the game started (every seat taken) | state |
    | `phase` | a phase was processed (also for several at once) | state + `from` (the phase before) |
    | `step` | a step inside the phase changed (Espionnite: the orders locked, the reaction step opened) | state + `from` |
    | `paused` / `resumed` | the master stopped or restarted the clock | state |
    | `finished` | the game ended (victory, draw, or ended by the master) | state |
    | `deadline` | the deadline moved (an extension) | state |
    | `ready` | a ready switch you may see changed (yours; everyone's for the master, and for every member when the game shows progress: `show_progress`) | `game, phase, step, power, ready` |
    | `given` | the orders state of a power changed, as your players table shows it (when the game shows progress: `show_progress`) | `game, phase, step, power, orders` (`none`, `partly` or `all`: never the orders, never a count) |
    | `message` | a message you may read was posted | `game, phase, from, to, body, at` |
    | `vote_opened` | a vote was opened | the vote as `GET /api/games/{id}/votes` shows it to you, + `game` |
    | `vote_cast` | a ballot you may see changed (a secret vote: only yours; the master: every one) | the vote |
    | `vote_decided` | a vote passed, failed, expired or was withdrawn | the vote |

    The state is `{game, status, phase, step, result, deadline, remaining_seconds, played, ready}`:
    `deadline` is ISO 8601 UTC (`null` while paused, then `remaining_seconds` is the time left),
    `played` is the number of played phases (`GET /api/games/{id}/history/{played-1}` is the last one),
    `ready` the powers whose ready switch you may see and is on. Nothing in the stream (events, their
    order, their ids) depends on what you may not see: a change hidden from you sends nothing.
    """
    site = site_of(request)
    hub: live.Hub = request.app.state.hub

    def read(before: live.Glance | None, cursor: str | None = None) -> tuple[str, live.Glance, list[live.Event]]:
        with reading(request) as v:
            seat = v.game(game_id)
            now = live.glance(site, v.session, seat)
            if cursor is not None:
                before = live.parse_cursor(cursor, now.powers)
            # votes before messages: a client (or a test) that sees a message knows what came before it came
            events = live.differences(game_id, before, now) + live.vote_events(site, v.session, seat, before, now)
            return seat.viewer, now, events + live.new_messages(v.session, seat, before, now)

    first = await run_in_threadpool(read, None, last_event_id or since)
    return StreamingResponse(
        live.stream(hub, game_id, read, first, site.settings.stream_keepalive),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
