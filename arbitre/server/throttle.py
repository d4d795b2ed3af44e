"""Logins that serve people: limits on guessing, a fair queue for the password checks, a bounded hashing gate.

Password checks (argon2) are slow on purpose, so they are the cheapest way to
make a server busy, and the place where passwords are guessed.  The defences:

- **Limits** (:class:`LoginGuard`, counted in the database by
  :mod:`arbitre.server.limits`, so they hold across every server process):
  attempts per address (:data:`ADDRESS_LIMIT`), failed logins per address
  (:data:`ADDRESS_FAILURES`) and per account *at one address*
  (:data:`ACCOUNT_LIMIT`).  A flood from one place is refused there and
  nowhere else: the owner of an account logs in from elsewhere.  A failure is
  counted before the hash runs and given back when the password was right, so
  concurrent guesses cannot pass the limit.
- **A fair queue** (:class:`FairQueue`, in the ASGI middleware :class:`Tarpit`):
  at most :data:`ADMITTED` password requests of a process run at once; the
  others wait (no thread held), served in turn address by address, each
  address at most :data:`PER_ADDRESS` in the queue, at most
  :data:`QUEUE_LIMIT` waiting, at most :data:`MAX_WAIT` seconds each.  Many
  honest logins at once are all served; a flood from one address holds
  :data:`PER_ADDRESS` places and waits its turn like anyone.
- **The hashing gate** (:class:`HashGate`): at most :data:`HASH_SLOTS` hashes at
  once per process, on the gate's own threads at the lowest CPU priority, so
  the players' pages come first.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from arbitre.server.limits import Limit, Limiter, Ticket, throttle_address

ADDRESS_LIMIT = Limit("login-address", 300, 300.0, "attempts from your address", "address")
"""Login, registration, reset and token attempts per address: 300 in 5 minutes."""
ADDRESS_FAILURES = Limit("login-fail-address", 30, 300.0, "failed logins from your address", "address")
"""Failed logins per address: 30 in 5 minutes."""
ACCOUNT_LIMIT = Limit("login-fail-account", 10, 900.0, "failed logins on this account from your address", "name")
"""Failed logins per account and address: 10 in 15 minutes."""
HASH_SLOTS = 1
"""Password hashes running at once in one process (one core of two)."""
ADMITTED = 2
"""Password requests of one process running at once (one hashes while the other reads or writes)."""
PER_ADDRESS = 8
"""Password requests of one address running or waiting at once in one process; more are refused (429)."""
QUEUE_LIMIT = 256
"""Password requests waiting at once in one process; more are refused (503)."""
MAX_WAIT = 30.0
"""Longest wait in the queue, in seconds; then the answer is 503 (try again)."""

T = TypeVar("T")


class Busy(Exception):
    """A password request the queue did not take: ``status`` 429 (your address has enough waiting) or 503."""

    def __init__(self, status: int, code: str, message: str, where: str | None, retry_after: int) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.where, self.retry_after = status, code, message, where, retry_after


class FairQueue:
    """Admits at most ``slots`` requests at once; the others wait their turn, address by address (round robin).

    Thread-safe and usable from several event loops (each waiter is woken in its own loop).
    """

    def __init__(
        self,
        slots: int = ADMITTED,
        per_address: int = PER_ADDRESS,
        limit: int = QUEUE_LIMIT,
        max_wait: float = MAX_WAIT,
    ) -> None:
        self.per_address = per_address
        self.limit = limit
        self.max_wait = max_wait
        self._free = slots
        self._lines: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._held: dict[str, int] = {}
        self._waiting = 0
        self._lock = threading.Lock()

    @property
    def waiting(self) -> int:
        """How many requests wait now."""
        return self._waiting

    async def enter(self, address: str) -> None:
        """Wait for this address's turn (raises :class:`Busy` when it cannot be taken or waited too long)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._held.get(address, 0) >= self.per_address:
                raise Busy(
                    429,
                    "too_many_attempts",
                    "too many logins at once from your address; try again in a few seconds",
                    "address",
                    5,
                )
            if self._free > 0 and not self._waiting:
                self._free -= 1
                self._held[address] = self._held.get(address, 0) + 1
                return
            if self._waiting >= self.limit:
                raise Busy(503, "busy", "the server is busy checking passwords; try again in a few seconds", None, 5)
            self._held[address] = self._held.get(address, 0) + 1
            turn: asyncio.Future[None] = loop.create_future()
            self._lines.setdefault(address, deque()).append(turn)
            self._waiting += 1
        try:
            await asyncio.wait_for(turn, self.max_wait)
        except BaseException as err:
            with self._lock:
                if turn.done() and not turn.cancelled():
                    self._pass_on()  # the turn came just now: give it to the next
                else:
                    line = self._lines.get(address)
                    if line is not None and turn in line:
                        line.remove(turn)
                        self._waiting -= 1
                        if not line:
                            del self._lines[address]
                self._drop(address)
            if isinstance(err, TimeoutError):
                raise Busy(
                    503, "busy", "the server is busy checking passwords; try again in a few seconds", None, 5
                ) from None
            raise

    def leave(self, address: str) -> None:
        """The request of ``address`` admitted by :meth:`enter` is done: the next in line goes."""
        with self._lock:
            self._drop(address)
            self._pass_on()

    def _drop(self, address: str) -> None:
        left = self._held.get(address, 0) - 1
        if left > 0:
            self._held[address] = left
        else:
            self._held.pop(address, None)

    def _pass_on(self) -> None:
        """Give a free slot to the first waiter of the next address in turn (call with the lock held)."""
        while self._lines:
            address, line = next(iter(self._lines.items()))
            turn = line.popleft()
            self._waiting -= 1
            if line:
                self._lines.move_to_end(address)  # the others' turn before this address's next
            else:
                del self._lines[address]
            if not turn.done():
                turn.get_loop().call_soon_threadsafe(self._grant, turn)
                return
        self._free += 1

    def _grant(self, turn: asyncio.Future[None]) -> None:
        """Wake a waiter in its loop (or pass the slot on if it gave up meanwhile)."""
        if turn.done():
            with self._lock:
                self._pass_on()
        else:
            turn.set_result(None)


