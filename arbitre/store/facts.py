"""Per-game facts cached per process, each keyed by the versions of exactly the topics it reads.

A page about a game reads many small things besides the game's row: its members and their names, the
orders of the step, the votes, the bot seats, the ending settings, the conversations a reader may read.
Each is a *fact* read through :func:`fact`, which names the *topics* the fact reads (``seats``, ``votes``,
``orders:FRANCE``, ``press:GERMANY``…, see :func:`topics_of`).

Every write transaction that changes a row belonging to a game also, in the same transaction and the same
statement (:func:`track_generations`):

- adds one to ``games.generation`` (once per transaction; the compare-and-set key of :mod:`arbitre.life.turns`,
  which grows with hidden changes too and is never shown), and
- stamps each topic the flush wrote with that new generation in ``games.topics`` (a JSON object, topic →
  stamp).  The row is locked by the update, so two transactions never give one topic the same stamp.

A fact is kept under ``(game id, key, the stamps of its topics)``.  Within a read snapshot those stamps name
exactly one state of the rows the fact reads, in every process, with no signal to wait for.  And since a
reader's facts read only topics that reader may see (France's conversations read ``press:*`` and
``press:FRANCE``, never ``press:GERMANY``; her own orders ``orders:FRANCE``), a change she may not see (a
private message between two others, another power's orders) stamps no topic her facts read: her next page
finds every fact kept, and costs the same work as if nothing had happened.  Rows that are a user's own (read
marks, the outbox, a player's draft) stamp nothing; a table this module does not know stamps ``misc``, which
every fact reads (correct, if not quiet, until it is given its own topic).

Only read-only sessions (:meth:`Database.reading`) use the cache; a write transaction always reads the
database.  Cached values are shared between threads: callers treat them as read-only.  Rows written by a
bulk ``UPDATE``/``DELETE`` statement (outside the unit of work) would not be seen here: game tables are
written through the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from sqlalchemy import bindparam, event, select, text
from sqlalchemy import inspect as inspect_row
from sqlalchemy.orm import Session

from arbitre.caching import LRU
from arbitre.store.models import GameRow, Vote

T = TypeVar("T")

FACTS_KEY = "arbitre_facts"
"""Where a read session carries its database's :class:`FactCache` (``session.info``)."""
_BUMPED = "arbitre_generation_bumped"
MISC = "misc"
"""The topic of a game table this module does not know: every fact reads it."""
_NO_TOPIC = frozenset({"message_reads", "notifications", "deliveries", "order_drafts"})
"""Tables with a ``game_id`` whose rows are a user's, not the game's (read marks, the outbox, a player's draft,
read uncached by their owner only): writing them changes no fact of the game."""
_NO_GENERATION = frozenset({"notifications", "deliveries", "order_drafts"})
"""Tables with a ``game_id`` whose writes do not even move the generation (nothing of the game's state)."""
_TABLE_TOPIC = {
    "games": "game",
    "memberships": "seats",
    "bot_seats": "bots",
    "bot_settings": "bots",
    "game_endings": "ending",
    "votes": "votes",
    "ballots": "votes",
}
_QUIET_COLUMNS = {"games": frozenset({"generation", "topics"}), "bot_seats": frozenset({"acted"})}
"""Columns whose change alone stamps nothing: the counters kept here, and the step a bot last acted in (never
shown; it moves when a bot gives orders, which is another power's business)."""


def orders_topic(power: str) -> str:
    """The topic of one power's order rows (only that power and the master may read them)."""
    return f"orders:{power}"


def press_topic(party: str) -> str:
    """The topic of the messages ``party`` is one of the parties of (``*``: the public ones)."""
    return f"press:{party}"


def press_topics(reader: str, master: str) -> tuple[str, ...]:
    """The topics of the messages ``reader`` may read: the master reads every message (``press``), anyone
    else the public ones and those it is a party to."""
    return ("press",) if reader == master else (press_topic("*"), press_topic(reader))


def topics_of(obj: Any) -> set[str]:
    """The topics a write of the ORM row ``obj`` stamps (empty: none).  A message stamps ``press`` and each
    of its parties' topics; an order row ``orders`` (every power's, for the master and shown progress) and its
    power's; other tables one topic each (:data:`_TABLE_TOPIC`), or :data:`MISC` when unknown."""
    table = getattr(obj, "__tablename__", "")
    if table in _NO_TOPIC:
        return set()
    quiet = _QUIET_COLUMNS.get(table)
    if quiet is not None and _only_changed(obj, quiet):
        return set()
    if table == "messages":
        parties = [p for p in str(obj.parties).split(",") if p]
        return {"press", *(press_topic(p) for p in parties)}
    if table == "orders":
        return {"orders", orders_topic(str(obj.power))}
    return {_TABLE_TOPIC.get(table, MISC)}


def _only_changed(obj: Any, columns: frozenset[str]) -> bool:
    """Is ``obj`` an existing row whose net changes are all in ``columns``?"""
    state = inspect_row(obj)
    if state.pending or state.deleted or state.was_deleted or not state.has_identity:
        return False
    changed = {a.key for a in state.attrs if a.history.has_changes()}
    return changed <= columns


