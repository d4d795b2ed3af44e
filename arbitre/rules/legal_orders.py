"""Every legal order of every unit of a power, for bots and order pickers.

The list is built from the same legality rules the adjudicator applies, so an
order in the list is always accepted, and (with the standard rules) every
accepted order appears in the list.  Movement orders come from the map's table
of texts (:mod:`arbitre.rules.legal_tables`: what the map alone allows, made
once per map); per position only the units on the board and the convoy routes
through its fleets are looked at, once for every power.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbitre.maps import GameMap
from arbitre.rules.disclosure import known_position
from arbitre.rules.facets import OrderRules
from arbitre.rules.legal_tables import UnitOrders, map_orders
from arbitre.rules.legality import convoy_reach, convoy_route_bits, convoy_route_exists, fleet_bits, sea_bits, sea_names
from arbitre.rules.ruleset import RuleSet
from arbitre.state import ADJUSTMENTS, MOVEMENT, Position


def legal_orders(rules: RuleSet, position: Position, power: str) -> dict[str, list[str]]:
    """Every legal order of ``power``'s units, keyed by the unit's place (or province for builds).

    In an adjustment phase, builds are keyed by the province, disbands by the
    unit's place, and ``WAIVE`` appears under the key ``"WAIVE"`` when builds
    are owed.  The list is made from what ``power`` knows of the position: it
    never names a unit the power cannot see.
    """
    if rules.variants:
        position = known_position(rules, position, power)
    gmap = rules.game_map
    kind = position.phase.kind
    if kind == MOVEMENT:
        out = _movement_orders(gmap, position, power)
    elif kind == ADJUSTMENTS:
        out = _adjustment_orders(rules, position, power)
    else:
        out = {}
        for _prov, d in position.dislodged.items():
            if d.unit.power != power:
                continue
            options = d.retreats
            if options is None:
                options = tuple(
                    sorted(
                        p
                        for p in gmap.neighbours(d.unit.kind, d.unit.place)
                        if gmap.province_of[p] not in position.units
                    )
                )
            out[d.unit.place] = [f"{d.unit} R {t}" for t in options] + [f"{d.unit} D"]
    for declared in rules.kinds.values() if rules.variants else ():
        if declared.legal is not None:
            for key, extra in declared.legal(rules, position, power).items():
                out.setdefault(key, []).extend(extra)
    for variant in rules.implementing(OrderRules):
        for key, extra in variant.extra_legal_orders(rules, position, power).items():
            out.setdefault(key, []).extend(extra)
    withdrawn = rules.withdrawn if rules.variants else {}
    if withdrawn:
        out = {
            key: kept
            for key, orders in out.items()
            if (kept := [o for o in orders if type(rules.parse(o)) not in withdrawn])
        }
    return out


class _Board:
    """What one position decides for every power's movement orders: each unit's :class:`UnitOrders` (by
    province), the provinces of each power's units (sorted), and the convoy routes of the coastal armies."""

    def __init__(self, gmap: GameMap, position: Position) -> None:
        self.map = gmap
        table = map_orders(gmap)
        self.fleets = fleets = fleet_bits(position, gmap)
        self.orders: dict[str, UnitOrders] = {}
        self.mine: dict[str, list[str]] = {}
        self.via: dict[str, list[str]] = {}
        """Army's province → the provinces it may move to by convoy (sorted)."""
        self.routes: dict[str, dict[str, int]] = {}
        """Army's province → target → the seas (a mask) on its minimal routes there."""
        self.by_convoy_only: dict[str, list[str]] = {}
        """Army's province → the provinces it reaches by convoy only (sorted)."""
        self.convoyed_into: dict[str, list[str]] = {}
        """Province → the armies (by province) that move there by convoy only."""
        self.convoyed: dict[str, list[tuple[str, str]]] = {}
        """Sea → (army's place, target) of every move by convoy some minimal route of passes through it."""
        self.sea_bits = sea_bits(gmap)
        self._without: dict[tuple[str, str, str], bool] = {}
        units = position.units
        for prov in sorted(units):
            unit = units[prov]
            orders = self.orders[prov] = table.of(unit.kind, unit.place)
            mine = self.mine.get(unit.power)
            if mine is None:
                self.mine[unit.power] = [prov]
            else:
                mine.append(prov)
            if fleets and orders.coastal_army:
                self._convoys(prov, orders)

    def _convoys(self, prov: str, orders: UnitOrders) -> None:
        """The moves by convoy of the army on ``prov`` and their routes."""
        gmap = self.map
        via: list[str] = []
        routes: dict[str, int] = {}
        for t in sorted(convoy_reach(gmap, self.fleets, prov)):
            seas = convoy_route_bits(gmap, self.fleets, prov, t)
            if seas:
                via.append(t)
                routes[t] = seas
                for sea in sea_names(gmap, seas):
                    on_sea = self.convoyed.get(sea)
                    if on_sea is None:
                        self.convoyed[sea] = [(orders.place, t)]
                    else:
                        on_sea.append((orders.place, t))
        if not via:
            return
        self.via[prov] = via
        self.routes[prov] = routes
        only = [t for t in via if t not in orders.target_set]
        if only:
            self.by_convoy_only[prov] = only
            for t in only:
                into = self.convoyed_into.get(t)
                if into is None:
                    self.convoyed_into[t] = [prov]
                else:
                    into.append(prov)

    def army_reaches(self, origin: str, target: str, without: str, bit: int) -> bool:
        """Can the army on ``origin`` be convoyed to ``target`` (one of its :attr:`via`) without the fleet on
        ``without`` (a sea whose bit is ``bit``, or no sea and 0)?"""
        if not self.routes[origin][target] & bit:
            return True
        key = (origin, target, without)
        known = self._without.get(key)
        if known is None:
            known = self._without[key] = convoy_route_exists(self.map, self.fleets & ~bit, origin, target)
        return known


