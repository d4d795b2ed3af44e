"""Maps: provinces, coasts, adjacency per unit kind, supply centres and homes, as data."""

from arbitre.maps.loader import UnknownMapError, available_maps, load_map, map_from_dict
from arbitre.maps.model import ARMY, FLEET, GameMap, PowerInfo, Province, Terrain, UnitKind

__all__ = [
    "ARMY",
    "FLEET",
    "GameMap",
    "PowerInfo",
    "Province",
    "Terrain",
    "UnitKind",
    "UnknownMapError",
    "available_maps",
    "load_map",
    "map_from_dict",
]
