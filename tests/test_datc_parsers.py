"""Tests for the DATC data-file parsers in ``arbitre.datc``.

The synthetic texts always run; the tests on the real files run when ``../shared/datc`` is beside the
repository (optional data: the converted cases in tests/cases run without it).
"""

from __future__ import annotations

from collections import Counter

import pytest

from arbitre.datc import (
    DatcCase,
    DatcOrder,
    DatcParseError,
    JudgeTextCase,
    OwnershipFact,
    parse_datc_html,
    parse_judge_text,
)

from .conftest import shared_file

RESOLUTION_TOKENS = {
    "succeeds",
    "fails",
    "given",
    "cut",
    "available",
    "disrupted",
    "stands",
    "dislodged",
    "destroyed",
    "illegal",
    "invalid",
}


def _read(relative: str) -> str:
    """A DATC source file; the test skips when ../shared is not beside the repository (optional data)."""
    return shared_file(f"datc/{relative}").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def v32_cases() -> dict[str, DatcCase]:
    cases = parse_datc_html(_read("DATC_v3_2_chapter6.html"))
    by_id = {case.case_id: case for case in cases}
    assert len(by_id) == len(cases), "case ids must be unique"
    return by_id


# --- DATC v3.2 HTML -------------------------------------------------------


def test_v32_case_counts(v32_cases: dict[str, DatcCase]) -> None:
    assert len(v32_cases) == 176
    phases = Counter(case.phase_kind for case in v32_cases.values())
    assert phases == {"movement": 156, "adjustment": 20}
    sections = Counter(case.section for case in v32_cases.values())
    assert sections == {
        "6.A": 12,
        "6.B": 19,
        "6.C": 9,
        "6.D": 35,
        "6.E": 15,
        "6.F": 30,
        "6.G": 20,
        "6.H": 17,
        "6.I": 7,
        "6.J": 12,
    }


def test_v32_adjustment_cases(v32_cases: dict[str, DatcCase]) -> None:
    winter = {cid for cid, case in v32_cases.items() if case.phase_kind == "adjustment"}
    expected = {"6.B.14"} | {f"6.I.{n}" for n in range(1, 8)} | {f"6.J.{n}" for n in range(1, 13)}
    assert winter == expected


def test_v32_retreat_cases(v32_cases: dict[str, DatcCase]) -> None:
    with_retreats = {cid for cid, case in v32_cases.items() if case.retreat_orders}
    assert with_retreats == {"6.F.7"} | {f"6.H.{n}" for n in range(1, 17)}


def test_v32_every_order_has_known_resolution(v32_cases: dict[str, DatcCase]) -> None:
    seen: set[str] = set()
    for case in v32_cases.values():
        for order in case.orders + case.retreat_orders:
            assert order.resolution, f"{case.case_id}: {order.text}"
            assert order.power.isupper()
            assert order.text == " ".join(order.text.split())
            seen.update(order.resolution)
    assert seen == RESOLUTION_TOKENS


def test_v32_headings(v32_cases: dict[str, DatcCase]) -> None:
    case = v32_cases["6.F.7"]
    assert case.section == "6.F"
    assert case.section_title == "TEST CASES, CONVOYS"
    assert case.title == "TEST CASE, DISLODGED CONVOY DOES NOT CAUSE CONTESTED PROVINCE"
    assert v32_cases["6.A.1"].section_title == "TEST CASES, BASIC CHECKS"


def test_v32_6f7_retreat_orders(v32_cases: dict[str, DatcCase]) -> None:
    case = v32_cases["6.F.7"]
    assert case.phase_kind == "movement"
    assert case.orders == (
        DatcOrder(
            "ENGLAND",
            "F North Sea Convoys A London - Holland",
            ("disrupted", "dislodged"),
        ),
        DatcOrder("ENGLAND", "A London - Holland", ("fails",)),
        DatcOrder("GERMANY", "F Helgoland Bight Supports F Skagerrak - North Sea", ("given",)),
        DatcOrder("GERMANY", "F Skagerrak - North Sea", ("succeeds",)),
    )
    assert case.retreat_orders == (DatcOrder("ENGLAND", "F North Sea - Holland", ("succeeds",)),)
    assert case.facts == ()
    assert case.automatic_disbands == ()


