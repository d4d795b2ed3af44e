"""Where each viewer's MILA timeline stands after each record of a game, kept by this process so that a MILA
read right after a phase reads that phase's record only (not every record of the game).

A viewer's MILA ``influence`` (province → the power that last stood there) and its count of MILA phases are
a fold over the game's records, each record read **through that viewer's allow-list view**
(:func:`arbitre.judge.game.record_view`): :func:`arbitre.server.mila.board.advance`.  Records are written
once and never changed, so the fold's value after record ``k`` never changes either; this module keeps it,
keyed by (database, game, the game's creation time, viewer), and extends it with the records played since it
was last read.  The viewer is part of the key: one viewer's entry is never read for another (a power's
influence comes only from the units that power may see).  The game's creation time guards against a game id
reused after a deletion.  A new process starts empty and folds a game's records once at its first MILA read.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy.orm import Session

from arbitre.judge import Game
from arbitre.judge.game import record_from_data, record_view
from arbitre.maps import GameMap
from arbitre.server.mila import board
from arbitre.store import Database
from arbitre.store.models import GameRow
from arbitre.store.records import played_records

MAX_TIMELINES = 1024
"""(game, viewer) pairs kept at most (the least recently read are forgotten first)."""


@dataclass(frozen=True)
class Step:
    """A viewer's timeline after some records, compactly: the MILA phases counted and the influence as one
    byte a province (0: nobody, ``i``: the ``i``-th power of the map, sorted)."""

    visible: int
    influence: bytes


Key = tuple[int, int, int, str]
"""(the database's number in this process, game id, the game's creation in microseconds, viewer)."""
_STEPS: OrderedDict[Key, tuple[Step, ...]] = OrderedDict()
_DATABASES: set[int] = set()
_LOCK = threading.RLock()  # reentrant: a database collected while the lock is held drops its entries under it


def _database(db: Database) -> int:
    """The number of ``db`` in this process; its timelines are dropped with it (before its number can be reused)."""
    number = id(db)
    with _LOCK:
        if number not in _DATABASES:
            _DATABASES.add(number)
            weakref.finalize(db, _drop, number)
    return number


def _drop(number: int) -> None:
    with _LOCK:
        _DATABASES.discard(number)
        for key in [k for k in _STEPS if k[0] == number]:
            del _STEPS[key]


def _encode(gmap: GameMap, known: board.Known) -> Step:
    powers = sorted(gmap.powers)
    return Step(
        known.visible,
        bytes(powers.index(p) + 1 if (p := known.influence.get(prov)) else 0 for prov in sorted(gmap.provinces)),
    )


def _decode(gmap: GameMap, played: int, step: Step) -> board.Known:
    powers = sorted(gmap.powers)
    influence = {prov: powers[b - 1] for prov, b in zip(sorted(gmap.provinces), step.influence, strict=True) if b}
    return board.Known(played, step.visible, influence)


def key_of(db: Database, row: GameRow, viewer: str) -> Key:
    """The cache key of ``viewer``'s timeline of the game of ``row``."""
    return (_database(db), row.id, board.micros(row.created_at), viewer)


@dataclass(frozen=True)
class Fold:
    """A viewer's timeline after each record of a game: :meth:`known` ``(k)`` after records ``0`` to ``k - 1``."""

    gmap: GameMap
    steps: tuple[Step, ...]

    @property
    def played(self) -> int:
        """The records folded."""
        return len(self.steps) - 1

    def visible(self, k: int) -> int:
        """The MILA phases among records ``0`` to ``k - 1``."""
        return self.steps[k].visible

    def known(self, k: int) -> board.Known:
        """Where the timeline stands after records ``0`` to ``k - 1``."""
        return _decode(self.gmap, k, self.steps[k])


def fold(session: Session, db: Database, row: GameRow, game: Game, viewer: str) -> Fold:
    """``viewer``'s timeline after each record of the game (``row.played`` records).  Only the records played
    since this process last folded them are read (all of them at a game's first MILA read in this process)."""
    gmap = game.rules.game_map
    key = key_of(db, row, viewer)
    with _LOCK:
        kept = _STEPS.get(key)
        if kept is not None:
            _STEPS.move_to_end(key)
    if kept is None or len(kept) > row.played + 1:  # a game is never shortened: start afresh if it seems so
        kept = (_encode(gmap, board.Known(0, 0, board.start_influence(gmap))),)
    if len(kept) < row.played + 1:
        known = _decode(gmap, len(kept) - 1, kept[-1])
        added = []
        for data in played_records(session, row.id, len(kept) - 1, row.played):
            known = board.advance(known, record_view(game.rules, record_from_data(game.rules, data), viewer), gmap)
            added.append(_encode(gmap, known))
        kept = (*kept, *added)
        with _LOCK:
            if len(_STEPS.get(key, ())) < len(kept):
                _STEPS[key] = kept
                _STEPS.move_to_end(key)
            while len(_STEPS) > MAX_TIMELINES:
                _STEPS.popitem(last=False)
    return Fold(gmap, kept)


def forget() -> None:
    """Forget every timeline (tests, benches: a new process)."""
    with _LOCK:
        _STEPS.clear()


def rewind(records: int) -> None:
    """Forget the last ``records`` records of every kept timeline (benches: where the timelines stood that many
    phases ago, so that the next read folds them again as the first read after a phase does)."""
    with _LOCK:
        for key, kept in list(_STEPS.items()):
            _STEPS[key] = kept[: max(1, len(kept) - records)]
