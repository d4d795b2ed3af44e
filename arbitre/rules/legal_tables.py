"""A map's movement orders as texts made once: what a unit on a place may order whatever the board.

Listing every legal movement order of a position splits in two, as checking
one does (:mod:`arbitre.rules.order_ids`).  What the map alone decides is
worked out once per map, the first time a unit stands on a place, and kept
here with its texts: the hold and the moves by land of a unit of a kind on a
place, the provinces where a unit it could support might stand, and, for each
unit it could support, the support texts (``A PAR S A MAR``, ``A PAR S A MAR -
BUR``).  What the position decides (which units stand where, the convoy
routes through the fleets at sea) is left to
:func:`arbitre.rules.legal_orders.legal_orders`, which picks the texts of the
units on the board and adds the orders by convoy.

Texts are built only when a unit first needs them and then shared: listing a
position's orders copies references to strings made before.
"""

from __future__ import annotations

from typing import Final

from arbitre.maps import ARMY, GameMap

MAP_LIMIT: Final = 32
"""Maps whose tables are kept (rule modules that transform the map make one per rule set); then start again."""


class UnitOrders:
    """The orders a unit of ``kind`` on ``place`` may give on a map whatever the board, as texts.

    ``own`` is its hold and its moves by land (moves by place, sorted);
    ``targets`` the provinces of those moves, each once, in that order (where
    a supporter may support it to); ``reach`` every province it reaches in one
    step (where it may support); ``near`` the provinces, sorted, where a unit
    it could support by land might stand.  :meth:`supports` gives the support
    texts for one such unit.
    """

    def __init__(self, table: MapOrders, kind: str, place: str) -> None:
        gmap = table.game_map
        self.table = table
        self.kind = kind
        self.place = place
        self.province = gmap.province_of[place]
        self.text = f"{kind} {place}"
        moves: list[str] = []
        targets: dict[str, None] = {}
        if kind == ARMY:
            for t in sorted(gmap.province_neighbours[ARMY].get(place, ())):
                moves.append(f"{self.text} - {t}")
                targets[t] = None
        else:
            for t in sorted(gmap.neighbours(kind, place)):
                moves.append(f"{self.text} - {t}")
                targets[gmap.province_of[t]] = None
        self.own: tuple[str, ...] = (f"{self.text} H", *moves)
        self.targets: tuple[str, ...] = tuple(targets)
        self.target_set: frozenset[str] = frozenset(targets)
        self.reach: frozenset[str] = gmap.province_neighbours.get(kind, {}).get(place, frozenset())
        self.coastal_army = kind == ARMY and gmap.provinces[self.province].terrain == "coast"
        self.convoys = kind in gmap.convoy_kinds and self.province in gmap.seas
        near: set[str] = set(self.reach)
        for province in self.reach:
            if province != self.province:
                near.update(table.reaching(province))
        near.discard(self.province)
        self.near: tuple[str, ...] = tuple(sorted(near))
        self.near_set: frozenset[str] = frozenset(near)
        self._supports: dict[UnitOrders, tuple[str, ...]] = {}
        self._via: dict[str, str] = {}
        self._convoy: dict[tuple[str, str], dict[str, str]] = {}

    def supports(self, other: UnitOrders) -> tuple[str, ...]:
        """This unit's supports of ``other`` (a unit on another province) by land: the hold, if it reaches
        ``other``'s province, then each of ``other``'s moves by land into a province it reaches but its own."""
        found = self._supports.get(other)
        if found is None:
            texts: list[str] = []
            named = f"{self.text} S {other.text}"
            if other.province in self.reach:
                texts.append(named)
            for t in other.targets:
                if t != self.province and t in self.reach:
                    texts.append(f"{named} - {t}")
            found = self._supports[other] = tuple(texts)
        return found

    def via_text(self, target: str) -> str:
        """This army's move by convoy to ``target`` (``A LON - NWY VIA``), made once."""
        found = self._via.get(target)
        if found is None:
            found = self._via[target] = f"{self.text} - {target} VIA"
        return found

    def convoy_text(self, word: str, army: str, target: str) -> str:
        """This unit's ``word`` (``S`` or ``C``) of the army on ``army`` moving to ``target``
        (``F NTH C A LON - NWY``), made once."""
        by_army = self._convoy.get((word, army))
        if by_army is None:
            by_army = self._convoy[(word, army)] = {}
        found = by_army.get(target)
        if found is None:
            found = by_army[target] = f"{self.text} {word} A {army} - {target}"
        return found


class MapOrders:
    """Every :class:`UnitOrders` of one map, made as units first stand on their places."""

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        self._units: dict[str, dict[str, UnitOrders]] = {}
        self._reaching: dict[str, frozenset[str]] = {}

    def of(self, kind: str, place: str) -> UnitOrders:
        """The orders of a unit of ``kind`` on ``place``."""
        by_place = self._units.get(kind)
        if by_place is None:
            by_place = self._units[kind] = {}
        found = by_place.get(place)
        if found is None:
            found = by_place[place] = UnitOrders(self, kind, place)
        return found

    def reaching(self, province: str) -> frozenset[str]:
        """The provinces from which a unit of some kind reaches ``province`` in one step."""
        if not self._reaching:
            gmap = self.game_map
            into: dict[str, set[str]] = {}
            for table in gmap.province_neighbours.values():
                for place, provinces in table.items():
                    here = gmap.province_of[place]
                    for p in provinces:
                        into.setdefault(p, set()).add(here)
            self._reaching.update((p, frozenset(s)) for p, s in into.items())
            self._reaching[""] = frozenset()  # filled, even on a map where nothing moves
        return self._reaching.get(province, frozenset())


_TABLES: dict[GameMap, MapOrders] = {}


def map_orders(game_map: GameMap) -> MapOrders:
    """The :class:`MapOrders` of ``game_map`` (kept for the last :data:`MAP_LIMIT` maps)."""
    found = _TABLES.get(game_map)
    if found is None:
        if len(_TABLES) >= MAP_LIMIT:
            _TABLES.clear()
        found = _TABLES[game_map] = MapOrders(game_map)
    return found


def kept_maps() -> int:
    """How many maps' tables are kept now (at most :data:`MAP_LIMIT`)."""
    return len(_TABLES)
