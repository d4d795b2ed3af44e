"""The site's limits on guessing (logins, join codes, take-over links), counted in the database.

Every server process counts in the same rows (:mod:`arbitre.store.throttles`),
so ``--workers N`` does not make a limit N times looser.  A :class:`Limit` names
what is counted; :meth:`Limiter.take` counts one attempt against several keys at
once in one short write transaction (all or none: a refusal counts nothing) and
refuses with ``429`` and the time to wait.  It never runs inside another write
transaction (SQLite has one writer): the callers run it before or after theirs.

Addresses are the client's (see :mod:`arbitre.server.proxies`); an IPv6 address
counts as its ``/64`` network, which one machine usually holds whole.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from arbitre.server.errors import Problem
from arbitre.store import throttles
from arbitre.store.db import Database

SWEEP_EVERY = 200
"""Every so many write transactions of the limiter, the dead counter rows are deleted."""
_REMEMBERED = 10_000
"""How many refused keys a process remembers (for the early refusal, :meth:`Limiter.refused_for`)."""


@dataclass(frozen=True)
class Limit:
    """At most ``limit`` attempts in ``window`` seconds per key; ``what`` says what in the refusal
    ("too many {what}") and ``where`` which part of the request is at fault."""

    name: str
    limit: int
    window: float
    what: str
    where: str

    def key(self, *parts: object) -> str:
        """The counter key of this limit for ``parts`` (an address, an account, a game id…)."""
        return "|".join([self.name, *(str(p)[:80] for p in parts)])


@dataclass
class Ticket:
    """The attempts one :meth:`Limiter.take` counted (to give back the ones that did not fail)."""

    counted: list[tuple[Limit, throttles.Counted]] = field(default_factory=list)


def too_many(what: str, seconds: float, where: str) -> Problem:
    """429 with the time to wait."""
    problem = Problem(429, "too_many_attempts", f"too many {what}; try again in {int(seconds) + 1} seconds", where)
    problem.retry_after = int(seconds) + 1
    return problem


def throttle_address(host: str) -> str:
    """The address a limit counts: the host itself, or its ``/64`` network for an IPv6 address."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        carried = _carried_ipv4(ip)
        if carried is not None:
            return str(carried)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def _carried_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 host an IPv6 address stands for, if it carries one.

    IPv4-mapped (``::ffff:a.b.c.d``), 6to4 (``2002:AABB:CCDD::/48``), Teredo (``2001:0::/32``, the client's
    address) and well-known NAT64 (``64:ff9b::/96``) addresses all name one IPv4 host; counting their ``/64``
    would let that host try again under as many networks as it can form addresses.
    """
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


class _Refused(Exception):
    def __init__(self, limit: Limit, key: str) -> None:
        super().__init__(key)
        self.limit, self.key = limit, key


class Limiter:
    """Counts attempts in the database (:mod:`arbitre.store.throttles`) and refuses beyond the limits."""

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self._db = db
        self._now = now
        self._runs = 0
        self._refused: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, *attempts: tuple[Limit, str]) -> Ticket:
        """Count one attempt on each ``(limit, key)``; if any is over its limit, count none and refuse (429)."""
        for retry in (True, False):
            now = self._now().timestamp()
            ticket = Ticket()
            try:
                with self._db.writing() as s:
                    for limit, key in attempts:
                        counted = throttles.take(s, key, limit.limit, limit.window, now)
                        if counted is None:
                            raise _Refused(limit, key)  # rolls back: nothing of this attempt is counted
                        ticket.counted.append((limit, counted))
                    self._maybe_sweep(s, now)
            except _Refused as refused:
                limit, key = refused.limit, refused.key
                with self._db.reading() as s:
                    seconds = throttles.wait(s, key, limit.limit, limit.window, now)
                if not seconds:
                    # Given back (or its window passed) since the refusal: take again once; never remember a
                    # refusal the counters no longer hold.
                    if retry:
                        continue
                    raise too_many(limit.what, 0.0, limit.where) from None
                self._remember(key, seconds)
                raise too_many(limit.what, seconds, limit.where) from None
            return ticket
        raise AssertionError("unreachable")

    def over(self, limit: Limit, key: str) -> bool:
        """Is ``key`` at its ``limit`` now (its next attempt would be refused)?  A read; nothing is counted."""
        now = self._now().timestamp()
        with self._db.reading() as s:
            return throttles.wait(s, key, limit.limit, limit.window, now) > 0

    def give_back(self, ticket: Ticket, *limits: Limit) -> None:
        """Uncount the attempts of ``ticket`` on ``limits`` (e.g. the failure counts of a login that succeeded)."""
        back = [c for limit, c in ticket.counted if limit in limits]
        if back:
            with self._db.writing() as s:
                for counted in back:
                    throttles.give_back(s, counted)

    def refused_for(self, key: str) -> float:
        """Seconds this process knows ``key`` must still wait (0: none known); no database read, for refusing
        a flood early.  The database's counters decide; this only remembers their last refusals."""
        with self._lock:
            until = self._refused.get(key)
            if until is None:
                return 0.0
            left = until - time.monotonic()
            if left <= 0:
                del self._refused[key]
                return 0.0
            return left

    def _remember(self, key: str, seconds: float) -> None:
        with self._lock:
            self._refused[key] = time.monotonic() + seconds
            self._refused.move_to_end(key)
            while len(self._refused) > _REMEMBERED:
                self._refused.popitem(last=False)

    def _maybe_sweep(self, session: Session, now: float) -> None:
        self._runs += 1
        if self._runs % SWEEP_EVERY == 0:
            throttles.sweep(session, now)
