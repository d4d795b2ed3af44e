"""Shared pydantic types for request bodies: every text field and number of every route is bounded.

Use these in new routes instead of bare ``str``/``int``/``list``/``dict``: they
refuse lone surrogates and control characters (line breaks only where a field
is multi-line), and bound every length, count and number.  The boundary
middleware (:mod:`arbitre.server.boundary`) already refuses what is never
acceptable in any field; these types add each field's own limits.
"""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from arbitre.interface.text import text_problem

MAX_ID = 2**31 - 1
"""Largest row id (a 32-bit integer column on every database)."""
MAX_ORDERS = 200
"""Most order lines one request may carry."""
MAX_LINE = 200
"""Longest order line, option value or other one-line field."""
MAX_ITEMS = 64
"""Longest list or mapping of a request body other than orders (rules, options, powers, deadlines)."""
MAX_MESSAGE = 5000
"""Longest press message."""
MAX_SECONDS = 60 * 24 * 3600
"""Longest deadline (60 days), in seconds."""


def _one_line(value: str) -> str:
    problem = text_problem(value)
    if problem:
        raise ValueError(f"text holds {problem}")
    return value


def _many_lines(value: str) -> str:
    problem = text_problem(value, multiline=True)
    if problem:
        raise ValueError(f"text holds {problem}")
    return value


Line = Annotated[str, StringConstraints(max_length=MAX_LINE), AfterValidator(_one_line)]
"""One line of text (an order, an option value, a power name): no line breaks or control characters."""
ShortText = Annotated[str, StringConstraints(max_length=80), AfterValidator(_one_line)]
"""A short one-line text (a name, a label)."""
LongText = Annotated[str, StringConstraints(max_length=MAX_MESSAGE), AfterValidator(_many_lines)]
"""Multi-line text (a press message)."""
Secret = Annotated[str, StringConstraints(max_length=200), AfterValidator(_one_line)]
"""A password (one line, at most 200 characters)."""
Orders = Annotated[list[Line], Field(max_length=MAX_ORDERS)]
"""Order lines (at most :data:`MAX_ORDERS` of :data:`MAX_LINE` characters)."""
Names = Annotated[list[ShortText], Field(max_length=MAX_ITEMS)]
"""A short list of names (rule modules, powers)."""
OptionValue = Annotated[Line | Annotated[int, Field(ge=-MAX_ID, le=MAX_ID)] | bool, Field(union_mode="left_to_right")]
"""A rule option's value: one line of text, a bounded integer or a boolean."""
Options = Annotated[dict[ShortText, OptionValue], Field(max_length=MAX_ITEMS)]
"""Rule options by name."""
Seconds = Annotated[int, Field(ge=10, le=MAX_SECONDS)]
"""A deadline in seconds (10 seconds to 60 days)."""
Deadlines = Annotated[dict[ShortText, Seconds], Field(max_length=MAX_ITEMS)]
"""Deadlines by phase kind or step."""
Minutes = Annotated[int, Field(ge=-MAX_SECONDS // 60, le=MAX_SECONDS // 60)]
"""A number of minutes (at most 60 days either way)."""
RowId = Annotated[int, Field(ge=1, le=MAX_ID)]
"""A row id (game, token, message…)."""


class Strict(BaseModel):
    """Base of every request body: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


def minutes_field(value: str, key: str, problems: list[str]) -> int:
    """A form's deadline typed in minutes, as seconds; a line added to ``problems`` (and 0) when it is not
    a number of minutes from 0 to 60 days."""
    try:
        minutes = float(value)
    except ValueError:
        minutes = math.nan
    if not math.isfinite(minutes) or not 0 <= minutes * 60 <= MAX_SECONDS:
        problems.append(f"deadline {key}: {value[:40]!r} is not a number of minutes (at most 60 days)")
        return 0
    return round(minutes * 60)
