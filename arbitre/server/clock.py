"""Clocks: the server reads time only through one of these, so tests can move time by hand."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Something that tells the time (aware UTC)."""

    def now(self) -> datetime:
        """The current time."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to (tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2030, 1, 1, tzinfo=UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """The clock's time."""
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> datetime:
        """Move the clock forward and return the new time."""
        with self._lock:
            self._now += timedelta(seconds=seconds)
            return self._now
