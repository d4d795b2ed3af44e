"""The sending lanes of one server process: e-mail and webhooks, each with its own bounded pool of workers.

One recipient's slow webhook must not hold up anyone else's notifications, and e-mail must never wait
on a webhook:

- **e-mail** has a lane of its own (one worker: one SMTP connection to the site's relay, a batch of
  messages on it, each message under its own deadline, ``ARBITRE_SMTP_DEADLINE``);
- **webhooks** have ``ARBITRE_NOTIFY_WORKERS`` workers; each worker sends one delivery at a time
  under a wall-clock deadline for the whole exchange (``ARBITRE_WEBHOOK_DEADLINE``), and a
  recipient has at most one webhook delivery in flight (:func:`arbitre.store.deliveries.claim`
  with ``one_per_user``): a slow endpoint holds at most one worker, and only until its deadline.

The lanes claim from the outbox in the database, as before, so any number of server processes share
the work; a worker that finishes claims the next delivery of its lane itself, until there is none.
"""

from __future__ import annotations

import contextlib
import logging
import smtplib
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from arbitre.server.notify.deadline import Deadline
from arbitre.server.notify.mail import SmtpServer
from arbitre.server.site import Site
from arbitre.store import deliveries
from arbitre.store.outbox import EMAIL, WEBHOOK, wants

log = logging.getLogger("arbitre.notify")

OWNER = f"{uuid.uuid4().hex[:16]}"
"""This process's sender id (written into the deliveries it claims)."""
RETRY = timedelta(minutes=1)
"""How long a failed delivery waits before it is tried again."""
EMAIL_BATCH = 20
"""E-mails claimed at once (sent on one SMTP connection)."""
FAILURES = (smtplib.SMTPException, OSError, ValueError)
"""What a failed send raises (``OSError`` covers a deadline that cut the exchange)."""


def lease(site: Site) -> timedelta:
    """How long a claimed delivery stays with its sender (``ARBITRE_NOTIFY_LEASE``; longer than a send may take)."""
    return timedelta(seconds=site.settings.notify_lease)


def channels(site: Site) -> tuple[str, ...]:
    """The outside channels this process can deliver (e-mail when an SMTP server is set; webhooks always)."""
    return ((EMAIL,) if site.settings.smtp_url else ()) + (WEBHOOK,)


Compose = Callable[[Site, Any, Any], Any]
"""Writes the e-mail of a claimed delivery (its notification, its recipient)."""
Post = Callable[[Site, Any, Any], None]
"""Posts a claimed webhook delivery (its notification, its recipient); raises on failure."""


