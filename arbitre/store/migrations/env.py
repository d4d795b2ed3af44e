"""Alembic environment: migrates the connection handed over by :func:`arbitre.store.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from arbitre.store.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    """Run the migrations on the given connection, or on a fresh engine from the URL."""
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
