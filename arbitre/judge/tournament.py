"""Tournament arithmetic, pure: who sits a round out, balanced seating (each player meets each power
at most once where possible) and standings (scores minus yellow cards).

The store decides which groupings of players into boards to try (it may
shuffle); here each board's powers are given by a minimum-cost assignment whose
cost is how often each player already played each power (squared, so repeats
spread out), and the grouping of least cost is kept.  With one board and no
more rounds than powers, no player ever plays a power twice: after ``k`` rounds
the powers a player has not played form a ``(n - k)``-regular bipartite graph,
which always has a perfect matching.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Played = Mapping[str, Mapping[str, int]]
"""Player → power → how many times that player has played that power in the tournament."""


def _cost(played: Played, player: str, power: str) -> int:
    n = played.get(player, {}).get(power, 0)
    return n * n


def min_cost_assignment(cost: Sequence[Sequence[int]]) -> list[int]:
    """For a square cost matrix, the column of each row in an assignment of least total cost (Hungarian)."""
    n = len(cost)
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    match = [0] * (n + 1)  # match[column] = row (1-based; 0: free)
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        match[0] = row
        col0 = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[col0] = True
            r0, delta, col1 = match[col0], inf, 0
            for col in range(1, n + 1):
                if used[col]:
                    continue
                cur = cost[r0 - 1][col - 1] - u[r0] - v[col]
                if cur < least[col]:
                    least[col], way[col] = cur, col0
                if least[col] < delta:
                    delta, col1 = least[col], col
            for col in range(n + 1):
                if used[col]:
                    u[match[col]] += delta
                    v[col] -= delta
                else:
                    least[col] -= delta
            col0 = col1
            if match[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            match[col0] = match[col1]
            col0 = col1
    out = [0] * n
    for col in range(1, n + 1):
        out[match[col] - 1] = col - 1
    return out


def assign_powers(board: Sequence[str], powers: Sequence[str], played: Played) -> dict[str, str]:
    """Each player of one board → a power, repeating as few powers as possible."""
    if len(board) != len(powers):
        raise ValueError(f"a board seats {len(powers)} players, not {len(board)}")
    columns = min_cost_assignment([[_cost(played, p, q) for q in powers] for p in board])
    return {p: powers[c] for p, c in zip(board, columns, strict=True)}


def sitting_out(games_played: Mapping[str, int], board_size: int, draw: Sequence[str]) -> list[str]:
    """The players who sit the next round out when their number is not a multiple of ``board_size``:
    those who played the most games so far, ties broken by their place in ``draw`` (the players in an
    order the caller drew at random), so that over the rounds everyone sits out in turn.

    Sorted; empty when the players fill whole boards.
    """
    if sorted(draw) != sorted(games_played):
        raise ValueError("the draw must hold each player once")
    extra = len(draw) % board_size
    if not extra:
        return []
    # a stable sort: within a number of games, the drawn order decides
    by_games = sorted(draw, key=lambda p: -games_played[p])
    return sorted(by_games[:extra])


@dataclass(frozen=True)
class Round:
    """One round's seating: each board maps player → power; ``repeats`` counts powers played again."""

    boards: tuple[dict[str, str], ...]
    repeats: int


def seat_round(groupings: Iterable[Sequence[Sequence[str]]], powers: Sequence[str], played: Played) -> Round:
    """The seating of least cost among the candidate groupings of players into boards (the first on a tie)."""
    best: tuple[int, Round] | None = None
    for grouping in groupings:
        boards = tuple(assign_powers(board, powers, played) for board in grouping)
        cost = sum(_cost(played, p, q) for b in boards for p, q in b.items())
        repeats = sum(1 for b in boards for p, q in b.items() if played.get(p, {}).get(q, 0))
        if best is None or cost < best[0]:
            best = (cost, Round(boards, repeats))
    if best is None:
        raise ValueError("no grouping of the players was given")
    return best[1]


@dataclass(frozen=True)
class Standing:
    """A player's place in the standings."""

    player: str
    score: float
    games: int
    yellow_cards: int
    total: float


def standings(scores: Mapping[str, Sequence[float]], cards: Mapping[str, int], penalty: float) -> list[Standing]:
    """Players by total: the sum of their game scores less ``penalty`` per yellow card (best first, then by name)."""
    players = set(scores) | set(cards)
    rows = [
        Standing(
            p,
            round(sum(scores.get(p, ())), 2),
            len(scores.get(p, ())),
            cards.get(p, 0),
            round(sum(scores.get(p, ())) - penalty * cards.get(p, 0), 2),
        )
        for p in players
    ]
    return sorted(rows, key=lambda s: (-s.total, s.player))
