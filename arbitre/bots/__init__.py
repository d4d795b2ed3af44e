"""House bots: players that see only their power's view and its legal orders.

* :class:`HouseBot` — DumbBot-style province values and order selection, for
  every phase of every map and rule module, deterministic for its seed;
* :class:`HoldBot`, :class:`RandomBot` — the baselines of the strength benchmark;
* :func:`play_game` — play a game with bots in some or all seats.
"""

from __future__ import annotations

from collections.abc import Callable

from arbitre.bots.baselines import HoldBot, RandomBot
from arbitre.bots.house import Bot, HouseBot
from arbitre.bots.runner import bot_step, play_game, play_phase

BOTS: dict[str, Callable[[int], Bot]] = {"house": HouseBot, "hold": HoldBot, "random": RandomBot}
"""Bot kinds by name (for the command line and the server)."""


def make_bot(kind: str = "house", seed: int = 0) -> Bot:
    """A bot of ``kind`` (``house``, ``hold`` or ``random``) with ``seed``."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; known: {', '.join(sorted(BOTS))}")
    return BOTS[kind](seed)


__all__ = ["BOTS", "Bot", "HoldBot", "HouseBot", "RandomBot", "bot_step", "make_bot", "play_game", "play_phase"]
