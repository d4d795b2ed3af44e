"""Order notation: every usual form parses, formats back, and errors are typed."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.maps import load_map
from arbitre.orders import AmbiguousOrder, IllegalOrder, InvalidOrder, parse_order

MAP = load_map("standard")

EXAMPLES = [
    ("A PAR - BUR", "A PAR - BUR"),
    ("a par-bur", "A PAR - BUR"),
    ("A PAR -> BUR", "A PAR - BUR"),
    ("F STP/SC - BOT", "F STP/SC - BOT"),
    ("F STP(SC)", "F STP/SC H"),
    ("F STP (sc) H", "F STP/SC H"),
    ("A PAR S A MAR - BUR", "A PAR S A MAR - BUR"),
    ("A PAR S MAR", "A PAR S MAR"),
    ("F NTH C A LON - NWY", "F NTH C A LON - NWY"),
    ("A LON - NWY VIA", "A LON - NWY VIA"),
    ("A LON - NWY via convoy", "A LON - NWY VIA"),
    ("A PAR H", "A PAR H"),
    ("A MUN R BOH", "A MUN R BOH"),
    ("A MUN D", "A MUN D"),
    ("A PAR B", "A PAR B"),
    ("BUILD A PAR", "A PAR B"),
    ("Build F St Petersburg(nc)", "F STP/NC B"),
    ("Disband A Paris", "A PAR D"),
    ("WAIVE", "WAIVE"),
    ("F North Sea Convoys A London - Norway", "F NTH C A LON - NWY"),
    ("A Liverpool Supports A Yorkshire - Edinburgh", "A LVP S A YOR - EDI"),
    ("F Spain(nc) - Mid-Atlantic Ocean", "F SPA/NC - MAO"),
    ("A Bourgogne - Rhénanie", "A BUR - RUH"),
    ("A Paris SOUTIENT A Marseille - Bourgogne", "A PAR S A MAR - BUR"),
    ("F Saint-Pétersbourg (côte sud) - Golfe de Botnie", "F STP/SC - BOT"),
    ("A Tyrole - Bohème", "A TYR - BOH"),
    ("A Silésie - Prusse", "A SIL - PRU"),
]


@pytest.mark.parametrize(("text", "canonical"), EXAMPLES)
def test_notations(text: str, canonical: str) -> None:
    assert parse_order(text, MAP).format() == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("A XYZ - BUR", "'XYZ' is not a place"),
        ("A PAR -", "missing"),
        ("A PAR Q BUR", "not an order word"),
        ("F SPA/EC H", "no coast EC"),
        ("A PAR - BUR extra", "unexpected"),
        ("A PAR C A MAR", "convoy names"),
    ],
)
def test_invalid_orders_say_what_and_where(text: str, fragment: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        parse_order(text, MAP)
    assert fragment in info.value.describe()
    assert info.value.kind == "invalid"


def test_error_kinds_are_distinct() -> None:
    assert issubclass(AmbiguousOrder, IllegalOrder)
    assert not issubclass(InvalidOrder, IllegalOrder)


PLACES = sorted(p for p in MAP.places)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(PLACES),
    st.sampled_from(PLACES),
    st.sampled_from(PLACES),
    st.sampled_from(["A", "F"]),
    st.integers(0, 5),
)
def test_format_parse_round_trip(a: str, b: str, c: str, kind: str, shape: int) -> None:
    texts = [
        f"{kind} {a} H",
        f"{kind} {a} - {b}",
        f"{kind} {a} S A {b}",
        f"{kind} {a} S F {b} - {c}",
        f"F {a} C A {b} - {c}",
        f"{kind} {a} R {b}",
    ]
    order = parse_order(texts[shape], MAP)
    assert parse_order(order.format(), MAP) == order


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_parser_never_crashes(text: str) -> None:
    with contextlib.suppress(InvalidOrder, IllegalOrder):
        parse_order(text, MAP)
