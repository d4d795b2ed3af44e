"""The site benches' databases: run one load on SQLite, on a fresh PostgreSQL database, or on both.

Shared by ``bench_server.py`` and ``bench_load.py``: each passes its own ``run(backend, db_url, args, workdir)``.
"""

from __future__ import annotations

import argparse
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any


def pg_database(admin_url: str) -> tuple[str, Any]:
    """A fresh PostgreSQL database for the run, and a function that drops it."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = make_url(admin_url)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    name = f"arbitre_bench_{uuid.uuid4().hex[:8]}"
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()

    return url.set(database=name).render_as_string(hide_password=False), drop


def each_backend(args: argparse.Namespace, run: Callable[[str, str, argparse.Namespace, Path], Any]) -> list[Any]:
    """``run`` on the backends ``args.backend`` names (``sqlite``, ``postgresql`` or ``both``), in a scratch
    folder; PostgreSQL on a database made for the run (from ``args.postgres_url``) and dropped after it."""
    results: list[Any] = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if args.backend in ("sqlite", "both"):
            results.append(run("sqlite", f"sqlite:///{workdir / 'bench.sqlite3'}", args, workdir))
        if args.backend in ("postgresql", "both"):
            if not args.postgres_url:
                print("postgresql: skipped (no --postgres-url / ARBITRE_TEST_POSTGRES_URL)")
            else:
                db_url, drop = pg_database(args.postgres_url)
                try:
                    results.append(run("postgresql", db_url, args, workdir))
                finally:
                    drop()
    return results
