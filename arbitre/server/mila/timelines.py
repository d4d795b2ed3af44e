"""Where a viewer's MILA timeline stands after any record of a game, read from what was stored with the records.

A viewer's MILA ``influence`` (province → the power that last stood there) and its count of MILA phases are
a fold over the game's records, each record read **through that viewer's allow-list view**
(:mod:`arbitre.interface.mila.influence`).  The fold's value after each record is stored with the record, per
audience, when the record is written (``mila_steps``: :mod:`arbitre.life.milasteps`), so a MILA read of a game
reads one or two of those rows, in any process, at any length of the game: no record is folded and nothing is
kept by the process.  A viewer's rows are built from its own view only and never read for another viewer.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from arbitre.interface.mila.influence import Known
from arbitre.life.milasteps import known_at
from arbitre.rules import RuleSet
from arbitre.store.milasteps import first_with
from arbitre.store.models import GameRow


@dataclass(frozen=True)
class Stored:
    """A viewer's timeline of a game as stored with its ``played`` records (each method reads a row or two)."""

    session: Session
    game_id: int
    rules: RuleSet
    viewer: str
    played: int
    """The game's records."""

    def known(self, k: int) -> Known:
        """Where the timeline stands after records ``0`` to ``k - 1``."""
        return known_at(self.session, self.game_id, self.rules, self.viewer, k)

    def count(self) -> int:
        """The MILA phases of the game's records."""
        return self.known(self.played).visible

    def is_phase(self, k: int) -> bool:
        """Is record ``k`` a MILA phase for this viewer (not a retreat phase nobody could play)?"""
        return self.known(k + 1).visible > self.known(k).visible

    def record_of(self, j: int) -> int:
        """The record of MILA phase ``j`` (``0 <= j < count()``)."""
        found = first_with(self.session, self.game_id, self.viewer, j + 1)
        if found is not None and found < self.played:
            return found
        # a step not stored (never after migration 0019_milastore): the first record whose step counts j + 1
        return next(k for k in range(self.played) if self.known(k + 1).visible == j + 1)


def stored(session: Session, row: GameRow, rules: RuleSet, viewer: str) -> Stored:
    """``viewer``'s timeline of the game of ``row`` (``row.played`` records)."""
    return Stored(session, row.id, rules, viewer, row.played)
