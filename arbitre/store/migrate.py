"""Run the Alembic migrations programmatically (``arbitre serve`` does it at start)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from arbitre.store.db import Database

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(db: Database) -> Config:
    """An Alembic configuration pointing at the package's migrations and at ``db``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", db.url.replace("%", "%%"))
    return cfg


def migrate(db: Database, revision: str = "head") -> None:
    """Upgrade the schema of ``db`` to ``revision`` (idempotent)."""
    cfg = alembic_config(db)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        conn.commit()
