"""Rendered pages kept per process, keyed by a digest of everything their template reads.

A game page is rendered again on every load although, for one reader, it changes only when something that
reader sees changes.  :class:`RenderedPages` keeps the HTML of a page under a digest of the template's name and
*all* its inputs: the context the route built for the reader (built only from what that reader may see), the
reader's identity, language and settings the templates read, and the request's address.  A hidden change
(another power's orders or private press) moves none of these inputs, so it moves neither the key nor the
bytes, and whether a load finds its page cached never depends on what the reader may not see.  The key names
the reader (their user id), so a reader is only ever served bytes rendered for them.

Two inputs change with every request and are never kept: the CSRF token (per session) and the server's time.
They are rendered as per-process random placeholders and put in, escaped as the template would have escaped
them, each time a page is served (:meth:`Rendered.fill`).  A page is cached only when its context can be
written as JSON (else it is rendered each time as before).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from markupsafe import escape

from arbitre.caching import LRU

SLOTS = ("csrf", "server_now")
"""The template variables that change with each request: rendered as placeholders, filled per request."""

_MARK = secrets.token_hex(16)
PLACEHOLDERS = {name: f"slot{_MARK}{name}" for name in SLOTS}
"""Per-process random stand-ins for :data:`SLOTS` (nobody can write one into a game name or a message)."""
_FIND = re.compile("|".join(re.escape(p) for p in PLACEHOLDERS.values()))
_NAMES = {p: name for name, p in PLACEHOLDERS.items()}


@dataclass(frozen=True)
class Rendered:
    """A rendered page cut at its placeholders: text, slot name, text, slot name, ..., text."""

    parts: tuple[str, ...]

    @classmethod
    def cut(cls, html: str) -> Rendered:
        """Cut ``html`` (rendered with :data:`PLACEHOLDERS`) at each placeholder."""
        parts: list[str] = []
        at = 0
        for m in _FIND.finditer(html):
            parts += [html[at : m.start()], _NAMES[m.group(0)]]
            at = m.end()
        parts.append(html[at:])
        return cls(tuple(parts))

    def fill(self, values: dict[str, str]) -> str:
        """The page with each slot's value put in, escaped as the template escapes a variable."""
        out = list(self.parts)
        for i in range(1, len(out), 2):
            out[i] = str(escape(values[out[i]]))
        return "".join(out)


def digest(parts: list[Any]) -> bytes | None:
    """A digest of ``parts`` written as JSON in their order (``None`` when something in them is not JSON)."""
    try:
        data = orjson.dumps(parts)
    except TypeError:
        return None
    return hashlib.blake2b(data, digest_size=20).digest()


class RenderedPages:
    """An LRU of rendered pages by key digest, shared by the process's threads (an :class:`~arbitre.caching.LRU`)."""

    def __init__(self, size: int = 512) -> None:
        self._lru: LRU[bytes, Rendered] = LRU(size)
        self._count = threading.Lock()
        self.renders = 0
        """How many pages were rendered (a key not found); a test reads it."""

    @property
    def size(self) -> int:
        """The most pages kept."""
        return self._lru.size

    def page(self, key: bytes, render: Callable[[], str]) -> Rendered:
        """The page kept under ``key``, else ``render()`` (with the placeholders) cut and kept."""
        return self._lru.get_or_make(key, lambda: self._render(render))

    def _render(self, render: Callable[[], str]) -> Rendered:
        made = Rendered.cut(render())
        with self._count:
            self.renders += 1
        return made

    def clear(self) -> None:
        """Forget every page."""
        self._lru.clear()
