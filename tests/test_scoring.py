"""Scoring systems: the published examples, and properties (hypothesis): what the scores sum to, that the
order the powers are listed in changes nothing, and that a solo gives everything to the soloist."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitre.judge.scoring import DRAW, SOLO, SYSTEMS, rounded, score

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@st.composite
def boards(draw: st.DrawFn) -> dict[str, int]:
    """Centre counts of the seven powers, at most 34 in all, none at 18 (no solo)."""
    counts = draw(st.lists(st.integers(0, 17), min_size=7, max_size=7).filter(lambda c: 0 < sum(c) <= 34))
    return dict(zip(POWERS, counts, strict=True))


def test_c_diplo_matches_the_published_examples() -> None:
    # the two tables of the World Diplomacy Database's C-Diplo page (100 points each)
    first = dict(zip(POWERS, [4, 0, 9, 7, 7, 3, 4], strict=True))
    got = score(SYSTEMS["c-diplo"], first, DRAW, POWERS)
    assert got == {
        "AUSTRIA": 5,
        "ENGLAND": 1,
        "FRANCE": 48,
        "GERMANY": Fraction(37, 2),
        "ITALY": Fraction(37, 2),
        "RUSSIA": 4,
        "TURKEY": 5,
    }
    second = dict(zip(POWERS, [5, 9, 4, 5, 3, 1, 7], strict=True))
    got = score(SYSTEMS["c-diplo"], second, DRAW, POWERS)
    assert rounded(got) == {
        "AUSTRIA": 9.5,
        "ENGLAND": 48,
        "FRANCE": 5,
        "GERMANY": 9.5,
        "ITALY": 4,
        "RUSSIA": 2,
        "TURKEY": 22,
    }


def test_solos() -> None:
    board = dict(zip(POWERS, [18, 4, 4, 4, 2, 1, 1], strict=True))
    assert score(SYSTEMS["c-diplo"], board, SOLO, ["AUSTRIA"])["AUSTRIA"] == 73
    assert score(SYSTEMS["c-diplo-100"], board, SOLO, ["AUSTRIA"])["AUSTRIA"] == 100
    for name in ("draw-size", "sum-of-squares"):
        got = score(SYSTEMS[name], board, SOLO, ["AUSTRIA"])
        assert got["AUSTRIA"] == 100 and sum(got.values()) == 100


def test_draw_size_and_sum_of_squares_by_hand() -> None:
    board = dict(zip(POWERS, [10, 8, 0, 6, 0, 6, 4], strict=True))
    draw = ["AUSTRIA", "ENGLAND", "GERMANY", "RUSSIA", "TURKEY"]
    assert set(score(SYSTEMS["draw-size"], board, DRAW, draw).values()) == {20, 0}
    sos = score(SYSTEMS["sum-of-squares"], board, DRAW, draw)
    assert sos["AUSTRIA"] == Fraction(100 * 100, 100 + 64 + 36 + 36 + 16) and sos["FRANCE"] == 0


def test_an_ended_game_has_no_scores() -> None:
    with pytest.raises(ValueError, match="no scores"):
        score(SYSTEMS["c-diplo"], dict.fromkeys(POWERS, 4), "ended", [])


@given(boards(), st.sampled_from(sorted(SYSTEMS)))
def test_scores_sum_as_each_system_says(board: dict[str, int], name: str) -> None:
    system = SYSTEMS[name]
    survivors = [p for p, c in board.items() if c > 0]
    total = sum(score(system, board, DRAW, survivors).values())
    if system.kind == "topping":  # one point for playing each, one per centre, and the three rank bonuses
        assert total == len(POWERS) * system.participation + sum(board.values()) + sum(system.ranks)
    else:
        assert total == system.total


@given(boards(), st.sampled_from(sorted(SYSTEMS)), st.randoms(use_true_random=False))
def test_the_order_of_the_powers_changes_nothing(board: dict[str, int], name: str, rng: object) -> None:
    items = list(board.items())
    rng.shuffle(items)  # type: ignore[attr-defined]
    survivors = [p for p, c in board.items() if c > 0]
    shuffled_survivors = [p for p, _ in items if board[p] > 0]
    assert score(SYSTEMS[name], dict(items), DRAW, shuffled_survivors) == score(SYSTEMS[name], board, DRAW, survivors)


@given(boards())
def test_c_diplo_ranks_more_centres_higher(board: dict[str, int]) -> None:
    got = score(SYSTEMS["c-diplo"], board, DRAW, POWERS)
    for a in POWERS:
        for b in POWERS:
            if board[a] > board[b]:
                assert got[a] > got[b]
