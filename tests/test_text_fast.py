"""The fast path of the boundary's JSON decoder agrees with the full decoder on every input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitre.interface.text import MAX_DEPTH, TextError, full_loads, loads

CASES = [
    '{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"]}, "orders": {}}',
    '{"a": 1, "a": 2}',
    '{"a": {"b": 1, "b": 1}}',
    '{"a": ":", "b": "x:y", "c": [":"]}',
    '{"a": ":", "a": "x"}',
    '{"n": 9007199254740991}',
    '{"n": 9007199254740992}',
    '{"n": -9007199254740993}',
    '{"n": 123456789012345678901234567890}',
    '{"n": 1e400}',
    '{"n": -1E400}',
    '{"n": 1.5e3}',
    '{"n": 1.5}',
    '{"n": 12345678901234567890}',
    '{"n": -0.0, "m": [true, false, null]}',
    '{"n": NaN}',
    '{"n": Infinity}',
    '{"n": -Infinity}',
    '{"s": "a\\u0000b"}',
    '{"s": "\\ud800"}',
    '{"s": "tab\\there"}',
    '{"s": "caf\\u00e9"}',
    '{"s": "café"}',
    '{"' + "k" * 201 + '": 1}',
    '{"' + "k" * 200 + '": 1}',
    "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH,
    "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1),
    "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1),
    '{"a": [{"b": [{"c": {}}]}]}',
    "null",
    "true",
    '"text"',
    "12",
    "",
    "{",
    '{"a": 1,}',
    '{"a" : 1 , "b":2}',
    "[1, 2, 3]",
    '{"s": "' + "x" * 100_001 + '"}',
]


def _outcome(decode: Any, text: str) -> tuple[str, Any]:
    try:
        return "ok", json.dumps(decode(text))
    except TextError as err:
        return "error", (err.where, err.message)


@pytest.mark.parametrize("text", CASES, ids=range(len(CASES)))
def test_fast_path_agrees_with_full_decoder(text: str) -> None:
    assert _outcome(loads, text) == _outcome(full_loads, text)


def test_duplicates_are_refused_on_the_fast_path() -> None:
    with pytest.raises(TextError, match="given twice"):
        loads('{"units": {"FRANCE": ["A PAR"], "FRANCE": ["A BRE"]}}')


# Every ASCII character that is no printable one (C0 controls and DEL), raw inside a string, between two
# tokens, and at the ends: the fast path leaves each to the full decoder, which words the refusal or accepts it.
RAW_CONTROLS = [chr(c) for c in [*range(0x20), 0x7F]]
RAW_CASES = [
    shape.format(ch)
    for ch in RAW_CONTROLS
    for shape in ('{{"s": "a{}b"}}', '{{"a": 1,{}"b": 2}}', '{}{{"a": ["x"]}}', '{{"a": ["x"]}}{}')
]


@pytest.mark.parametrize("text", RAW_CASES, ids=[repr(t) for t in RAW_CASES])
def test_raw_control_characters_agree_with_full_decoder(text: str) -> None:
    assert _outcome(loads, text) == _outcome(full_loads, text)
