"""Torpedoes, resolved after every other order of the movement phase.

For the resolver a firing unit holds (its adjudicator says so), and a support
given to a torpedo holds too and changes nothing.  Once the ordinary moves are
resolved, each torpedo hits whatever unit stands on its target place then
(the seed's example: ``SM MAO-1 Torp. MAO`` hits the submarine that just moved
into ``MAO``, not the fleet that left).  It misses an empty place or a unit of
the firing power; a hit always works, whatever the support: the unit hit is
dislodged (its attacker is the firing place) and retreats as usual.

Decisions (:mod:`~arbitre.variants.submarines.decisions`): a firing unit
dislodged by an ordinary attack does not fire (``DISLODGED_UNIT_FIRES``);
torpedoes fire all at once (``TORPEDOES_SIMULTANEOUS``); a unit hit in a
province whose first occupant is already retreating is destroyed
(``HIT_WITH_NO_ROOM_IS_DESTROYED``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from arbitre.adjudicator import FAILS, SUCCEEDS
from arbitre.adjudicator.retreats import retreat_places
from arbitre.rules import RuleSet
from arbitre.rules.steps import MovementStep
from arbitre.state import Dislodged, Unit
from arbitre.variants.submarines.decisions import DISLODGED_UNIT_FIRES
from arbitre.variants.submarines.orders import Torpedo, TorpedoSupport

HIT = "hit"
"""Reason of a torpedo that hit."""
MISSED = "missed"
"""Reason of a torpedo that missed (empty place, or a unit of the firing power)."""
NOT_FIRED = "dislodged"
"""Reason of a torpedo whose firing unit was dislodged before it could fire."""
NO_EFFECT = "no_effect"
"""Reason of a support given to a torpedo: it is legal and changes nothing."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One torpedo order and what became of it.

    ``victim`` is the unit hit (``None`` for a miss or a torpedo not fired);
    ``destroyed`` is set when the victim had no room to retreat.
    """

    firer: Unit
    target: str
    fired: bool
    victim: Unit | None = None
    destroyed: bool = False


def fire_torpedoes(rules: RuleSet, step: MovementStep) -> tuple[MovementStep, tuple[Shot, ...]]:
    """Resolve every torpedo of ``step`` on the board after the ordinary moves."""
    gmap = rules.game_map
    notes = dict(step.notes)
    shots: list[Shot] = []
    for prov, order in step.orders.items():
        if isinstance(order, TorpedoSupport):
            notes[prov] = (SUCCEEDS, NO_EFFECT)
        if not isinstance(order, Torpedo):
            continue
        firer = step.before.units[prov]
        if prov in step.dislodged_by and not DISLODGED_UNIT_FIRES:
            notes[prov] = (FAILS, NOT_FIRED)
            shots.append(Shot(firer, order.target, fired=False))
            continue
        # Simultaneous: every torpedo aims at the board after the ordinary moves, before any hit.
        victim = step.units.get(gmap.province_of[order.target])
        if victim is None or victim.power == firer.power:
            notes[prov] = (FAILS, MISSED)
            shots.append(Shot(firer, order.target, fired=True))
        else:
            notes[prov] = (SUCCEEDS, HIT)
            shots.append(Shot(firer, order.target, fired=True, victim=victim))
    if not any(s.victim for s in shots):
        return replace(step, notes=notes), tuple(shots)
    units = dict(step.units)
    for s in shots:
        if s.victim is not None:
            del units[gmap.province_of[s.victim.place]]
    occupied = set(units)
    dislodged = dict(step.dislodged)
    done: list[Shot] = []
    for s in shots:
        if s.victim is None:
            done.append(s)
            continue
        prov = gmap.province_of[s.victim.place]
        if prov in step.dislodged:
            done.append(replace(s, destroyed=True))  # HIT_WITH_NO_ROOM_IS_DESTROYED
            continue
        origin = gmap.province_of[s.firer.place]
        dislodged[prov] = Dislodged(s.victim, origin, retreat_places(gmap, s.victim, origin, occupied, step.standoffs))
        done.append(s)
    return replace(step, units=units, dislodged=dislodged, notes=notes), tuple(done)
