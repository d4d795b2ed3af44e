"""The FastAPI application factory."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from arbitre.life.referee import Referee
from arbitre.server import apidocs, worker
from arbitre.server.boundary import Boundary, error_body
from arbitre.server.canonical import CanonicalJSONResponse
from arbitre.server.clock import Clock, SystemClock
from arbitre.server.errors import Problem
from arbitre.server.headers import SecurityHeaders
from arbitre.server.live import Hub
from arbitre.server.notify import sender as notify_sender
from arbitre.server.proxies import ClientAddress, parse_proxies
from arbitre.server.security import Signer
from arbitre.server.site import Settings, Site
from arbitre.server.throttle import Tarpit
from arbitre.store import migrate, open_database
from arbitre.store.accounts import site_secret
from arbitre.store.db import UnstorableText

STATIC = Path(__file__).with_name("static")


def make_site(settings: Settings | None = None, clock: Clock | None = None) -> Site:
    """Open (and migrate) the database and build the :class:`Site`."""
    settings = settings or Settings.from_env()
    db = open_database(settings.database_url)
    migrate(db)
    clock = clock or SystemClock()
    db.outbox.clock = clock.now  # notifications are dated by the site's clock
    with db.writing() as s:
        secret = site_secret(s)
    return Site(
        db=db,
        signer=Signer(secret),
        settings=settings,
        clock=clock,
        referee=Referee(pause_seconds=settings.adjudication_pause),
    )


def create_app(settings: Settings | None = None, clock: Clock | None = None, site: Site | None = None) -> FastAPI:
    """The arbitre web application: pages, JSON API (docs at ``/api/docs``) and the deadline worker."""
    site = site or make_site(settings, clock)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Few threads: handlers are CPU-bound under the GIL, and a long queue of runnable threads
        # makes the holder of a database write lock wait for its turn to run (long latency tails).
        anyio.to_thread.current_default_thread_limiter().total_tokens = site.settings.threads
        stop = asyncio.Event()
        task = asyncio.create_task(worker.run(site, stop)) if site.settings.run_worker else None
        sending = site.settings.run_worker and site.settings.run_sender
        sender_task = asyncio.create_task(notify_sender.run(site, stop)) if sending else None
        try:
            yield
        finally:
            stop.set()
            hub.shutdown()
            if task is not None:
                await task
            if sender_task is not None:
                await sender_task
            # The threads the site started; a test or an embedding creates many sites in one process.
            await anyio.to_thread.run_sync(site.chores.close)
            await anyio.to_thread.run_sync(site.guard.gate.close)

    app = FastAPI(
        title="arbitre",
        summary="A Diplomacy judge: games, orders, deadlines, press.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
        default_response_class=CanonicalJSONResponse,
    )
    app.state.site = site
    hub = app.state.hub = Hub(site.db.changes)
    # Starlette: the last added is the outermost.  The password queue (Tarpit) is inside the boundary, so a
    # request holds a queue place only once its whole body was read and checked (a slow upload holds none).
    app.add_middleware(Tarpit)
    app.add_middleware(Boundary, body_seconds=site.settings.body_seconds)
    app.add_middleware(SecurityHeaders)
    # Outermost: which address the request comes from (a trusted proxy's word, else the peer's).
    app.add_middleware(ClientAddress, trusted=parse_proxies(site.settings.trusted_proxies))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    apidocs.mount(app)

    from arbitre.server.mila.route import router as mila_router
    from arbitre.server.pages import render_problem
    from arbitre.server.routes import (
        account_security,
        api,
        api_bots,
        api_lateness,
        api_scores,
        api_tournaments,
        events,
        pages_account,
        pages_bots,
        pages_games,
        pages_lateness,
        pages_tournaments,
    )
    from arbitre.server.routes import notify as notify_routes

    app.include_router(api.router)
    app.include_router(api_bots.router)
    app.include_router(api_lateness.router)
    app.include_router(api_scores.router)
    app.include_router(api_tournaments.router)
    app.include_router(events.router)
    app.include_router(pages_account.router)
    app.include_router(pages_games.router)
    app.include_router(pages_bots.router)
    app.include_router(pages_lateness.router)
    app.include_router(pages_tournaments.router)
    app.include_router(notify_routes.router)
    app.include_router(account_security.router)
    app.include_router(mila_router)  # MILA's websocket clients, at "/"

    def wants_json(request: Request) -> bool:
        return request.url.path.startswith("/api/")

    @app.exception_handler(Problem)
    async def on_problem(request: Request, exc: Problem) -> Response:
        if exc.status in (400, 413, 422) and not exc.where:
            exc.where = "body" if request.method in ("POST", "PUT", "PATCH") else "query"  # the request as a whole
        if wants_json(request):
            response: Response = CanonicalJSONResponse(
                error_body(exc.code, exc.message, exc.where), status_code=exc.status
            )
        else:
            response = render_problem(request, exc)
        if exc.retry_after:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = _where(first.get("loc", ()))
        message = str(first.get("msg"))
        if first.get("type") == "extra_forbidden":
            message = "unknown field"
        problem = Problem(422, "invalid_request", f"{where}: {message}" if where else message, where or None)
        return await on_problem(request, problem)

    @app.exception_handler(UnstorableText)
    async def on_unstorable(request: Request, exc: UnstorableText) -> Response:
        return await on_problem(request, Problem(400, "bad_text", str(exc), exc.where))

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return await on_problem(request, Problem(exc.status_code, code, str(exc.detail)))

    return app


def _where(loc: Any) -> str:
    """``("body", "orders", 3)`` → ``body.orders[3]``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