def test_v32_6i1_facts(v32_cases: dict[str, DatcCase]) -> None:
    case = v32_cases["6.I.1"]
    assert case.phase_kind == "adjustment"
    assert case.facts == (
        OwnershipFact("GERMANY", "SC", "Kiel"),
        OwnershipFact("GERMANY", "SC", "Munich"),
        OwnershipFact("GERMANY", "SC", "Warsaw"),
        OwnershipFact("GERMANY", "A", "Prussia"),
        OwnershipFact("GERMANY", "A", "Silesia"),
    )
    assert [(o.text, o.resolution) for o in case.orders] == [
        ("Build A Warsaw", ("illegal",)),
        ("Build A Kiel", ("succeeds",)),
        ("Build A Munich", ("illegal",)),
    ]


def test_v32_coast_facts(v32_cases: dict[str, DatcCase]) -> None:
    assert OwnershipFact("FRANCE", "F", "Spain(sc)") in v32_cases["6.B.10"].facts
    assert OwnershipFact("RUSSIA", "F", "St Petersburg(sc)") in v32_cases["6.I.4"].facts
    assert v32_cases["6.A.6"].facts == (OwnershipFact("ENGLAND", "F", "London"),)


def test_v32_6j_automatic_disbands(v32_cases: dict[str, DatcCase]) -> None:
    disbands = {cid: case.automatic_disbands for cid, case in v32_cases.items() if case.automatic_disbands}
    assert disbands == {
        "6.J.2": (("FRANCE", "F English Channel"),),
        "6.J.3": (("RUSSIA", "A Prussia"),),
        "6.J.4": (("RUSSIA", "A Livonia"),),
        "6.J.5": (("RUSSIA", "F North Atlantic Ocean"),),
        "6.J.6": (("RUSSIA", "F Gulf of Bothnia"),),
        "6.J.7": (("RUSSIA", "F North Sea"),),
        "6.J.8": (("RUSSIA", "A Tyrolia"),),
        "6.J.9": (("RUSSIA", "A Albania"),),
        "6.J.10": (("RUSSIA", "A Albania"),),
        "6.J.11": (("ITALY", "A Piedmont"),),
        "6.J.12": (("ITALY", "A Tuscany"),),
    }
    case = v32_cases["6.J.3"]
    assert case.orders == ()
    assert case.facts[0] == OwnershipFact("RUSSIA", "SC", "St Petersburg")


def test_v32_6c8_austria_without_colon(v32_cases: dict[str, DatcCase]) -> None:
    serbia = DatcOrder("AUSTRIA", "A Serbia - Bulgaria", ("fails",))
    bulgaria = DatcOrder("AUSTRIA", "A Bulgaria - Constantinople", ("fails",))
    expected = {"6.C.8": [serbia], "6.C.9": [serbia, bulgaria]}
    for cid, austria in expected.items():
        case = v32_cases[cid]
        assert [o for o in case.orders if o.power == "AUSTRIA"] == austria
        assert [o.power for o in case.orders][-len(austria) :] == ["AUSTRIA"] * len(austria)
        assert {o.power for o in case.orders} == {"TURKEY", "RUSSIA", "AUSTRIA"}


def test_v32_capitalised_given_and_stray_paragraph(
    v32_cases: dict[str, DatcCase],
) -> None:
    assert v32_cases["6.D.1"].orders[0].resolution == ("given",)
    case = v32_cases["6.D.17"]
    assert len(case.orders) == 5
    assert v32_cases["6.D.18"].title.startswith("TEST CASE,")


def test_v30_layout_is_rejected() -> None:
    with pytest.raises(DatcParseError):
        parse_datc_html(_read("DATC_v3_0.html"))


SMALL_HTML = """
<h3 id="6.Z">6.Z. TEST CASES, SAMPLE</h3>
<h4 id="6.Z.1">6.Z.1. TEST CASE, ONE</h4>
<p>Prose with a <b>tag</b> and &amp; entity.</p>
<div class="test-case winter" id="6.Z.1.orders">France owns SC Paris
France owns A Paris

France
Build   A  Paris <span class="resolution">Illegal</span>
<span class="resolution">Automatic disband A Paris</span>
</div>
"""


