"""A reader of a game's event stream for tests: connects over HTTP in a thread and keeps every event."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class Event:
    """One server-sent event as received: its raw text, type, id and JSON data."""

    raw: str
    kind: str
    id: str | None
    data: dict[str, Any]


def parse_block(block: str) -> Event | None:
    """An event from the lines of one block; ``None`` for a block of comments only (keep-alives) or ``retry``."""
    kind, event_id, data = "message", None, []
    fields = False
    for line in block.split("\n"):
        if not line or line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            kind, fields = value, True
        elif name == "id":
            event_id, fields = value, True
        elif name == "data":
            data.append(value)
            fields = True
    if not fields or not data:
        return None
    raw = "\n".join(line for line in block.split("\n") if line and not line.startswith(":"))
    return Event(raw, kind, event_id, json.loads("\n".join(data)))


class StreamReader:
    """``GET {url}`` as a stream of server-sent events, read by a thread until :meth:`close`."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = headers or {}
        self.events: list[Event] = []
        self.status: int | None = None
        self.error: BaseException | None = None
        self._cond = threading.Condition()
        self._socket: socket.socket | None = None
        self._client = httpx.Client(timeout=httpx.Timeout(10.0, read=None))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            with self._client.stream("GET", self.url, headers=self.headers) as response:
                with self._cond:
                    self.status = response.status_code
                    self._socket = response.extensions["network_stream"].get_extra_info("socket")
                    self._cond.notify_all()
                buffer = ""
                for chunk in response.iter_text():
                    buffer += chunk.replace("\r\n", "\n")
                    while "\n\n" in buffer:
                        block, buffer = buffer.split("\n\n", 1)
                        event = parse_block(block)
                        if event is not None:
                            with self._cond:
                                self.events.append(event)
                                self._cond.notify_all()
        except BaseException as err:  # closed by the test, or the server went away
            with self._cond:
                self.error = err
                self._cond.notify_all()

    def wait(self, test: Callable[[list[Event]], bool], timeout: float = 30.0) -> list[Event]:
        """Wait until ``test(events)`` holds; fails (AssertionError) with what arrived if it does not in time."""
        end = time.monotonic() + timeout
        with self._cond:
            while not test(self.events):
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"events never matched; got {[e.raw for e in self.events]} "
                        f"(status {self.status}, error {self.error!r})"
                    )
                self._cond.wait(left)
            return list(self.events)

    def wait_for(self, kind: str, count: int = 1, timeout: float = 30.0, **fields: Any) -> Event:
        """Wait for the ``count``-th event of type ``kind`` whose data has ``fields``; returns it."""

        def matching(events: list[Event]) -> list[Event]:
            return [e for e in events if e.kind == kind and all(e.data.get(k) == v for k, v in fields.items())]

        self.wait(lambda events: len(matching(events)) >= count, timeout)
        return matching(self.events)[count - 1]

    def kinds(self) -> list[str]:
        """The types of the events received so far."""
        with self._cond:
            return [e.kind for e in self.events]

    def text(self) -> str:
        """Every event received so far, as sent (keep-alive comments, whose timing is the clock's, left out)."""
        with self._cond:
            return "\n\n".join(e.raw for e in self.events)

    def close(self) -> None:
        """Hang up (shutting the socket down wakes the reading thread)."""
        with self._cond:
            sock = self._socket
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self._client.close()
        self._thread.join(10)
