"""MILA's state hash (``zobrist_hash``), computed as MILA 1.1.2 computes it.

MILA draws its tables once per map from Python's Mersenne Twister seeded with a number made from the map:
``(12345 + number of places + sum(ord(c) * 7**i for the i-th character c of the sorted centres joined by
"-")) mod 2**32``; then, in this order, ``randint(1, sys.maxsize)`` for each place of: the unit kinds (A,
F), the units of each power (powers sorted), the dislodged unit kinds, the dislodged units of each power,
the centres of each power, the homes of each power.  Places are the map's places (provinces and coasts,
upper case, sorted) a unit may stand on.  The hash of a state is the XOR of the entries of its units,
dislodged units, owned centres and homes.  The same draws give the same numbers in every CPython 3.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arbitre.maps import GameMap

KINDS = ("A", "F")


@dataclass(frozen=True)
class Tables:
    """One map's hash tables: per kind and per power, a number for each place."""

    places: tuple[str, ...]
    powers: tuple[str, ...]
    unit_kind: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    dislodged_kind: tuple[tuple[int, ...], ...]
    dislodged: tuple[tuple[int, ...], ...]
    centres: tuple[tuple[int, ...], ...]
    homes: tuple[tuple[int, ...], ...]


_TABLES: dict[str, Tables] = {}


def tables(gmap: GameMap) -> Tables:
    """The hash tables of ``gmap`` (made once per map name)."""
    found = _TABLES.get(gmap.name)
    if found is None:
        found = _TABLES[gmap.name] = _make_tables(gmap)
    return found


def _make_tables(gmap: GameMap) -> Tables:
    standable = {place for kind in KINDS for place in gmap.adjacency.get(kind, {})}
    places = tuple(sorted(p for p in gmap.place_names if p in standable))
    powers = tuple(sorted(gmap.powers))
    centres = "-".join(sorted(gmap.supply_centers))
    seed = (12345 + len(places) + sum(ord(c) * 7**i for i, c in enumerate(centres))) % 2**32
    rng = random.Random(seed)

    def rows(n: int) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(rng.randint(1, sys.maxsize) for _ in places) for _ in range(n))

    return Tables(
        places,
        powers,
        rows(len(KINDS)),
        rows(len(powers)),
        rows(len(KINDS)),
        rows(len(powers)),
        rows(len(powers)),
        rows(len(powers)),
    )


def state_hash(
    gmap: GameMap,
    units: Mapping[str, Iterable[str]],
    dislodged: Mapping[str, Iterable[str]],
    centres: Mapping[str, Iterable[str]],
    homes: Mapping[str, Iterable[str]],
) -> int:
    """MILA's hash of a state: ``units`` and ``dislodged`` map a power to its units (``"F STP/SC"``), ``centres``
    and ``homes`` a power to provinces."""
    t = tables(gmap)
    at = {p: i for i, p in enumerate(t.places)}
    value = 0
    for power, listed in units.items():
        pi = t.powers.index(power)
        for unit in listed:
            kind, place = unit.split()
            value ^= t.unit_kind[KINDS.index(kind)][at[place]] ^ t.units[pi][at[place]]
    for power, listed in dislodged.items():
        pi = t.powers.index(power)
        for unit in listed:
            kind, place = unit.split()
            value ^= t.dislodged_kind[KINDS.index(kind)][at[place]] ^ t.dislodged[pi][at[place]]
    for power, provinces in centres.items():
        pi = t.powers.index(power)
        for province in provinces:
            value ^= t.centres[pi][at[province[:3]]]
    for power, provinces in homes.items():
        pi = t.powers.index(power)
        for province in provinces:
            value ^= t.homes[pi][at[province[:3]]]
    return value