def _movement_orders(gmap: GameMap, position: Position, power: str) -> dict[str, list[str]]:
    """``power``'s movement orders: each unit's texts from the map's table (:mod:`arbitre.rules.legal_tables`),
    those the board allows, and the orders by convoy the position's routes allow."""
    key = ("legal_orders", id(gmap))
    memo = position.memo
    board = memo.get(key)
    if not isinstance(board, _Board) or board.map is not gmap:
        board = _Board(gmap, position)
        memo[key] = board
    placed = board.orders
    via = board.via
    out: dict[str, list[str]] = {}
    for prov in board.mine.get(power, ()):
        mine = placed[prov]
        orders = list(mine.own)
        if via:
            for t in via.get(prov, ()):
                orders.append(mine.via_text(t))
        if not board.by_convoy_only:
            for near in mine.near:
                other = placed.get(near)
                if other is not None:
                    orders.extend(mine.supports(other))
        else:
            _supports_with_convoys(mine, board, orders)
        if mine.convoys and via:
            for army, t in board.convoyed.get(prov, ()):
                orders.append(mine.convoy_text("C", army, t))
        out[mine.place] = orders
    return out


def _supports_with_convoys(mine: UnitOrders, board: _Board, orders: list[str]) -> None:
    """``mine``'s supports when some army moves by convoy where it cannot go by land: for each other unit
    (by province), its supports by land, then those of its moves by convoy into a province ``mine``
    reaches (sorted), unless the only route needs ``mine`` itself."""
    here = mine.province
    reach = mine.reach
    only = board.by_convoy_only
    placed = board.orders
    into = board.convoyed_into
    others: Sequence[str] = mine.near
    extra: set[str] = set()
    for t in reach:
        armies = into.get(t)
        if armies is not None:
            for prov in armies:
                if prov != here and prov not in mine.near_set:
                    extra.add(prov)
    if extra:
        others = sorted(extra.union(p for p in mine.near if p in placed))
    bit = board.sea_bits.get(here, 0)
    for prov in others:
        other = placed.get(prov)
        if other is None:
            continue
        orders.extend(mine.supports(other))
        targets = only.get(prov)
        if targets is not None:
            for t in targets:
                if t != here and t in reach and board.army_reaches(prov, t, here, bit):
                    orders.append(mine.convoy_text("S", other.place, t))


def _adjustment_orders(rules: RuleSet, position: Position, power: str) -> dict[str, list[str]]:
    gmap = rules.game_map
    units = [u for u in position.units.values() if u.power == power]
    owed = rules.build_centers(power, position) - len(units)
    out: dict[str, list[str]] = {}
    if owed > 0:
        for site in rules.build_sites(power, position):
            if position.owners.get(site) != power or site in position.units:
                continue
            options = []
            for kind in sorted(gmap.adjacency):
                for place in gmap.places_for(kind, site):
                    options.append(f"{kind} {place} B")
            if options:
                out[site] = options
        out["WAIVE"] = ["WAIVE"]
    elif owed < 0:
        for u in sorted(units, key=lambda u: u.place):
            out[u.place] = [f"{u} D"]
    return out
