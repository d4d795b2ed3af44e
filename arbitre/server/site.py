"""The server's shared objects: database, referee, signer, clock, settings."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime

from arbitre.life.referee import Referee
from arbitre.server.chores import Chores
from arbitre.server.clock import Clock, SystemClock
from arbitre.server.limits import Limiter
from arbitre.server.rendered import RenderedPages
from arbitre.server.security import Signer
from arbitre.server.throttle import LoginGuard
from arbitre.store import Database


@dataclass
class Settings:
    """Server settings; :meth:`from_env` reads the ``ARBITRE_*`` environment variables."""

    database_url: str | None = None
    worker_interval: float = 2.0
    run_worker: bool = True
    secure_cookies: bool = False
    adjudication_pause: float = 0.0
    threads: int = 8
    stream_keepalive: float = 20.0
    """Seconds between two keep-alive lines of an idle event stream (each also re-reads the reader's glance)."""
    smtp_url: str = ""
    """Where e-mail goes: ``smtp://[user:password@]host[:port][?starttls=1]`` or ``smtps://…`` ("": no e-mail)."""
    mail_from: str = ""
    """The ``From`` address of notifications ("": ``arbitre@`` the site's host name)."""
    site_url: str = "http://127.0.0.1:8000"
    """The site's public address, for the links in e-mails."""
    notify_interval: float = 2.0
    """Seconds between two runs of the notification sender."""
    run_sender: bool = True
    """Does this process run the notification sender (with the worker)?"""
    notify_lease: float = 120.0
    """Seconds a sender keeps the deliveries it claimed before another may claim them (longer than a send)."""
    webhook_http_loopback: bool = False
    """May a webhook URL be plain ``http://`` to a loopback address (tests and local tools; never in production)?"""
    trusted_proxies: str = ""
    """The proxies whose ``X-Forwarded-For``/``X-Forwarded-Proto`` are believed: addresses or networks (CIDR),
    separated by commas or spaces ("": none; every other client's headers are ignored)."""
    body_seconds: float = 10.0
    """Longest time to receive a request body (or drop a too-large one), in seconds; then the answer is 408."""
    webhook_deadline: float = 10.0
    """Seconds a whole webhook exchange may take (connection, TLS, request, answer) before it is cut."""
    smtp_deadline: float = 30.0
    """Seconds the sending of one e-mail may take (the SMTP exchange of that message) before it is cut."""
    notify_workers: int = 4
    """Webhooks sent at once by this process (each recipient's at most one at a time); e-mail has its own lane."""

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from ``ARBITRE_DATABASE_URL``, ``ARBITRE_WORKER_INTERVAL``, ``ARBITRE_SECURE_COOKIES``,
        ``ARBITRE_THREADS`` (request threads per process), ``ARBITRE_WORKER`` (``0``: no deadline worker) and the
        notification settings ``ARBITRE_SMTP_URL``, ``ARBITRE_MAIL_FROM``, ``ARBITRE_SITE_URL``,
        ``ARBITRE_NOTIFY_INTERVAL``, ``ARBITRE_NOTIFY_LEASE``, ``ARBITRE_SENDER`` (``0``: this process sends nothing),
        ``ARBITRE_WEBHOOK_DEADLINE``, ``ARBITRE_SMTP_DEADLINE``, ``ARBITRE_NOTIFY_WORKERS``,
        ``ARBITRE_TRUSTED_PROXIES`` (the reverse proxies whose forwarding headers are believed) and
        ``ARBITRE_BODY_SECONDS`` (the longest time to receive a request body)."""
        return cls(
            database_url=os.environ.get("ARBITRE_DATABASE_URL") or None,
            worker_interval=float(os.environ.get("ARBITRE_WORKER_INTERVAL", "2")),
            run_worker=os.environ.get("ARBITRE_WORKER", "1") != "0",
            secure_cookies=os.environ.get("ARBITRE_SECURE_COOKIES", "0") == "1",
            adjudication_pause=float(os.environ.get("ARBITRE_TEST_ADJUDICATION_PAUSE", "0")),
            threads=int(os.environ.get("ARBITRE_THREADS", "8")),
            stream_keepalive=float(os.environ.get("ARBITRE_STREAM_KEEPALIVE", "20")),
            smtp_url=os.environ.get("ARBITRE_SMTP_URL", ""),
            mail_from=os.environ.get("ARBITRE_MAIL_FROM", ""),
            site_url=os.environ.get("ARBITRE_SITE_URL", "http://127.0.0.1:8000").rstrip("/"),
            notify_interval=float(os.environ.get("ARBITRE_NOTIFY_INTERVAL", "2")),
            run_sender=os.environ.get("ARBITRE_SENDER", "1") != "0",
            notify_lease=float(os.environ.get("ARBITRE_NOTIFY_LEASE", "120")),
            webhook_http_loopback=os.environ.get("ARBITRE_WEBHOOK_HTTP_LOOPBACK", "0") == "1",
            trusted_proxies=os.environ.get("ARBITRE_TRUSTED_PROXIES", ""),
            body_seconds=float(os.environ.get("ARBITRE_BODY_SECONDS", "10")),
            webhook_deadline=float(os.environ.get("ARBITRE_WEBHOOK_DEADLINE", "10")),
            smtp_deadline=float(os.environ.get("ARBITRE_SMTP_DEADLINE", "30")),
            notify_workers=max(1, int(os.environ.get("ARBITRE_NOTIFY_WORKERS", "4"))),
        )


@dataclass
class Site:
    """Everything a request handler needs, kept on ``app.state.site``."""

    db: Database
    signer: Signer
    settings: Settings
    clock: Clock = field(default_factory=SystemClock)
    referee: Referee = field(default_factory=Referee)
    limits: Limiter = field(init=False)
    """The limits on guessing, counted in the database (shared by every server process)."""
    guard: LoginGuard = field(init=False)
    """Login limits, the fair queue of password checks and the password-hashing gate."""
    chores: Chores = field(default_factory=Chores)
    """Work done after the answer (the password-reset e-mails)."""
    pages: RenderedPages = field(default_factory=RenderedPages)
    """Rendered game pages by a digest of everything their template reads (:mod:`arbitre.server.rendered`)."""

    def __post_init__(self) -> None:
        self.limits = Limiter(self.db, self.now)
        self.guard = LoginGuard(self.limits)

    def now(self) -> datetime:
        """The site's current time."""
        return self.clock.now()