HASH_NICENESS = 19
"""The scheduling niceness of the hashing threads (Linux): pages come first when the CPU is short."""


def _lower_priority() -> None:
    """Make the calling thread the least urgent on the machine (Linux sets niceness per thread)."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed: hash at normal priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


class HashGate:
    """At most ``slots`` password hashes at once, run on the gate's own threads at the lowest CPU priority.

    A caller waits for its hash (the :class:`FairQueue` in front bounds how many wait): a flood of logins then
    takes only the CPU that the players' pages leave, instead of half of it.
    """

    def __init__(self, slots: int = HASH_SLOTS) -> None:
        self._slots = slots
        self._lock = threading.Lock()
        self._workers: ThreadPoolExecutor | None = None

    def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a hash) on a low-priority hashing thread; the caller waits for it."""
        with self._lock:
            if self._workers is None:  # started at the first hash, again after a shutdown
                self._workers = ThreadPoolExecutor(
                    max_workers=self._slots, thread_name_prefix="hash", initializer=_lower_priority
                )
            future = self._workers.submit(work)
        return future.result()

    def close(self) -> None:
        """Stop the hashing threads once the hashes under way are done (the server's shutdown)."""
        with self._lock:
            workers, self._workers = self._workers, None
        if workers is not None:
            workers.shutdown(wait=True)


class LoginGuard:
    """The site's login defences: the limits (in the database), the fair queue and the hashing gate."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter
        self.queue = FairQueue()
        self.gate = HashGate()

    def check(self, address: str, account: str | None) -> Ticket:
        """Count an attempt from ``address`` (a failure too, on ``account`` when given, until :meth:`passed`
        gives it back); refuse (429) beyond the limits."""
        where = throttle_address(address)
        attempts = [(ADDRESS_LIMIT, ADDRESS_LIMIT.key(where))]
        if account is not None:
            attempts.append((ADDRESS_FAILURES, ADDRESS_FAILURES.key(where)))
            attempts.append((ACCOUNT_LIMIT, ACCOUNT_LIMIT.key(account.strip().lower(), where)))
        return self.limiter.take(*attempts)

    def passed(self, ticket: Ticket) -> None:
        """The password was right: the failures :meth:`check` counted are given back."""
        self.limiter.give_back(ticket, ADDRESS_FAILURES, ACCOUNT_LIMIT)

    def address_wait(self, address: str) -> float:
        """Seconds this process knows ``address`` must wait before logging in again (0: none known)."""
        where = throttle_address(address)
        return max(
            self.limiter.refused_for(ADDRESS_LIMIT.key(where)), self.limiter.refused_for(ADDRESS_FAILURES.key(where))
        )


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
        "/api/password-reset/confirm",
        "/api/me/password",
        "/account/password",
    }
)
"""Where passwords are checked or hashed (and reset links asked for); also every ``/reset/…`` page."""


def is_password_path(path: str) -> bool:
    """Does a POST to ``path`` check or hash a password?"""
    return path in LOGIN_PATHS or path.startswith("/reset/")


async def _answer(send: Any, status: int, code: str, message: str, where: str | None, retry_after: int) -> None:
    error: dict[str, Any] = {"code": code, "message": message}
    if where:
        error["where"] = where
    body = json.dumps({"error": error}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", str(retry_after).encode()),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Tarpit:
    """ASGI middleware in front of the password routes: an address this process knows to be over its limit is
    refused before any route runs; the others wait their turn in the :class:`FairQueue` (no thread held); every
    429 answer is held back :data:`TARPIT_SECONDS` (an idle wait), so a flood costs the server almost nothing."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Refuse early when the address is over its limit, queue the others; hold back every 429."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def held_back(message: Any) -> None:
            if message["type"] == "http.response.start" and message.get("status") == 429:
                await asyncio.sleep(TARPIT_SECONDS)
            await send(message)

        site = getattr(getattr(scope.get("app"), "state", None), "site", None)
        guard: LoginGuard | None = getattr(site, "guard", None)
        if guard is None or scope.get("method") != "POST" or not is_password_path(scope.get("path", "")):
            await self.app(scope, receive, held_back)
            return
        address = throttle_address((scope.get("client") or ("",))[0] or "")
        wait = guard.address_wait(address)
        if wait:
            await asyncio.sleep(TARPIT_SECONDS)
            await _answer(
                send,
                429,
                "too_many_attempts",
                f"too many attempts from your address; try again in {int(wait) + 1} seconds",
                "address",
                int(wait) + 1,
            )
            return
        try:
            await guard.queue.enter(address)
        except Busy as busy:
            if busy.status == 429:
                await asyncio.sleep(TARPIT_SECONDS)
            await _answer(send, busy.status, busy.code, busy.message, busy.where, busy.retry_after)
            return
        try:
            await self.app(scope, receive, held_back)
        finally:
            guard.queue.leave(address)
