"""Hong Kong: a British home centre, and a supply centre for every power but China.

Ownership changes as usual (a Chinese capture takes it from its owner), but
China gets neither a build nor victory credit from it.
"""

from __future__ import annotations

from arbitre.variants.colonial.board import ColonialBoard


def counts_for(board: ColonialBoard, power: str, center: str) -> bool:
    """Does owning ``center`` give ``power`` credit (builds and victory)?  Not Hong Kong for China."""
    return not (center == board.hong_kong and power == board.hong_kong_excluded)
