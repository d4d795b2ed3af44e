"""Change signals: which games a committed write transaction touched, told to every server process.

A write transaction that changes a game's row, its orders, its members or its
messages signals ``"<game id>:<kind>"`` once per game and kind.  On PostgreSQL
the signal is a ``NOTIFY`` sent inside the same transaction (the database
delivers it at commit, never on rollback) and every process receives it through
its own ``LISTEN`` connection, whichever process made the change.  On SQLite
(one process) it is handed to the process's own listeners after the commit.

A signal carries only the game id and a kind; it says *that* something changed,
never what.  Listeners (the event stream, :mod:`arbitre.server.live`) read what
changed from the database, each for its own reader.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import Session, sessionmaker

from arbitre.store.models import Adjudication, GameRow, Membership, Message, OrderRow, Vote

log = logging.getLogger("arbitre.changes")

CHANNEL = "arbitre_changes"
"""The PostgreSQL ``LISTEN``/``NOTIFY`` channel."""

GAME, ORDERS, MESSAGE, MEMBERS, VOTES = "game", "orders", "message", "members", "votes"
"""Kinds of change: the game row (phase, step, status, deadline), orders and ready switches, press, members,
votes (a ballot marks its vote changed: :func:`arbitre.life.votes.cast`)."""

_KINDS: dict[type, str] = {
    GameRow: GAME,
    Adjudication: GAME,
    OrderRow: ORDERS,
    Message: MESSAGE,
    Membership: MEMBERS,
    Vote: VOTES,
}

Listener = Callable[[int | None, str], None]
"""Called with a game id and a kind; ``(None, "")`` means "anything may have changed" (signals were lost)."""


def parse(payload: str) -> tuple[int, str] | None:
    """``"12:orders"`` → ``(12, "orders")``; ``None`` for anything else."""
    gid, _, kind = payload.partition(":")
    return (int(gid), kind) if gid.isdigit() and len(gid) < 19 else None


def _touched(objects: Iterable[Any]) -> set[tuple[int, str]]:
    out = set()
    for obj in objects:
        kind = _KINDS.get(type(obj))
        gid = obj.id if isinstance(obj, GameRow) else getattr(obj, "game_id", None)
        if kind and isinstance(gid, int):
            out.add((gid, kind))
    return out


class ChangeBus:
    """One process's listeners of change signals, and (on PostgreSQL) the thread that ``LISTEN``s for them."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._after_commit: Callable[[Session, Callable[[], None]], None] = lambda _s, callback: callback()
        self.connected = threading.Event()
        """Set while the ``LISTEN`` connection is up (always set on SQLite)."""
        if not self.postgres:
            self.connected.set()

    # ------------------------------------------------------------ signalling
    def attach(
        self, factory: sessionmaker[Session], after_commit: Callable[[Session, Callable[[], None]], None]
    ) -> None:
        """Signal the games touched by every transaction of sessions made by ``factory``.

        ``after_commit(session, callback)`` runs ``callback`` once the session's transaction has committed.
        """
        self._after_commit = after_commit
        event.listen(factory, "after_flush", self._after_flush)

    def _after_flush(self, session: Session, _context: Any) -> None:
        sent: set[tuple[int, str]] = session.info.setdefault("signalled", set())
        new = _touched([*session.new, *session.dirty, *session.deleted]) - sent
        if not new:
            return
        sent |= new
        if self.postgres:
            # Inside the transaction: delivered at its commit, dropped with its rollback.
            for gid, kind in sorted(new):
                session.connection().execute(select(func.pg_notify(CHANNEL, f"{gid}:{kind}")))
        else:

            def tell() -> None:
                for gid, kind in sorted(new):
                    self.publish(gid, kind)

            self._after_commit(session, tell)

    # ------------------------------------------------------------ listening
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` (from any thread) for every signal; returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)
            if self.postgres and self._thread is None:
                self._stop.clear()
                self._thread = threading.Thread(target=self._listen, name="arbitre-listen", daemon=True)
                self._thread.start()

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def publish(self, game_id: int | None, kind: str) -> None:
        """Hand a signal to this process's listeners."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(game_id, kind)
            except Exception:  # one listener must not starve the others
                log.exception("change listener failed")

    def _listen(self) -> None:
        import psycopg

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    self.publish(None, "")  # signals sent while we were not listening are lost: re-read all
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            signal = parse(note.payload)
                            if signal:
                                self.publish(*signal)
            except Exception:  # the database went away: listen again in a moment
                self.connected.clear()
                log.warning("LISTEN %s: connection lost; retrying", CHANNEL, exc_info=True)
                self._stop.wait(1.0)
        self.connected.clear()

    def close(self) -> None:
        """Stop the ``LISTEN`` thread (if any)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(5)
