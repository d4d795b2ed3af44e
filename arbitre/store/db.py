"""Engines and transactions: SQLite (WAL, immediate write transactions) or PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from arbitre.store.changes import ChangeBus
from arbitre.store.facts import FACTS_KEY, FactCache, track_generations
from arbitre.store.logins import LoginCache, track_user_revisions
from arbitre.store.outbox import OutboxHook

DEFAULT_SQLITE = "arbitre.sqlite3"
"""File name of the embedded database when no URL is configured."""


def database_url(explicit: str | None = None) -> str:
    """The database URL: ``explicit``, else ``ARBITRE_DATABASE_URL``, else a SQLite file in the cwd."""
    url = explicit or os.environ.get("ARBITRE_DATABASE_URL") or f"sqlite:///{Path(DEFAULT_SQLITE).resolve()}"
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _sqlite_engine(url: str, pool_size: int) -> Engine:
    # A file database keeps as many idle connections as the process's request threads use at once: a connection
    # closed when the pool is full is opened again on the next request, and each opening costs its pragmas and
    # SQLite's reading of the schema.
    pooled = {"pool_size": pool_size, "max_overflow": 20} if _sqlite_file(url) else {}
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 60}, **pooled)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=60000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _sqlite_file(url: str) -> bool:
    """Is ``url`` a SQLite database in a file (pooled like a server's), not one in memory?"""
    path = url.split("://", 1)[1].lstrip("/")
    return bool(path) and ":memory:" not in path and "mode=memory" not in path


class UnstorableText(ValueError):
    """A value that could not be read back once stored (lone surrogates, ``NUL``): nothing is committed."""

    def __init__(self, where: str) -> None:
        super().__init__(f"{where}: this text cannot be stored (invalid Unicode or a NUL character)")
        self.where = where


def _readable(value: Any) -> bool:
    if isinstance(value, str):
        text = value
    elif isinstance(value, (dict, list)):
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            return True  # not JSON: the column type will say so
    else:
        return True
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_flush(session: Session, _context: Any, _instances: Any) -> None:
    """Refuse to write a row holding text that could not be read back (so one bad request cannot break
    every later read of a game, its pages, its history or the game list)."""
    for obj in list(session.new) + list(session.dirty):
        table = getattr(obj, "__tablename__", type(obj).__name__)
        for name, value in vars(obj).items():  # loaded attributes only (never loads a deferred column)
            if not name.startswith("_") and not _readable(value):
                raise UnstorableText(f"{table}.{name}")


class FairLock:
    """A lock granted in arrival order (first come, first served)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiters: deque[threading.Lock] = deque()
        self._held = False

    def __enter__(self) -> None:
        with self._mutex:
            if not self._held:
                self._held = True
                return
            gate = threading.Lock()
            gate.acquire()
            self._waiters.append(gate)
        gate.acquire()  # released by the previous holder, which hands the lock over

    def __exit__(self, *exc: object) -> None:
        with self._mutex:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._held = False


@dataclass
class Database:
    """One database: an engine and the two kinds of sessions the repository opens."""

    url: str
    engine: Engine

    @property
    def is_sqlite(self) -> bool:
        """True for the embedded SQLite database."""
        return self.engine.dialect.name == "sqlite"

    def __post_init__(self) -> None:
        write_bind = self.engine.execution_options(sqlite_begin="IMMEDIATE") if self.is_sqlite else self.engine
        # A read sees one snapshot from its first statement to its end (SQLite's read transactions always do):
        # a game's row and its engine state, read by two statements, then always belong together.
        read_bind = self.engine if self.is_sqlite else self.engine.execution_options(isolation_level="REPEATABLE READ")
        self._read = sessionmaker(read_bind, expire_on_commit=False)
        self._write = sessionmaker(write_bind, expire_on_commit=False)
        event.listen(self._write, "before_flush", _check_flush)
        self._writer_lock: FairLock | contextlib.nullcontext[None] = (
            FairLock() if self.is_sqlite else contextlib.nullcontext()
        )
        self.changes = ChangeBus(self.engine)
        """Which games committed transactions touched, told to this process (see :mod:`arbitre.store.changes`)."""
        self.changes.attach(self._write, Database.after_commit)
        # Notifications of what a write transaction changed are written in it, just before it commits.
        self.outbox = OutboxHook()
        """Writes notifications in the transactions that make the changes (see :mod:`arbitre.store.outbox`)."""
        self.outbox.attach(self._write)
        # Every write keeps games.generation, which keys the per-process cache of what pages read about a game.
        track_generations()
        self.facts = FactCache()
        """Per-game facts of this database, for read sessions (see :mod:`arbitre.store.facts`)."""
        track_user_revisions()
        self.logins = LoginCache()
        """Who each credential names and the users' rows, checked by every lookup (see :mod:`arbitre.store.logins`)."""
        self.open_writes = 0
        """How many write transactions of this process are open now (SQLite lets one at a time hold the writer)."""
        self._count_lock = threading.Lock()

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A read-only transaction on one snapshot, ended (never committed) when the block ends; loaded objects stay
        readable."""
        with self._read() as session:
            session.info[FACTS_KEY] = self.facts
            yield session

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A write transaction: committed when the block ends, rolled back on any exception.

        On SQLite it starts with ``BEGIN IMMEDIATE`` (the write lock is taken at once,
        so two writers never deadlock on an upgrade); on PostgreSQL game rows are
        locked with ``SELECT … FOR UPDATE`` by the repository.
        """
        with self._write() as session:
            with self._count_lock:
                self.open_writes += 1
            try:
                with session.begin():
                    yield session
            finally:
                with self._count_lock:
                    self.open_writes -= 1
            for callback in session.info.pop("after_commit", []):
                callback()

    @staticmethod
    def after_commit(session: Session, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the write transaction of ``session`` has committed (never on rollback)."""
        session.info.setdefault("after_commit", []).append(callback)

    def dispose(self) -> None:
        """Stop listening for changes and close every pooled connection."""
        self.changes.close()
        self.engine.dispose()


def open_database(url: str | None = None, *, pool_size: int = 10) -> Database:
    """Open (without migrating) the database at ``url`` (see :func:`database_url`)."""
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = _sqlite_engine(url, pool_size)
    else:
        engine = create_engine(url, pool_size=pool_size, max_overflow=20, pool_recycle=1800)
    return Database(url, engine)
