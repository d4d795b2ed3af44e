"""The wing's movement table, derived from the map's own tables (so it works on any map)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from arbitre.maps import ARMY, FLEET, GameMap

WING = "W"
"""Unit kind letter of a wing."""


@cache
def add_wings(game_map: GameMap) -> GameMap:
    """``game_map`` with the table of ``W``: where an army stands, to an army's neighbours and to every land
    or coastal province across one sea (two provinces that touch the same sea)."""
    army = game_map.adjacency[ARMY]
    fleet_reach = game_map.province_neighbours[FLEET]
    shores: dict[str, set[str]] = {}
    """Province → the provinces on the shores of the seas it touches."""
    for sea in game_map.seas:
        coast = [p for p in fleet_reach.get(sea, ()) if p in army]
        for province in coast:
            shores.setdefault(province, set()).update(coast)
    table = {place: frozenset((neighbours | shores.get(place, set())) - {place}) for place, neighbours in army.items()}
    return replace(game_map, adjacency={**game_map.adjacency, WING: table})
