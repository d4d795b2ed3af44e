"""Speed work must not change answers: the contract's answers to a stored corpus, made before it.

The corpus (``tests/data/contract_corpus.jsonl.gz``, made by ``bench/corpus.py make``)
holds random positions of the standard and Colonial maps, with and without rule
modules and options, their orders (some wrong), viewers, a few broken requests,
and the line ``arbitre adjudicate`` printed for each.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from arbitre.interface import process_bytes
from arbitre.interface.adjudicate import answer_lines
from arbitre.interface.text import dump_line, dumps

CORPUS = Path(__file__).parent / "data" / "contract_corpus.jsonl.gz"


def _ordered(value: Any) -> Any:
    """``value`` with each object as its list of items: key order counts when compared."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def _entries() -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


ENTRIES = _entries()


def test_corpus_is_varied() -> None:
    kinds = {
        (e["request"].get("map", "standard"), tuple(e["request"].get("rules", ())), e["request"]["phase"][-1])
        for e in ENTRIES
    }
    assert len(ENTRIES) > 1000
    assert {k[2] for k in kinds} == {"M", "R", "A"}
    assert any(not e["ok"] for e in ENTRIES)
    assert any("viewer" in e["request"] for e in ENTRIES)


@pytest.mark.parametrize("chunk", range(4))
def test_answers_unchanged(chunk: int) -> None:
    part = ENTRIES[chunk::4]
    # One JSON Lines batch, as the command reads it: answers come back in order.
    batch = "\n".join(json.dumps(e["request"]) for e in part).encode()
    answers = process_bytes(batch)
    assert len(answers) == len(part)
    for entry, (answer, ok) in zip(part, answers, strict=True):
        got = json.loads(dumps(answer))
        if "error" in got and not entry["ok"]:
            # In a batch an error names its line first; the stored answer was a one-line document.
            got["error"]["where"] = got["error"]["where"].split(": ", 1)[-1]
        assert (ok, _ordered(got)) == (entry["ok"], _ordered(json.loads(entry["answer"]))), entry["request"]


@pytest.mark.parametrize("chunk", range(4))
def test_printed_lines_are_the_answers(chunk: int) -> None:
    """``arbitre adjudicate`` writes common outcomes straight to bytes: byte for byte the answer objects' lines."""
    batch = "\n".join(json.dumps(e["request"]) for e in ENTRIES[chunk::4]).encode()
    lines = [(dump_line(answer), ok) for answer, ok in process_bytes(batch)]
    assert answer_lines(batch, straight=True) == lines
    assert answer_lines(batch) == lines


def test_printed_lines_escape_as_the_objects_do() -> None:
    """Order texts needing escapes (quote, backslash, tab, accents, a control character), a viewer, a
    dislodged unit with its retreats: written straight to bytes exactly as the answer objects print."""
    requests = [
        {
            "phase": "F1901M",
            "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
            "orders": {
                "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", 'A "PAR\\ - \tBUR', "Ä Brést ~ Pic", "A PAR\u0001"],
                "GERMANY": ["A MUN - RUH"],
            },
        },
        {
            "phase": "S1901M",
            "units": {"ENGLAND": ["F LON"]},
            "orders": {"ENGLAND": ["F LON - NTH"]},
            "viewer": "england",
        },
    ]
    batch = "\n".join(json.dumps(r, ensure_ascii=False) for r in requests).encode()
    lines = answer_lines(batch, straight=True)
    assert lines == [(dump_line(answer), ok) for answer, ok in process_bytes(batch)]
    first = json.loads(lines[0][0])
    assert first["next"]["dislodged"]["GERMANY"][0]["unit"] == "A BUR"
    assert {r["order"] for r in first["results"]} >= {'A "PAR\\ - \tBUR', "Ä Brést ~ Pic"}
