"""The game row's copy of the engine's state, written in one place.

The engine's phase progress (:class:`arbitre.judge.Progress`, inside :class:`arbitre.judge.Game`) is the one
owner of the position, the step and who is ready.  The game row keeps it as ``data``
(:meth:`arbitre.judge.Game.state_data`, deferred: most reads never load it) and, beside it, three columns
copied from the same value so that lobbies, lists, notification keys and the open step's rows find the
phase and step without loading the engine's state: ``phase``, ``step`` and ``played``.  Nothing else writes
them; they are never read back into the engine (loading reads ``data``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arbitre.judge import ORDERS, Game
from arbitre.store.models import GameRow


def write_state(row: GameRow, game: Game) -> None:
    """Store ``game``'s state on ``row``: the engine's data and the columns copied from it.

    What a lock revealed to whom is not kept here: the lock's record holds it (:func:`state_of` reads it
    back), so there is one stored copy of it."""
    data = game.state_data()
    data.pop("lock_events", None)
    row.data = data
    row.played = game.played
    row.phase = str(game.phase)
    row.step = game.step


def state_of(data: Mapping[str, Any], lock: Mapping[str, Any] | None) -> dict[str, Any]:
    """The engine's state of a game row (its ``data``) with what the phase's lock revealed, read from the lock's
    record (``lock``: :func:`arbitre.store.records.lock_record`; ``None`` while no step of the phase locked)."""
    out = {k: v for k, v in data.items() if k != "lock_events"}
    if lock is not None and out.get("step", ORDERS) != ORDERS:
        out["lock_events"] = list(lock.get("lock_events", []))
    return out


def ready_of(game: Game, power: str) -> bool:
    """``power``'s ready switch as the engine's progress holds it (what an open step's row stores)."""
    return power in game.confirmed
