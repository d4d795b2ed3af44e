"""What each viewer knows of the board: the surface, its own submarines, its sonar contacts.

* Units on the surface are public; a submerged submarine is seen by its owner
  only (and the game master).
* A power *sees* a depth place when one of its submarines stands there or a
  sonar contact told it of one; every other depth place is unseen.
* A dislodged unit's retreats, as a viewer knows them: the real ones on every
  place the viewer sees, and every unseen depth place besides (a retreat there
  is accepted and fails if impossible in fact).  The origin of the attack is
  known unless the attack came through the depths onto a submerged unit.
"""

from __future__ import annotations

from arbitre.adjudicator.retreats import retreat_places
from arbitre.maps import GameMap
from arbitre.rules.events import EVERYONE, MASTER, OBSERVER, Audience, only
from arbitre.state import Dislodged, Position, Unit
from arbitre.variants.submarines.layers import SUB, is_depth
from arbitre.variants.submarines.state import SubState


def unit_audience(unit: Unit) -> Audience:
    """A unit in the depths is seen by its owner only; a unit on the surface by everyone."""
    return only(unit.power) if is_depth(unit.place) else EVERYONE


def hides_province(position: Position, province: str, viewer: str) -> bool:
    """May ``province`` hold a unit ``viewer`` cannot see?  Every depth place but those holding its own units."""
    if viewer == MASTER or not is_depth(province):
        return False
    unit = position.units.get(province)
    return unit is None or unit.power != viewer


def contacts_of(position: Position, viewer: str) -> tuple[str, ...]:
    """The places of ``viewer``'s sonar contacts (not those where it now sees a unit of its own)."""
    if viewer in (MASTER, OBSERVER):
        return ()
    mine = {p for p, u in position.units.items() if u.power == viewer}
    return tuple(p for p in SubState.of(position.extras).contacts.get(viewer, ()) if p not in mine)


def seen_depths(position: Position, viewer: str) -> frozenset[str]:
    """Depth places ``viewer`` sees: its own submarines' and its sonar contacts'."""
    if viewer == MASTER:
        return frozenset(p for p in position.units if is_depth(p))
    own = {p for p, u in position.units.items() if u.power == viewer and is_depth(p)}
    return frozenset(own | set(contacts_of(position, viewer)))


def known_retreat(
    game_map: GameMap, position: Position, dislodged: Dislodged, viewer: str
) -> tuple[str | None, tuple[str, ...] | None]:
    """(attacker_from, retreats) of ``dislodged`` as ``viewer`` knows them."""
    unit, attacker = dislodged.unit, dislodged.attacker_from
    if viewer == MASTER:
        return attacker, dislodged.retreats
    if attacker is not None and is_depth(attacker) and is_depth(unit.place):
        attacker = None  # an attack in the depths: the defender learns nothing of the attacker
    real = set(
        dislodged.retreats
        if dislodged.retreats is not None
        else retreat_places(game_map, unit, dislodged.attacker_from, set(position.units), frozenset())
    )
    seen = seen_depths(position, viewer)
    places = tuple(
        q
        for q in sorted(game_map.neighbours(unit.kind, unit.place))
        if q in real or (is_depth(q) and q not in seen and q != attacker)
    )
    return attacker, places


def known_position(game_map: GameMap, position: Position, power: str) -> Position:
    """``position`` as ``power`` knows it: others' submerged units out, dislodged units as it knows them."""
    units = position.units
    hidden = {p for p, u in units.items() if is_depth(u.place) and u.power != power}
    if not hidden and not position.dislodged:
        return position
    dislodged: dict[str, Dislodged] = {}
    for prov, d in position.dislodged.items():
        if is_depth(d.unit.place) and d.unit.power != power:
            continue
        attacker, retreats = known_retreat(game_map, position, d, power)
        dislodged[prov] = Dislodged(d.unit, attacker, retreats, d.by_convoy and attacker is not None)
    return position.with_changes(units={p: u for p, u in units.items() if p not in hidden}, dislodged=dislodged)


def visible_state(position: Position, viewer: str) -> dict[str, object]:
    """The variant state ``viewer`` may read: its own sonar contacts (everything for the game master)."""
    state = SubState.of(position.extras)
    if viewer == MASTER:
        return state.into({})
    if viewer == OBSERVER:
        return {}
    return SubState({viewer: contacts_of(position, viewer)}).into({})


def contact_units(position: Position, viewer: str) -> tuple[tuple[str, str], ...]:
    """``viewer``'s sonar contacts as (kind, place): submarines of unknown nationality."""
    return tuple((SUB, p) for p in contacts_of(position, viewer))
