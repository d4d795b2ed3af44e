"""The game row's copy of the engine's state, written in one place.

The engine's phase progress (:class:`arbitre.judge.Progress`, inside :class:`arbitre.judge.Game`) is the one
owner of the position, the step and who is ready.  The game row keeps it as ``data``
(:meth:`arbitre.judge.Game.state_data`, deferred: most reads never load it) and, beside it, three columns
copied from the same value so that lobbies, lists, notification keys and the open step's rows find the
phase and step without loading the engine's state: ``phase``, ``step`` and ``played``.  Nothing else writes
them; they are never read back into the engine (loading reads ``data``).
"""

from __future__ import annotations

from arbitre.judge import Game
from arbitre.store.models import GameRow


def write_state(row: GameRow, game: Game) -> None:
    """Store ``game``'s state on ``row``: the engine's data and the columns copied from it."""
    row.data = game.state_data()
    row.played = game.played
    row.phase = str(game.phase)
    row.step = game.step


def ready_of(game: Game, power: str) -> bool:
    """``power``'s ready switch as the engine's progress holds it (what an open step's row stores)."""
    return power in game.confirmed
