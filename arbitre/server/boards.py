"""Drawn boards cached per process, keyed by a digest of exactly what the renderer is given.

Drawing a board (:func:`arbitre.render.render_svg`) is about half of a game page's CPU.  The picture is a
pure function of its inputs: the :class:`~arbitre.views.View` (built for one viewer by the engine's
allow-list), the language of its words, whether it carries a legend and the form it is wanted in (a map
document, or the copy put inside a page).  The geometry, palettes and word catalogues are fixed files
loaded once per process.

So the key is the SHA-256 of the ``repr`` of those inputs.  A view holds only plain data (strings,
numbers, ``None``, booleans, tuples, lists and dicts, in the canonical order its ``__post_init__`` sets),
whose ``repr`` is injective: two inputs that differ in anything, hidden or not, give different keys.  No
game id, version or viewer name enters the key, so two viewers can share an entry only when their views
are equal, in which case their drawings are too.  Nothing a viewer may not see can be reached through
the cache: an entry is found only by presenting the very view it was drawn from.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from arbitre.caching import LRU
from arbitre.views import View


def board_key(view: View, lang: str, form: str) -> bytes:
    """The cache key of a drawing: a digest of the whole view, the language and the form (``svg``/``inline``)."""
    return hashlib.sha256(repr((form, lang, view)).encode()).digest()


class BoardCache:
    """A bounded LRU of drawn boards (text), safe to share between request threads (an :class:`~arbitre.caching.LRU`)."""

    def __init__(self, size: int = 256) -> None:
        self._lru: LRU[bytes, str | None] = LRU(size)  # never holds None: see get

    @property
    def size(self) -> int:
        """The most drawings kept."""
        return self._lru.size

    @property
    def hits(self) -> int:
        """How many drawings were found kept."""
        return self._lru.hits

    @property
    def misses(self) -> int:
        """How many drawings were not found kept."""
        return self._lru.misses

    def get(self, key: bytes, draw: Callable[[], str | None]) -> str | None:
        """The drawing under ``key``: cached, else ``draw()`` (kept unless it is ``None``: no renderer)."""
        # drawn outside the lock: two threads may draw the same board once each, never wrongly
        return self._lru.get_or_make(key, draw, keep=lambda drawn: drawn is not None)

    def clear(self) -> None:
        """Forget every drawing."""
        self._lru.clear()

    def __len__(self) -> int:
        """How many drawings are kept."""
        return len(self._lru)


BOARDS = BoardCache()
"""The process's drawn boards (the key holds every input, so one cache serves every site of the process)."""
