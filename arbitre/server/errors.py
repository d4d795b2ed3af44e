"""Errors a handler raises, answered as JSON on the API and as a page elsewhere."""

from __future__ import annotations


class Problem(Exception):
    """An HTTP error with a clear message (``code`` is a short machine-readable name)."""

    def __init__(self, status: int, code: str, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after: int | None = None
        """Seconds to wait before trying again (sent as ``Retry-After``), for 429 answers."""
        self.where = where
        """Which part of the request is wrong (``body.orders[3]``, ``path``, ``form.minutes``), if known."""


def not_logged_in() -> Problem:
    """401: the request needs a logged-in user."""
    return Problem(401, "login_required", "log in (or send an API token) to do this")


def forbidden(message: str = "you may not do this") -> Problem:
    """403: the user is known but not allowed."""
    return Problem(403, "forbidden", message)


def not_found(what: str = "this page") -> Problem:
    """404: nothing there (also answered for things the user may not know exist)."""
    return Problem(404, "not_found", f"{what} does not exist")


def bad_request(message: str, code: str = "bad_request", where: str | None = None) -> Problem:
    """400: the request itself is wrong (``where`` names the part)."""
    return Problem(400, code, message, where)


def conflict(message: str) -> Problem:
    """409: the game's state does not allow it now."""
    return Problem(409, "conflict", message)
