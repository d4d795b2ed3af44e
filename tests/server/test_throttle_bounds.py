"""The bounds of the login defences, for any interleaving (hypothesis): the database counters never let more
than the limit through in any window, across two processes with their own clocks; the retry time they give
is right; the fair queue admits at most its slots, each address at most its share, and serves addresses in
turn."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.server.limits import Limit, Limiter, throttle_address
from arbitre.server.throttle import Busy, FairQueue
from arbitre.store import migrate, open_database, throttles
from arbitre.store.db import Database

WINDOW = 10.0
T0 = 1_800_000_000.0  # some time since the epoch (a window boundary: a multiple of WINDOW)


@pytest.fixture
def two_processes(db_url: str) -> Any:
    """Two databases objects on one database (two engines, as two server processes)."""
    first = open_database(db_url)
    migrate(first)
    second = open_database(db_url)
    yield first, second
    first.dispose()
    second.dispose()


Event = tuple[int, float, bool]
"""Which process, how far its clock moves before the attempt, whether the attempt is given back at once."""
events_st = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from([0.0, 0.5, 1.0, 3.0, 7.5, 9.99, 10.0, 12.0, 25.0]), st.booleans()),
    max_size=40,
)


def _attempt(db: Database, key: str, limit: int, now: float, give_back: bool) -> throttles.Counted | None:
    with db.writing() as s:
        counted = throttles.take(s, key, limit, WINDOW, now)
        if counted is not None and give_back:
            throttles.give_back(s, counted)
    return counted


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(1, 4), events=events_st, skew=st.sampled_from([0.0, 4.0, 9.5, 15.0]))
def test_no_two_consecutive_windows_let_more_than_the_limit_through(
    two_processes: tuple[Database, Database], limit: int, events: list[Event], skew: float
) -> None:
    """Each process has its own clock (the second behind by ``skew``); any interleaving: the attempts counted
    in window k-1 and window k together (net of those given back) are at most the limit."""
    key = f"h|{uuid.uuid4().hex}"
    clocks = [T0 + skew, T0]
    net: Counter[int] = Counter()
    for process, step, give_back in events:
        clocks[process] += step
        counted = _attempt(two_processes[process], key, limit, clocks[process], give_back)
        if counted is not None and not give_back:
            net[counted.bucket] += 1
    for k in net:
        assert net[k - 1] + net[k] <= limit, (k, dict(net))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(1, 4), events=events_st)
def test_any_window_of_the_shared_clock_lets_at_most_the_limit_through(
    two_processes: tuple[Database, Database], limit: int, events: list[Event]
) -> None:
    """Two processes on one machine (one clock), interleaved any way: in any ``WINDOW`` seconds, at most the limit
    of attempts counted (net of those given back); and the first ``limit`` attempts of a quiet key all pass."""
    key = f"h|{uuid.uuid4().hex}"
    now = T0
    passed: list[float] = []
    for i, (process, step, give_back) in enumerate(events):
        now += step
        counted = _attempt(two_processes[process], key, limit, now, give_back)
        if i < limit and now < T0 + WINDOW:
            assert counted is not None  # never stricter than it must be on a quiet key
        if counted is not None and not give_back:
            passed.append(now)
    for t in passed:
        assert sum(1 for u in passed if t - WINDOW < u <= t) <= limit, passed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    limit=st.integers(1, 4),
    steps=st.lists(st.sampled_from([0.0, 0.5, 2.0, 6.0, 11.0]), min_size=1, max_size=20),
)
def test_the_time_to_wait_is_when_an_attempt_passes_again(
    two_processes: tuple[Database, Database], limit: int, steps: list[float]
) -> None:
    """When an attempt is refused, :func:`throttles.wait` says when one passes: not a second sooner
    (by whole seconds), and at that time it passes."""
    key = f"h|{uuid.uuid4().hex}"
    db = two_processes[0]
    now = T0
    for step in steps:
        now += step
        if _attempt(db, key, limit, now, False) is None:
            with db.reading() as s:
                wait = throttles.wait(s, key, limit, WINDOW, now)
            assert wait >= 1.0
            if wait > 1.0:
                with db.reading() as s:  # a peek at a second before: still refused
                    assert throttles.wait(s, key, limit, WINDOW, now + wait - 1.0) > 0
            now += wait
            assert _attempt(db, key, limit, now, False) is not None
            return


def test_dead_counters_are_swept(two_processes: tuple[Database, Database]) -> None:
    db = two_processes[0]
    _attempt(db, "h|old", 3, T0, False)
    _attempt(db, "h|new", 3, T0 + 3 * WINDOW, False)
    with db.writing() as s:
        assert throttles.sweep(s, T0 + 3 * WINDOW) == 1
    with db.reading() as s:
        assert throttles.wait(s, "h|new", 1, WINDOW, T0 + 3 * WINDOW) > 0


def test_an_ipv6_client_counts_as_its_network() -> None:
    assert throttle_address("2001:db8:1:2:3:4:5:6") == throttle_address("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert throttle_address("::ffff:192.0.2.1") == "192.0.2.1"
    assert throttle_address("192.0.2.1") == "192.0.2.1"
    assert throttle_address("testclient") == "testclient"


def test_ipv6_addresses_that_carry_an_ipv4_host_count_as_that_host() -> None:
    """6to4, Teredo and NAT64 addresses of one IPv4 host share its limit, whatever their other bits."""
    host = "192.0.2.33"
    sixtofour = ["2002:c000:221::1", "2002:c000:221:ffff::9"]  # 2002:<192.0.2.33>::/48, any subnet
    # Teredo: 2001:0:<server>:<flags>:<port ^ ffff>:<client ^ ffffffff>
    teredo = ["2001:0:4136:e378:8000:63bf:3fff:fdde", "2001:0:4136:e379:0:1111:3fff:fdde"]
    nat64 = ["64:ff9b::c000:221"]
    for address in sixtofour + teredo + nat64:
        assert throttle_address(address) == host, address


# ----------------------------------------------------------------------------- the fair queue
def test_the_queue_serves_addresses_in_turn() -> None:
    async def run() -> list[str]:
        queue = FairQueue(slots=1, per_address=8, limit=100, max_wait=30)
        served: list[str] = []
        await queue.enter("A")  # the first goes in at once

        async def wait(address: str, tag: str) -> None:
            await queue.enter(address)
            served.append(tag)

        tasks = [asyncio.ensure_future(wait("A", f"A{i}")) for i in range(1, 5)]
        await asyncio.sleep(0.01)
        tasks += [asyncio.ensure_future(wait("B", "B1")), asyncio.ensure_future(wait("C", "C1"))]
        await asyncio.sleep(0.01)
        address = "A"
        for _ in range(6):
            before = len(served)
            queue.leave(address)
            while len(served) == before:
                await asyncio.sleep(0.001)
            address = served[-1][0]
        queue.leave(address)
        await asyncio.gather(*tasks)
        assert queue.waiting == 0
        return served

    assert asyncio.run(run()) == ["A1", "B1", "C1", "A2", "A3", "A4"]


def test_the_queue_refuses_beyond_an_address_share_and_times_out() -> None:
    async def run() -> None:
        queue = FairQueue(slots=1, per_address=2, limit=100, max_wait=0.05)
        await queue.enter("A")
        waiting = asyncio.ensure_future(queue.enter("A"))
        await asyncio.sleep(0.001)
        with pytest.raises(Busy) as refused:
            await queue.enter("A")
        assert refused.value.status == 429 and refused.value.where == "address"
        with pytest.raises(Busy) as late:
            await waiting  # waited longer than max_wait
        assert late.value.status == 503 and queue.waiting == 0
        queue.leave("A")
        await queue.enter("B")  # the slot came back
        queue.leave("B")

    asyncio.run(run())


Op = tuple[str, int]
ops_st = st.lists(
    st.one_of(
        st.tuples(st.just("enter"), st.integers(0, 3)),
        st.tuples(st.just("leave"), st.integers(0, 20)),
        st.tuples(st.just("cancel"), st.integers(0, 20)),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(slots=st.integers(1, 3), per_address=st.integers(1, 3), limit=st.integers(1, 6), ops=ops_st)
def test_the_queue_never_admits_more_than_its_bounds(slots: int, per_address: int, limit: int, ops: list[Op]) -> None:
    """Any sequence of arrivals, departures and give-ups: at most ``slots`` admitted, at most ``per_address``
    of one address in it, at most ``limit`` waiting, and every waiter is admitted once the others leave."""

    async def run() -> None:
        queue = FairQueue(slots=slots, per_address=per_address, limit=limit, max_wait=60)
        admitted: list[str] = []
        waiters: list[tuple[str, asyncio.Future[None]]] = []

        async def arrive(address: str) -> None:
            await queue.enter(address)
            admitted.append(address)

        async def settle() -> None:
            for _ in range(5):
                await asyncio.sleep(0)

        def check() -> None:
            held = Counter(admitted) + Counter(a for a, t in waiters if not t.done())
            assert len(admitted) <= slots
            assert all(n <= per_address for n in held.values())
            assert queue.waiting <= limit
            assert queue.waiting == sum(1 for _, t in waiters if not t.done())

        for op, n in ops:
            if op == "enter":
                address = f"addr{n}"
                task = asyncio.ensure_future(arrive(address))
                await settle()
                if task.done() and task.exception() is not None:
                    assert isinstance(task.exception(), Busy)
                elif not task.done():
                    waiters.append((address, task))
            elif op == "leave" and admitted:
                queue.leave(admitted.pop(n % len(admitted)))
                await settle()
            elif op == "cancel":
                live = [(a, t) for a, t in waiters if not t.done()]
                if live:
                    live[n % len(live)][1].cancel()
                    await settle()
            waiters = [(a, t) for a, t in waiters if not t.done()]
            check()
        while admitted or waiters:  # everyone leaves: every waiter gets in, in turn
            if admitted:
                queue.leave(admitted.pop(0))
            await settle()
            waiters = [(a, t) for a, t in waiters if not t.done()]
            check()
        assert queue.waiting == 0
        for i in range(slots):  # every slot is free again
            await asyncio.wait_for(queue.enter(f"last{i}"), 1)

    asyncio.run(run())


def test_a_right_password_just_after_a_window_boundary_is_given_back(
    two_processes: tuple[Database, Database],
) -> None:
    """An attempt counted at the end of a window and given back once the row moved to the next window was
    left counted (the give-back matched only its own window): now the previous-window count falls."""
    db = two_processes[0]
    key = f"h|{uuid.uuid4().hex}"
    first = _attempt(db, key, 2, T0 + WINDOW - 1, give_back=False)
    assert first is not None
    assert _attempt(db, key, 2, T0 + WINDOW, give_back=False) is not None  # the row moves to the next window
    with db.writing() as s:
        throttles.give_back(s, first)
    assert _attempt(db, key, 2, T0 + WINDOW, give_back=False) is not None


def test_a_refusal_given_back_meanwhile_is_retried_not_remembered(
    two_processes: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal whose count was given back before its wait was read (wait 0) was remembered a whole window,
    refusing the address early: now the take is tried once more, and nothing is remembered."""
    db = two_processes[0]
    limit = Limit("t", 1, WINDOW, "tries", "address")
    key = limit.key(uuid.uuid4().hex)
    limiter = Limiter(db, lambda: datetime.fromtimestamp(T0 + 1, UTC))
    held = limiter.take((limit, key))
    real_wait = throttles.wait

    def given_back_meanwhile(*args: Any) -> float:
        limiter.give_back(held, limit)  # another request's right password, between the refusal and the read
        return real_wait(*args)

    monkeypatch.setattr(throttles, "wait", given_back_meanwhile)
    limiter.take((limit, key))
    assert limiter.refused_for(key) == 0.0
