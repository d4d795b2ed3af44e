"""The board as data: provinces, coasts, adjacency per unit kind, centres, homes.

A :class:`GameMap` is immutable and built once per map name.  Every lookup the
adjudicator needs (neighbours of a place, the province of a coast, whether a
place is a sea) is precomputed here, twice: by name (dicts and sets of short
upper-case strings, what orders and positions speak) and by integer id (tuples
indexed by place or province id, and bitsets: Python ints whose bit ``k`` stands
for province ``k``), which the resolver and the legality checks use in their
inner loops.  Ids are positions in the sorted names, so they are the same for
every load of a map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class UnitKind(StrEnum):
    """The standard unit kinds, by the letter orders and JSON write them.

    A ``StrEnum``: each member *is* its letter, so JSON and comparisons with
    plain strings are unchanged.  A map transformed by a rule module may add
    kinds of its own (a submarine's ``S``); unit kinds are therefore typed
    ``str`` where any kind may appear.
    """

    ARMY = "A"
    FLEET = "F"


class Terrain(StrEnum):
    """What a province is made of."""

    LAND = "land"
    COAST = "coast"
    SEA = "sea"
    IMPASSABLE = "impassable"


ARMY = UnitKind.ARMY
"""Unit kind letter of an army."""
FLEET = UnitKind.FLEET
"""Unit kind letter of a fleet."""

LAND = Terrain.LAND
COAST = Terrain.COAST
SEA = Terrain.SEA
IMPASSABLE = Terrain.IMPASSABLE


@dataclass(frozen=True, slots=True)
class Province:
    """One province of the board (``PAR``), with its coasts if it has several."""

    abbr: str
    name: str
    name_fr: str
    terrain: str
    supply_center: bool
    coasts: tuple[str, ...]
    aliases: tuple[str, ...] = ()

    @property
    def is_sea(self) -> bool:
        """True for water provinces, where armies never stand."""
        return self.terrain == SEA


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """A power of a map: its names, home centres and starting units (``"A PAR"``)."""

    name: str
    display: str
    display_fr: str
    adjective: str
    homes: tuple[str, ...]
    start_units: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class GameMap:
    """An immutable map.

    ``adjacency[kind][place]`` is the set of places a unit of that kind can move
    to in one step.  A *place* is a province abbreviation or, for a fleet on a
    multi-coast province, ``PROV/XC``.  Variants may add unit kinds (for
    example submarines) by adding an adjacency table for their letter.
    """

    name: str
    title: str
    source: str
    first_phase: str
    victory_centers: int
    powers: Mapping[str, PowerInfo]
    provinces: Mapping[str, Province]
    coast_names: Mapping[str, tuple[str, str]]
    adjacency: Mapping[str, Mapping[str, frozenset[str]]]
    extra: Mapping[str, object] = field(default_factory=dict)
    convoy_kinds: frozenset[str] = frozenset({FLEET})
    """Unit kinds that convoy armies from a sea (a variant may add one, e.g. surfaced submarines)."""
    # Derived tables, filled in __post_init__.
    province_of: Mapping[str, str] = field(init=False)
    supply_centers: frozenset[str] = field(init=False)
    seas: frozenset[str] = field(init=False)
    places: frozenset[str] = field(init=False)
    province_neighbours: Mapping[str, Mapping[str, frozenset[str]]] = field(init=False)
    # Integer ids, filled in __post_init__ from whatever adjacency the map has (a variant's
    # transformed map gets them too).  Plain dicts and tuples: read-only by convention.
    place_names: tuple[str, ...] = field(init=False)
    """Every place (provinces and coasts), sorted: a place's id is its index here."""
    place_id: dict[str, int] = field(init=False)
    """Place name → place id."""
    province_names: tuple[str, ...] = field(init=False)
    """Every province, sorted: a province's id is its index here."""
    province_id: dict[str, int] = field(init=False)
    """Province name → province id (a coast is not in it; see :attr:`place_province_id`)."""
    province_of_id: tuple[int, ...] = field(init=False)
    """Place id → the id of its province."""
    place_province_id: dict[str, int] = field(init=False)
    """Place name → the id of its province (``STP/SC`` → id of ``STP``)."""
    adjacency_ids: dict[str, tuple[tuple[int, ...], ...]] = field(init=False)
    """Per unit kind, place id → the ids of the places a unit of that kind moves to in one step (sorted)."""
    neighbour_bits: dict[str, tuple[int, ...]] = field(init=False)
    """Per unit kind, place id → bitset of the province ids that unit reaches in one step (coasts folded)."""
    kind_place_bits: dict[str, int] = field(init=False)
    """Per unit kind, bitset of the place ids a unit of that kind may stand on (its adjacency table's keys)."""
    sea_bits: int = field(init=False)
    """Bitset of the province ids of the seas."""
    centre_bits: int = field(init=False)
    """Bitset of the province ids of the supply centres."""

    def __post_init__(self) -> None:
        province_of: dict[str, str] = {}
        for abbr, prov in self.provinces.items():
            province_of[abbr] = abbr
            for coast in prov.coasts:
                province_of[coast] = abbr
        for table in self.adjacency.values():
            for place in table:
                province_of.setdefault(place, place.split("/")[0])
        set_ = object.__setattr__
        set_(self, "province_of", province_of)  # plain dicts: read-only by convention, and fastest
        set_(self, "supply_centers", frozenset(a for a, p in self.provinces.items() if p.supply_center))
        set_(self, "seas", frozenset(a for a, p in self.provinces.items() if p.terrain == SEA))
        set_(self, "places", frozenset(province_of))
        # For each unit kind, place -> neighbouring *provinces* (coasts folded).
        prov_nb: dict[str, dict[str, frozenset[str]]] = {}
        for kind, table in self.adjacency.items():
            prov_nb[kind] = {p: frozenset(province_of[n] for n in ns) for p, ns in table.items()}
        set_(self, "province_neighbours", prov_nb)
        self._number(province_of)

    def _number(self, province_of: dict[str, str]) -> None:
        """Fill the integer tables (:attr:`place_id`, :attr:`neighbour_bits`…) from the tables by name."""
        set_ = object.__setattr__
        place_names = tuple(sorted(province_of))
        place_id = {p: i for i, p in enumerate(place_names)}
        province_names = tuple(sorted(set(province_of.values()) | set(self.provinces)))
        province_id = {p: i for i, p in enumerate(province_names)}
        province_of_id = tuple(province_id[province_of[p]] for p in place_names)
        adjacency_ids: dict[str, tuple[tuple[int, ...], ...]] = {}
        neighbour_bits: dict[str, tuple[int, ...]] = {}
        kind_place_bits: dict[str, int] = {}
        for kind, table in self.adjacency.items():
            ids: list[tuple[int, ...]] = []
            bits: list[int] = []
            stands = 0
            for i, place in enumerate(place_names):
                ns = table.get(place)
                if ns is None:
                    ids.append(())
                    bits.append(0)
                    continue
                stands |= 1 << i
                ids.append(tuple(sorted(place_id[n] for n in ns)))
                mask = 0
                for n in ns:
                    mask |= 1 << province_id[province_of[n]]
                bits.append(mask)
            adjacency_ids[kind] = tuple(ids)
            neighbour_bits[kind] = tuple(bits)
            kind_place_bits[kind] = stands
        sea_bits = 0
        centre_bits = 0
        for abbr, prov in self.provinces.items():
            if prov.terrain == SEA:
                sea_bits |= 1 << province_id[abbr]
            if prov.supply_center:
                centre_bits |= 1 << province_id[abbr]
        set_(self, "place_names", place_names)
        set_(self, "place_id", place_id)
        set_(self, "province_names", province_names)
        set_(self, "province_id", province_id)
        set_(self, "province_of_id", province_of_id)
        set_(self, "place_province_id", {p: province_id[province_of[p]] for p in place_names})
        set_(self, "adjacency_ids", adjacency_ids)
        set_(self, "neighbour_bits", neighbour_bits)
        set_(self, "kind_place_bits", kind_place_bits)
        set_(self, "sea_bits", sea_bits)
        set_(self, "centre_bits", centre_bits)

    # --- queries -------------------------------------------------------
    def neighbours(self, kind: str, place: str) -> frozenset[str]:
        """Places a unit of ``kind`` standing on ``place`` can move to in one step."""
        return self.adjacency.get(kind, {}).get(place, frozenset())

    def can_move(self, kind: str, place: str, target: str) -> bool:
        """True if a unit of ``kind`` on ``place`` can move to exactly ``target``."""
        return target in self.adjacency.get(kind, {}).get(place, ())

    def can_reach_province(self, kind: str, place: str, province: str) -> bool:
        """True if the unit can move to some place of ``province`` (the support rule)."""
        return province in self.province_neighbours.get(kind, {}).get(place, ())

    def reaches_province_id(self, kind: str, place: int, province: int) -> bool:
        """:meth:`can_reach_province` by ids: can a unit of ``kind`` on place id ``place`` reach province id ``province``?"""
        bits = self.neighbour_bits.get(kind)
        return bits is not None and (bits[place] >> province) & 1 == 1

    def places_for(self, kind: str, province: str) -> tuple[str, ...]:
        """The places of ``province`` a unit of ``kind`` could stand on."""
        prov = self.provinces[province]
        table = self.adjacency.get(kind, {})
        if prov.coasts and kind != ARMY and province not in table:
            return tuple(c for c in prov.coasts if c in table)
        return (province,) if province in table else ()

    def home_centers(self, power: str) -> tuple[str, ...]:
        """The home supply centres of ``power``."""
        return self.powers[power].homes

    def place_name(self, place: str, lang: str = "en") -> str:
        """The full name of a place, in English or French."""
        if place in self.coast_names:
            en, fr = self.coast_names[place]
            return fr if lang == "fr" else en
        prov = self.provinces[self.province_of[place]]
        return prov.name_fr if lang == "fr" else prov.name
