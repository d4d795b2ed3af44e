"""The FastAPI application factory."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from arbitre.server import worker
from arbitre.server.clock import Clock, SystemClock
from arbitre.server.errors import Problem
from arbitre.server.security import Signer
from arbitre.server.site import Settings, Site
from arbitre.store import migrate, open_database
from arbitre.store.accounts import site_secret
from arbitre.store.lifecycle import Referee

STATIC = Path(__file__).with_name("static")


def make_site(settings: Settings | None = None, clock: Clock | None = None) -> Site:
    """Open (and migrate) the database and build the :class:`Site`."""
    settings = settings or Settings.from_env()
    db = open_database(settings.database_url)
    migrate(db)
    with db.writing() as s:
        secret = site_secret(s)
    return Site(db=db, signer=Signer(secret), settings=settings, clock=clock or SystemClock(),
                referee=Referee(pause_seconds=settings.adjudication_pause))


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
        try:
            yield
        finally:
            stop.set()
            if task is not None:
                await task

    app = FastAPI(title="arbitre", summary="A Diplomacy judge: games, orders, deadlines, press.",
                  docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.site = site
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    from arbitre.server.pages import render_problem
    from arbitre.server.routes import api, api_bots, pages_account, pages_bots, pages_games

    app.include_router(api.router)
    app.include_router(api_bots.router)
    app.include_router(pages_account.router)
    app.include_router(pages_games.router)
    app.include_router(pages_bots.router)

    def wants_json(request: Request) -> bool:
        return request.url.path.startswith("/api/")

    @app.exception_handler(Problem)
    async def on_problem(request: Request, exc: Problem) -> Response:
        if wants_json(request):
            return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status)
        return render_problem(request, exc)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        problem = Problem(422, "invalid_request", f"{where}: {first.get('msg')}" if where else str(first.get("msg")))
        return await on_problem(request, problem)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return await on_problem(request, Problem(exc.status_code, code, str(exc.detail)))

    return app
