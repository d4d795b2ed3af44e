"""Which orders are allowed, judged only on what the ordering power can see.

The judge checks every order on the power's *known position*
(:func:`arbitre.variants.submarines.knowledge.known_position`): the public surface, the power's own units, and what
it knows of its dislodged units.  An order naming a place the power cannot
see is therefore accepted or refused exactly as if that place were empty, and
no error message can name a hidden unit.  On top of the standard checks:

* torpedoes and supports of torpedoes (:func:`check_torpedo`,
  :func:`check_torpedo_support`);
* a support of a unit in an unseen depth place is judged on the geometry
  alone (decision ``UNSEEN_PLACES_JUDGED_AS_EMPTY``), so allies can support
  each other's submarines;
* retreats are checked against the retreats the owner knows of.
"""

from __future__ import annotations

from arbitre.maps import FLEET
from arbitre.orders import IllegalOrder, Move, Order, Retreat, Support, UnitRef
from arbitre.rules import RuleSet
from arbitre.rules.legality import check_movement_order, check_retreat_order, own_unit
from arbitre.state import MOVEMENT, RETREATS, Position, Unit
from arbitre.variants.submarines.layers import SUB, is_depth, surface_of, twin
from arbitre.variants.submarines.orders import Torpedo, TorpedoSupport

UNSEEN = ""
"""The power of a stand-in unit on a place the ordering power cannot see (never shown to anyone)."""


RULE = "Submarines"
"""How refusals name the rule module."""


def _illegal(order: Order, message: str, reason: str) -> IllegalOrder:
    return IllegalOrder(f"{RULE}: {message}", text=order.format(), reason=reason)


def check_order(rules: RuleSet, position: Position, power: str, order: Order) -> Order | None:
    """Validate the standard orders this variant judges differently; ``None`` leaves the standard checks.

    The torpedo kinds check themselves (:mod:`~arbitre.variants.submarines.kinds`).

    ``position`` is already the power's known position.
    """
    kind = position.phase.kind
    if kind == MOVEMENT and isinstance(order, Move) and order.unit is not None and is_depth(order.target):
        unit = position.units.get(order.unit.province)
        if unit is not None and unit.power == power and unit.kind != SUB:
            raise _illegal(
                order,
                f"only a submarine goes below the surface, and {unit} is not one "
                f"({order.target} is the hidden layer under {surface_of(order.target)})",
                "not_submarine",
            )
    if kind == MOVEMENT and isinstance(order, Support) and order.unit is not None:
        province = order.supported.province
        if is_depth(province) and province not in position.units:
            # Judged as if a submarine could stand there: the same verdict whether one does or not.
            stand_in = Unit(UNSEEN, SUB, order.supported.place)
            seen = position.with_changes(units={**position.units, province: stand_in})
            return check_movement_order(rules.game_map, seen, power, order, rules.options)
    if kind == RETREATS and isinstance(order, Move | Retreat) and order.unit is not None:
        entry = position.dislodged.get(order.unit.province)
        if entry is not None and entry.retreats is not None:
            return check_retreat_order(rules.game_map, position, power, order, {order.unit.province: entry.retreats})
    return None


def _check_movement_phase(position: Position, order: Order) -> None:
    if position.phase.kind != MOVEMENT:
        raise _illegal(order, "torpedoes are fired in movement phases only", "wrong_phase")


def check_torpedo(rules: RuleSet, position: Position, power: str, order: Torpedo) -> Torpedo:
    """A torpedo: from a fleet or a submarine, straight up or down the same sea."""
    _check_movement_phase(position, order)
    assert order.unit is not None
    unit = own_unit(position, power, order.unit, order)
    if unit.kind not in (FLEET, SUB):
        raise _illegal(order, "only fleets and submarines fire torpedoes", "not_fleet")
    if surface_of(unit.place) not in rules.game_map.seas:
        raise _illegal(order, f"{unit} is not at sea: torpedoes are fired at sea, straight up or down", "not_at_sea")
    target = twin(unit.place)
    if rules.game_map.province_of.get(order.target) != target:
        raise _illegal(order, f"a torpedo goes straight up or down: {unit} can fire only at {target}", "not_vertical")
    return Torpedo(UnitRef(unit.kind, unit.place), target)


def check_torpedo_support(rules: RuleSet, position: Position, power: str, order: TorpedoSupport) -> TorpedoSupport:
    """A support of a torpedo: legal from any unit of the power, and without effect."""
    _check_movement_phase(position, order)
    assert order.unit is not None
    unit = own_unit(position, power, order.unit, order)
    gmap = rules.game_map
    place = order.supported.place
    if gmap.province_of[place] == gmap.province_of[unit.place]:
        raise _illegal(order, "a unit cannot support itself", "self_support")
    if surface_of(place) not in gmap.seas:
        raise _illegal(order, f"no torpedo is fired from {place}: torpedoes are fired at sea", "not_at_sea")
    if gmap.province_of.get(order.target) != twin(place):
        raise _illegal(order, f"a torpedo goes straight up or down: from {place} only at {twin(place)}", "not_vertical")
    return TorpedoSupport(UnitRef(unit.kind, unit.place), UnitRef(order.supported.kind, place), twin(place))


def extra_legal_orders(rules: RuleSet, position: Position, power: str) -> dict[str, list[str]]:
    """Torpedoes, and supports of units in unseen depth places, for ``power``'s units (known position)."""
    if position.phase.kind != MOVEMENT:
        return {}
    gmap = rules.game_map
    sub_moves = gmap.adjacency[SUB]
    unseen = sorted(twin(sea) for sea in gmap.seas if twin(sea) not in position.units)
    out: dict[str, list[str]] = {}
    for prov, unit in sorted(position.units.items()):
        if unit.power != power:
            continue
        orders: list[str] = []
        if unit.kind in (FLEET, SUB) and surface_of(unit.place) in gmap.seas:
            orders.append(Torpedo(UnitRef(unit.kind, unit.place), twin(unit.place)).format())
        reach = gmap.province_neighbours.get(unit.kind, {}).get(unit.place, frozenset())
        for depth in unseen:
            ref = UnitRef(SUB, depth)
            if depth in reach:
                orders.append(Support(UnitRef(unit.kind, unit.place), ref, None).format())
            for target in sorted(sub_moves[depth]):
                into = gmap.province_of[target]
                if into in reach and into != prov:
                    orders.append(Support(UnitRef(unit.kind, unit.place), ref, into).format())
        if orders:
            out[unit.place] = orders
    return out


__all__ = [
    "UNSEEN",
    "check_order",
    "check_torpedo",
    "check_torpedo_support",
    "extra_legal_orders",
]
