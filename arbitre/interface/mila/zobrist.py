"""MILA's state hash (``zobrist_hash`` in its saved games), computed the way MILA computes it.

MILA's engine keeps a Zobrist hash of a position: one random 63-bit number per
(unit type, place), (power, place) for units, the same two tables again for
dislodged units, and (power, province) for supply centres and for home
centres; the hash is the XOR of the numbers of everything on the board.  The
tables come from Python's Mersenne Twister seeded with a number made from the
map: 12345, plus the count of places a unit may stand on, plus the sum of
``ord(c) * 7 ** i`` over the characters of the sorted supply centres joined by
``-``, modulo 2**32; each entry is ``randint(1, sys.maxsize)``, drawn table
after table in the order above.  Places are sorted by name.  A map's seed and
draws are the same on every Python since 3.2, so the hash is portable.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class ZobristTables:
    """The random numbers of one map (see the module docstring for how they are drawn)."""

    powers: tuple[str, ...]
    places: tuple[str, ...]
    unit_type: tuple[tuple[int, ...], tuple[int, ...]]
    units: tuple[tuple[int, ...], ...]
    dislodged_type: tuple[tuple[int, ...], tuple[int, ...]]
    dislodged: tuple[tuple[int, ...], ...]
    centers: tuple[tuple[int, ...], ...]
    homes: tuple[tuple[int, ...], ...]


@cache
def tables(powers: tuple[str, ...], places: tuple[str, ...], centers: tuple[str, ...]) -> ZobristTables:
    """The tables of a map from its powers, the places a unit may stand on, and its supply centres."""
    power_names = tuple(sorted(p.upper() for p in powers))
    place_names = tuple(sorted(p.upper() for p in places))
    joined = "-".join(sorted(c.upper() for c in centers))
    seed = (12345 + len(place_names) + sum(ord(ch) * 7**i for i, ch in enumerate(joined))) % 2**32
    rng = random.Random(seed)
    n = len(place_names)

    def rows(count: int) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(rng.randint(1, sys.maxsize) for _ in range(n)) for _ in range(count))

    unit_type = rows(2)
    units = rows(len(power_names))
    dislodged_type = rows(2)
    dislodged = rows(len(power_names))
    centre_rows = rows(len(power_names))
    home_rows = rows(len(power_names))
    return ZobristTables(
        power_names,
        place_names,
        (unit_type[0], unit_type[1]),
        units,
        (dislodged_type[0], dislodged_type[1]),
        dislodged,
        centre_rows,
        home_rows,
    )


def state_hash(
    table: ZobristTables,
    units: Iterable[tuple[str, str, str]],
    dislodged: Iterable[tuple[str, str, str]],
    centers: Iterable[tuple[str, str]],
    homes: Iterable[tuple[str, str]],
) -> str:
    """The hash of a position, as MILA writes it (a decimal string).

    ``units`` and ``dislodged`` are (power, ``A``/``F``, place) triples, ``centers`` and
    ``homes`` are (power, province) pairs.
    """
    place_index = {p: i for i, p in enumerate(table.places)}
    power_index = {p: i for i, p in enumerate(table.powers)}
    value = 0

    def kind(k: str) -> int:
        return 0 if k == "A" else 1

    for power, k, place in units:
        i, p = place_index[place.upper()], power_index[power.upper()]
        value ^= table.unit_type[kind(k)][i] ^ table.units[p][i]
    for power, k, place in dislodged:
        i, p = place_index[place.upper()], power_index[power.upper()]
        value ^= table.dislodged_type[kind(k)][i] ^ table.dislodged[p][i]
    for power, province in centers:
        value ^= table.centers[power_index[power.upper()]][place_index[province[:3].upper()]]
    for power, province in homes:
        value ^= table.homes[power_index[power.upper()]][place_index[province[:3].upper()]]
    return str(value)


def unit_triples(units: Sequence[str], power: str) -> list[tuple[str, str, str]]:
    """MILA unit texts (``A PAR``, ``F STP/SC``) of one power as (power, kind, place) triples."""
    return [(power, text.split()[0], text.split()[1]) for text in units]
