"""Attack tests on the JSON interface (Python and ``arbitre adjudicate``): hostile input gets an error object
saying where, never a traceback; JSON Lines are answered line by line; the output is always valid UTF-8."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from arbitre.cli.main import app
from arbitre.interface import RequestError, process, process_text
from tests.hostile import HOSTILE, WORDS, json_values, raw_documents, texts

EXAMPLE: dict[str, Any] = {
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
    "orders": {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"]},
}
RETREAT: dict[str, Any] = {
    "phase": "F1901R",
    "units": {"FRANCE": ["A BUR", "A MUN"], "GERMANY": ["A RUH"]},
    "dislodged": {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR", "retreats": ["BOH"]}]},
    "orders": {"GERMANY": ["A MUN R BOH"]},
}
FIELDS = [
    "map",
    "rules",
    "options",
    "phase",
    "units",
    "dislodged",
    "supply_centers",
    "orders",
    "order_sets",
    "order_sets_latest_known",
    "viewer",
    "extras",
    "step",
    "reactions",
    "unknown",
]
PROVINCES = [
    "PAR",
    "BUR",
    "MUN",
    "BOH",
    "RUH",
    "KIE",
    "BER",
    "MAO",
    "BRE",
    "STP/NC",
    "SPA/SC",
    "NTH",
    "WAR",
    "MAO-1",
    "XYZ",
    "",
]


def _check_answer(obj: dict[str, Any], ok: bool) -> None:
    if not ok:
        err = obj["error"]
        assert isinstance(err["where"], str) and err["where"], obj
        assert isinstance(err["message"], str) and err["message"], obj
    json.dumps(obj, ensure_ascii=False).encode("utf-8")  # writable as UTF-8


def _process(doc: Any) -> None:
    try:
        out = process(doc)
    except RequestError as err:
        assert err.where and err.message  # noqa: PT017 - either answer is allowed; an error must say where
        err.to_data()
        return
    _check_answer(out, True)


@HOSTILE
@given(base=st.sampled_from([EXAMPLE, RETREAT]), field=st.sampled_from(FIELDS), value=json_values())
def test_python_interface_refuses_hostile_fields(base: dict[str, Any], field: str, value: Any) -> None:
    _process({**base, field: value})


@HOSTILE
@given(
    phase=st.sampled_from(["S1901M", "F1901R", "W1901A", "S1901R"]),
    units=st.dictionaries(
        st.sampled_from(["FRANCE", "GERMANY", "ENGLAND", "NARNIA"]),
        st.lists(
            st.tuples(st.sampled_from(["A", "F", "SM", "Q"]), st.sampled_from(PROVINCES)).map(" ".join), max_size=4
        ),
        max_size=3,
    ),
    dislodged=st.dictionaries(
        st.sampled_from(["FRANCE", "GERMANY"]),
        st.lists(
            st.fixed_dictionaries(
                {
                    "unit": st.tuples(st.sampled_from(["A", "F"]), st.sampled_from(PROVINCES)).map(" ".join),
                    "attacker_from": st.one_of(st.none(), st.sampled_from(PROVINCES)),
                    "retreats": st.one_of(st.none(), st.lists(st.sampled_from(PROVINCES), max_size=3)),
                }
            ),
            max_size=2,
        ),
        max_size=2,
    ),
    orders=st.lists(st.one_of(st.sampled_from(WORDS), texts()), max_size=4),
    rules=st.lists(st.sampled_from(["submarines", "espionnite", "nope"]), max_size=2, unique=True),
)
def test_impossible_positions_are_refused_or_adjudicated(
    phase: str, units: Any, dislodged: Any, orders: Any, rules: list[str]
) -> None:
    doc = {
        "phase": phase,
        "units": units,
        "dislodged": dislodged,
        "rules": rules,
        "orders": dict.fromkeys(units, orders),
    }
    try:
        out = process(doc)
    except RequestError as err:
        assert err.where and err.message  # noqa: PT017 - either answer is allowed; an error must say where
        return
    # Accepted: every unit stands alone in its province, every retreat is a legal place.
    seen: set[str] = set()
    for ulist in out["next"]["units"].values():
        for u in ulist:
            prov = u.split()[-1].split("/")[0]
            assert prov not in seen, out
            seen.add(prov)


@HOSTILE
@given(body=raw_documents(EXAMPLE))
def test_text_reader_answers_every_raw_document(body: bytes) -> None:
    text = body.decode("utf-8", "replace")
    for obj, ok in process_text(text):
        _check_answer(obj, ok)


@HOSTILE
@given(lines=st.lists(st.one_of(raw_documents(EXAMPLE), st.just(json.dumps(EXAMPLE).encode())), min_size=2, max_size=5))
def test_json_lines_are_answered_line_by_line(lines: list[bytes]) -> None:
    # A document is one line: a raw newline inside one would make it two lines.
    lines = [line.replace(b"\n", b" ").replace(b"\r", b" ") or b"{}" for line in lines]
    lines = [line if line.strip() else b"{}" for line in lines]
    good = json.dumps(EXAMPLE).encode()
    batch = [good, *lines, good]
    result = CliRunner().invoke(app, ["adjudicate"], input=b"\n".join(batch) + b"\n")
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    result.stdout_bytes.decode("utf-8")  # never invalid UTF-8
    answers = [json.loads(line) for line in result.stdout_bytes.split(b"\n") if line]
    assert len(answers) == len(batch), (batch, answers)
    alone = process(EXAMPLE)
    assert answers[0] == alone and answers[-1] == alone  # the good lines keep their own answers
    for line, answer in zip(batch, answers, strict=True):
        if "error" in answer:
            assert answer["error"]["where"] and answer["error"]["message"]
        elif line != good:
            assert json.loads(line.decode("utf-8"))  # an accepted line was JSON


def test_line_separators_inside_strings_do_not_split_lines() -> None:
    tricky = dict(EXAMPLE, orders={"FRANCE": ["A PAR - BUR\u2028", "F BRE\x85- MAO", "A\x0cPAR"]})
    text = json.dumps(tricky, ensure_ascii=False) + "\n" + json.dumps(EXAMPLE) + "\n"
    answers = process_text(text)
    assert len(answers) == 2
    assert answers[1] == (process(EXAMPLE), True)
    out, ok = answers[0]
    assert ok and [r["reason"] for r in out["results"][:3]] == ["control_character"] * 3, out


CONTROLS = st.one_of(
    st.integers(0, 0x1F).filter(lambda c: c != 0x09),  # C0 but the tab
    st.integers(0x7F, 0x9F),  # DEL and C1 (U+0085 among them)
    st.sampled_from([0x2028, 0x2029, 0xFFFE, 0xFFFF]),
).map(chr)


def _one_bad_line(result: dict[str, Any], line: str, code: int, at: int) -> None:
    """The answer adjudicates the position; the bad line is that order's result, naming the character and where."""
    results = result["results"]
    (bad,) = [r for r in results if r["order"] == line]
    assert bad["outcome"] == "invalid" and bad["reason"] == "control_character", bad
    assert f"(U+{code:04X}) at character {at + 1}" in bad["message"], bad
    others = {r["order"]: r["outcome"] for r in results if r is not bad}
    assert others["F BRE - MAO"] == "succeeds" and others["A PAR H"] == "succeeds"  # A PAR had no readable order
    assert result["next"]["units"] == {"FRANCE": ["F MAO", "A PAR"], "GERMANY": ["A MUN"]}


