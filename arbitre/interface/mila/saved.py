"""arbitre's games as MILA saved games (``diplomacy.utils.export.to_saved_game_format``'s JSON).

A saved game is ``{"id", "map", "rules", "phases"}``; each phase is
``{"name", "state", "orders", "results", "messages"}``, the state being the
board at the start of the phase as MILA's ``Game.get_state`` writes it (units,
with ``*`` before a unit waiting to retreat, ``retreats`` with each such unit's
places, centres, homes, influence, civil disorder, builds, and MILA's state
hash), and the last phase being the current one (no results).  What arbitre
and MILA do differently is written the way MILA does it:

- MILA removes a dislodged unit with nowhere to go at once: it is not listed in
  the retreat phase, and a retreat phase left with nobody to retreat is not
  written (MILA skips it);
- a waive is not written (MILA waives every build not ordered), nor an order
  arbitre refused (MILA refuses it when it is given), nor the judge's defaults
  (holds, disbands of units not retreated, civil disorder removals);
- a won game ends with a phase named ``COMPLETED``, as MILA's does.

Influence (the provinces each power last occupied, which MILA's viewers
colour) is followed from the starting units through every move and retreat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from arbitre.adjudicator import SUCCEEDS, PhaseOutcome, adjustment_counts
from arbitre.adjudicator.phases import retreat_options_of
from arbitre.interface.mila.notation import (
    accepted,
    adjustment_codes,
    goes_by_convoy,
    movement_codes,
    order_text,
    retreat_codes,
    unit_text,
)
from arbitre.interface.mila.zobrist import state_hash, tables
from arbitre.judge import WON, Game
from arbitre.maps import GameMap
from arbitre.orders import Move, Retreat
from arbitre.rules import RuleSet
from arbitre.state import ADJUSTMENTS, MOVEMENT, RETREATS, Dislodged, Phase, Position

MILA_MAP: Final = "standard"
"""The one map whose saved games MILA's tools read from arbitre (its ``standard``)."""


class ExportError(ValueError):
    """A game that cannot be written as a MILA saved game (another map, rule modules)."""


@dataclass(frozen=True)
class PressMessage:
    """One press message as MILA records it.

    ``sender`` is a power (or ``SYSTEM``), ``recipient`` a power or ``GLOBAL``;
    ``time_sent`` is in microseconds and must not go back in time along the game.
    """

    phase: str
    sender: str
    recipient: str
    time_sent: int
    message: str


def exportable(game: Game) -> None:
    """Raise :class:`ExportError` unless MILA's tools can represent ``game``."""
    if game.map_name != MILA_MAP:
        raise ExportError(f"MILA's saved games hold games of the standard map; this one is on {game.map_name!r}")
    if game.rule_names:
        raise ExportError(f"MILA's saved games hold no rule modules; this game has {', '.join(game.rule_names)}")


def zobrist_tables(gmap: GameMap) -> Any:
    """MILA's hash tables of ``gmap`` (places where a unit may stand: every place but impassable ones)."""
    places = tuple(p for p in gmap.place_names if gmap.provinces[gmap.province_of[p]].terrain != "impassable")
    return tables(tuple(gmap.powers), places, tuple(gmap.supply_centers))


def retreating(rules: RuleSet, position: Position) -> dict[str, Dislodged]:
    """The dislodged units of a retreat phase that have somewhere to go, with their places (arbitre's rules)."""
    if position.phase.kind != RETREATS:
        return {}
    options = retreat_options_of(rules, position)
    return {
        prov: Dislodged(d.unit, d.attacker_from, tuple(options[prov]), d.by_convoy)
        for prov, d in position.dislodged.items()
        if options.get(prov)
    }


def mila_retreats(rules: RuleSet, outcome: PhaseOutcome) -> dict[str, Dislodged]:
    """After a movement phase: the dislodged units MILA keeps for its retreat phase, with their places.

    arbitre's places, except for a unit dislodged by a convoyed army that arbitre's rules leave nowhere to
    go: MILA 1.1.2 offers such a unit every place it borders, occupied or not (the precedence of ``and``
    over ``or`` in its ``Game._move_results``), so it keeps the unit for its retreat phase, where it is
    disbanded unless it retreats (arbitre refuses such a retreat when a record holds one).
    """
    gmap = rules.game_map
    out: dict[str, Dislodged] = {}
    for prov, d in outcome.dislodged.items():
        places = tuple(d.retreats or ())
        if (
            not places
            and d.attacker_from is not None
            and goes_by_convoy(gmap, outcome, d.attacker_from, succeeded=True)
        ):
            places = tuple(sorted(gmap.neighbours(d.unit.kind, d.unit.place)))
        if places:
            out[prov] = Dislodged(d.unit, d.attacker_from, places, d.by_convoy)
    return out


