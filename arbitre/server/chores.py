"""Work done after the answer: a request hands it over and answers at once (one thread per process).

So what the work finds (an account that exists or not) changes nothing in the
request's answer or its timing.  Work lost with the process is lost (the person
asks again); nothing here must be needed for correctness.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

log = logging.getLogger("arbitre.chores")


#: Chores waiting at most; beyond, new ones are dropped (and logged) so a flood cannot grow memory without
#: bound. A dropped chore is one the person asks again (a reset e-mail), never one correctness needs.
MAX_PENDING = 1000


class Chores:
    """One background thread running the chores handed over, in order."""

    def __init__(self, max_pending: int = MAX_PENDING) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chores")
        self._pending: set[Future[None]] = set()
        self._lock = threading.Lock()
        self._max_pending = max_pending
        self.dropped = 0
        self._closed = False

    def hand_over(self, work: Callable[[], Any]) -> None:
        """Run ``work`` later on the chores thread (its errors are logged, never raised); dropped when
        :data:`MAX_PENDING` chores already wait."""
        with self._lock:
            if len(self._pending) >= self._max_pending:
                self.dropped += 1
                log.warning("background chore dropped: %d already waiting", len(self._pending))
                return

        def run() -> None:
            try:
                work()
            except Exception:  # a chore's failure must not stop the next ones
                log.exception("a background chore failed")

        with self._lock:
            if self._closed:  # a site started again after a shutdown (tests) gets a new thread
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chores")
                self._closed = False
            future = self._pool.submit(run)
            self._pending.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future[None]) -> None:
        with self._lock:
            self._pending.discard(future)

    def wait(self, timeout: float = 30.0) -> None:
        """Wait until every chore handed over so far is done (tests, shutdown)."""
        with self._lock:
            pending = list(self._pending)
        for future in pending:
            future.result(timeout)

    def close(self) -> None:
        """Finish the chores already handed over and stop the thread (the server's shutdown)."""
        with self._lock:
            pool, self._closed = self._pool, True
        pool.shutdown(wait=True)