@settings(max_examples=300, deadline=None)
@given(control=CONTROLS, at=st.integers(0, len("A PAR - BUR")))
def test_a_control_character_in_one_order_line_is_that_orders_result(control: str, at: int) -> None:
    line = "A PAR - BUR"[:at] + control + "A PAR - BUR"[at:]
    doc = dict(EXAMPLE, orders={"FRANCE": [line, "F BRE - MAO"], "GERMANY": ["A MUN H"]})
    _one_bad_line(process(doc), line, ord(control), at)
    # the same through the text reader, JSON escaped or raw
    for text in (json.dumps(doc), json.dumps(doc, ensure_ascii=False)):
        ((out, ok),) = process_text(text)  # json.dumps escapes every C0 control: no raw line break
        assert ok, out
        _one_bad_line(out, line, ord(control), at)


@settings(max_examples=40, deadline=None)
@given(control=CONTROLS, at=st.integers(0, len("A PAR - BUR")))
def test_a_control_character_in_one_order_line_through_arbitre_adjudicate(control: str, at: int) -> None:
    line = "A PAR - BUR"[:at] + control + "A PAR - BUR"[at:]
    doc = dict(EXAMPLE, orders={"FRANCE": [line, "F BRE - MAO"], "GERMANY": ["A MUN H"]})
    result = CliRunner().invoke(app, ["adjudicate"], input=json.dumps(doc).encode())
    assert result.exit_code == 0, result.output
    _one_bad_line(json.loads(result.stdout_bytes), line, ord(control), at)
    # a lone surrogate cannot be written back: it still refuses the request, saying where
    bad = json.dumps(dict(doc, orders={"FRANCE": ["A PAR\ud800 - BUR"]}))
    result = CliRunner().invoke(app, ["adjudicate"], input=bad.encode())
    assert result.exit_code == 1
    assert json.loads(result.stdout_bytes)["error"]["where"] == "orders.FRANCE[0]"
