"""Is an order allowed in a position?  Standard rules, phase by phase.

Each ``check_*`` function returns the order in normal form (the unit's real
kind and place, the coast filled in where only one is possible) or raises
:class:`~arbitre.orders.IllegalOrder` saying why.  The rules follow the DATC
v3.2 preferences (4.B coasts, 4.C unit designation) unless an option says
otherwise.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache

from arbitre.maps import ARMY, FLEET, GameMap
from arbitre.orders import (
    AmbiguousOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    IllegalOrder,
    Move,
    Order,
    Retreat,
    Support,
    UnitRef,
    Waive,
)
from arbitre.rules.options import RuleOptions
from arbitre.state import Position, Unit


def illegal(order: Order | str, message: str, reason: str) -> IllegalOrder:
    """An :class:`IllegalOrder` for ``order`` with a message and a reason code."""
    return IllegalOrder(message, text=str(order), reason=reason)


def convoy_routes(
    game_map: GameMap, fleets_at: frozenset[str] | set[str], origin: str, target: str, limit: int = 12
) -> frozenset[str]:
    """Seas on some *minimal* convoy route from ``origin`` to ``target``.

    ``fleets_at`` holds the sea provinces where a fleet stands.  A route is a
    chain of such seas with no shortcut (DATC 6.F.12, 6.G.7, 6.G.19): a fleet
    that no route needs cannot convoy, and an army with no route cannot be
    convoyed.  An empty set means no route exists.
    """
    return _convoy_routes(game_map, frozenset(fleets_at), origin, target, limit)


@lru_cache(maxsize=65536)
def _convoy_routes(
    game_map: GameMap, fleets_at: frozenset[str], origin: str, target: str, limit: int
) -> frozenset[str]:
    seas = _sea_bits(game_map)[1]
    fleets = 0
    for sea in fleets_at:
        index = seas.get(sea)
        if index is not None:
            fleets |= 1 << index
    return frozenset(sea_names(game_map, convoy_route_bits(game_map, fleets, origin, target, limit)))


def sea_names(game_map: GameMap, bits: int) -> list[str]:
    """The seas of a mask of :func:`_sea_bits`, in the order of their bits (alphabetical)."""
    names = _sea_bits(game_map)[0]
    out: list[str] = []
    while bits:
        low = bits & -bits
        bits ^= low
        out.append(names[low.bit_length() - 1])
    return out


def convoy_route_bits(game_map: GameMap, fleets: int, origin: str, target: str, limit: int = 12) -> int:
    """:func:`convoy_routes` on bits: ``fleets`` and the answer are masks of seas (bits of :func:`_sea_bits`)."""
    _, _, out, into = _sea_bits(game_map)
    # A path is a mask of seas; "touches an earlier sea of the path" is one AND.
    origin_side, ends = _route_ends(game_map, fleets, origin, target)
    on_route = 0
    chains = _Chains(fleets, origin_side, ends, limit, out, into)
    firsts = origin_side
    while firsts:
        low = firsts & -firsts
        firsts ^= low
        on_route |= _extend(low.bit_length() - 1, low, 1, chains)
    return on_route


class _Chains:
    """What :func:`_extend` needs besides the path: the seas by their bits (one object, passed down)."""

    def __init__(self, fleets: int, origin_side: int, ends: int, limit: int, out: list[int], into: list[int]) -> None:
        self.fleets = fleets
        self.origin_side = origin_side
        self.ends = ends
        self.limit = limit
        self.out = out
        self.into = into


def _extend(last: int, path: int, length: int, c: _Chains) -> int:
    """The seas of every minimal route that continues ``path`` (a mask of seas ending at sea ``last``).

    A chain of seas from the origin with no shortcut: each next sea touches the
    last one, no earlier one, and not the origin; it ends at the first sea
    touching the target.  (A function of its own rather than a closure: the
    compiled build calls it natively.)
    """
    if c.ends >> last & 1:
        return path
    if length >= c.limit:
        return 0
    found = 0
    earlier = path & ~(1 << last)
    options = c.out[last] & c.fleets & ~path & ~c.origin_side
    while options:
        low = options & -options
        options ^= low
        nxt = low.bit_length() - 1
        if c.into[nxt] & earlier:
            continue
        found |= _extend(nxt, path | low, length + 1, c)
    return found


@lru_cache(maxsize=16)
def _sea_bits(game_map: GameMap) -> tuple[tuple[str, ...], dict[str, int], list[int], list[int]]:
    """The map's seas as bit indices: (seas in index order, sea → index, out[i]: the seas sea i
    touches, into[j]: the seas that touch sea j), for the fleet-adjacency of convoy routes."""
    nb = game_map.province_neighbours.get(FLEET, {})
    names = tuple(sorted(game_map.seas))
    index = {sea: i for i, sea in enumerate(names)}
    out = [0] * len(names)
    into = [0] * len(names)
    for i, sea in enumerate(names):
        for other in nb.get(sea, ()):
            j = index.get(other)
            if j is not None:
                out[i] |= 1 << j
                into[j] |= 1 << i
    return names, index, out, into


@lru_cache(maxsize=16)
def _sea_touch(game_map: GameMap) -> dict[str, int]:
    """Province → the seas (bits of :func:`_sea_bits`) whose fleet-adjacency reaches it."""
    nb = game_map.province_neighbours.get(FLEET, {})
    names = _sea_bits(game_map)[0]
    touch: dict[str, int] = {}
    for i, sea in enumerate(names):
        for prov in nb.get(sea, ()):
            touch[prov] = touch.get(prov, 0) | 1 << i
    return touch


@lru_cache(maxsize=16)
def _sea_coasts(game_map: GameMap) -> tuple[frozenset[str], ...]:
    """Per sea (bits of :func:`_sea_bits`), the coastal provinces its fleet-adjacency reaches."""
    nb = game_map.province_neighbours.get(FLEET, {})
    provinces = game_map.provinces
    return tuple(
        frozenset(p for p in nb.get(sea, ()) if p in provinces and provinces[p].terrain == "coast")
        for sea in _sea_bits(game_map)[0]
    )


def _next_seas(out: list[int], frontier: int) -> int:
    """The seas touching any sea of ``frontier`` (masks of :func:`_sea_bits`, ``out`` its third table): one
    step of the breadth-first searches over fleet-held seas."""
    nxt = 0
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        nxt |= out[low.bit_length() - 1]
    return nxt


def convoy_reach(game_map: GameMap, fleets: int, origin: str) -> set[str]:
    """The coastal provinces (``origin`` aside) touching a sea that a chain of ``fleets`` (a mask of seas,
    bits of :func:`_sea_bits`) links to ``origin``: where an army there might be convoyed, before routes
    are checked for shortcuts (:func:`convoy_route_bits`)."""
    out = _sea_bits(game_map)[2]
    seen = frontier = fleets & _sea_touch(game_map).get(origin, 0)
    while frontier:
        frontier = _next_seas(out, frontier) & fleets & ~seen
        seen |= frontier
    coasts = _sea_coasts(game_map)
    reached: set[str] = set()
    while seen:
        low = seen & -seen
        seen ^= low
        reached.update(coasts[low.bit_length() - 1])
    reached.discard(origin)
    return reached


def sea_bits(game_map: GameMap) -> dict[str, int]:
    """Sea → its bit in masks of seas (:func:`_sea_bits`)."""
    return {sea: 1 << i for sea, i in _sea_bits(game_map)[1].items()}


def _route_ends(game_map: GameMap, fleets: int, origin: str, target: str) -> tuple[int, int]:
    """The fleet-held seas (bits of :func:`_sea_bits`) that touch ``origin``, and those that touch ``target``."""
    touch = _sea_touch(game_map)
    return fleets & touch.get(origin, 0), fleets & touch.get(target, 0)


def convoy_route_exists(game_map: GameMap, fleets: int, origin: str, target: str, limit: int = 12) -> bool:
    """Is there a convoy route from ``origin`` to ``target`` (``bool(convoy_routes(...))``, quicker)?

    ``fleets`` holds the fleet-held seas as bits of :func:`_sea_bits`.  A
    breadth-first search: a shortest chain of seas has no shortcut, so a route
    of at most ``limit`` seas exists exactly when the search reaches a sea
    touching the target within ``limit`` steps.
    """
    out = _sea_bits(game_map)[2]
    first, ends = _route_ends(game_map, fleets, origin, target)
    seen = frontier = first
    length = 1
    while frontier:
        if frontier & ends:
            return True
        if length >= limit:
            return False
        frontier = _next_seas(out, frontier) & fleets & ~seen
        seen |= frontier
        length += 1
    return False


def fleet_bits(position: Position, game_map: GameMap, exclude: str | None = None) -> int:
    """:func:`fleet_seas` as bits of :func:`_sea_bits` (optionally leaving one sea out)."""
    key = ("fleet_bits", game_map.name, game_map.convoy_kinds)
    bits = position.memo.get(key)
    if bits is None:
        index = _sea_bits(game_map)[1]
        bits = 0
        for sea in fleet_seas(position, game_map):
            bits |= 1 << index[sea]
        position.memo[key] = bits
    assert isinstance(bits, int)
    if exclude is not None:
        i = _sea_bits(game_map)[1].get(exclude)
        if i is not None:
            bits &= ~(1 << i)
    return bits


def fleet_seas(position: Position, game_map: GameMap, exclude: str | None = None) -> frozenset[str]:
    """Sea provinces holding a fleet in ``position`` (optionally leaving one out)."""
    key = ("fleet_seas", game_map.name, game_map.convoy_kinds)
    seas = position.memo.get(key)
    if seas is None:
        seas = position.memo[key] = frozenset(
            p for p, u in position.units.items() if u.kind in game_map.convoy_kinds and p in game_map.seas
        )
    assert isinstance(seas, frozenset)
    return seas - {exclude} if exclude in seas else seas


def clear_caches() -> None:
    """Forget every memoized convoy route (benchmarks use it to time a cold engine)."""
    _convoy_routes.cache_clear()


class _BoardLookups:
    """Counts legality checks that looked at the rest of the board (convoy routes)."""

    count = 0


BOARD_LOOKUPS = _BoardLookups()
"""Incremented whenever legality depends on units other than the ordered and supported ones."""


def army_can_be_convoyed(
    game_map: GameMap, position: Position, origin: str, target: str, exclude: str | None = None
) -> bool:
    """Could the fleets now on the board carry an army from ``origin`` to ``target``?"""
    BOARD_LOOKUPS.count += 1
    if origin == target or game_map.provinces[target].terrain != "coast":
        return False
    return convoy_route_exists(game_map, fleet_bits(position, game_map, exclude), origin, target)


def unit_can_reach(
    game_map: GameMap, position: Position, unit: Unit, province: str, exclude: str | None = None
) -> bool:
    """Could ``unit`` move to (some place of) ``province``, by land, sea or convoy?"""
    if game_map.can_reach_province(unit.kind, unit.place, province):
        return True
    return unit.kind == ARMY and army_can_be_convoyed(
        game_map, position, game_map.province_of[unit.place], province, exclude
    )


def own_unit(position: Position, power: str, ref: UnitRef, order: Order) -> Unit:
    """The unit an order addresses; it must exist and belong to ``power``."""
    unit = position.units.get(ref.province)
    if unit is None:
        raise illegal(order, f"there is no unit in {ref.province}", "no_unit")
    if unit.power != power:
        raise illegal(order, f"the unit in {ref.province} belongs to {unit.power}", "not_own_unit")
    return unit


def fleet_target(game_map: GameMap, unit: Unit, target: str, options: RuleOptions, order: Order) -> str:
    """The exact place a fleet move goes to, with the coast settled (DATC 4.B)."""
    province = game_map.province_of.get(target, target)
    coasts = game_map.provinces[province].coasts
    reachable = [c for c in coasts if game_map.can_move(unit.kind, unit.place, c)]
    if target != province or not coasts:
        if not game_map.can_move(unit.kind, unit.place, target):
            if options.impossible_coast == "ignored" and len(reachable) == 1:
                return reachable[0]  # DATC 4.B.3 a: the coast is ignored
            raise illegal(order, f"{unit} cannot move to {target}", "not_adjacent")
        return target
    if not reachable:
        raise illegal(order, f"{unit} cannot move to {province}", "not_adjacent")
    if len(reachable) > 1:
        raise AmbiguousOrder(
            f"{province} has two coasts {unit} can reach; name one", text=str(order), reason="coast_needed"
        )
    if options.missing_coast == "illegal":
        raise illegal(order, f"name the coast of {province}", "coast_needed")
    return reachable[0]


def check_movement_order(
    game_map: GameMap, position: Position, power: str, order: Order, options: RuleOptions
) -> Order:
    """Validate one movement-phase order of ``power``; return its normal form."""
    if not isinstance(order, (Hold, Move, Support, Convoy)) or order.unit is None:
        raise illegal(
            order, f"{type(order).__name__.lower()} orders are not allowed in a movement phase", "wrong_phase"
        )
    unit = own_unit(position, power, order.unit, order)
    written = order.unit
    if options.wrong_unit_type == "illegal" and written.kind is not None and written.kind != unit.kind:
        raise illegal(
            order,
            f"the unit in {written.province} is not {'an army' if written.kind == ARMY else 'a fleet'}",
            "wrong_unit_type",
        )
    if options.missing_unit_type == "invalid" and written.kind is None:
        raise illegal(order, f"the order names no unit type for {written.province} (DATC 4.C.1)", "missing_unit_type")
    if options.unit_coast == "illegal" and "/" in written.place and written.place != unit.place:
        raise illegal(order, f"the fleet is on {unit.place}, not {written.place} (DATC 4.B.5)", "unit_coast")
    if options.irrelevant_coast == "illegal" and unit.kind == ARMY and isinstance(order, Move) and "/" in order.target:
        raise illegal(order, f"an army move names no coast (DATC 4.B.6): {order.target}", "irrelevant_coast")
    ref = written if written.kind == unit.kind and written.place == unit.place else UnitRef(unit.kind, unit.place)
    here = game_map.province_of[unit.place]
    if isinstance(order, Move) and order.path:
        if options.convoy_path == "ignored":
            order = Move(order.unit, order.target, order.via_convoy)  # DATC 4.A.6 a: the path is ignored
        else:
            return check_convoy_path(game_map, position, unit, ref, order)
    if isinstance(order, (Support, Convoy)):
        order = check_nationality(position, power, order, options, game_map.powers)
    try:
        return _check_unit_order(game_map, position, unit, ref, here, order, options)
    except IllegalOrder as err:
        if written.place != unit.place and "/" in written.place and err.reason == "not_adjacent":
            # The order names the other coast: it is read for the real unit, and fails (DATC 6.B.11).
            raise illegal(order, f"the fleet is on {unit.place}, not {written.place}", "wrong_coast") from err
        raise


def check_convoy_path(game_map: GameMap, position: Position, unit: Unit, ref: UnitRef, order: Move) -> Move:
    """A move with a written convoy path (DATC 4.A.6 b/c): a chain of seas, each holding a fleet.

    The normal form keeps the path: the army may then be convoyed only through those seas.
    """
    here = game_map.province_of[unit.place]
    target = game_map.province_of[order.target]
    if unit.kind != ARMY:
        raise illegal(order, "only an army's move can name a convoy path", "convoy_path")
    if game_map.provinces[target].terrain != "coast" or target == here:
        raise illegal(order, f"{unit} cannot be convoyed to {target}", "convoy_path")
    nb = game_map.province_neighbours.get(FLEET, {})
    seas = tuple(game_map.province_of.get(p, p) for p in order.path)
    for previous, sea in zip((here, *seas[:-1]), seas, strict=True):
        if not game_map.provinces[sea].is_sea or previous not in nb.get(sea, ()):
            raise illegal(order, f"the convoy path cannot go from {previous} to {sea}", "convoy_path")
        held = position.units.get(sea)
        if held is None or held.kind not in game_map.convoy_kinds:
            raise illegal(order, f"no fleet in {sea} can convoy along the path", "convoy_path")
    if target not in nb.get(seas[-1], ()) or len(set(seas)) != len(seas):
        raise illegal(order, f"the convoy path does not reach {target}", "convoy_path")
    return Move(ref, target, True, seas)


def check_nationality(
    position: Position, power: str, order: Support | Convoy, options: RuleOptions, powers: Collection[str]
) -> Order:
    """The nationality written for a supported or convoyed unit (DATC 4.C.5, 4.C.6).

    The normal form drops it: once the order is allowed, only the unit counts.  An
    order that names no nationality for a foreign unit, or the wrong one, is
    illegal under the ``invalid`` alternatives; ``unless_designated`` is settled
    between the orders of one unit when they are read (:mod:`arbitre.adjudicator.intake`).
    A unit of no power of the map (a rule module's stand-in for a unit the ordering
    power cannot see) has no nationality to check: the order is judged as if it were right.
    """
    if order.nationality is None and options.missing_nationality == "valid":
        return order  # the common case: nothing written, nothing to check
    named = order.supported if isinstance(order, Support) else order.convoyed
    other = position.units.get(named.province)
    if other is not None and other.power in powers:
        if order.nationality is None and other.power != power and options.missing_nationality == "invalid":
            raise illegal(order, f"name the nationality of the unit in {named.province} (DATC 4.C.5)", "nationality")
        if order.nationality not in (None, other.power) and options.wrong_nationality == "invalid":
            raise illegal(
                order, f"the unit in {named.province} is not {order.nationality}'s (DATC 4.C.6)", "nationality"
            )
    if order.nationality is None:
        return order
    if isinstance(order, Support):
        return Support(order.unit, order.supported, order.target)
    return Convoy(order.unit, order.convoyed, order.target)


def nationality_weak(position: Position, power: str, order: Order, options: RuleOptions) -> bool | None:
    """DATC 4.C.5/4.C.6 c: does this order give way to one naming the right nationality?

    ``True``: it names none for a foreign unit (or the wrong one) under ``unless_designated``;
    ``False``: it names the right one; ``None``: it names no unit of another power at all.
    """
    if not isinstance(order, (Support, Convoy)):
        return None
    named = order.supported if isinstance(order, Support) else order.convoyed
    other = position.units.get(named.province)
    if other is None:
        return None
    if order.nationality == other.power:
        return False
    if order.nationality is None:
        return True if other.power != power and options.missing_nationality == "unless_designated" else None
    return True if options.wrong_nationality == "unless_designated" else None


def _check_unit_order(
    game_map: GameMap, position: Position, unit: Unit, ref: UnitRef, here: str, order: Order, options: RuleOptions
) -> Order:
    if isinstance(order, Hold):
        return order if order.unit is ref else Hold(ref)
    if isinstance(order, Move):
        if not order.via_convoy and order.target in game_map.adjacency.get(unit.kind, {}).get(unit.place, ()):
            # The common case: a plain move to a neighbouring place the map lists for this unit kind.
            return order if order.unit is ref else Move(ref, order.target, False)
        target_prov = game_map.province_of[order.target]
        if target_prov == here:
            raise illegal(order, "a unit cannot move to its own province", "own_province")
        if unit.kind == ARMY:
            if game_map.provinces[target_prov].terrain not in ("coast", "land"):
                raise illegal(order, f"an army cannot enter {target_prov}", "army_to_sea")
            if game_map.can_move(ARMY, unit.place, target_prov) and not order.via_convoy:
                if order.unit is ref and order.target == target_prov:
                    return order
                return Move(ref, target_prov, False)
            if army_can_be_convoyed(game_map, position, here, target_prov):
                return Move(ref, target_prov, order.via_convoy)
            if game_map.can_move(ARMY, unit.place, target_prov):
                return Move(ref, target_prov, False)
            raise illegal(order, f"{unit} cannot reach {target_prov}, even by convoy", "not_adjacent")
        target = fleet_target(game_map, unit, order.target, options, order)
        if order.unit is ref and order.target == target and not order.via_convoy:
            return order
        return Move(ref, target, False)
    if isinstance(order, Support):
        sup_prov = order.supported.province
        if sup_prov == here:
            raise illegal(order, "a unit cannot support itself", "self_support")
        supported = position.units.get(sup_prov)
        if supported is None:
            raise illegal(order, f"there is no unit in {sup_prov} to support", "no_unit")
        named = order.supported
        sref = (
            named
            if named.kind == supported.kind and named.place == supported.place
            else UnitRef(supported.kind, supported.place)
        )
        if order.target is None:
            if not game_map.can_reach_province(unit.kind, unit.place, sup_prov):
                raise illegal(order, f"{unit} cannot reach {sup_prov}, so cannot support there", "cannot_reach")
            return order if (ref is order.unit and sref is named) else Support(ref, sref, None)
        into = game_map.province_of[order.target]
        if into == sup_prov:
            raise illegal(order, "a supported move must leave its province", "own_province")
        if into == here:
            raise illegal(order, "a unit cannot support a move into its own province", "own_province")
        if not game_map.can_reach_province(unit.kind, unit.place, into):
            raise illegal(order, f"{unit} cannot reach {into}, so cannot support a move there", "cannot_reach")
        if not unit_can_reach(game_map, position, supported, into, exclude=here):
            raise illegal(order, f"{supported} cannot reach {into}", "cannot_reach")
        # Keep a coast the support names: it must then match the move (DATC 6.B.9).
        target = order.target if supported.kind != ARMY and "/" in order.target else into
        if ref is order.unit and sref is named and target == order.target:
            return order
        return Support(ref, sref, target)
    assert isinstance(order, Convoy)
    if unit.kind not in game_map.convoy_kinds or not game_map.provinces[here].is_sea:
        raise illegal(order, "only a fleet at sea can convoy", "not_at_sea")
    army = position.units.get(order.convoyed.province)
    if army is None:
        raise illegal(order, f"there is no unit in {order.convoyed.province} to convoy", "no_unit")
    if army.kind != ARMY:
        raise illegal(order, "only armies can be convoyed", "not_army")
    into = game_map.province_of[order.target]
    if into == order.convoyed.province:
        raise illegal(order, "an army cannot be convoyed to its own province", "own_province")
    if here not in convoy_routes(game_map, fleet_seas(position, game_map), order.convoyed.province, into):
        raise illegal(order, f"{unit} is on no convoy route from {order.convoyed.province} to {into}", "not_on_route")
    return Convoy(ref, UnitRef(ARMY, army.place), into)


def check_retreat_order(
    game_map: GameMap, position: Position, power: str, order: Order, retreat_options: dict[str, tuple[str, ...]]
) -> Order:
    """Validate a retreat-phase order; ``retreat_options`` maps province → allowed places."""
    if isinstance(order, Move) and not isinstance(order, Retreat):
        assert order.unit is not None
        order = Retreat(order.unit, order.target)
    if not isinstance(order, (Retreat, Disband)) or order.unit is None:
        raise illegal(order, "only retreats and disbands are allowed in a retreat phase", "wrong_phase")
    prov = order.unit.province
    entry = position.dislodged.get(prov)
    if entry is None:
        raise illegal(order, f"no dislodged unit in {prov}", "no_unit")
    if entry.unit.power != power:
        raise illegal(order, f"the dislodged unit in {prov} belongs to {entry.unit.power}", "not_own_unit")
    ref = UnitRef(entry.unit.kind, entry.unit.place)
    if isinstance(order, Disband):
        return Disband(ref)
    allowed = retreat_options.get(prov, ())
    target = order.target
    if target not in allowed:
        matches = [p for p in allowed if game_map.province_of[p] == game_map.province_of[target]]
        if target in game_map.provinces and len(matches) == 1:
            target = matches[0]
        else:
            raise illegal(order, f"{ref} cannot retreat to {order.target}", "bad_retreat")
    return Retreat(ref, target)


NOT_A_BUILD_SITE = "not_a_build_site"
"""The reason of a build outside the build sites (``not_home`` before: the JSON interface reads the old code
in the case format, see docs/json-interface.md)."""
NOT_A_HOME_CENTRE = "{place} is not a home centre of {power}"
"""The words of that refusal in the standard rules (build sites are the home centres)."""


def check_adjustment_order(
    game_map: GameMap,
    position: Position,
    power: str,
    order: Order,
    sites: tuple[str, ...],
    options: RuleOptions | None = None,
    refusal: str = NOT_A_HOME_CENTRE,
) -> Order:
    """Validate a build, disband or waive (the count is checked by the adjudicator).

    ``sites`` are the provinces where ``power`` may build (``RuleSet.build_sites``: its home centres
    in the standard game); a build elsewhere is refused with reason ``not_a_build_site`` and the words
    ``refusal`` (``RuleSet.build_site_refusal``, with ``{place}`` and ``{power}`` fields).
    """
    options = options or RuleOptions()
    if isinstance(order, Waive):
        if options.waive_builds == "forbidden":
            raise illegal(order, "builds cannot be waived in this game (DATC 4.D.7)", "waive_forbidden")
        return order
    if isinstance(order, Disband) and order.unit is not None:
        unit = own_unit(position, power, order.unit, order)
        return Disband(UnitRef(unit.kind, unit.place))
    if isinstance(order, Build) and order.unit is not None and order.unit.kind is None:
        order = Build(UnitRef(_untyped_build_kind(game_map, order, options), order.unit.place))
    if not isinstance(order, Build) or order.unit is None or order.unit.kind is None:
        raise illegal(order, "only builds, disbands and waives are allowed in an adjustment phase", "wrong_phase")
    prov = order.unit.province
    if prov not in sites:
        raise illegal(order, refusal.format(place=prov, power=power), NOT_A_BUILD_SITE)
    if position.owners.get(prov) != power:
        raise illegal(order, f"{power} does not own {prov}", "not_owned")
    if prov in position.units:
        raise illegal(order, f"{prov} is occupied", "occupied")
    kind = order.unit.kind
    place = order.unit.place
    if kind == FLEET and options.build_fleet_inland == "army" and game_map.provinces[prov].terrain == "land":
        kind, place = ARMY, prov  # DATC 4.C.4 b: an army instead
    table = game_map.adjacency.get(kind, {})
    # A coast is needed only by a kind that stands on coasts (fleets); an army or a module's unit kind whose
    # table holds the province itself stands on the province.
    if game_map.provinces[prov].coasts and kind != ARMY and place == prov and prov not in table:
        raise illegal(order, f"name the coast of {prov} for a fleet", "build_coast_needed")
    if kind == ARMY:
        place = prov
    if place not in table:
        raise illegal(
            order, f"a {'fleet' if kind == FLEET else 'unit of kind ' + kind} cannot stand in {place}", "bad_terrain"
        )
    return Build(UnitRef(kind, place))


def _untyped_build_kind(game_map: GameMap, order: Build, options: RuleOptions) -> str:
    """The unit a build without a type makes (DATC 4.C.3), or an IllegalOrder."""
    assert order.unit is not None
    place = order.unit.place
    inland = game_map.provinces[order.unit.province].terrain == "land"
    if options.build_missing_type != "fails":
        if inland:
            return ARMY
        if options.build_missing_type == "coast_decides" and "/" in place:
            return FLEET
    raise illegal(order, f"say which unit to build in {place}: A or F (DATC 4.C.3)", "build_type_needed")
