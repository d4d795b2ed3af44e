"""The Colonial board's special places, read from the map file's ``extra`` facts.

The map data (``arbitre/maps/data/colonial.json``) names the railroad's
stations, the canal's two seas and the province that guards it, and Hong
Kong; the rule modules read them from here, never from literals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from arbitre.maps import GameMap


@dataclass(frozen=True)
class ColonialBoard:
    """Where the special rules apply.

    ``stations`` are the railroad's stations in line order (Moscow … Vladivostok);
    ``line_centers`` the supply centres among them; ``rail_power`` and
    ``rail_kind`` who may ride it.  ``egypt`` guards the canal between the two
    ``canal_seas``; ``canal_kind`` is the unit kind that may pass.  Owning
    ``hong_kong`` gives ``hong_kong_excluded`` no credit.
    """

    stations: tuple[str, ...]
    line_centers: frozenset[str]
    rail_power: str
    rail_kind: str
    egypt: str
    canal_seas: tuple[str, str]
    canal_kind: str
    hong_kong: str
    hong_kong_excluded: str

    def station_neighbours(self, station: str) -> frozenset[str]:
        """The stations next to ``station`` on the line (empty for a place off the line)."""
        if station not in self.stations:
            return frozenset()
        i = self.stations.index(station)
        return frozenset(self.stations[j] for j in (i - 1, i + 1) if 0 <= j < len(self.stations))

    def route(self, origin: str, target: str) -> tuple[str, ...]:
        """The stations a train passes from ``origin`` to ``target``, in travel order, target included."""
        i, j = self.stations.index(origin), self.stations.index(target)
        if i < j:
            return self.stations[i + 1 : j + 1]
        return tuple(reversed(self.stations[j:i]))

    def other_sea(self, sea: str) -> str:
        """The canal's other end."""
        a, b = self.canal_seas
        return b if sea == a else a


@cache
def colonial_board(game_map: GameMap) -> ColonialBoard:
    """The special places of a Colonial map (raises :class:`ValueError` if the map lacks them)."""
    extra: Any = game_map.extra
    try:
        tsr = extra["trans_siberian_railroad"]
        suez = extra["suez_canal"]
        hong_kong = extra["hong_kong"]
        seas = suez["seas"]
        return ColonialBoard(
            stations=tuple(tsr["stations"]),
            line_centers=frozenset(tsr["line_centers"]),
            rail_power=str(tsr["power"]),
            rail_kind=str(tsr["unit_kind"]),
            egypt=str(suez["controlled_from"]),
            canal_seas=(str(seas[0]), str(seas[1])),
            canal_kind=str(suez["unit_kind"]),
            hong_kong=str(hong_kong["province"]),
            hong_kong_excluded=str(hong_kong["no_credit_for"]),
        )
    except (KeyError, IndexError, TypeError) as err:
        raise ValueError(f"map {game_map.name!r} has no Colonial facts (railroad, canal, Hong Kong)") from err
