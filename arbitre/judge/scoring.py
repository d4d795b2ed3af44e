"""Scores of a finished game under a named scoring system.  Pure: centres and result in, scores out.

Each system is data (:data:`SYSTEMS`): a kind of formula with its numbers, and
the public page it was taken from.  The kinds:

- ``draw_share``: a solo takes ``total``; otherwise the powers sharing the draw
  split ``total`` equally, the others score 0 (draw-size scoring);
- ``power_share``: a solo takes ``total``; otherwise each power sharing the draw scores
  ``total × centres^power / Σ centres^power`` over the draw, the others 0 (sum-of-squares for power 2);
- ``topping``: a solo gives the soloist ``solo`` and the others 0; otherwise each
  power scores ``participation + per_centre × centres``, plus the bonus of its
  rank by centres (``ranks``: first, second, third…); powers tied on a rank share
  the bonuses of the places they fill (C-Diplo).

Scores are exact fractions (a 3-way share of 100 is 100/3); :func:`rounded` gives
them to two decimals for display.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

SOLO = "won"
"""The result of a game one power won."""
DRAW = "drawn"
"""The result of a drawn game (the draw's members are the winners)."""


@dataclass(frozen=True)
class System:
    """A scoring system: its kind of formula, its numbers, and where its definition was published."""

    name: str
    title: str
    kind: str
    source: str
    total: int = 100
    power: int = 2
    solo: int = 100
    participation: int = 0
    per_centre: int = 0
    ranks: tuple[int, ...] = ()


SYSTEMS: dict[str, System] = {
    s.name: s
    for s in (
        System(
            "draw-size",
            "Draw-size",
            "draw_share",
            "https://brotherbored.com/guest-post-draw-size-vs-sum-of-squares-scoring/ (webDiplomacy's draw-size scoring)",
        ),
        System(
            "sum-of-squares",
            "Sum of squares",
            "power_share",
            "https://diplomaticon.com/2021/10/09/sum-of-squares-scoring/ (100 × centres² / Σ centres² of the draw)",
            power=2,
        ),
        System(
            "c-diplo",
            "C-Diplo",
            "topping",
            "https://diplomania-gen.fr/dokuwiki2/doku.php?id=scoring:system:c-diplo (C-Diplo 73, official)",
            solo=73,  # 38 for the top + 34 centres + 1 for playing
            participation=1,
            per_centre=1,
            ranks=(38, 14, 7),
        ),
        System(
            "c-diplo-100",
            "C-Diplo 100",
            "topping",
            "https://world-diplomacy-database.com/php/scoring/scoring_class.php?id_scoring=5 (C-Diplo 100)",
            solo=100,
            participation=1,
            per_centre=1,
            ranks=(38, 14, 7),
        ),
    )
}
"""The scoring systems, by name."""


def score(system: System, centres: Mapping[str, int], result: str, winners: Sequence[str]) -> dict[str, Fraction]:
    """Every power's score (``centres`` holds every power of the game, eliminated ones with 0).

    ``result`` is ``won`` (``winners`` holds the soloist) or ``drawn``
    (``winners`` holds the powers sharing the draw); any other result has no scores.
    """
    if result not in (SOLO, DRAW):
        raise ValueError(f"a game {result!r} has no scores: only a won or drawn game is scored")
    unknown = [w for w in winners if w not in centres]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a power of the game")
    if result == SOLO:
        winner = winners[0]
        prize = system.total if system.kind != "topping" else system.solo
        return {p: Fraction(prize if p == winner else 0) for p in centres}
    if system.kind == "draw_share":
        members = set(winners) or {p for p, c in centres.items() if c > 0}
        return {p: Fraction(system.total, len(members)) if p in members else Fraction(0) for p in centres}
    if system.kind == "power_share":
        members = set(winners) or set(centres)
        weights = {p: c**system.power if p in members else 0 for p, c in centres.items()}
        whole = sum(weights.values())
        return {p: Fraction(system.total * w, whole) if whole else Fraction(0) for p, w in weights.items()}
    if system.kind == "topping":
        return _topping(system, centres)
    raise ValueError(f"unknown kind of scoring system {system.kind!r}")


def _topping(system: System, centres: Mapping[str, int]) -> dict[str, Fraction]:
    out = {p: Fraction(system.participation + system.per_centre * c) for p, c in centres.items()}
    place = 0
    for level in sorted(set(centres.values()), reverse=True):
        tied = [p for p, c in centres.items() if c == level]
        bonus = sum(system.ranks[place : place + len(tied)])
        for p in tied:
            out[p] += Fraction(bonus, len(tied))
        place += len(tied)
    return out


def rounded(scores: Mapping[str, Fraction]) -> dict[str, float]:
    """Scores to two decimals, for pages and the API."""
    return {p: round(float(v), 2) for p, v in scores.items()}
