"""A wall-clock deadline for one whole exchange with an outside server (a webhook POST, an SMTP send).

A per-read timeout does not bound an exchange: a server that answers one byte every few seconds never
lets a read time out.  :class:`Deadline` counts from its start; :meth:`Deadline.left` gives each blocking
call the time that remains (and raises once none does), and :meth:`Deadline.watch` shuts the exchange's
sockets down when the time is up, which wakes any call still blocked on them (a TLS handshake reads
several times within one call).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator


class DeadlineExceeded(TimeoutError):
    """The exchange did not end within its deadline (it was cut)."""


class Deadline:
    """``seconds`` from now, for one exchange."""

    def __init__(self, seconds: float, what: str) -> None:
        self.seconds = seconds
        self.what = what
        self.end = time.monotonic() + seconds
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.expired = False

    def left(self) -> float:
        """The seconds that remain (raises :class:`DeadlineExceeded` when none do)."""
        remaining = self.end - time.monotonic()
        if remaining <= 0 or self.expired:
            raise self.error()
        return remaining

    def error(self) -> DeadlineExceeded:
        """The error that says the exchange was cut."""
        return DeadlineExceeded(f"{self.what} did not end within {self.seconds:g} s: cut")

    def add(self, sock: socket.socket) -> None:
        """Shut ``sock`` down too when the time is up."""
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    @contextlib.contextmanager
    def watch(self) -> Iterator[Deadline]:
        """Within the block, the sockets given to :meth:`add` are shut down when the deadline passes."""
        timer = threading.Timer(max(self.end - time.monotonic(), 0.0), self._expire)
        timer.daemon = True
        timer.start()
        try:
            yield self
        except OSError as err:
            # Every blocking call gets the time that remains as its timeout: a timeout is the deadline too.
            if (self.expired or isinstance(err, TimeoutError)) and not isinstance(err, DeadlineExceeded):
                raise self.error() from err
            raise
        finally:
            timer.cancel()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