def state_of(
    rules: RuleSet,
    position: Position,
    name: str,
    game_id: str,
    rule_words: Sequence[str],
    influence: Mapping[str, list[str]],
    timestamp: int,
    kept: Mapping[str, Dislodged],
    note: str = "",
) -> dict[str, Any]:
    """MILA's ``state`` of ``position`` (see the module docstring); ``kept``: the units waiting to retreat."""
    gmap = rules.game_map
    powers = sorted(gmap.powers)
    units: dict[str, list[str]] = {}
    retreats: dict[str, dict[str, list[str]]] = {}
    for p in powers:
        units[p] = [unit_text(u) for u in position.units_of(p)]
        retreats[p] = {}
        for d in sorted(kept.values(), key=lambda d: d.unit.place):
            if d.unit.power == p:
                units[p].append("*" + unit_text(d.unit))
                retreats[p][unit_text(d.unit)] = list(d.retreats or ())
    centers = {p: position.centers_of(p) for p in powers}
    homes = {p: list(gmap.home_centers(p)) for p in powers}
    builds: dict[str, dict[str, Any]] = {}
    counts = adjustment_counts(rules, position) if position.phase.kind == ADJUSTMENTS else {}
    occupied = set(position.units)
    for p in powers:
        count = counts.get(p, 0)
        sites: list[str] = []
        if count > 0:
            sites = [h for h in rules.build_sites(p, position) if position.owners.get(h) == p and h not in occupied]
            count = min(count, len(sites))
        builds[p] = {"count": count, "homes": sites}
    table = zobrist_tables(gmap)
    digest = state_hash(
        table,
        [(u.power, u.kind, u.place) for u in position.units.values()],
        [(d.unit.power, d.unit.kind, d.unit.place) for d in kept.values()],
        [(p, c) for p in powers for c in centers[p]],
        [(p, h) for p in powers for h in homes[p]],
    )
    return {
        "timestamp": timestamp,
        "zobrist_hash": digest,
        "note": note,
        "name": name,
        "units": units,
        "retreats": retreats,
        "centers": centers,
        "homes": homes,
        "influence": {p: list(influence.get(p, [])) for p in powers},
        "civil_disorder": dict.fromkeys(powers, 0),
        "builds": builds,
        "game_id": game_id,
        "map": MILA_MAP,
        "rules": list(rule_words),
    }


def _orders_of(
    rules: RuleSet, outcome: PhaseOutcome, given: Mapping[str, Sequence[str]], kept: Mapping[str, Dislodged]
) -> dict[str, list[str]]:
    """The orders each power gave and arbitre accepted, as MILA writes them (retreats only of ``kept`` units)."""
    gmap = rules.game_map
    out: dict[str, list[str]] = {p: [] for p in sorted(gmap.powers)}
    in_retreat = outcome.before.phase.kind == RETREATS
    for r in outcome.results:
        if not accepted(r, given) or r.order is None:
            continue
        if in_retreat and (r.order.unit is None or r.order.unit.province not in kept):
            continue  # MILA removed the unit with nowhere to go before its retreat phase
        text = order_text(gmap, outcome.before, r.order)
        if text is not None and text not in out[r.power]:
            out[r.power].append(text)
    return out


def _results_of(gmap: GameMap, outcome: PhaseOutcome, kept: Mapping[str, Dislodged]) -> dict[str, list[str]]:
    kind = outcome.before.phase.kind
    if kind == MOVEMENT:
        return movement_codes(outcome, gmap)
    if kind == RETREATS:
        return retreat_codes(outcome, kept)
    return adjustment_codes(outcome)


def _move_influence(influence: dict[str, list[str]], power: str, province: str) -> None:
    for held in influence.values():
        if province in held:
            held.remove(province)
    influence.setdefault(power, []).append(province)


