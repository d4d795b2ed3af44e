"""Text and JSON rules of every boundary: what a string or a decoded JSON document may hold.

The JSON interface, the command line and the server all read outside input
through these functions, so every boundary refuses the same things with the
same words: lone UTF-16 surrogates (they cannot be written back as UTF-8),
control characters (``NUL`` cannot even be stored by PostgreSQL), nesting
deeper than :data:`MAX_DEPTH`, integers beyond :data:`MAX_INT`, ``NaN`` and
infinities, and an object naming the same field twice.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection
from typing import Any, Final

import orjson

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a JSON document may have."""
MAX_INT = 2**53 - 1
"""Largest integer (in absolute value) a JSON document may hold: exact in every JSON reader."""
MAX_INT_DIGITS = 1000
"""Integers with more digits are refused while parsing (Python itself refuses 4,300); :func:`check_tree` then
refuses, naming where, any integer beyond :data:`MAX_INT`."""
MAX_STRING = 100_000
"""Longest string a JSON document may hold; each field has its own, smaller limit on top."""

_LINE_BREAKS = "\n\r"
_ALLOWED_CONTROLS = "\t"


class TextError(ValueError):
    """Input text refused at the boundary; ``where`` says which part of the input."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def text_problem(value: str, *, multiline: bool = False, controls: bool = False) -> str | None:
    """Why ``value`` may not be accepted as text (``None`` when it may).

    Refused: lone surrogates, ``NUL`` and other C0/C1 control characters (tab is
    allowed; line breaks only when ``multiline``), U+2028/U+2029, and the
    non-characters U+FFFE/U+FFFF.  The reason never echoes the bad character.
    With ``controls`` only lone surrogates are refused (they cannot be written
    back as UTF-8): the reader of the text refuses the rest itself.
    """
    if value.isascii() and value.isprintable():
        return None  # the common case, fast
    for i, ch in enumerate(value):
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            return f"a lone UTF-16 surrogate (U+{code:04X}) at character {i + 1}"
        if controls:
            continue
        if code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFFFE, 0xFFFF):
            if ch in _ALLOWED_CONTROLS or (multiline and ch in _LINE_BREAKS):
                continue
            return f"a control character (U+{code:04X}) at character {i + 1}"
    return None


def check_text(
    value: str, where: str, *, multiline: bool = False, max_length: int | None = None, controls: bool = False
) -> str:
    """``value`` if it is acceptable text (see :func:`text_problem`), else raise :class:`TextError`."""
    if max_length is not None and len(value) > max_length:
        raise TextError(where, f"at most {max_length} characters (got {len(value)})")
    problem = text_problem(value, multiline=multiline, controls=controls)
    if problem:
        raise TextError(where, f"text holds {problem}")
    return value


def check_tree(value: Any, where: str = "", depth: int = 0, *, lines: Collection[str] = ()) -> None:
    """Check a decoded JSON value: depth, integer size, finite numbers, text of keys and strings.

    Strings may hold line breaks (a press message does); keys may not.  ``lines``
    names top-level fields holding lines by key (``{"FRANCE": ["A PAR - BUR"]}``)
    whose reader refuses a control character line by line (one order comes back
    refused, the rest is read): in those lines only lone surrogates are refused here.
    """
    if depth > MAX_DEPTH:
        raise TextError(where or "(top level)", f"nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, str):
        check_text(value, where or "(top level)", multiline=True, max_length=MAX_STRING)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_INT:
            raise TextError(where or "(top level)", f"integers are at most {MAX_INT} in absolute value")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise TextError(where or "(top level)", "numbers must be finite")
    elif isinstance(value, dict):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            check_text(str(key), (where or "(top level)") + " (a field name)", max_length=200)
            if depth == 0 and key in lines:
                _check_lines(item, path, depth + 1)
            else:
                check_tree(item, path, depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            check_tree(item, f"{where}[{i}]" if where else f"[{i}]", depth + 1)


def _check_lines(value: Any, where: str, depth: int) -> None:
    """:func:`check_tree` of ``{key: [line, ...]}`` whose lines may hold control characters (any other shape is
    checked as usual, and its reader words the refusal)."""
    if not isinstance(value, dict):
        check_tree(value, where, depth)
        return
    for key, items in value.items():
        path = f"{where}.{key}"
        check_text(str(key), f"{where} (a field name)", max_length=200)
        if not isinstance(items, list):
            check_tree(items, path, depth + 1)
            continue
        for i, item in enumerate(items):
            if isinstance(item, str):
                check_text(item, f"{path}[{i}]", max_length=MAX_STRING, controls=True)
            else:
                check_tree(item, f"{path}[{i}]", depth + 2)


class _DuplicateField(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateField(key)
        out[key] = value
    return out


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise OverflowError(digits)
    return int(digits)


def _no_constant(name: str) -> Any:
    raise ValueError(name)


class JsonSyntaxError(TextError):
    """The text is not JSON at all (as opposed to JSON breaking a limit)."""


_NOT_PLAIN: Final[tuple[str, ...]] = ("\\", "\x7f", "\t", "\r", "\n")
"""A backslash, and the non-printable ASCII characters that orjson accepts: DEL in a string, whitespace outside."""


def _plain_loads(text: str) -> Any:
    """The decoded value of ``text`` when it is plain JSON that breaks no boundary rule, else ``None``.

    Plain: printable ASCII (so no control character, surrogate or line break in
    any string), no backslash (so no escape: every ``"`` delimits a string), and
    numbers within the limits.  Duplicated fields are found by counting the
    colons outside strings against the fields decoded.  Anything in doubt goes
    to the full decoder, which then says what is wrong and where.
    """
    # Printable ASCII without testing each character (str.isprintable costs a twentieth of a phase): orjson
    # refuses every C0 control character but the whitespace tab, CR and LF, which are looked for here with DEL.
    if len(text) > MAX_STRING or not text.isascii():
        return None
    for absent in _NOT_PLAIN:
        if absent in text:
            return None
    try:
        value = orjson.loads(text)  # refuses NaN and Infinity: the full decoder then words the error
    except orjson.JSONDecodeError:
        return None
    fields = _fields(value, 0)
    if fields < 0:
        return None
    # Every field has one colon outside strings; fewer fields than such colons means a field given twice.
    if fields != text.count(":") and fields != sum(part.count(":") for part in text.split('"')[::2]):
        return None
    return value


def _fields(value: Any, depth: int) -> int:
    """How many fields the objects in ``value`` hold; -1 when something breaks a limit (the full check words it).

    Limits: nesting, field names of at most 200 characters, integers within
    :data:`MAX_INT` (and no float: see :func:`_scalar`).
    """
    if depth >= MAX_DEPTH:  # the full check counts the values inside too: leave the edge to it
        return -1
    if type(value) is dict:
        fields: dict[str, Any] = value
        count = len(fields)
        for key, item in fields.items():
            if len(key) > 200:
                return -1
            inner = _inner(item, depth)
            if inner < 0:
                return -1
            count += inner
        return count
    if type(value) is list:
        items: list[Any] = value
        count = 0
        for item in items:
            inner = _inner(item, depth)
            if inner < 0:
                return -1
            count += inner
        return count
    return _scalar(value)


def _inner(item: Any, depth: int) -> int:
    """:func:`_fields` of an item inside a container at ``depth`` (strings, the common case, first)."""
    kind = type(item)
    if kind is str:
        return 0
    return _fields(item, depth + 1) if kind is dict or kind is list else _scalar(item)


def _scalar(value: Any) -> int:
    """0 for an integer within the limits (or a string, boolean or null), -1 otherwise.

    Floats go to the full decoder: the fast one reads an integer too long for 64 bits as a float.
    """
    if type(value) is int:
        return 0 if -MAX_INT <= value <= MAX_INT else -1
    return -1 if type(value) is float else 0


def loads(text: str, where: str = "(json)", *, lines: Collection[str] = ()) -> Any:
    """Decode JSON text under the boundary rules (raises :class:`TextError`, never anything else).

    Refuses duplicated fields, ``NaN``/``Infinity``, integers of more than
    :data:`MAX_INT_DIGITS` digits or beyond :data:`MAX_INT`, nesting deeper than
    :data:`MAX_DEPTH`, and bad text anywhere (:func:`check_tree`; ``lines`` as there).  Plain text
    (the common case) is decoded in one pass of a C decoder (:func:`_plain_loads`).
    """
    plain = _plain_loads(text)
    if plain is not None:
        return plain
    return full_loads(text, where, lines=lines)


def full_loads(text: str, where: str = "(json)", *, lines: Collection[str] = ()) -> Any:
    """:func:`loads` without its fast path: the reference it must agree with."""
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_int=_parse_int, parse_constant=_no_constant)
    # Each clause names its exception apart: the compiled build types a name by its first clause.
    except json.JSONDecodeError as syntax:
        raise JsonSyntaxError(
            where, f"not valid JSON (line {syntax.lineno}, column {syntax.colno}): {syntax.msg}"
        ) from syntax
    except _DuplicateField as twice:
        raise TextError(where, f"the field {twice.key[:60]!r} is given twice") from twice
    except OverflowError as too_big:
        raise TextError(where, f"integers are at most {MAX_INT} in absolute value") from too_big
    except RecursionError as too_deep:
        raise TextError(where, f"nested more than {MAX_DEPTH} levels deep") from too_deep
    except ValueError as constant:  # parse_constant
        raise TextError(where, f"numbers must be finite ({constant} is not allowed)") from constant
    try:
        check_tree(value, lines=lines)
    except TextError as err:
        raise TextError(join_where(where, err.where), err.message) from err
    return value


def join_where(root: str, sub: str) -> str:
    """``where`` of a part inside ``root``: ``body`` + ``orders[0]`` → ``body.orders[0]``;
    ``line 2`` + ``map`` → ``line 2: map``; the root ``(json)`` names the whole input."""
    if root == "(json)":
        return sub
    if sub in ("", "(top level)"):
        return root
    if root.startswith("line "):
        return f"{root}: {sub}"
    return root + ("" if sub.startswith("[") else ".") + sub


def dump_line(value: Any) -> bytes:
    """One line of compact JSON (sorted keys, UTF-8, ending in a newline): what ``arbitre adjudicate`` prints.

    Text that cannot be written as UTF-8 (a lone surrogate) and integers
    beyond 64 bits are left to the standard encoder, non-ASCII escaped.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return (json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":")) + "\n").encode()


def dumps(value: Any) -> str:
    """Canonical JSON text of ``value`` (sorted keys) that is always valid UTF-8 (non-ASCII kept, or
    escaped when it could not be written as UTF-8)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, sort_keys=True)
    return text