def test_synthetic_html() -> None:
    (case,) = parse_datc_html(SMALL_HTML)
    assert case.case_id == "6.Z.1"
    assert case.section_title == "TEST CASES, SAMPLE"
    assert case.title == "TEST CASE, ONE"
    assert case.phase_kind == "adjustment"
    assert case.orders == (DatcOrder("FRANCE", "Build A Paris", ("illegal",)),)
    assert case.automatic_disbands == (("FRANCE", "A Paris"),)


@pytest.mark.parametrize(
    "body",
    [
        "England:\nF North Sea - Picardy\n",  # order without resolution
        'F North Sea - Picardy <span class="resolution">fails</span>\n',  # no power
        'England:\nF North Sea <span class="resolution">fails</span> extra\n',
    ],
)
def test_synthetic_html_errors(body: str) -> None:
    text = (
        '<h3 id="6.Z">6.Z. X</h3><h4 id="6.Z.1">6.Z.1. Y</h4>'
        f'<div class="test-case spring" id="6.Z.1.orders">{body}</div>'
    )
    with pytest.raises(DatcParseError):
        parse_datc_html(text)


def test_html_block_must_follow_heading() -> None:
    text = (
        '<h3 id="6.Z">6.Z. X</h3><h4 id="6.Z.1">6.Z.1. Y</h4>'
        '<div class="test-case spring" id="6.Z.2.orders">England:\n</div>'
    )
    with pytest.raises(DatcParseError):
        parse_datc_html(text)


# --- jDip / godip text format ---------------------------------------------


def test_godip_real_txt() -> None:
    cases = parse_judge_text(_read("godip/real.txt"))
    assert len(cases) == 4
    first = cases[0]
    assert isinstance(first, JudgeTextCase)
    assert first.name == "Describe Spring 1903 [Movement]"
    assert first.variant == "Standard"
    assert (first.season, first.year, first.phase_type) == ("Spring", 1903, "Movement")
    assert first.phase_given
    assert first.units == (
        ("ENGLAND", "A nwy"),
        ("ENGLAND", "F nrg"),
        ("GERMANY", "F den"),
        ("RUSSIA", "F swe"),
        ("RUSSIA", "A stp"),
    )
    assert first.orders == (
        ("ENGLAND", "A nwy S den - swe"),
        ("ENGLAND", "F nrg - bar"),
        ("GERMANY", "F den - swe"),
    )
    assert first.post_dislodged == (("RUSSIA", "F swe"),)
    assert first.post_units is not None and ("ENGLAND", "F bar") in first.post_units
    assert not first.post_same
    second = cases[1]
    assert ("ENGLAND", "F spa/sc") in second.units
    assert ("ENGLAND", "A bre-spa") in second.orders  # trailing comment removed


def test_jdip_real_txt() -> None:
    cases = parse_judge_text(_read("jdip/real.txt"))
    assert len(cases) == 3
    assert all(case.orders for case in cases)


