"""Played phases and closed steps as plain data: what is stored once and read back without replaying.

A record is written when a step closes (:class:`arbitre.judge.progress.Transition`) and read back as
it was: the position before and after (every rule module's ``extras`` included), the orders in normal
form, the results, the events with their audiences, what a lock revealed.  Reading a record never
adjudicates, never reads what a player typed and never checks a position against today's rules, so a
change to the parser or to a rule option's default cannot rewrite a played phase.

The only thing read through the rules is each result's order, from its normal form (``A PAR - BUR``),
so that views find its kind and places; an order that no longer reads is shown as its text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arbitre.adjudicator import OrderResult, PhaseOutcome
from arbitre.orders import Order, OrderError
from arbitre.rules import RuleSet
from arbitre.rules.events import Event, EventLike
from arbitre.state import Dislodged, Phase, Position, Unit

__all__ = [
    "events_from_data",
    "events_to_data",
    "outcome_from_data",
    "outcome_to_data",
    "position_from_record",
    "position_to_record",
]


def _plain(value: object) -> Any:
    """``value`` as JSON values (tuples and sets become lists, mappings dicts with string keys)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(_plain(v) for v in value)
    return value


def _unit(text: str, power: str) -> Unit:
    kind, place = text.split(" ", 1)
    return Unit(power, kind, place)


def _dislodged_to_data(items: Sequence[Dislodged]) -> list[dict[str, Any]]:
    return [
        {
            "power": d.unit.power,
            "unit": str(d.unit),
            "attacker_from": d.attacker_from,
            "retreats": list(d.retreats) if d.retreats is not None else None,
            **({"by_convoy": True} if d.by_convoy else {}),
        }
        for d in sorted(items, key=lambda d: d.unit.place)
    ]


def _dislodged_from_data(items: Sequence[Mapping[str, Any]], province_of: Mapping[str, str]) -> dict[str, Dislodged]:
    out: dict[str, Dislodged] = {}
    for item in items:
        unit = _unit(item["unit"], item["power"])
        retreats = item.get("retreats")
        out[province_of[unit.place]] = Dislodged(
            unit,
            item.get("attacker_from"),
            tuple(retreats) if retreats is not None else None,
            bool(item.get("by_convoy", False)),
        )
    return out


def position_to_record(position: Position) -> dict[str, Any]:
    """A position as stored in a record: phase, units by power, centres by owner, dislodged units, extras."""
    units: dict[str, list[str]] = {}
    for unit in sorted(position.units.values(), key=lambda u: (u.power, u.place)):
        units.setdefault(unit.power, []).append(str(unit))
    out: dict[str, Any] = {
        "phase": str(position.phase),
        "units": units,
        "owners": dict(sorted(position.owners.items())),
    }
    if position.dislodged:
        out["dislodged"] = _dislodged_to_data(list(position.dislodged.values()))
    if position.extras:
        out["extras"] = _plain(position.extras)
    return out


def position_from_record(rules: RuleSet, data: Mapping[str, Any]) -> Position:
    """The position a record holds, as it was stored (nothing is checked against today's rules)."""
    province_of = rules.game_map.province_of
    units: dict[str, Unit] = {}
    for power, texts in data["units"].items():
        for text in texts:
            unit = _unit(text, power)
            units[province_of[unit.place]] = unit
    return Position(
        rules.game_map.name,
        Phase.parse(data["phase"]),
        units,
        dict(data.get("owners", {})),
        _dislodged_from_data(data.get("dislodged", []), province_of),
        dict(data.get("extras", {})),
    )


def events_to_data(events: Sequence[object]) -> list[dict[str, Any]]:
    """Events as data: each one's kind, audience and data (what a view may let through)."""
    return [
        {"kind": e.kind, "audience": sorted(e.audience), "data": _plain(e.data)}
        for e in events
        if isinstance(e, EventLike)
    ]


def events_from_data(items: Sequence[Mapping[str, Any]]) -> tuple[Event, ...]:
    """Events stored by :func:`events_to_data`, with the audience each was told to."""
    return tuple(Event(i["kind"], frozenset(i["audience"]), dict(i.get("data", {}))) for i in items)


def _result_to_data(r: OrderResult) -> list[Any]:
    return [r.power, r.order_text, r.order is not None, r.outcome, r.reason, r.message, r.place]


def _result_from_data(rules: RuleSet, item: Sequence[Any]) -> OrderResult:
    power, text, readable, outcome, reason, message, place = item
    order: Order | None = None
    if readable:
        try:
            order = rules.parse(text)
        except OrderError:
            order = None
    return OrderResult(power, text, order, outcome, reason, message, place)


def outcome_to_data(outcome: PhaseOutcome) -> dict[str, Any]:
    """An adjudicated phase as data: the position after, the results (orders in normal form), the
    dislodged units, the standoffs, the events with their audiences and where extensions moved units."""
    return {
        "after": position_to_record(outcome.after),
        "results": [_result_to_data(r) for r in outcome.results],
        "dislodged": _dislodged_to_data(list(outcome.dislodged.values())),
        "bounced": sorted(outcome.bounced),
        "events": events_to_data(outcome.events),
        "relocated": dict(sorted(outcome.relocated.items())),
    }


def outcome_from_data(rules: RuleSet, before: Position, data: Mapping[str, Any]) -> PhaseOutcome:
    """The outcome stored by :func:`outcome_to_data` for the phase of ``before``."""
    return PhaseOutcome(
        before,
        position_from_record(rules, data["after"]),
        tuple(_result_from_data(rules, item) for item in data["results"]),
        _dislodged_from_data(data.get("dislodged", []), rules.game_map.province_of),
        frozenset(data.get("bounced", [])),
        events_from_data(data.get("events", [])),
        dict(data.get("relocated", {})),
    )
