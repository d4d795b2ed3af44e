"""Per-game facts cached per process, keyed by the game's ``generation``.

A page about a game reads many small things besides the game's row: its members and their names, the
orders of the step, the votes, the bot seats, the ending settings, the number of messages a reader may
read.  Every write transaction that changes a row belonging to a game (a row with a ``game_id``, a ballot
of one of its votes, or the game's own row) also adds one to ``games.generation`` in the same transaction
(:func:`track_generations`).  So within a read snapshot, ``(game id, generation)`` names exactly one state
of all those rows, in every process: a read that finds an entry for the generation its snapshot sees
may use it, whichever process made the change, with no signal to wait for and no time limit.

Unlike ``version`` (which grows only when the game's board or clock changes, and is shown in map URLs),
``generation`` is never shown to anyone: it grows with hidden changes too (another power's orders).

Only read-only sessions (:meth:`Database.reading`) use the cache; a write transaction always reads the
database.  Cached values are shared between threads: callers treat them as read-only.  Rows written by a
bulk ``UPDATE``/``DELETE`` statement (outside the unit of work) would not be seen here: game tables are
written through the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, event, select, update
from sqlalchemy.orm import Session

from arbitre.caching import LRU
from arbitre.store.models import Ballot, Delivery, DraftRow, GameRow, Notification, Vote

T = TypeVar("T")

FACTS_KEY = "arbitre_facts"
"""Where a read session carries its database's :class:`FactCache` (``session.info``)."""
_BUMPED = "arbitre_generation_bumped"
_NOT_GAME_STATE = (Notification, Delivery, DraftRow)
"""Rows with a ``game_id`` that are a user's, not the game's (the outbox, a player's draft): writing them changes
no cached fact of the game (a draft is read uncached, by its player only)."""


class FactCache:
    """A bounded LRU of per-game facts (an :class:`~arbitre.caching.LRU`), each kept under its game, its
    generation and its key: an older generation's facts are never found again and age out."""

    def __init__(self, size: int = 4096) -> None:
        self._lru: LRU[tuple[int, int, Hashable], Any] = LRU(size)

    def get(self, game_id: int, generation: int, key: Hashable, load: Callable[[], T]) -> T:
        """The fact ``key`` of the game at ``generation``: cached, else ``load()`` (then kept)."""
        value: T = self._lru.get_or_make((game_id, generation, key), load)
        return value

    def clear(self) -> None:
        """Forget everything."""
        self._lru.clear()


def fact(session: Session, row: GameRow, key: Hashable, load: Callable[[], T]) -> T:
    """The fact ``key`` about ``row``'s game, from the cache of a read session (else just ``load()``)."""
    cache: FactCache | None = session.info.get(FACTS_KEY)
    generation = row.__dict__.get("generation")
    if cache is None or generation is None:
        return load()
    return cache.get(row.id, generation, key, load)


def _bump(session: Session, _context: Any) -> None:
    """After each flush: add one to the generation of every game whose rows it wrote (once per transaction)."""
    games: set[int] = set()
    votes: set[int] = set()
    for obj in [*session.new, *session.dirty, *session.deleted]:
        if isinstance(obj, GameRow):
            if obj.id is not None and obj not in session.new:
                games.add(obj.id)
        elif isinstance(obj, Ballot):
            votes.add(obj.vote_id)
        elif not isinstance(obj, _NOT_GAME_STATE):
            gid = getattr(obj, "game_id", None)
            if isinstance(gid, int):
                games.add(gid)
    done: set[tuple[str, int]] = session.info.setdefault(_BUMPED, set())
    games = {g for g in games if ("game", g) not in done}
    votes = {v for v in votes if ("vote", v) not in done}
    if not games and not votes:
        return
    done.update(("game", g) for g in games)
    done.update(("vote", v) for v in votes)
    chosen: ColumnElement[bool] = GameRow.id.in_(sorted(games))
    if votes:
        chosen = chosen | GameRow.id.in_(select(Vote.game_id).where(Vote.id.in_(sorted(votes))))
    session.connection().execute(update(GameRow).where(chosen).values(generation=GameRow.generation + 1))


def _forget(session: Session, *_args: Any) -> None:
    session.info.pop(_BUMPED, None)


def track_generations() -> None:
    """Make every ORM session of this process keep ``games.generation`` (idempotent)."""
    if not event.contains(Session, "after_flush", _bump):
        event.listen(Session, "after_flush", _bump)
        event.listen(Session, "after_transaction_end", _forget)
