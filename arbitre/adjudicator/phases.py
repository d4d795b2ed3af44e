"""Adjudicate one phase of any kind and compute the position of the next phase.

``adjudicate(rules, position, orders)`` is the single entry point: it reads the
orders (parse, validate), resolves them by the rules of the phase kind, and
returns a :class:`PhaseOutcome` whose ``after`` is the position of the next
phase (retreats only when needed, adjustments only when needed, supply centres
changing hands after Fall).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from arbitre.adjudicator.facets import MovementRules, PhaseRules, movement_adjudicators, movement_extensions
from arbitre.adjudicator.intake import Intake, OrderInput, read_orders
from arbitre.adjudicator.movement import MovementResolver
from arbitre.adjudicator.results import FAILS, ILLEGAL, SUCCEEDS, OrderResult, PhaseOutcome, order_result
from arbitre.adjudicator.retreats import retreat_places
from arbitre.maps import ARMY
from arbitre.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, UnitRef, Waive
from arbitre.rules.ruleset import RuleSet
from arbitre.rules.steps import MovementStep, PhaseStep
from arbitre.state import ADJUSTMENTS, MOVEMENT, RETREATS, Dislodged, Phase, Position, Season, Unit, make_unit

Orders = Mapping[str, Sequence[OrderInput]]


def adjudicate(rules: RuleSet, position: Position, orders: Orders) -> PhaseOutcome:
    """Adjudicate ``position`` with the given orders (power → order texts or Order values)."""
    kind = position.phase.kind
    if kind == MOVEMENT:
        outcome = adjudicate_movement(rules, position, orders)
    elif kind == RETREATS:
        outcome = adjudicate_retreats(rules, position, orders)
    else:
        outcome = adjudicate_adjustments(rules, position, orders)
    if not rules.implementing(PhaseRules):
        return outcome
    # Rule modules may add events and change the variant state of the next position.
    step = PhaseStep(outcome.before, outcome.after, outcome.results, outcome.events)
    for v in rules.implementing(PhaseRules):
        step = v.after_phase(rules, step)
    return replace(outcome, after=step.after, events=step.events)


# ---------------------------------------------------------------------- movement
def adjudicate_movement(rules: RuleSet, position: Position, orders: Orders) -> PhaseOutcome:
    """Resolve a movement phase."""
    gmap = rules.game_map
    intake = read_orders(rules, position, orders)
    unit_orders: dict[str, Order] = {}
    for prov, unit in position.units.items():
        entry = intake.by_unit.get(prov)
        unit_orders[prov] = entry[2] if entry else Hold(UnitRef(unit.kind, unit.place))
    # Variants' extensions of this phase (Colonial's railroad and canal); see adjudicator/extension.py.
    extensions = movement_extensions(rules, position, unit_orders, intake.whole_power) if rules.variants else []
    adjudicators = movement_adjudicators(rules) if rules.variants else None
    resolver_orders: Mapping[str, Order] = unit_orders
    if extensions:
        resolver_orders = dict(unit_orders)
        for ext in extensions:
            resolver_orders.update(ext.resolver_orders())
    unsupportable = _unsupportable(rules, position, orders, intake)
    resolver = MovementResolver(
        gmap,
        position.units,
        resolver_orders,
        rules.options,
        adjudicators,
        gmap.convoy_kinds,
        extensions=extensions,
        unsupportable=unsupportable,
    )
    resolver.resolve_all()
    dislodged_by = resolver.dislodged_by()
    decided = resolver.result  # a copy by decision key: take it once
    leavers, by_convoy, void = resolver.leavers, resolver.by_convoy, resolver.void

    new_units: dict[str, Unit] = {}
    for prov, unit in position.units.items():
        if prov in dislodged_by:
            continue
        if prov in leavers and decided[prov]:
            continue
        new_units[prov] = unit
    for prov, dest in resolver.dest.items():
        if decided[prov]:
            unit = position.units[prov]
            move = resolver.orders[prov]
            assert isinstance(move, Move)
            new_units[dest] = make_unit(unit.power, unit.kind, move.target)
    relocated: dict[str, str] = {}
    for ext in extensions:
        for prov, place in ext.relocations(resolver).items():
            relocated[prov] = place
            unit = position.units[prov]
            new_units[gmap.province_of[place]] = make_unit(unit.power, unit.kind, place)
    standoffs = resolver.standoffs()
    if extensions:
        standoffs = standoffs.difference(new_units)  # where an extension's unit ended (a train) is no standoff
    occupied = set(new_units)
    dislodged: dict[str, Dislodged] = {}
    for prov, attacker in dislodged_by.items():
        unit = position.units[prov]
        convoyed = attacker in by_convoy  # the resolution carried this attack by convoy (DATC 4.A.5)
        # retreat_to_standoff=after_convoy (MILA's engine): after a convoyed attack, standoffs do not count.
        after_convoy = convoyed and rules.options.retreat_to_standoff == "after_convoy"
        allowed = retreat_places(
            gmap,
            unit,
            attacker,
            occupied,
            frozenset() if after_convoy else standoffs,
            convoyed and rules.options.retreat_to_convoy_origin == "allowed",
        )
        dislodged[prov] = Dislodged(unit, attacker, allowed, convoyed)
    notes: Mapping[str, tuple[str, str | None]] = {}
    events: tuple[object, ...] = ()
    extras = position.extras
    if rules.implementing(MovementRules):
        # Rule modules act once the ordinary moves are resolved (Submarines' torpedoes).
        def resolve_with(changes: Mapping[str, Order]) -> Mapping[str, bool]:
            again = MovementResolver(
                gmap,
                position.units,
                {**resolver_orders, **changes},
                rules.options,
                adjudicators,
                gmap.convoy_kinds,
                extensions=extensions,
                unsupportable=unsupportable,
            )
            again.resolve_all()
            return again.result

        step = MovementStep(
            position,
            unit_orders,
            decided,
            dislodged_by,
            new_units,
            dislodged,
            standoffs,
            resolve_with,
            extras=extras,
        )
        for v in rules.implementing(MovementRules):
            step = v.after_movement(rules, step)
        new_units, dislodged = dict(step.units), dict(step.dislodged)
        standoffs, notes, events, extras = step.standoffs, step.notes, step.events, step.extras

    results: list[OrderResult] = list(intake.rejected)
    for prov, order in unit_orders.items():
        unit = position.units[prov]
        entry = intake.by_unit.get(prov)
        text = entry[1] if entry else order.format()
        ok = decided[prov]
        reason: str | None = None if entry else "no_order"
        if prov in notes:
            outcome, reason = notes[prov]
            results.append(order_result(unit.power, text, order, outcome, reason))
            continue
        if isinstance(order, Hold):
            ok = prov not in dislodged
            reason = "dislodged" if not ok else reason
        elif isinstance(order, Move) and not ok:
            if prov in void:
                reason = "void"
            elif prov in by_convoy and not resolver.has_path(prov):
                reason = "no_convoy"
            else:
                reason = "bounced"
        elif isinstance(order, (Support, Convoy)) and not ok:
            reason = "void" if prov in void else ("cut" if isinstance(order, Support) else "disrupted")
        outcome, message = SUCCEEDS if ok else FAILS, None
        for ext in extensions:
            custom = ext.result(resolver, prov, order)
            if custom is not None:
                outcome, reason, message = custom
                break
        results.append(order_result(unit.power, text, order, outcome, reason, message, relocated.get(prov)))
    for ext in extensions:
        results.extend(ext.extra_results(resolver))
    after = _advance(rules, position, new_units, dislodged, position.owners, extras)
    return PhaseOutcome(position, after, tuple(results), dislodged, standoffs, events, relocated)


def _unsupportable(rules: RuleSet, position: Position, orders: Orders, intake: Intake) -> frozenset[str]:
    """Units that cannot receive hold support under the chosen options (DATC 4.D.9, 4.E.1)."""
    out: set[str] = set()
    if rules.options.civil_disorder_support == "fails":
        # A power in civil disorder: it has units and gave no order at all.
        out.update(p for p, u in position.units.items() if not orders.get(u.power))
    if rules.options.illegal_orders == "deny_support":
        for r in intake.rejected:
            order = r.order
            if r.outcome == ILLEGAL and isinstance(order, Move) and order.unit is not None:
                unit = position.units.get(order.unit.province)
                if unit is not None and unit.power == r.power and order.unit.province not in intake.by_unit:
                    out.add(order.unit.province)
    return frozenset(out)


# ---------------------------------------------------------------------- retreats
def retreat_options_of(rules: RuleSet, position: Position) -> dict[str, tuple[str, ...]]:
    """Where each dislodged unit may go (as given, or computed from the position)."""
    out: dict[str, tuple[str, ...]] = {}
    occupied = set(position.units)
    for prov, d in position.dislodged.items():
        if d.retreats is not None:
            out[prov] = d.retreats
        else:
            convoyed = d.by_convoy and rules.options.retreat_to_convoy_origin == "allowed"
            out[prov] = retreat_places(rules.game_map, d.unit, d.attacker_from, occupied, frozenset(), convoyed)
    return out


def adjudicate_retreats(rules: RuleSet, position: Position, orders: Orders) -> PhaseOutcome:
    """Resolve a retreat phase: retreats to the same province all fail; the rest disband."""
    options = retreat_options_of(rules, position)
    intake = read_orders(rules, position, orders, options)
    results: list[OrderResult] = list(intake.rejected)
    targets: dict[str, list[str]] = {}
    # A retreat accepted on what its power knew (a place it could not see) may be impossible in fact: it fails.
    impossible = {
        prov
        for prov, (_, _, order) in intake.by_unit.items()
        if isinstance(order, Retreat) and order.target not in options.get(prov, ())
    }
    for prov, (_, _, order) in intake.by_unit.items():
        if isinstance(order, Retreat) and prov not in impossible:
            targets.setdefault(rules.game_map.province_of[order.target], []).append(prov)
    new_units = dict(position.units)
    for prov, dl in position.dislodged.items():
        entry = intake.by_unit.get(prov)
        if entry is None:
            results.append(
                order_result(
                    dl.unit.power, f"{dl.unit} D", Disband(UnitRef(dl.unit.kind, dl.unit.place)), SUCCEEDS, "no_order"
                )
            )
            continue
        power, text, order = entry
        if isinstance(order, Retreat):
            dest = rules.game_map.province_of[order.target]
            if prov in impossible or len(targets[dest]) > 1:
                results.append(order_result(power, text, order, FAILS, "bounced"))
                continue
            new_units[dest] = make_unit(dl.unit.power, dl.unit.kind, order.target)
        results.append(order_result(power, text, order, SUCCEEDS, None))
    after = _advance(rules, position, new_units, {}, position.owners)
    return PhaseOutcome(position, after, tuple(results))


# ---------------------------------------------------------------------- adjustments
def adjustment_counts(rules: RuleSet, position: Position) -> dict[str, int]:
    """Builds (positive) or disbands (negative) owed by each power."""
    out = rules.build_center_counts(position)
    for unit in position.units.values():
        if unit.power in out:
            out[unit.power] -= 1
    return out


def adjudicate_adjustments(rules: RuleSet, position: Position, orders: Orders) -> PhaseOutcome:
    """Resolve builds, disbands and waives; apply them in order until each allowance is used."""
    gmap = rules.game_map
    counts = adjustment_counts(rules, position)
    results: list[OrderResult] = []
    new_units = dict(position.units)
    done: dict[str, int] = dict.fromkeys(counts, 0)
    disbanded: dict[str, set[str]] = {p: set() for p in counts}
    opts = rules.options
    for power, entries in orders.items():
        intake = read_orders(rules, position, {power: entries}, one_per_unit=False)
        results.extend(intake.rejected)
        owed_builds = max(counts.get(power, 0), 0)
        items = list(enumerate(intake.sequence))
        builds = [(i, o) for i, (_, _, o) in items if isinstance(o, Build) and o.unit is not None]
        too_many = opts.too_many_builds == "all_illegal" and len(builds) > owed_builds
        # DATC 4.D.5: several builds in one province.
        clashing: dict[int, str] = {}
        by_province: dict[str, list[int]] = {}
        for i, o in builds:
            assert o.unit is not None
            by_province.setdefault(o.unit.province, []).append(i)
        for indexes in by_province.values():
            if len(indexes) > 1 and opts.same_province_builds == "all_fail":
                clashing.update(dict.fromkeys(indexes, "several builds in one province: all fail (DATC 4.D.5)"))
            elif len(indexes) > 1 and opts.same_province_builds == "last":
                clashing.update(dict.fromkeys(indexes[:-1], "a later build in the same province counts (DATC 4.D.5)"))
        # DATC 4.D.6: too many disbands handed over to the civil disorder rules.
        owed_disbands = max(-counts.get(power, 0), 0)
        disband_units = {o.unit.province for _, (_, _, o) in items if isinstance(o, Disband) and o.unit is not None}
        drop_disbands = opts.too_many_disbands == "civil_disorder" and len(disband_units) > owed_disbands
        # The last orders count: judge them from the end (DATC 4.D.4 c, 4.D.6 c).
        if (opts.too_many_builds == "last" and builds) or (opts.too_many_disbands == "last" and disband_units):
            items.reverse()
        power_results: list[tuple[int, OrderResult]] = []
        for i, (_, text, order) in items:
            owed = counts.get(power, 0)
            if isinstance(order, Build) and order.unit is not None:
                if too_many:
                    power_results.append((i, order_result(power, text, order, ILLEGAL, "too_many_builds")))
                elif i in clashing:
                    power_results.append((i, order_result(power, text, order, ILLEGAL, "same_province", clashing[i])))
                elif owed <= done[power]:
                    power_results.append((i, order_result(power, text, order, ILLEGAL, "no_build_left")))
                elif order.unit.province in new_units:
                    power_results.append((i, order_result(power, text, order, ILLEGAL, "occupied")))
                else:
                    new_units[order.unit.province] = make_unit(power, order.unit.kind or ARMY, order.unit.place)
                    done[power] += 1
                    power_results.append((i, order_result(power, text, order, SUCCEEDS)))
            elif isinstance(order, Waive):
                if owed <= done[power]:
                    power_results.append((i, order_result(power, text, order, ILLEGAL, "no_build_left")))
                else:
                    done[power] += 1
                    power_results.append((i, order_result(power, text, order, SUCCEEDS)))
            elif isinstance(order, Disband) and order.unit is not None:
                prov = order.unit.province
                if drop_disbands and owed < 0:
                    power_results.append(
                        (
                            i,
                            order_result(
                                power,
                                text,
                                order,
                                ILLEGAL,
                                "too_many_disbands",
                                "too many disbands: civil disorder rules choose (DATC 4.D.6)",
                            ),
                        )
                    )
                elif owed >= 0 or -owed <= len(disbanded[power]) or prov in disbanded[power]:
                    power_results.append((i, order_result(power, text, order, ILLEGAL, "no_disband_owed")))
                else:
                    disbanded[power].add(prov)
                    new_units.pop(prov, None)
                    power_results.append((i, order_result(power, text, order, SUCCEEDS)))
            else:
                power_results.append((i, order_result(power, text, order, ILLEGAL, "wrong_phase")))
        results.extend(r for _, r in sorted(power_results, key=lambda pair: pair[0]))
    for power, owed in counts.items():
        missing = -owed - len(disbanded[power])
        if owed < 0 and missing > 0:
            for unit in rules.civil_disorder_removals(position, power, missing, disbanded[power]):
                prov = gmap.province_of[unit.place]
                new_units.pop(prov, None)
                results.append(
                    order_result(
                        power, f"{unit} D", Disband(UnitRef(unit.kind, unit.place)), SUCCEEDS, "civil_disorder"
                    )
                )
    after = _advance(rules, position, new_units, {}, position.owners)
    return PhaseOutcome(position, after, tuple(results))


# ---------------------------------------------------------------------- sequence
def _update_owners(rules: RuleSet, units: Mapping[str, Unit], owners: Mapping[str, str]) -> dict[str, str]:
    new = dict(owners)
    for prov, unit in units.items():
        if prov in rules.game_map.supply_centers:
            new[prov] = unit.power
    return new


def needs_adjustments(rules: RuleSet, position: Position) -> bool:
    """Is there anything to do in a winter adjustment phase?  The rule set says (:meth:`RuleSet.needs_adjustments`)."""
    return rules.needs_adjustments(position)


def _advance(
    rules: RuleSet,
    before: Position,
    units: dict[str, Unit],
    dislodged: dict[str, Dislodged],
    owners: Mapping[str, str],
    extras: Mapping[str, object] | None = None,
) -> Position:
    """The position of the phase after ``before``, given the new units (and variant state)."""
    phase = before.phase
    extras = before.extras if extras is None else extras
    if phase.kind == MOVEMENT and (rules.needs_retreats(before, bool(dislodged)) if rules.variants else dislodged):
        return Position(before.map_name, Phase(phase.year, phase.season, RETREATS), units, owners, dislodged, extras)
    if phase.season == Season.FALL and phase.kind in (MOVEMENT, RETREATS):
        owners = _update_owners(rules, units, owners)
        winter = Position(before.map_name, Phase(phase.year, Season.WINTER, ADJUSTMENTS), units, owners, {}, extras)
        if rules.needs_adjustments(winter):
            return winter
        return Position(before.map_name, Phase(phase.year + 1, Season.SPRING, MOVEMENT), units, owners, {}, extras)
    if phase.season == Season.SPRING:
        return Position(before.map_name, Phase(phase.year, Season.FALL, MOVEMENT), units, owners, {}, extras)
    return Position(before.map_name, Phase(phase.year + 1, Season.SPRING, MOVEMENT), units, owners, {}, extras)