def test_godip_datc_v24() -> None:
    cases = parse_judge_text(_read("godip/datc_v2.4_06.txt"))
    assert len(cases) == 167
    phases = Counter(case.phase_type for case in cases)
    assert phases == {"Movement": 130, "Adjustment": 20, "Retreat": 17}
    assert sum(case.post_same for case in cases) == 44
    by_name = {case.name: case for case in cases}

    build = by_name["6.I.1"]
    assert (build.season, build.year, build.phase_type) == ("Fall", 1901, "Adjustment")
    assert build.supply_center_owners == (
        ("RUSSIA", "war"),
        ("GERMANY", "kie"),
        ("GERMANY", "mun"),
    )
    assert build.orders[1] == ("GERMANY", "Build A kie")
    assert build.post_units == (
        ("RUSSIA", "A war"),
        ("GERMANY", "A par"),
        ("GERMANY", "A kie"),
    )

    retreat = by_name["6.H.1"]
    assert retreat.phase_type == "Retreat"
    assert retreat.dislodged == (("AUSTRIA", "F tri"), ("TURKEY", "F gre"))
    assert retreat.results[0] == ("FAILURE", "AUSTRIA", "F tri H")
    assert ("SUCCESS", "ITALY", "A ven S A tyr-tri") in retreat.results
    assert retreat.orders == (
        ("AUSTRIA", "F tri-alb"),
        ("AUSTRIA", "A ser S F tri-alb"),
        ("TURKEY", "F gre-alb"),
    )
    assert retreat.post_dislodged is None  # commented out in the file

    same = by_name["6.A.1"]
    assert same.post_same and same.post_units is None and same.post_dislodged is None

    # Five 6.G cases have no PRESTATE_SETPHASE line.
    implicit = [case for case in cases if not case.phase_given]
    assert [case.name[:7] for case in implicit] == [f"6.G.{n}." for n in range(14, 19)]
    assert {(c.season, c.year, c.phase_type) for c in implicit} == {("Spring", 1901, "Movement")}

    # "Italy F gol" has no colon; "France f mid" keeps its lower-case letter.
    coast_case = by_name["6.B.6"]
    assert coast_case.post_units is not None and ("ITALY", "F gol") in coast_case.post_units
    assert coast_case.post_dislodged == (("FRANCE", "f mid"),)


def test_jdip_missing_end_and_lower_case_keyword() -> None:
    cases = parse_judge_text(_read("jdip/datc_v2.4_10.txt"))
    assert len(cases) == 11
    retreat = next(case for case in cases if case.name.startswith("10.K"))
    assert retreat.phase_type == "Retreat"
    assert retreat.orders == (
        ("ITALY", "A Apulia - Sicily"),
        ("ITALY", "F Ionian Sea - Sicily"),
    )
    assert retreat.post_units == (("ITALY", "F Sicily"),)


@pytest.mark.parametrize(
    "name",
    [
        "godip/datc_v2.4_06.txt",
        "godip/dipai.txt",
        "godip/diplicity_errors.txt",
        "godip/droidippy_errors.txt",
        "jdip/datc_v2.4_06.txt",
        "jdip/datc_v2.4_08.txt",
        "jdip/datc_v2.4_09.txt",
        "jdip/datc_v2.4_10D.txt",
        "jdip/datc_v2.4_10F-10G-10L.txt",
        "jdip/datc_v2.4_11.txt",
        "jdip/datc_v2.4_12.txt",
        "jdip/dipai.txt",
        "jdip/explicitConvoys.txt",
        "jdip/wing.txt",
    ],
)
def test_all_text_files_parse(name: str) -> None:
    cases = parse_judge_text(_read(name))
    assert cases
    for case in cases:
        assert case.orders or case.dislodged or case.units
        assert case.post_same or case.post_units is not None


SMALL_TEXT = """\
VARIANT_ALL Standard
# comment
CASE sample one
PRESTATE_SETPHASE Fall 1902 (Movement)
PRESTATE
\tEngland: F nth   # trailing comment
  France: A par
ORDERS
\tEngland: F nth - nwy
\tFrance:  A par  H
POSTSTATE_SAME
END
"""


def test_synthetic_text() -> None:
    (case,) = parse_judge_text(SMALL_TEXT)
    assert case.name == "sample one"
    assert (case.season, case.year, case.phase_type) == ("Fall", 1902, "Movement")
    assert case.units == (("ENGLAND", "F nth"), ("FRANCE", "A par"))
    assert case.orders == (("ENGLAND", "F nth - nwy"), ("FRANCE", "A par H"))
    assert case.post_same
    assert case.supply_center_owners == () and case.results == ()


@pytest.mark.parametrize(
    "text",
    [
        "\tEngland: F nth\n",  # item outside a case
        "CASE x\n\tEngland: F nth\nEND\n",  # item before any section
        "CASE x\nPRESTATE_SETPHASE sometime\nEND\n",  # unreadable phase
        "CASE x\nPRESTATE_RESULTS\n\tMAYBE: England: F nth H\nEND\n",
        "END\n",
    ],
)
def test_synthetic_text_errors(text: str) -> None:
    with pytest.raises(DatcParseError):
        parse_judge_text(text)
