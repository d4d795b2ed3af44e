"""Persistence: SQLAlchemy models, Alembic migrations and the repository the server uses.

SQLite (a file) by default, PostgreSQL when ``ARBITRE_DATABASE_URL`` points at one.
Every change to a game happens inside one transaction that holds the game's row
lock, so an adjudication and all it changes commit together or not at all.
"""

from arbitre.store.db import Database, database_url, open_database
from arbitre.store.migrate import migrate

__all__ = ["Database", "database_url", "migrate", "open_database"]
