"""Fast paths give the answers of the general code they shortcut."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.adjudicator import adjudicate
from arbitre.judge import position_from_data
from arbitre.orders import STANDARD_SYNTAX, Convoy, Hold, Move, Order, OrderError, Support, UnitRef
from arbitre.orders.parser import OrderParser, _parse_short
from arbitre.rules.kinds import _general_places, standard_places
from arbitre.variants import make_rules
from arbitre.views import build as view_build
from arbitre.views import (
    build_view,
    next_position_data,
    position_data,
    public_results_data,
    results_data,
    view_to_data,
)

CORPUS = Path(__file__).parent / "data" / "contract_corpus.jsonl.gz"


def _plain_requests(limit: int) -> list[dict[str, Any]]:
    """Requests of the corpus with no rule module (the fast paths' case) that are answered."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        entries = [json.loads(line) for line in f]
    out = [
        e["request"]
        for e in entries
        if e["ok"] and not e["request"].get("rules") and e["request"].get("map", "standard") == "standard"
    ]
    return out[:limit]


REQUESTS = _plain_requests(120)


def test_standard_places_read_like_the_general_reading() -> None:
    rules = make_rules("standard")
    seen = 0
    for req in REQUESTS:
        for texts in req.get("orders", {}).values():
            for text in texts:
                try:
                    order = rules.parse(text)
                except OrderError:
                    continue
                assert standard_places(order) == _general_places(order), text
                seen += 1
    assert seen > 1000


@pytest.mark.parametrize("viewer", ["master", "FRANCE", "observer"])
def test_public_views_equal_the_general_views(viewer: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = make_rules("standard")
    cases = []
    for req in REQUESTS:
        position = position_from_data(
            rules, req["phase"], req["units"], req["supply_centers"], req.get("dislodged"), req.get("extras")
        )
        outcome = adjudicate(rules, position, {p.upper(): o for p, o in req.get("orders", {}).items()})
        cases.append((position, outcome))
    fast = [
        (view_to_data(build_view(rules, p, viewer, o)), next_position_data(rules, o.after, viewer)) for p, o in cases
    ]
    fast_results = [public_results_data(rules, o, viewer) for _, o in cases]
    monkeypatch.setattr(view_build, "_hides_nothing", lambda _rules: False)
    general = [
        (view_to_data(build_view(rules, p, viewer, o)), position_data(build_view(rules, o.after, viewer)))
        for p, o in cases
    ]
    assert fast == general
    general_results = [results_data(build_view(rules, p, viewer, o)) for p, o in cases]
    assert fast_results == general_results
    assert any(r and any("message" in e for e in r) for r in fast_results) == (viewer != "observer")
    assert any(f[0]["dislodged"] for f in fast)


# The canonical short notation as the order reader matched it before it split on spaces (the reference).
_SHORT_PLACE = r"([A-Z]{3}(?:/[NSEW]C)?)"
_SHORT_REFERENCE = re.compile(
    rf"([AF]) {_SHORT_PLACE}(?:( H)|(?: - {_SHORT_PLACE}( VIA)?)|(?: S ([AF]) {_SHORT_PLACE}(?: - {_SHORT_PLACE})?)"
    rf"|(?: C A {_SHORT_PLACE} - {_SHORT_PLACE}))?"
)
_STANDARD_MAP = make_rules("standard").game_map
_SHORT_WORDS = st.sampled_from(
    [
        "A",
        "F",
        "PAR",
        "BUR",
        "MAR",
        "STP/SC",
        "STP/NC",
        "SPA/NC",
        "NTH",
        "LON",
        "NWY",
        "ENG",
        "BRE",
        "STP",
        "XXX",
        "par",
        "Par",
        "PAR/SC",
        "PA",
        "PARI",
        "-",
        "S",
        "C",
        "H",
        "VIA",
        "via",
        "R",
        "D",
        "B",
        "",
        "\t",
        "BUR ",
    ]
)


def _short_reference(text: str) -> Order | None:
    """What ``_parse_short`` answered with the regular expression (``None``: the full parser decides)."""
    m = _SHORT_REFERENCE.fullmatch(text)
    if m is None:
        return None
    kind, place, _hold, target, via, skind, splace, starget, carmy, ctarget = m.groups()
    places = _STANDARD_MAP.places
    if place not in places or (target is not None and target not in places):
        return None
    unit = UnitRef(kind, place)
    if target is not None:
        return Move(unit, target, via is not None)
    if splace is not None:
        if splace not in places or (starget is not None and starget not in places):
            return None
        return Support(unit, UnitRef(skind, splace), starget)
    if carmy is not None:
        if carmy not in places or ctarget not in places:
            return None
        return Convoy(unit, UnitRef("A", carmy), ctarget)
    return Hold(unit)


@given(st.lists(_SHORT_WORDS, min_size=1, max_size=8), st.sampled_from([" ", "  ", " ", " "]))
@settings(max_examples=3000, deadline=None)
def test_short_notation_reader_matches_its_reference(words: list[str], space: str) -> None:
    """The short-notation reader (words split on single spaces) reads exactly what the regular expression it
    replaced read, into the same orders, and those are what the full parser reads."""
    text = space.join(words)
    got = _parse_short(text, _STANDARD_MAP)
    assert got == _short_reference(text)
    if got is not None:
        assert OrderParser(_STANDARD_MAP, text, STANDARD_SYNTAX).parse() == got


@pytest.mark.parametrize(
    "text",
    [
        "A PAR",
        "A PAR H",
        "A PAR - BUR",
        "A LON - NWY VIA",
        "A PAR S A MAR",
        "A PAR S A MAR - BUR",
        "F NTH C A LON - NWY",
        "F STP/SC - BOT",
        "F MAO S F SPA/NC - POR",
    ],
)
def test_short_notation_reader_reads_every_form(text: str) -> None:
    """Each form of the canonical short notation is read by the short reader, as the full parser reads it."""
    got = _parse_short(text, _STANDARD_MAP)
    assert got is not None
    assert got == OrderParser(_STANDARD_MAP, text, STANDARD_SYNTAX).parse()
    assert got.format() == (text if text != "A PAR" else "A PAR H")
