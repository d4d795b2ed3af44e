"""The event stream's keep-alives keep a fixed clock: others' writes do not move them.

A stream's keep-alive comment lines, and its end, are read on an event loop with a manual clock
(:mod:`tests.server.virtual_time`): a reader whose game hears no change, and the same reader while
others write orders, press or secret ballots it may not see (change signals that change nothing in its
glance), get the same lines at the same moments.  The keep-alive timer used to restart at every change
signal, so the keep-alives stopped while others wrote: the reader saw that others were busy.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbitre.server import live
from tests.server import virtual_time

GAME = 7
KEEPALIVE = 20.0
LIFETIME = 100.0
SEEN = live.Glance(
    status="active", phase="S1901M", step="orders", result="", deadline=None, remaining=None, played=0, messages=0
)


class Bus:
    """The change signals of the database, fired by the test."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[int | None, str], None]] = []

    def subscribe(self, listener: Callable[[int | None, str], None]) -> Callable[[], None]:
        """Listen (as :class:`arbitre.store.changes.ChangeBus` does)."""
        self.listeners.append(listener)
        return lambda: None

    def fire(self, game_id: int | None) -> None:
        """A change was committed (to ``game_id``; ``None``: after a lost connection, every game)."""
        for listener in list(self.listeners):
            listener(game_id, "orders")


async def _inline(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)  # no thread: the virtual clock must not move while a reading runs


async def _heard(signals: list[float]) -> list[tuple[float, str]]:
    """Every line of one reader's stream and the (virtual) second it came, while others' hidden changes signal
    the game at ``signals`` seconds after the start; nothing they change is the reader's to see."""
    loop = asyncio.get_running_loop()
    bus = Bus()
    hub = live.Hub(bus)  # type: ignore[arg-type]
    start = loop.time()
    for at in signals:
        loop.call_at(start + at, bus.fire, GAME if at % 3 else None)

    def read(_before: live.Glance | None) -> tuple[str, live.Glance, list[live.Event]]:
        return "ENGLAND", SEEN, []  # a hidden change: the reader's glance is the same

    out = []
    first = ("ENGLAND", SEEN, [("hello", SEEN.state(GAME))])
    async for text in live.stream(hub, GAME, read, first, KEEPALIVE):
        out.append((round(loop.time() - start, 6), text))
    out.append((round(loop.time() - start, 6), "<end>"))
    return out


@pytest.fixture(autouse=True)
def _short_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "LIFETIME_SECONDS", LIFETIME)
    monkeypatch.setattr(live, "run_in_threadpool", _inline)


def test_keepalives_beat_on_the_streams_clock_whatever_others_write() -> None:
    quiet = virtual_time.run(_heard([]))
    busy = virtual_time.run(_heard([5.0 + 10 * n for n in range(10)]))  # others write every 10 s
    assert busy == quiet
    assert [t for t, line in quiet if line == ": keep-alive\n\n"] == [20.0, 40.0, 60.0, 80.0]
    assert quiet[-1] == (LIFETIME, "<end>")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.floats(min_value=0.0, max_value=LIFETIME + 30, allow_nan=False), max_size=25))
def test_any_hidden_writes_leave_the_keepalives_as_they_were(signals: list[float]) -> None:
    assert virtual_time.run(_heard(signals)) == virtual_time.run(_heard([]))
