"""The hidden layer: a depth place ``X-1`` under every sea ``X``, and the submarine's adjacency.

Everything here is derived from the map data, so it works on any map:

* every province of terrain ``sea`` gets a twin ``X-1`` of terrain ``depth``
  (coastal and land provinces get none: ``ODE-1`` does not exist);
* ``X-1`` touches ``Y-1`` exactly when the seas ``X`` and ``Y`` touch for a
  fleet, and ``X`` touches ``X-1`` (the vertical link); nothing else;
* a submarine (kind ``SM``) on the surface moves like a fleet, plus the
  vertical link from a sea; only submarines have places in the depths;
* surfaced submarines convoy like fleets (the map's ``convoy_kinds``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from arbitre.maps import FLEET, GameMap, Province

SUB = "SM"
"""Unit kind letter of a submarine."""
DEPTH = "depth"
"""Terrain of the depth places (they are neither seas nor land: armies and fleets never enter them)."""
DEPTH_SUFFIX = "-1"
"""What a sea's abbreviation takes to name the place under it (``MED`` → ``MED-1``)."""


def depth_of(sea: str) -> str:
    """The depth place under the sea ``sea`` (``MAO`` → ``MAO-1``)."""
    return sea + DEPTH_SUFFIX


def is_depth(place: str) -> bool:
    """True for a place in the depths (``MAO-1``)."""
    return place.endswith(DEPTH_SUFFIX)


def surface_of(place: str) -> str:
    """The sea above a depth place (``MAO-1`` → ``MAO``); a surface place is returned as it is."""
    return place[: -len(DEPTH_SUFFIX)] if is_depth(place) else place


def twin(place: str) -> str:
    """The other layer of the same sea: ``MAO`` ↔ ``MAO-1`` (the only target of a vertical move or torpedo)."""
    return surface_of(place) if is_depth(place) else depth_of(place)


def _depth_province(sea: Province) -> Province:
    names = (sea.name, sea.name_fr, *sea.aliases)
    return Province(
        abbr=depth_of(sea.abbr),
        name=f"{sea.name} (depths)",
        name_fr=f"{sea.name_fr} (profondeurs)",
        terrain=DEPTH,
        supply_center=False,
        coasts=(),
        aliases=tuple(dict.fromkeys(n + DEPTH_SUFFIX for n in names)),
    )


@cache
def add_depths(game_map: GameMap) -> GameMap:
    """``game_map`` with the depth places, the submarine's adjacency table and surfaced submarines convoying."""
    seas = game_map.seas
    provinces = dict(game_map.provinces)
    for sea in sorted(seas):
        depth = _depth_province(game_map.provinces[sea])
        if depth.abbr in provinces:
            raise ValueError(f"the {game_map.name} map already has a place called {depth.abbr}")
        provinces[depth.abbr] = depth
    fleet = game_map.adjacency[FLEET]
    fleet_nb = game_map.province_neighbours[FLEET]
    table: dict[str, frozenset[str]] = {}
    for place, neighbours in fleet.items():
        table[place] = neighbours | {depth_of(place)} if place in seas else neighbours
    for sea in seas:
        table[depth_of(sea)] = frozenset({sea} | {depth_of(n) for n in fleet_nb.get(sea, ()) if n in seas})
    return replace(
        game_map,
        provinces=provinces,
        adjacency={**game_map.adjacency, SUB: table},
        convoy_kinds=game_map.convoy_kinds | {SUB},
    )
