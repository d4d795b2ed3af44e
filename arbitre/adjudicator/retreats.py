"""Retreat options after a movement phase, and the retreat phase itself."""

from __future__ import annotations

from collections.abc import Iterable

from arbitre.maps import GameMap
from arbitre.state import Unit


def retreat_places(
    game_map: GameMap,
    unit: Unit,
    attacker_from: str | None,
    occupied: Iterable[str] | set[str],
    standoffs: frozenset[str],
    attacker_convoyed: bool = False,
) -> tuple[str, ...]:
    """Places a dislodged unit may retreat to (DATC 4.A.5 for convoyed attackers)."""
    occ = occupied if isinstance(occupied, (set, frozenset)) else set(occupied)
    out = []
    for place in sorted(game_map.neighbours(unit.kind, unit.place)):
        prov = game_map.province_of[place]
        if prov in occ or prov in standoffs:
            continue
        if prov == attacker_from and not attacker_convoyed:
            continue
        out.append(place)
    return tuple(out)
