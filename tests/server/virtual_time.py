"""An asyncio event loop on a manual clock, for tests of timing: its time moves only when nothing is ready.

When every task waits, the loop does not sleep: it jumps its clock to the next timer (``call_at``,
``asyncio.sleep``, ``wait_for``'s timeout) at once.  A test then reads at which (virtual) moment
each thing happened, exactly and on any machine, without waiting for it.  Work handed to threads
would let the clock jump while it runs: a test runs such work inline instead.
"""

from __future__ import annotations

import asyncio
import selectors
from typing import Any


class _JumpingSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """A selector that, instead of waiting ``timeout`` seconds for nothing, moves its loop's clock."""

    loop: VirtualTimeLoop

    def select(self, timeout: float | None = None) -> list[tuple[Any, int]]:
        ready: list[tuple[Any, int]] = super().select(0)
        if ready:
            return ready
        if timeout is None:  # no timer at all: only another thread can wake the loop
            blocked: list[tuple[Any, int]] = super().select(None)
            return blocked
        self.loop.now += max(timeout, 0.0)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose ``time()`` is :attr:`now`, moved by the loop itself when it would wait."""

    def __init__(self, start: float = 1000.0) -> None:
        selector = _JumpingSelector()
        super().__init__(selector)
        selector.loop = self
        self.now = start

    def time(self) -> float:
        """The loop's clock (virtual seconds)."""
        return self.now


def run(coro: Any) -> Any:
    """Run ``coro`` to its end on a fresh :class:`VirtualTimeLoop`; returns its result."""
    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()
