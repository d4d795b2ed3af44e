"""Login throttling and a bounded password-hashing gate.

Password checks (argon2) are slow on purpose, so they are the cheapest way to
make a server busy.  Two defences:

- :class:`Throttle`: sliding-window counters per address (every attempt) and
  per account (failed attempts); beyond the limit the answer is ``429`` at once,
  before any hashing.
- :class:`HashGate`: at most :data:`HASH_SLOTS` hashes run at once in a
  process and at most :data:`HASH_QUEUE` requests wait for one; beyond that
  the answer is ``429`` at once.  So a flood of logins holds at most
  ``HASH_SLOTS + HASH_QUEUE`` of the request threads, and the others keep
  serving pages.

Counters are per server process (each of ``--workers N`` counts on its own).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from arbitre.server.errors import Problem

ADDRESS_LIMIT = (300, 300.0)
"""Login, registration and token attempts per address: 300 in 5 minutes."""
ADDRESS_FAILURES = (30, 300.0)
"""Failed logins per address: 30 in 5 minutes."""
ACCOUNT_LIMIT = (10, 900.0)
"""Failed logins per account: 10 in 15 minutes."""
HASH_SLOTS = 1
"""Password hashes running at once in one process (one core of two)."""
HASH_QUEUE = 2
"""Requests that may wait for a hashing slot; more are refused at once."""
_MAX_KEYS = 10_000

T = TypeVar("T")


class Throttle:
    """Sliding-window counters by key (thread-safe, bounded in memory)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _live(self, key: str, now: float) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            hits = self._hits[key] = deque()
            while len(self._hits) > _MAX_KEYS:
                self._hits.popitem(last=False)
        self._hits.move_to_end(key)
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        return hits

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may try again (0 when it may now)."""
        with self._lock:
            now = self._clock()
            hits = self._live(key, now)
            return 0.0 if len(hits) < self.limit else max(1.0, hits[0] + self.window - now)

    def hit(self, key: str) -> None:
        """Count one attempt of ``key``."""
        with self._lock:
            now = self._clock()
            self._live(key, now).append(now)


def too_many(what: str, seconds: float, where: str) -> Problem:
    """429 with the time to wait."""
    problem = Problem(429, "too_many_attempts", f"too many {what}; try again in {int(seconds) + 1} seconds", where)
    problem.retry_after = int(seconds) + 1
    return problem


class HashGate:
    """At most ``slots`` password hashes at once, at most ``queue`` waiting; beyond that, 429 at once."""

    def __init__(self, slots: int = HASH_SLOTS, queue: int = HASH_QUEUE) -> None:
        self._slots = threading.Semaphore(slots)
        self._room = threading.Semaphore(slots + queue)

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold a hashing slot for the block (refused with 429 when the queue is full)."""
        if not self._room.acquire(blocking=False):
            raise Problem(429, "busy", "the server is busy checking passwords; try again in a few seconds", "password")
        try:
            with self._slots:
                yield
        finally:
            self._room.release()

    def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a hash) in a slot."""
        with self.slot():
            return work()


class LoginGuard:
    """The site's login defences: per-address and per-account throttles and the hashing gate."""

    def __init__(self) -> None:
        self.by_address = Throttle(*ADDRESS_LIMIT)
        self.failures_by_address = Throttle(*ADDRESS_FAILURES)
        self.by_account = Throttle(*ACCOUNT_LIMIT)
        self.gate = HashGate()

    def check(self, address: str, account: str | None) -> None:
        """Refuse (429) an attempt from ``address`` (on ``account``) beyond the limits; else count it."""
        wait = self.address_wait(address)
        if wait:
            raise too_many("attempts from your address", wait, "address")
        if account is not None:
            wait = self.by_account.retry_after(account.strip().lower())
            if wait:
                self.failures_by_address.hit(address)  # hammering a locked account counts against the address
                raise too_many("failed logins on this account", wait, "name")
        self.by_address.hit(address)

    def address_wait(self, address: str) -> float:
        """Seconds until ``address`` may try to log in again (0 when it may now)."""
        return max(self.by_address.retry_after(address), self.failures_by_address.retry_after(address))

    def failed(self, address: str, account: str) -> None:
        """Count a failed login from ``address`` on ``account``."""
        self.failures_by_address.hit(address)
        self.by_account.hit(account.strip().lower())


TARPIT_SECONDS = 1.0
"""How long a refused (429) answer is held back: it costs the server nothing and slows a flood down."""
LOGIN_PATHS = frozenset(
    {
        "/login",
        "/register",
        "/api/tokens",
        "/api/register",
        "/password-reset",
        "/api/password-reset",
        "/api/me/password",
    }
)
"""Where passwords are checked (and reset links asked for)."""


class Tarpit:
    """ASGI middleware: a login attempt from an address over its limit is refused before any route runs,
    and every 429 answer is held back :data:`TARPIT_SECONDS` (an idle wait, not a busy thread), so a
    flood of logins costs the server almost nothing and cannot crowd out the players' pages."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Refuse early when the address is over its limit; hold back every 429."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("method") == "POST" and scope.get("path") in LOGIN_PATHS:
            site = getattr(getattr(scope.get("app"), "state", None), "site", None)
            guard: LoginGuard | None = getattr(site, "guard", None)
            address = (scope.get("client") or ("",))[0] or ""
            wait = guard.address_wait(address) if guard is not None else 0.0
            if wait:
                await asyncio.sleep(TARPIT_SECONDS)
                body = json.dumps(
                    {
                        "error": {
                            "code": "too_many_attempts",
                            "where": "address",
                            "message": f"too many attempts from your address; try again in {int(wait) + 1} seconds",
                        }
                    }
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 429,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"retry-after", str(int(wait) + 1).encode()),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return

        async def held_back(message: Any) -> None:
            if message["type"] == "http.response.start" and message.get("status") == 429:
                await asyncio.sleep(TARPIT_SECONDS)
            await send(message)

        await self.app(scope, receive, held_back)
