"""Seating players on powers by their ranked preferences: a deterministic, fair assignment.

The server draws the players' order at random (:attr:`priority`) when the game
starts and passes it in; everything here is a pure function of its arguments,
so the same inputs always give the same seats.

Fairness, in this order:

1. **the worst-off player first**: the assignment makes the largest rank any
   player gets as small as possible (nobody gets their 5th choice if everyone
   can have their 4th or better);
2. **then everyone together**: among those, the sum of the ranks is smallest;
3. **then the drawn order**: a remaining tie goes to the player drawn earlier
   (their rank is made as small as possible, then the next player's, …), and
   between equal ranks the power listed first in ``powers`` is taken.

A player's rank of a power is its place in their list (0 for the first); every
power they did not list comes after all they listed, all alike.  A player who
listed nothing ranks every power alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

EXACT_LIMIT = 16
"""Up to this many powers the assignment is exact; beyond it, each player in drawn order takes their best free power."""


class SeatingError(ValueError):
    """More players than powers, or a player twice."""


def rank_table(players: Sequence[str], powers: Sequence[str], ranking: Mapping[str, Sequence[str]]) -> list[list[int]]:
    """``table[i][j]``: the rank player ``players[i]`` gives ``powers[j]`` (unlisted powers after the listed ones)."""
    table = []
    for player in players:
        wanted = [p for p in dict.fromkeys(ranking.get(player, ())) if p in powers]
        place = {p: n for n, p in enumerate(wanted)}
        table.append([place.get(power, len(wanted)) for power in powers])
    return table


def assign_by_preferences(
    priority: Sequence[str], powers: Sequence[str], ranking: Mapping[str, Sequence[str]]
) -> dict[str, str]:
    """Seat each player of ``priority`` (the drawn order) on one of ``powers``, following their ``ranking``."""
    if len(set(priority)) != len(priority):
        raise SeatingError("a player is listed twice")
    if len(priority) > len(powers):
        raise SeatingError(f"{len(priority)} players for {len(powers)} powers")
    if not priority:
        return {}
    table = rank_table(priority, powers, ranking)
    if len(powers) > EXACT_LIMIT:
        return _serial(priority, powers, table)
    for worst in range(len(powers)):  # the smallest worst rank for which a seating exists
        seats = _best_within(table, len(powers), worst)
        if seats is not None:
            return {player: powers[j] for player, j in zip(priority, seats, strict=True)}
    raise AssertionError("a seating always exists once every rank is allowed")  # pragma: no cover


def _best_within(table: list[list[int]], n_powers: int, worst: int) -> list[int] | None:
    """The seating (a power index per player) with every rank at most ``worst`` and the smallest
    (sum, first player's rank, second player's rank, …); ``None`` if there is none."""
    n_players = len(table)

    @cache
    def best(i: int, used: int) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        # (sum of ranks, ranks in drawn order, seats) of players i.. given the powers already used
        if i == n_players:
            return (0, (), ())
        found: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
        for j in range(n_powers):
            rank = table[i][j]
            if used & (1 << j) or rank > worst:
                continue
            rest = best(i + 1, used | (1 << j))
            if rest is None:
                continue
            candidate = (rank + rest[0], (rank, *rest[1]), (j, *rest[2]))
            if found is None or candidate[:2] < found[:2]:  # ties keep the power listed first
                found = candidate
        return found

    result = best(0, 0)
    return list(result[2]) if result else None


def _serial(priority: Sequence[str], powers: Sequence[str], table: list[list[int]]) -> dict[str, str]:
    """Each player in drawn order takes their best-ranked free power (used only for very large maps)."""
    free = list(range(len(powers)))
    out = {}
    for i, player in enumerate(priority):
        j = min(free, key=lambda k: (table[i][k], k))
        free.remove(j)
        out[player] = powers[j]
    return out
