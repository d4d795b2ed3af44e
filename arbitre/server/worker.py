"""The deadline worker: a loop that processes every step whose deadline has passed."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.concurrency import run_in_threadpool

from arbitre.life.botworker import act_due_bots
from arbitre.server.site import Site

log = logging.getLogger("arbitre.worker")


def tick(site: Site) -> int:
    """Process every due step now, then let bot seats give their orders (one transaction per game)."""
    done = site.referee.process_due(site.db, site.now())
    return done + act_due_bots(site.db, site.referee, site.now())


async def run(site: Site, stop: asyncio.Event) -> None:
    """Call :func:`tick` every ``worker_interval`` seconds until ``stop`` is set."""
    while not stop.is_set():
        try:
            await run_in_threadpool(tick, site)
        except Exception:  # keep the loop alive whatever one tick does
            log.exception("deadline worker tick failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=site.settings.worker_interval)
