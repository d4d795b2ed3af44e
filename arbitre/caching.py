"""One bounded, thread-safe, keyed LRU for the process caches (drawn boards, rendered pages, game facts).

:class:`LRU` keeps at most ``size`` entries; reading or writing an entry makes it the most recently used, and
adding one past the bound forgets the least recently used.  Every operation holds one lock, so request threads
may share an instance.  :meth:`LRU.get_or_make` makes a missing value *outside* the lock (two threads may make
the same value once each; both results are equal, the later one is kept), so one slow maker never blocks the
other readers.  Values are shared between threads: callers treat them as read-only.

The module imports nothing of arbitre, so every layer (the store, the server) may use it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")


class LRU(Generic[K, V]):
    """A bounded least-recently-used map from keys to values, safe to share between threads."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"an LRU keeps at least one entry, not {size}")
        self.size = size
        """The most entries kept."""
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        """How many look-ups found their key."""
        self.misses = 0
        """How many look-ups did not find their key."""

    def get(self, key: K, default: D) -> V | D:
        """The value under ``key`` (now the most recently used), else ``default``."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            self.misses += 1
            return default

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` as the most recently used, forgetting the least recently used past the bound."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V], keep: Callable[[V], bool] = lambda _v: True) -> V:
        """The value under ``key``, else ``make()`` (called outside the lock), kept when ``keep`` says so."""
        missing = _MISSING
        found = self.get(key, missing)
        if found is not missing:
            return found  # type: ignore[return-value]  # not the sentinel, so a V
        made = make()
        if keep(made):
            self.put(key, made)
        return made

    def discard(self, key: K) -> None:
        """Forget the entry under ``key`` if there is one."""
        with self._lock:
            self._items.pop(key, None)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._items.clear()

    def keys(self) -> list[K]:
        """The keys kept, least recently used first (a copy)."""
        with self._lock:
            return list(self._items)

    def __contains__(self, key: object) -> bool:
        """Is an entry kept under ``key`` (not a use: the order does not change)?"""
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        """How many entries are kept."""
        with self._lock:
            return len(self._items)


class _Missing:
    """The sentinel type of a key not found (a value may be ``None``)."""


_MISSING = _Missing()
