"""Balanced seating and standings: the assignment is of least cost (checked against every permutation),
a single board over as many rounds as powers gives each player each power once, and standings deduct
yellow cards."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from arbitre.judge.tournament import assign_powers, min_cost_assignment, seat_round, sitting_out, standings

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@given(
    st.integers(1, 6).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 9), min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_the_assignment_is_of_least_cost(cost: list[list[int]]) -> None:
    n = len(cost)
    got = min_cost_assignment(cost)
    assert sorted(got) == list(range(n))
    best = min(sum(cost[r][c] for r, c in enumerate(p)) for p in permutations(range(n)))
    assert sum(cost[r][c] for r, c in enumerate(got)) == best


@given(st.permutations([f"p{i}" for i in range(7)]))
def test_one_board_plays_every_power_once_in_seven_rounds(players: list[str]) -> None:
    played: dict[str, Counter[str]] = {p: Counter() for p in players}
    for _ in range(7):
        seating = seat_round([[players]], POWERS, played)
        assert seating.repeats == 0
        for p, q in seating.boards[0].items():
            played[p][q] += 1
    assert all(sorted(c) == POWERS and set(c.values()) == {1} for c in played.values())


@given(st.integers(8, 20), st.integers(1, 9), st.randoms(use_true_random=False))
def test_players_sit_out_in_turn(count: int, rounds: int, rng: Any) -> None:
    """Whatever the draws, over the rounds nobody sits out a second time before everyone sat out once,
    and the players left fill whole boards."""
    players = [f"p{i:02}" for i in range(count)]
    games = dict.fromkeys(players, 0)
    sat_out: Counter[str] = Counter()
    for _ in range(rounds):
        draw = players[:]
        rng.shuffle(draw)
        out = sitting_out(games, 7, draw)
        assert len(out) == count % 7 and (count - len(out)) % 7 == 0
        for p in players:
            if p in out:
                sat_out[p] += 1
            else:
                games[p] += 1
        counts = [sat_out[p] for p in players]
        assert max(counts) - min(counts) <= 1, counts


def test_sitting_out_follows_the_draw_among_equals() -> None:
    games = {"a": 2, "b": 1, "c": 2, "d": 2}
    assert sitting_out(games, 3, ["d", "c", "b", "a"]) == ["d"]
    assert sitting_out(games, 3, ["b", "a", "c", "d"]) == ["a"]
    assert sitting_out({"a": 0, "b": 0, "c": 0}, 3, ["a", "b", "c"]) == []


def test_the_grouping_of_least_cost_is_kept() -> None:
    played = {"a": Counter({"AUSTRIA": 1}), "b": Counter({"AUSTRIA": 1}), "c": Counter(), "d": Counter()}
    two = ["AUSTRIA", "ENGLAND"]
    # a and b both played Austria: a board of the two must repeat it; a board of a with c need not
    seating = seat_round([[["a", "b"], ["c", "d"]], [["a", "c"], ["b", "d"]]], two, played)
    assert seating.repeats == 0 and seating.boards[0] == {"a": "ENGLAND", "c": "AUSTRIA"}
    assert assign_powers(["a", "b"], two, played) in (
        {"a": "AUSTRIA", "b": "ENGLAND"},
        {"a": "ENGLAND", "b": "AUSTRIA"},
    )


def test_standings_deduct_yellow_cards() -> None:
    rows = standings({"ann": [43.0, 7.5], "bob": [48.0], "cy": [50.5]}, {"bob": 1, "cy": 2}, 2.0)
    assert [(r.player, r.total, r.games, r.yellow_cards) for r in rows] == [
        ("ann", 50.5, 2, 0),
        ("cy", 46.5, 1, 2),
        ("bob", 46.0, 1, 1),
    ]
