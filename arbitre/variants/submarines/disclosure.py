"""Who learns what: each rule of the spec's "who learns what" list, as events with their audience.

Every event is made here, with its audience fixed when it is made:

=========================  ==========================================================
event kind                 told to
=========================  ==========================================================
``surfaced``               everyone (the submarine appears as a unit of its power)
``unseen_bounce``          owners of the surface units a failed surfacing met
``sonar``                  the owner of a submarine next to another one, in the depths
``decisive_support``       everyone, without the submarine's nationality
``downward_support``       everyone, without the supported submarine's nationality
``depth_support``          owners of the supporting and the supported unit
``torpedo_hit``            everyone; names the firing place, never the firing power
``torpedo_miss``           players with a unit next to the target's sea (and the firer)
``depth_attack``           the attacker: the nationality of the submarine it attacked
``lost_submarine``         everyone: only that the power lost a submarine
=========================  ==========================================================

:func:`order_audience` says who reads each order and its outcome: orders of
units on the surface are published with their outcomes (torpedoes excepted:
their misses and hits are told by the events above; and a support of a
submerged unit, whose outcome would tell what that unit did), orders of
submerged units are their owner's, but for a successful surfacing (public)
and a support between depth places (both owners).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from arbitre.adjudicator import SUCCEEDS
from arbitre.orders import Build, Disband, Hold, Move, Retreat, Support, Waive
from arbitre.rules import RuleSet
from arbitre.rules.events import EVERYONE, NOBODY, Audience, Event, only
from arbitre.rules.steps import MovementStep, PhaseStep, ResultLike
from arbitre.state import ADJUSTMENTS, RETREATS, Position, Unit
from arbitre.variants.submarines.layers import SUB, is_depth, twin
from arbitre.variants.submarines.orders import Torpedo
from arbitre.variants.submarines.state import SubState
from arbitre.variants.submarines.torpedoes import Shot
from arbitre.variants.submarines.words import (
    DECISIVE_SUPPORT,
    DEPTH_ATTACK,
    DEPTH_SUPPORT,
    DOWNWARD_SUPPORT,
    LOST_SUBMARINE,
    SONAR,
    SURFACED,
    TORPEDO_HIT,
    TORPEDO_MISS,
    UNSEEN_BOUNCE,
)

__all__ = [
    "DECISIVE_SUPPORT",
    "DEPTH_ATTACK",
    "DEPTH_SUPPORT",
    "DOWNWARD_SUPPORT",
    "LOST_SUBMARINE",
    "SONAR",
    "SURFACED",
    "TORPEDO_HIT",
    "TORPEDO_MISS",
    "UNSEEN_BOUNCE",
    "lost_event",
    "movement_events",
    "order_audience",
    "phase_events",
    "sonar_contacts",
    "torpedo_events",
]


def _event(kind: str, audience: Audience, **data: object) -> Event:
    return Event(kind, audience, data)


# ---------------------------------------------------------------------- movement
def movement_events(rules: RuleSet, step: MovementStep, shots: Sequence[Shot]) -> tuple[list[Event], SubState]:
    """The events of a movement phase (after the torpedoes), and the new sonar contacts."""
    events: list[Event] = []
    for prov, order in step.orders.items():
        unit = step.before.units[prov]
        if isinstance(order, Move):
            events.extend(_move_events(rules, step, prov, unit, order))
        elif isinstance(order, Support):
            events.extend(_support_events(rules, step, prov, unit, order))
    events.extend(torpedo_events(rules, step.units, shots))
    state = sonar_contacts(rules, step.units)
    for power, places in sorted(state.contacts.items()):
        events.extend(_event(SONAR, only(power), place=p) for p in places)
    return events, state


def _move_events(rules: RuleSet, step: MovementStep, prov: str, unit: Unit, order: Move) -> Iterable[Event]:
    gmap = rules.game_map
    target = gmap.province_of[order.target]
    ok = step.succeeded.get(prov, False)
    if is_depth(unit.place) and not is_depth(target):
        if ok:
            yield _event(SURFACED, EVERYONE, power=unit.power, place=target, order=order.format())
        else:
            told = {u.power for u in _battle(step, target, exclude=prov)} - {unit.power}
            if told:
                yield _event(UNSEEN_BOUNCE, frozenset(told), place=target)
    if is_depth(target):
        defender = step.before.units.get(target)
        stayed = not (isinstance(step.orders.get(target), Move) and step.succeeded.get(target, False))
        if defender is not None and defender.power != unit.power and stayed:
            yield _event(DEPTH_ATTACK, only(unit.power), place=target, power=defender.power, attacker=str(unit))


def _battle(step: MovementStep, province: str, exclude: str) -> list[Unit]:
    """Units in the battle for ``province``: the unit that stayed there and the other units moving in."""
    units = step.before.units
    out: list[Unit] = []
    defender = units.get(province)
    if defender is not None and not (
        isinstance(step.orders.get(province), Move) and step.succeeded.get(province, False)
    ):
        out.append(defender)
    for p, o in step.orders.items():
        if p != exclude and isinstance(o, Move) and o.target.split("/")[0] == province:
            out.append(units[p])
    return out


def _support_events(rules: RuleSet, step: MovementStep, prov: str, unit: Unit, order: Support) -> Iterable[Event]:
    gmap = rules.game_map
    into = gmap.province_of[order.target] if order.target is not None else order.supported.province
    below, into_below = is_depth(unit.place), is_depth(into)
    if below and not into_below:
        if step.succeeded.get(prov, False) and _decisive(rules, step, prov):
            yield _event(DECISIVE_SUPPORT, EVERYONE, place=unit.place, order=order.format())
    elif not below and into_below:
        yield _event(DOWNWARD_SUPPORT, EVERYONE, power=unit.power, order=order.format())
    elif below and into_below:
        supported = step.before.units.get(order.supported.province)
        # The supporter is told whether or not a (hidden) unit is there: what its own order produces must
        # not reveal that unit.  The supported unit's owner, if there is one, is told too.
        if supported is None or supported.power != unit.power:
            audience = only(unit.power) if supported is None else only(unit.power, supported.power)
            yield _event(DEPTH_SUPPORT, audience, power=unit.power, order=order.format())


def _decisive(rules: RuleSet, step: MovementStep, prov: str) -> bool:
    """Would any move have ended otherwise without the support of ``prov``?  (The phase is resolved again.)"""
    support = step.orders[prov]
    assert support.unit is not None
    again = step.resolve_with({prov: Hold(support.unit)})
    return any(again.get(p, False) != step.succeeded.get(p, False) for p in step.orders if p != prov)


def torpedo_events(rules: RuleSet, units: Mapping[str, Unit], shots: Sequence[Shot]) -> list[Event]:
    """A hit is public (no firing power); a miss is told to the players next to the target's sea."""
    gmap = rules.game_map
    out: list[Event] = []
    for shot in shots:
        if not shot.fired:
            continue
        firer, target = shot.firer, gmap.province_of[shot.target]
        if shot.victim is not None:
            victim = shot.victim
            victim_power = None if is_depth(victim.place) else victim.power
            out.append(
                _event(
                    TORPEDO_HIT,
                    EVERYONE,
                    firing_place=firer.place,
                    target=target,
                    power=victim_power,
                    unit=str(victim) if victim_power is not None else None,
                    destroyed=shot.destroyed,
                )
            )
            if shot.destroyed and is_depth(victim.place):
                out.append(lost_event(rules, victim.power))
            continue
        told = {firer.power} | {u.power for p, u in units.items() if p in _next_to_sea(rules, target)}
        firer_power = None if is_depth(firer.place) else firer.power
        out.append(
            _event(
                TORPEDO_MISS,
                frozenset(told),
                firing_place=firer.place,
                target=target,
                power=firer_power,
                unit=str(firer) if firer_power is not None else None,
            )
        )
    return out


