"""Typed order errors: invalid (cannot be read), illegal (not allowed), ambiguous."""

from __future__ import annotations


class OrderError(ValueError):
    """Base class of order errors.  ``kind`` is ``invalid``, ``illegal`` or ``ambiguous``.

    ``text`` is the order as written; ``column`` (0-based) points at the part
    that could not be read, when known; ``reason`` is a short code for programs.
    """

    kind = "error"

    def __init__(self, message: str, *, text: str = "", column: int | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.column = column
        self.reason = reason or self.kind

    def describe(self) -> str:
        """The message with the order text and a pointer to the column, if known."""
        if self.text and self.column is not None:
            return f"{self.message} (in {self.text!r} at column {self.column + 1})"
        if self.text:
            return f"{self.message} (in {self.text!r})"
        return self.message


class InvalidOrder(OrderError):
    """The order cannot be read, or names something that does not exist."""

    kind = "invalid"


class IllegalOrder(OrderError):
    """The order is understood but the rules do not allow it."""

    kind = "illegal"


class AmbiguousOrder(IllegalOrder):
    """The order could mean more than one thing (a coast or a name left open)."""

    kind = "ambiguous"
