"""Seating by ranked preferences (arbitre.judge.seating): deterministic, and fair in the documented order.

The exact assignment is checked against a brute force over every permutation:
the worst rank is smallest, then the sum of ranks, then the drawn order decides.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitre.judge.seating import SeatingError, assign_by_preferences, rank_table

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def brute_force(priority: list[str], powers: list[str], ranking: dict[str, list[str]]) -> dict[str, str]:
    """The seating with the smallest (worst rank, sum of ranks, ranks in drawn order, power indexes)."""
    table = rank_table(priority, powers, ranking)
    best = None
    for seats in permutations(range(len(powers)), len(priority)):
        ranks = tuple(table[i][j] for i, j in enumerate(seats))
        key = (max(ranks, default=0), sum(ranks), ranks, seats)
        if best is None or key < best:
            best = key
    assert best is not None
    return {p: powers[j] for p, j in zip(priority, best[3], strict=True)}


def test_distinct_first_choices_are_all_granted() -> None:
    ranking = {f"p{i}": [power] for i, power in enumerate(reversed(POWERS))}
    seats = assign_by_preferences(list(ranking), POWERS, ranking)
    assert seats == {player: wanted[0] for player, wanted in ranking.items()}


def test_a_contested_power_goes_to_the_player_drawn_first_and_the_other_gets_their_second() -> None:
    ranking = {"ann": ["FRANCE", "ENGLAND"], "bob": ["FRANCE", "GERMANY"]}
    assert assign_by_preferences(["ann", "bob"], POWERS, ranking) == {"ann": "FRANCE", "bob": "GERMANY"}
    assert assign_by_preferences(["bob", "ann"], POWERS, ranking) == {"bob": "FRANCE", "ann": "ENGLAND"}


def test_the_worst_off_player_comes_before_the_total() -> None:
    # ann ranks FRANCE first and ENGLAND last; bob and cid both want ENGLAND then FRANCE.
    # Giving ann FRANCE leaves bob or cid with a bad rank; the rule minimises the worst rank first.
    ranking = {
        "ann": ["FRANCE", "GERMANY", "ENGLAND"],
        "bob": ["ENGLAND", "FRANCE", "GERMANY"],
        "cid": ["ENGLAND", "GERMANY", "FRANCE"],
    }
    powers = ["ENGLAND", "FRANCE", "GERMANY"]
    seats = assign_by_preferences(["ann", "bob", "cid"], powers, ranking)
    ranks = [ranking[p].index(seats[p]) for p in seats]
    assert max(ranks) == 1  # nobody gets a last choice, although ann, bob or cid could have had a first
    assert seats == brute_force(["ann", "bob", "cid"], powers, ranking)


def test_no_preferences_is_a_seating_too_and_unknown_names_are_ignored() -> None:
    seats = assign_by_preferences(["a", "b"], POWERS, {"b": ["ATLANTIS", "TURKEY"]})
    assert seats == {"a": "AUSTRIA", "b": "TURKEY"}


def test_refusals() -> None:
    with pytest.raises(SeatingError):
        assign_by_preferences(["a", "a"], POWERS, {})
    with pytest.raises(SeatingError):
        assign_by_preferences([str(i) for i in range(8)], POWERS, {})
    assert assign_by_preferences([], POWERS, {}) == {}


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_matches_the_brute_force_and_is_deterministic(data: st.DataObject) -> None:
    n_powers = data.draw(st.integers(1, 6))
    powers = POWERS[:n_powers]
    n_players = data.draw(st.integers(0, n_powers))
    players = [f"p{i}" for i in range(n_players)]
    ranking = {p: data.draw(st.lists(st.sampled_from(powers), unique=True, max_size=n_powers)) for p in players}
    seats = assign_by_preferences(players, powers, ranking)
    assert seats == brute_force(players, powers, ranking)
    assert seats == assign_by_preferences(players, powers, ranking)
    assert sorted(seats) == sorted(players) and len(set(seats.values())) == n_players


def test_large_maps_fall_back_to_drawn_order() -> None:
    powers = [f"P{i:02}" for i in range(20)]
    ranking = {"a": ["P05"], "b": ["P05", "P06"]}
    assert assign_by_preferences(["a", "b"], powers, ranking) == {"a": "P05", "b": "P06"}