def _next_to_sea(rules: RuleSet, place: str) -> set[str]:
    """Provinces next to the sea of ``place``, on the surface or in the depths, for any unit kind."""
    gmap = rules.game_map
    area = {place, twin(place)}
    out: set[str] = set()
    for table in gmap.province_neighbours.values():
        for p in area:
            out.update(table.get(p, ()))
    return out - area


def sonar_contacts(rules: RuleSet, units: Mapping[str, Unit]) -> SubState:
    """Submarines in adjacent depth places: each owner is told where the others are (not whose)."""
    table = rules.game_map.adjacency[SUB]
    contacts: dict[str, set[str]] = {}
    for prov, unit in units.items():
        if not is_depth(prov):
            continue
        for near in table.get(unit.place, ()):
            other = units.get(near)
            if other is not None and is_depth(near) and other.power != unit.power:
                contacts.setdefault(unit.power, set()).add(near)
    return SubState({p: tuple(sorted(c)) for p, c in contacts.items()})


def lost_event(rules: RuleSet, power: str) -> Event:
    """A submerged submarine of ``power`` was lost: not where, nor by whom."""
    return _event(LOST_SUBMARINE, EVERYONE, power=power)


# ---------------------------------------------------------------------- retreats and adjustments
def phase_events(rules: RuleSet, step: PhaseStep) -> list[Event]:
    """Retreat and adjustment phases: submerged submarines surfacing by retreat, or lost."""
    kind = step.before.phase.kind
    out: list[Event] = []
    if kind == RETREATS:
        for d in step.before.dislodged.values():
            if not is_depth(d.unit.place):
                continue
            gone = True
            for r in step.results:
                if (
                    r.power == d.unit.power
                    and isinstance(r.order, Retreat)
                    and r.order.unit is not None
                    and r.order.unit.place == d.unit.place
                    and r.outcome == SUCCEEDS
                ):
                    gone = False
                    if not is_depth(r.order.target):
                        out.append(
                            _event(SURFACED, EVERYONE, power=d.unit.power, place=r.order.target, order=r.order.format())
                        )
            if gone:
                out.append(lost_event(rules, d.unit.power))
    elif kind == ADJUSTMENTS:
        for r in step.results:
            if (
                isinstance(r.order, Disband)
                and r.order.unit is not None
                and r.outcome == SUCCEEDS
                and is_depth(r.order.unit.place)
            ):
                out.append(lost_event(rules, r.power))
    return out


