"""Every legal order of every unit of a power, for bots and order pickers.

The list is built from the same legality rules the adjudicator applies, so an
order in the list is always accepted, and (with the standard rules) every
accepted order appears in the list.  Convoy routes are computed once per call.
"""

from __future__ import annotations

from functools import cache

from arbitre.maps import ARMY, FLEET, GameMap
from arbitre.rules.disclosure import known_position
from arbitre.rules.facets import OrderRules
from arbitre.rules.legality import convoy_route_exists, convoy_routes, fleet_bits, fleet_seas
from arbitre.rules.ruleset import RuleSet
from arbitre.state import ADJUSTMENTS, MOVEMENT, Position, Unit


class _Routes:
    """Convoy routes in one position, cached by (origin, target, excluded sea)."""

    def __init__(self, game_map: GameMap, position: Position) -> None:
        self.map = game_map
        self.position = position
        self.fleets = fleet_seas(position, game_map)
        self.cache: dict[tuple[str, str], frozenset[str]] = {}
        self.reach_cache: dict[str, frozenset[str]] = {}
        self.without_cache: dict[tuple[str, str, str], bool] = {}

    def reachable(self, origin: str) -> frozenset[str]:
        """Coastal provinces an army on ``origin`` might reach through fleet-held seas."""
        if origin not in self.reach_cache:
            self.reach_cache[origin] = _reach(self.map, self.fleets, origin)
        return self.reach_cache[origin]

    def on_route(self, origin: str, target: str) -> frozenset[str]:
        """Seas on a minimal route from ``origin`` to ``target``."""
        key = (origin, target)
        if key not in self.cache:
            self.cache[key] = (
                convoy_routes(self.map, self.fleets, origin, target)
                if target in self.reachable(origin)
                else frozenset()
            )
        return self.cache[key]

    def army_reaches(self, origin: str, target: str, without: str | None = None) -> bool:
        """Can an army be convoyed from ``origin`` to ``target`` (without the fleet at ``without``)?"""
        route = self.on_route(origin, target)
        if not route:
            return False
        if without is None or without not in route:
            return True
        key = (origin, target, without)
        known = self.without_cache.get(key)
        if known is None:
            fleets = fleet_bits(self.position, self.map, without)
            known = self.without_cache[key] = convoy_route_exists(self.map, fleets, origin, target)
        return known


def _reach(game_map: GameMap, fleets: frozenset[str], origin: str) -> frozenset[str]:
    nb = game_map.province_neighbours.get(FLEET, {})
    frontier = [s for s in fleets if origin in nb.get(s, ())]
    seen = set(frontier)
    out: set[str] = set()
    while frontier:
        sea = frontier.pop()
        for prov in nb.get(sea, ()):
            if prov in fleets and prov not in seen:
                seen.add(prov)
                frontier.append(prov)
            elif game_map.provinces[prov].terrain == "coast":
                out.add(prov)
    out.discard(origin)
    return frozenset(out)


@cache
def _army_targets(game_map: GameMap, place: str) -> tuple[str, ...]:
    return tuple(sorted(p for p in game_map.province_neighbours[ARMY].get(place, ())))


def _moves(game_map: GameMap, routes: _Routes, unit: Unit) -> list[tuple[str, str, bool]]:
    """(target place, target province, via convoy) for every legal move of ``unit``."""
    here = game_map.province_of[unit.place]
    out: list[tuple[str, str, bool]] = []
    if unit.kind == ARMY:
        land = set(_army_targets(game_map, unit.place))
        out.extend((t, t, False) for t in sorted(land))
        if game_map.provinces[here].terrain == "coast":
            for t in sorted(routes.reachable(here)):
                if routes.army_reaches(here, t):
                    out.append((t, t, True))
    else:
        for t in sorted(game_map.neighbours(unit.kind, unit.place)):
            out.append((t, game_map.province_of[t], False))
    return out


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


def _movement_orders(gmap: GameMap, position: Position, power: str) -> dict[str, list[str]]:
    """``power``'s movement orders, from the table of every power's, made once per position."""
    key = ("legal_orders", id(gmap))
    memo = position.memo
    hit = memo.get(key)
    if hit is None or hit[0] is not gmap:  # type: ignore[index]
        hit = memo[key] = (gmap, _all_movement_orders(gmap, position))
    table: dict[str, dict[str, list[str]]] = hit[1]  # type: ignore[index]
    return {place: list(orders) for place, orders in table.get(power, {}).items()}


def _all_movement_orders(gmap: GameMap, position: Position) -> dict[str, dict[str, list[str]]]:
    """Every power's legal movement orders (power → unit's place → order texts): each unit's moves
    and each convoy route are worked out once for all powers."""
    routes = _Routes(gmap, position)
    board = sorted(position.units.items())
    moves_of = {prov: _moves(gmap, routes, u) for prov, u in board}
    texts = {prov: str(u) for prov, u in board}
    armies = [prov for prov, army in board if army.kind == ARMY and gmap.provinces[prov].terrain == "coast"]
    # Each unit's move targets as supports name them: every province once, in the order of its first
    # move there (a unit's moves by land come before its moves by convoy); ``True`` when the only way
    # there is by convoy (then the supporter must not be the fleet the convoy needs).
    targets: dict[str, list[tuple[str, bool]]] = {}
    for prov, _unit in board:
        first: dict[str, bool] = {}
        for _, tprov, via in moves_of[prov]:
            first[tprov] = first.get(tprov, True) and via
        targets[prov] = list(first.items())
    # Who could be supported from a province: the unit standing there and every unit moving there.
    near_units: dict[str, set[str]] = {}
    for prov, found in targets.items():
        near_units.setdefault(prov, set()).add(prov)
        for tprov, _ in found:
            near_units.setdefault(tprov, set()).add(prov)
    out: dict[str, dict[str, list[str]]] = {}
    for prov, unit in board:
        me = texts[prov]
        orders = [f"{me} H"]
        for place, _, via in moves_of[prov]:
            orders.append(f"{me} - {place} VIA" if via else f"{me} - {place}")
        reach = gmap.province_neighbours.get(unit.kind, {}).get(unit.place, frozenset())
        supportable: set[str] = set()
        for province in reach:
            supportable.update(near_units.get(province, ()))
        supportable.discard(prov)
        for other_prov in sorted(supportable):
            other = texts[other_prov]
            if other_prov in reach:
                orders.append(f"{me} S {other}")
            for tprov, by_convoy in targets[other_prov]:
                if tprov == prov or tprov not in reach:
                    continue
                if by_convoy and not routes.army_reaches(other_prov, tprov, without=prov):
                    continue
                orders.append(f"{me} S {other} - {tprov}")
        if unit.kind in gmap.convoy_kinds and prov in gmap.seas:
            for army_prov in armies:
                for target in sorted(routes.reachable(army_prov)):
                    if prov in routes.on_route(army_prov, target):
                        orders.append(f"{me} C {texts[army_prov]} - {target}")
        out.setdefault(unit.power, {})[unit.place] = orders
    return out


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
