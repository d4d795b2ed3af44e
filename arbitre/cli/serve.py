"""``arbitre serve``: migrate the database, seed the demo when it is empty, run the web server."""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database", envvar="ARBITRE_DATABASE_URL", help="Database URL (default: SQLite file arbitre.sqlite3)."
        ),
    ] = None,
    demo: Annotated[bool, typer.Option("--demo/--no-demo", help="Seed a demo game when the database is empty.")] = True,
    workers: Annotated[int, typer.Option(help="Server processes (use PostgreSQL for more than one).")] = 1,
) -> None:
    """Run the game server (pages, JSON API at /api, deadlines worker) on SQLite or PostgreSQL."""
    import uvicorn

    from arbitre.server.app import make_site
    from arbitre.server.demo import DEMO_MASTER, DEMO_PASSWORD, DEMO_PLAYERS, seed_demo
    from arbitre.server.processes import can_reuse_port, serve_processes

    if database:
        os.environ["ARBITRE_DATABASE_URL"] = database
    site = make_site()  # migrates
    if demo and seed_demo(site):
        typer.echo(
            f"demo game created: log in as {DEMO_MASTER} (master) or one of {', '.join(DEMO_PLAYERS)}; "
            f"password {DEMO_PASSWORD!r}"
        )
    site.db.dispose()
    typer.echo(f"arbitre serving on http://{host}:{port}/ (database {site.db.url.split('@')[-1]})")
    options: dict[str, Any] = {
        "log_level": "info",
        "timeout_graceful_shutdown": 5,  # open event streams (/api/games/{id}/events) never end by themselves
        "proxy_headers": False,  # the app believes forwarded addresses only from ARBITRE_TRUSTED_PROXIES
    }
    if workers > 1 and can_reuse_port():
        # A listening socket per process, so the kernel spreads the connections over them (see the module).
        raise typer.Exit(serve_processes(host, port, workers, options))
    uvicorn.run("arbitre.server.asgi:app", host=host, port=port, workers=workers, **options)