# ---------------------------------------------------------------------- orders
def order_audience(rules: RuleSet, before: Position, result: ResultLike) -> tuple[Audience, Audience]:
    """Who reads an adjudicated order, and who reads its outcome."""
    order, power = result.order, result.power
    if isinstance(order, Waive):
        return EVERYONE, EVERYONE
    if order is None or order.unit is None:
        return only(power), only(power)
    if isinstance(order, Build):
        return (only(power), only(power)) if is_depth(order.unit.place) else (EVERYONE, EVERYONE)
    province = rules.game_map.province_of.get(order.unit.place, order.unit.place)
    unit: Unit | None
    if before.phase.kind == RETREATS:
        entry = before.dislodged.get(province)
        unit = entry.unit if entry is not None else None
    else:
        unit = before.units.get(province)
    if unit is None or unit.power != power:
        return only(power), only(power)  # it names no unit of the power: the power's own business
    result_audience = _support_result_audience(before, power, order) if isinstance(order, Support) else None
    if not is_depth(unit.place):
        if isinstance(order, Torpedo):
            return only(power), only(power)  # told by the torpedo events
        return EVERYONE, result_audience if result_audience is not None else EVERYONE
    # A submerged unit.
    if isinstance(order, Move | Retreat) and result.outcome == SUCCEEDS and not is_depth(order.target):
        return EVERYONE, EVERYONE  # a successful surfacing is public
    text = only(power)
    if isinstance(order, Support):
        supported = before.units.get(order.supported.province)
        into = rules.game_map.province_of[order.target] if order.target is not None else order.supported.province
        if supported is not None and is_depth(into) and supported.power != power:
            text = only(power, supported.power)
        if result_audience == EVERYONE:
            result_audience = only(power)  # a support from the depths is secret (its decisive event aside)
    return text, result_audience if result_audience is not None else only(power)


def _support_result_audience(before: Position, power: str, order: Support) -> Audience:
    """Who reads a support's outcome: everyone when the supported unit is on the surface.

    The supported unit's order is then public, and so is what became of the
    support (a support cut by an unseen submarine reads ``cut``, no more, as a
    move bounced by one reads bounced).  A support of a submerged unit is read
    by the supporter when the unit is its own, else by the master alone:
    whether it is "void" would tell where an unseen submarine is and what it
    was ordered.
    """
    supported = before.units.get(order.supported.province)
    if supported is not None and not is_depth(supported.place):
        return EVERYONE
    if supported is not None and supported.power == power:
        return only(power)
    return NOBODY