def _follow_influence(rules: RuleSet, influence: dict[str, list[str]], outcome: PhaseOutcome) -> None:
    """Give each province a unit moved or retreated into to that unit's power (MILA's influence)."""
    gmap = rules.game_map
    for r in outcome.results:
        if r.outcome == SUCCEEDS and isinstance(r.order, (Move, Retreat)):
            _move_influence(influence, r.power, gmap.province_of[r.order.target])


def _message_dicts(messages: Sequence[PressMessage]) -> list[dict[str, Any]]:
    return [
        {"sender": m.sender, "recipient": m.recipient, "time_sent": m.time_sent, "phase": m.phase, "message": m.message}
        for m in messages
    ]


def _place_messages(phases: list[dict[str, Any]], messages: Sequence[PressMessage]) -> None:
    """Put each message on the first written phase not before the phase it was sent in (MILA's checker wants a
    message's phase after the previous phase and not after the next; a phase MILA skips has no entry)."""

    def key(name: str) -> tuple[int, int, int]:
        if name == "COMPLETED":
            return (10**9, 0, 0)
        try:
            return Phase.parse(name).sort_key()
        except ValueError:
            return (-1, 0, 0)  # a message of the forming game goes with the first phase

    keys = [key(p["name"]) for p in phases]
    placed: list[list[PressMessage]] = [[] for _ in phases]
    for m in sorted(messages, key=lambda m: m.time_sent):
        k = key(m.phase)
        index = next((i for i, pk in enumerate(keys) if pk >= k), len(phases) - 1)
        placed[index].append(m)
    for phase, found in zip(phases, placed, strict=True):
        phase["messages"] = _message_dicts(found)


def export_game(
    game: Game,
    game_id: str,
    messages: Sequence[PressMessage] = (),
    press: bool = True,
    start_time: int = 0,
) -> dict[str, Any]:
    """``game`` as a MILA saved game (a JSON-ready dict).

    ``messages`` are the press to include, each on the phase it was sent in
    (or the next phase MILA writes; give only what the reader of the export may read); ``press=False`` marks
    the game ``NO_PRESS`` as MILA does.  Each state's ``timestamp`` is
    ``start_time`` plus the phase's index (the judge keeps no clock).  The
    current phase comes last, without orders or results.  Raises
    :class:`ExportError` for a game MILA cannot represent.
    """
    exportable(game)
    rules = game.rules
    gmap = rules.game_map
    rule_words = [] if press else ["NO_PRESS"]
    influence: dict[str, list[str]] = {}
    for p in sorted(gmap.powers):
        for text in gmap.powers[p].start_units:
            influence.setdefault(p, []).append(gmap.province_of[text.split()[1]])
    phases: list[dict[str, Any]] = []
    kept: dict[str, Dislodged] = {}
    for record in game.history:
        position = record.position
        name = str(position.phase)
        if position.phase.kind == RETREATS and not kept:
            continue  # MILA skips a retreat phase with nobody to retreat
        stamp = start_time + len(phases)
        state = state_of(rules, position, name, game_id, rule_words, influence, stamp, kept)
        phases.append(
            {
                "name": name,
                "state": state,
                "orders": _orders_of(rules, record.outcome, record.orders, kept),
                "results": _results_of(gmap, record.outcome, kept),
                "messages": [],
            }
        )
        _follow_influence(rules, influence, record.outcome)
        kept = mila_retreats(rules, record.outcome) if position.phase.kind == MOVEMENT else {}
    if game.position.phase.kind != RETREATS:
        kept = {}
    name, note = str(game.phase), ""
    if game.status == WON:
        name, note, kept = "COMPLETED", "Victory by: " + ", ".join(w[:3] for w in game.winners), {}
    stamp = start_time + len(phases)
    current = state_of(rules, game.position, name, game_id, rule_words, influence, stamp, kept, note)
    phases.append(
        {
            "name": name,
            "state": current,
            "orders": {p: [] for p in sorted(gmap.powers)},
            "results": {},
            "messages": [],
        }
    )
    _place_messages(phases, messages)
    return {"id": game_id, "map": MILA_MAP, "rules": rule_words, "phases": phases}
