"""Engine games read from their stored state (the phase being played, no history), cached per process by
(game id, version)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from arbitre.judge import Game


class GameCache:
    """A small LRU of :class:`Game` objects; a row's ``version`` says whether an entry is current."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> Game | None:
        """The cached game at ``version``, or ``None``.  Treat it as read-only."""
        with self._lock:
            item = self._items.get(game_id)
            if item is None or item[0] != version:
                return None
            self._items.move_to_end(game_id)
            return item[1]

    def put(self, game_id: int, version: int, game: Game) -> None:
        """Remember ``game`` as the state of ``game_id`` at ``version``."""
        with self._lock:
            self._items[game_id] = (version, game)
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """Drop the entry of ``game_id``."""
        with self._lock:
            self._items.pop(game_id, None)


def load_game(cache: GameCache, game_id: int, version: int, data: Any) -> Game:
    """The game of a row: from the cache when current, else read from ``data`` (a mapping or a loader)."""
    game = cache.get(game_id, version)
    if game is None:
        game = Game.from_data(data() if callable(data) else data)
        cache.put(game_id, version, game)
    return game


def working_copy(game: Game) -> Game:
    """A copy of a cached game that may be changed without touching the cached one."""
    return game.copy()
