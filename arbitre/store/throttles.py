"""Throttle counters in the database, so that every server process counts against the same limits.

A limit is "at most ``limit`` attempts in ``window`` seconds" for one key (an
address, an account at an address, a game…).  Time is cut into windows of
``window`` seconds (window number ``floor(seconds since the epoch / window)``);
each key keeps one row: its current window's number, the attempts let through
in it (``n``) and in the window before (``prev``).  An attempt is let through
only while ``n + prev < limit``, so the attempts let through in any two
consecutive windows, and so in any ``window`` seconds, are at most ``limit``.

Each attempt is one atomic ``INSERT … ON CONFLICT DO UPDATE … WHERE`` (SQLite
and PostgreSQL): the row is rolled forward to the attempt's window and counted
in the same statement, or left alone when the attempt is refused (nothing is
returned then).  A process whose clock lags (its window is older than the row's)
is counted in the row's window, never in a past one: a closed window's count
never grows, which is what the bound needs.  A refused attempt is not counted.

:func:`give_back` uncounts an attempt (a login that turned out right is not a
failure).  Dead rows (older than two windows) are deleted now and then.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.orm import Session

MAX_KEY = 200
"""Longest key (the column's length)."""

_TAKE = text(
    """
    INSERT INTO throttle_counts (key, bucket, n, prev, until) VALUES (:key, :b, 1, 0, :until)
    ON CONFLICT (key) DO UPDATE SET
      n = CASE WHEN throttle_counts.bucket >= :b THEN throttle_counts.n + 1 ELSE 1 END,
      prev = CASE WHEN throttle_counts.bucket >= :b THEN throttle_counts.prev
                  WHEN throttle_counts.bucket = :b - 1 THEN throttle_counts.n ELSE 0 END,
      until = CASE WHEN throttle_counts.bucket >= :b THEN throttle_counts.until ELSE :until END,
      bucket = CASE WHEN throttle_counts.bucket >= :b THEN throttle_counts.bucket ELSE :b END
    WHERE (CASE WHEN throttle_counts.bucket >= :b THEN throttle_counts.n + throttle_counts.prev
                WHEN throttle_counts.bucket = :b - 1 THEN throttle_counts.n ELSE 0 END) < :limit
    RETURNING bucket
    """
)
_GIVE_BACK = text("UPDATE throttle_counts SET n = n - 1 WHERE key = :key AND bucket = :b AND n > 0")
_PEEK = text("SELECT bucket, n, prev FROM throttle_counts WHERE key = :key")
_SWEEP = text("DELETE FROM throttle_counts WHERE until < :now")


@dataclass(frozen=True)
class Counted:
    """One attempt counted: the key and the window it was counted in (to give it back)."""

    key: str
    bucket: int


def window_of(now: float, window: float) -> int:
    """The number of the window that second ``now`` (since the epoch) falls in."""
    return math.floor(now / window)


def take(session: Session, key: str, limit: int, window: float, now: float) -> Counted | None:
    """Count one attempt of ``key`` if it is under ``limit`` attempts in ``window`` seconds (see the module);
    ``None`` when it is refused (then nothing is counted).  Run it in a write transaction."""
    b = window_of(now, window)
    until = math.ceil((b + 2) * window)
    row = session.execute(_TAKE, {"key": key[:MAX_KEY], "b": b, "until": until, "limit": limit}).first()
    return None if row is None else Counted(key[:MAX_KEY], int(row[0]))


def give_back(session: Session, counted: Counted) -> None:
    """Uncount an attempt counted by :func:`take` (nothing if its window is over: the count only falls)."""
    session.execute(_GIVE_BACK, {"key": counted.key, "b": counted.bucket})


def wait(session: Session, key: str, limit: int, window: float, now: float) -> float:
    """Seconds until ``key`` may make an attempt again (0: now)."""
    row = session.execute(_PEEK, {"key": key[:MAX_KEY]}).first()
    return 0.0 if row is None else seconds_to_wait(int(row[0]), int(row[1]), int(row[2]), limit, window, now)


def seconds_to_wait(bucket: int, n: int, prev: int, limit: int, window: float, now: float) -> float:
    """Seconds until a key whose row holds ``bucket``, ``n`` and ``prev`` may make an attempt (0: now)."""
    b = window_of(now, window)
    if bucket >= b:
        current, before, at = n, prev, bucket
    elif bucket == b - 1:
        current, before, at = 0, n, b
    else:
        return 0.0
    if current + before < limit:
        return 0.0
    opens = at + 1 if current < limit else at + 2  # the next window forgets `before`; the one after, `current`
    return max(1.0, opens * window - now)


def sweep(session: Session, now: float) -> int:
    """Delete the rows of keys idle for two windows; how many were deleted."""
    return int(session.execute(_SWEEP, {"now": math.floor(now)}).rowcount or 0)  # type: ignore[attr-defined]