class Dispatcher:
    """The lanes of this process.  :meth:`fill` starts workers on free slots; :meth:`join` waits for them."""

    def __init__(self, site: Site, compose: Compose, post: Post, owner: str = OWNER) -> None:
        self.site, self.owner = site, owner
        self.compose, self.post = compose, post
        self.size = {EMAIL: 1, WEBHOOK: max(1, site.settings.notify_workers)}
        self.busy = dict.fromkeys(self.size, 0)
        self.sent = 0
        self.stopping = False
        self._lock = threading.Condition()
        self._pools = {
            channel: ThreadPoolExecutor(n, thread_name_prefix=f"arbitre-{channel}") for channel, n in self.size.items()
        }

    def fill(self) -> int:
        """Claim work for every free worker of every lane and start it; returns how many deliveries were claimed."""
        claimed = 0
        for channel in channels(self.site):
            with self._lock:
                free = self.size[channel] - self.busy[channel]
            if free <= 0 or self.stopping:
                continue
            batches = self._claim(channel, free)
            for batch in batches:
                with self._lock:
                    self.busy[channel] += 1
                claimed += len(batch)
                self._pools[channel].submit(self._work, channel, batch)
        return claimed

    def join(self) -> int:
        """Wait until every worker is done; returns how many deliveries were sent so far."""
        with self._lock:
            self._lock.wait_for(lambda: not any(self.busy.values()))
            return self.sent

    def close(self) -> None:
        """Claim nothing more; the sends under way end by their deadlines (their rows are marked then)."""
        self.stopping = True
        for pool in self._pools.values():
            pool.shutdown(wait=False)

    # ------------------------------------------------------------------ workers
    def _claim(self, channel: str, workers: int) -> list[list[deliveries.Claimed]]:
        """Up to ``workers`` batches of ``channel``: one delivery each for webhooks, one batch for e-mail."""
        now = self.site.now()
        with self.site.db.writing() as s:
            if channel == EMAIL:
                found = deliveries.claim(s, self.owner, now, lease(self.site), EMAIL_BATCH, (EMAIL,))
                return [found] if found else []
            found = deliveries.claim(s, self.owner, now, lease(self.site), workers, (WEBHOOK,), one_per_user=True)
        return [[c] for c in found]

    def _work(self, channel: str, batch: list[deliveries.Claimed]) -> None:
        """Send ``batch``, then claim and send the lane's next ones until there are none."""
        try:
            while batch:
                if channel == EMAIL:
                    self._emails(batch)
                else:
                    self._webhook(batch[0])
                if self.stopping:
                    break
                batch = next(iter(self._claim(channel, 1)), [])
        except Exception:  # a broken row must not kill the worker's slot
            log.exception("notification lane %s failed", channel)
        finally:
            with self._lock:
                self.busy[channel] -= 1
                self._lock.notify_all()

    def _done(self, c: deliveries.Claimed) -> None:
        with self.site.db.writing() as s:
            ok = deliveries.finish(s, c.delivery_id, self.owner, self.site.now())
        if ok:
            with self._lock:
                self.sent += 1

    def _failed(self, c: deliveries.Claimed, err: BaseException) -> None:
        log.warning("notification %s: sending by %s failed: %s", c.notification.id, c.channel, err)
        with self.site.db.writing() as s:
            deliveries.failed(s, c.delivery_id, self.owner, self.site.now(), RETRY, f"{type(err).__name__}: {err}")

    def _unwanted(self, c: deliveries.Claimed) -> bool:
        if wants(c.user, c.channel, c.notification.kind):
            return False
        with self.site.db.writing() as s:
            deliveries.finish(s, c.delivery_id, self.owner, self.site.now(), deliveries.DROPPED, "turned off")
        return True

    def _webhook(self, c: deliveries.Claimed) -> None:
        if self._unwanted(c):
            return
        try:
            self.post(self.site, c.notification, c.user)
        except FAILURES as err:
            self._failed(c, err)
            return
        self._done(c)

    def _emails(self, batch: list[deliveries.Claimed]) -> None:
        """One SMTP connection for the batch; each message within its own deadline."""
        smtp = SmtpServer.parse(self.site.settings.smtp_url)
        seconds = self.site.settings.smtp_deadline
        start = self.site.now()
        with contextlib.ExitStack() as stack:
            connection: Any = None
            for n, c in enumerate(batch):
                if (self.site.now() - start) * 2 >= lease(self.site):  # half the lease is gone: hand the rest back
                    with self.site.db.writing() as s:
                        deliveries.release(s, [x.delivery_id for x in batch[n:]], self.owner)
                    return
                if self._unwanted(c):
                    continue
                limit = Deadline(seconds, "sending the e-mail")
                try:
                    message = self.compose(self.site, c.notification, c.user)
                    with limit.watch():
                        if connection is None:  # one SMTP connection for the batch
                            connection = stack.enter_context(smtp.connect(timeout=seconds))
                        if connection.sock is not None:
                            limit.add(connection.sock)
                        connection.send_message(message)
                except FAILURES as err:
                    self._failed(c, err)
                    connection = None  # the connection may be broken: open a new one for the next
                    continue
                self._done(c)