class FactCache:
    """A bounded LRU of per-game facts (an :class:`~arbitre.caching.LRU`), each kept under its game, its key
    and the stamps of the topics it reads: a fact whose topics moved is never found again and ages out."""

    def __init__(self, size: int = 4096) -> None:
        self._lru: LRU[tuple[int, Hashable, tuple[int, ...]], Any] = LRU(size)
        self.loads = 0
        """How many facts were loaded (not found kept); a test reads it."""

    def get(self, game_id: int, stamps: tuple[int, ...], key: Hashable, load: Callable[[], T]) -> T:
        """The fact ``key`` of the game whose topics have ``stamps``: cached, else ``load()`` (then kept)."""
        value: T = self._lru.get_or_make((game_id, key, stamps), lambda: self._load(load))
        return value

    def _load(self, load: Callable[[], T]) -> T:
        self.loads += 1  # a counter for tests, not a lock-guarded total: a lost increment only undercounts
        return load()

    def clear(self) -> None:
        """Forget everything."""
        self._lru.clear()


def stamps_of(row: GameRow, topics: Iterable[str]) -> tuple[int, ...] | None:
    """The stamps of ``topics`` (and :data:`MISC`) in the game row as loaded (``None``: not loaded)."""
    if "topics" not in row.__dict__:
        return None
    found = row.__dict__["topics"] or {}
    return tuple(int(found.get(t, 0)) for t in (*topics, MISC))


def fact(session: Session, row: GameRow, key: Hashable, reads: Iterable[str], load: Callable[[], T]) -> T:
    """The fact ``key`` about ``row``'s game, which reads the topics ``reads`` (and only them), from the cache
    of a read session (else just ``load()``)."""
    cache: FactCache | None = session.info.get(FACTS_KEY)
    if cache is None:
        return load()
    stamps = stamps_of(row, reads)
    if stamps is None:
        return load()
    return cache.get(row.id, stamps, key, load)


def _bump(session: Session, _context: Any) -> None:
    """After each flush: for every game whose rows it wrote, add one to its generation (once per transaction)
    and stamp the topics written with the new generation, in one statement per game."""
    written: dict[int, set[str]] = {}
    votes: dict[int, set[str]] = {}
    for obj in [*session.new, *session.dirty, *session.deleted]:
        if isinstance(obj, GameRow):
            if obj.id is None or obj in session.new:
                continue  # a new game: nothing of it is cached
            gid: Any = obj.id
        elif getattr(obj, "__tablename__", "") == "ballots":
            votes.setdefault(obj.vote_id, set()).update(topics_of(obj))
            continue
        elif getattr(obj, "__tablename__", "") in _NO_GENERATION:
            continue
        else:
            gid = getattr(obj, "game_id", None)
        if isinstance(gid, int):
            written.setdefault(gid, set()).update(topics_of(obj))
    if votes:
        found = session.connection().execute(select(Vote.id, Vote.game_id).where(Vote.id.in_(sorted(votes))))
        for vote_id, gid in found:
            written.setdefault(gid, set()).update(votes[vote_id])
    done: dict[int, set[str]] = session.info.setdefault(_BUMPED, {})
    for gid, topics in sorted(written.items()):
        first = gid not in done
        fresh = topics - done.get(gid, set())
        if not first and not fresh:
            continue
        done.setdefault(gid, set()).update(fresh)
        _stamp(session, gid, sorted(fresh), 1 if first else 0)


def _stamp(session: Session, game_id: int, topics: list[str], add: int) -> None:
    """Add ``add`` to the game's generation and set each of ``topics`` to the (new) generation, in one
    statement: its right-hand sides read the row as it was, so ``generation + add`` is the new value."""
    conn = session.connection()
    params: dict[str, Any] = {"gid": game_id, "add": add}
    names = []
    for i, topic in enumerate(topics):
        params[f"t{i}"] = topic
        names.append(f":t{i}")
    if not topics:
        sql = "UPDATE games SET generation = generation + :add WHERE id = :gid"
    elif conn.dialect.name == "postgresql":
        pairs = ", ".join(f"CAST({n} AS text), generation + :add" for n in names)
        sql = (
            "UPDATE games SET generation = generation + :add, "
            f"topics = COALESCE(topics, '{{}}'::jsonb) || jsonb_build_object({pairs}) WHERE id = :gid"
        )
    else:
        pairs = ", ".join(f"{n}, generation + :add" for n in names)
        sql = (
            "UPDATE games SET generation = generation + :add, "
            f"topics = json_patch(COALESCE(topics, '{{}}'), json_object({pairs})) WHERE id = :gid"
        )
    stmt = text(sql).bindparams(*(bindparam(k) for k in params))
    conn.execute(stmt, params)


def _forget(session: Session, *_args: Any) -> None:
    session.info.pop(_BUMPED, None)


def track_generations() -> None:
    """Make every ORM session of this process keep ``games.generation`` and ``games.topics`` (idempotent)."""
    if not event.contains(Session, "after_flush", _bump):
        event.listen(Session, "after_flush", _bump)
        event.listen(Session, "after_transaction_end", _forget)
