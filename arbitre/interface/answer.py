"""The outcome object of the JSON interface written straight to bytes, when no rule module hides anything.

``arbitre adjudicate`` prints each answer as one line of compact JSON with
sorted keys (:func:`~arbitre.interface.text.dump_line`).  For the common
outcome (nothing hidden, nothing reported, no variant state) :func:`outcome_line`
writes that same line from the outcome itself, without building the answer's
dictionaries first: the results in the order of the view, the next position
grouped by power, every key in sorted order.  Any other outcome gives ``None``,
and the caller builds the answer object (``tests/test_corpus.py`` checks that
both give the same bytes).
"""

from __future__ import annotations

from typing import Final

import orjson

from arbitre.adjudicator import PARTIAL, OrderResult, PhaseOutcome
from arbitre.maps import GameMap
from arbitre.orders import Order
from arbitre.rules import RuleSet
from arbitre.rules.events import MASTER
from arbitre.rules.facets import Disclosure
from arbitre.state import Position, Unit
from arbitre.views.build import final_place

_QUOTED: Final[dict[str, str]] = {}
"""Text -> the same as a JSON string: the names, places and orders of a batch recur from answer to answer."""
QUOTED_LIMIT: Final = 100_000
"""Entries :data:`_QUOTED` keeps before it starts again (orders as written may be endless distinct texts)."""


def _string(value: str) -> str:
    """``value`` as a JSON string, as orjson writes it (raises orjson's error for a lone surrogate)."""
    quoted = _QUOTED.get(value)
    if quoted is None:
        quoted = orjson.dumps(value).decode()
        if len(_QUOTED) >= QUOTED_LIMIT:
            _QUOTED.clear()
        _QUOTED[value] = quoted
    return quoted


_CANONICAL: Final[dict[str, tuple[Order, str]]] = {}
"""Order as written -> (the order read from it, its canonical text): the rule set keeps the orders it read,
so the same text gives the same order object, whose text is written once."""


def _order_text(r: OrderResult) -> str:
    """``r.order_text``, remembered while the order read from the text is the same object (orders are values)."""
    order = r.order
    if order is None:
        return r.text
    hit = _CANONICAL.get(r.text)
    if hit is not None and hit[0] is order:
        return hit[1]
    text = order.format()
    if len(_CANONICAL) >= QUOTED_LIMIT:
        _CANONICAL.clear()
    _CANONICAL[r.text] = (order, text)
    return text


def _maybe(value: str | None) -> str:
    return "null" if value is None else _string(value)


def outcome_line(rules: RuleSet, position: Position, outcome: PhaseOutcome, viewer: str) -> bytes | None:
    """The line ``dump_line`` prints for the outcome object of ``outcome`` seen by ``viewer`` (already checked),
    or ``None`` when a rule module may hide something, the phase reported events, or the next position
    holds variant state: the caller then builds the object."""
    if outcome.events or rules.implementing(Disclosure) or outcome.after.extras:
        return None
    try:
        parts = ['{"next":']
        _next_position(outcome.after, parts, rules.game_map)
        parts.append(',"phase":')
        parts.append(_string(str(position.phase)))
        parts.append(',"report":[],"results":[')
        _results(outcome, viewer, parts)
        parts.append("]")
        if viewer != MASTER:
            parts.append(',"viewer":')
            parts.append(_string(viewer))
        parts.append("}\n")
        return "".join(parts).encode()
    except TypeError:  # orjson.JSONEncodeError: text that cannot be written as UTF-8; the object path words it
        return None


def _results(outcome: PhaseOutcome, viewer: str, parts: list[str]) -> None:
    """The results as ``public_results_data`` lists them (the order of ``View.orders``)."""
    rows = []
    for i, r in enumerate(outcome.results):
        text = _order_text(r)
        rows.append((r.power or "~", r.reason == "no_order", text, i))
    rows.sort()  # the index last: equal keys keep the order given, as a stable sort on the key does
    results = outcome.results
    first = True
    for _, _, text, i in rows:
        r = results[i]
        parts.append("{" if first else ",{")
        first = False
        if r.message and viewer in (MASTER, r.power):
            parts.append('"message":')
            parts.append(_string(r.message))
            parts.append(",")
        parts.append('"order":')
        parts.append(_string(text))
        parts.append(',"outcome":')
        parts.append(_string(r.outcome))
        parts.append(',"power":')
        parts.append(_maybe(r.power))
        if r.outcome == PARTIAL:
            parts.append(',"reached":')
            parts.append(_maybe(final_place(r, outcome)))
        parts.append(',"reason":')
        parts.append(_maybe(r.reason))
        parts.append("}")


_CENTRE_ORDER: Final[dict[int, tuple[GameMap, list[tuple[str, str]]]]] = {}
"""id of a map -> (the map, its supply centres sorted, each with its JSON string)."""


def _centre_order(game_map: GameMap) -> list[tuple[str, str]]:
    """The supply centres of ``game_map``, sorted, each with its JSON string (made once per map)."""
    hit = _CENTRE_ORDER.get(id(game_map))
    if hit is None or hit[0] is not game_map:
        if len(_CENTRE_ORDER) >= 32:
            _CENTRE_ORDER.clear()
        hit = _CENTRE_ORDER[id(game_map)] = (game_map, [(c, _string(c)) for c in sorted(game_map.supply_centers)])
    return hit[1]


def _next_position(after: Position, parts: list[str], game_map: GameMap) -> None:
    """``next_position_data`` of a position without variant state, keys sorted."""
    parts.append('{"dislodged":{')
    if after.dislodged:
        by_power: dict[str, list[str]] = {}
        by_place = {d.unit.place: d for d in after.dislodged.values()}
        for place in sorted(by_place):
            d = by_place[place]
            entry = ['{"attacker_from":', _maybe(d.attacker_from)]
            if d.by_convoy:
                entry.append(',"by_convoy":true')
            entry.append(',"retreats":[')
            entry.append(",".join([_string(p) for p in d.retreats or ()]))
            entry.append('],"unit":')
            entry.append(_unit(d.unit))
            entry.append("}")
            by_power.setdefault(d.unit.power, []).append("".join(entry))
        _groups(by_power, parts, game_map)
    parts.append('},"phase":')
    parts.append(_string(str(after.phase)))
    parts.append(',"supply_centers":{')
    centres: dict[str, list[str]] = {}
    owners = after.owners
    # The map's centres in sorted order, each with its JSON: no sort and no quoting per answer.
    found = 0
    for centre, quoted_centre in _centre_order(game_map):
        power = owners.get(centre)
        if power is not None:
            found += 1
            group = centres.get(power)
            if group is None:
                group = centres[power] = []
            group.append(quoted_centre)
    if found != len(owners):  # an owned place the map does not call a centre: sorted the general way
        centres = {}
        for centre in sorted(owners):
            power = owners[centre]
            group = centres.get(power)
            if group is None:
                group = centres[power] = []
            group.append(_string(centre))
    _groups(centres, parts, game_map)
    parts.append('},"units":{')
    # By power, then by place: the order of the (power, place) pairs, without making a key for each unit
    # (each province holds one unit, so places are distinct and name their unit).
    places: dict[str, list[str]] = {}
    quoted: dict[str, str] = {}
    for u in after.units.values():
        place = u.place
        group = places.get(u.power)
        if group is None:
            group = places[u.power] = []
        group.append(place)
        quoted[place] = _unit(u)
    units: dict[str, list[str]] = {}
    for power, group in places.items():
        group.sort()
        units[power] = [quoted[p] for p in group]
    _groups(units, parts, game_map)
    parts.append("}}")


_UNITS: Final[dict[str, tuple[str, str]]] = {}
"""Place -> (kind, ``"A PAR"`` as a JSON string) of the last unit written there: units recur from position to
position (a place, an interned string of the map, is a quicker key than the unit)."""


def _unit(u: Unit) -> str:
    """The unit's ``kind place`` as a JSON string, remembered."""
    hit = _UNITS.get(u.place)
    if hit is not None and hit[0] == u.kind:
        return hit[1]
    text = _string(f"{u.kind} {u.place}")
    if len(_UNITS) >= QUOTED_LIMIT:
        _UNITS.clear()
    _UNITS[u.place] = (u.kind, text)
    return text


_POWER_ORDER: Final[dict[int, tuple[GameMap, list[tuple[str, str, str]]]]] = {}
"""id of a map -> (the map, its powers sorted, each with ``"POWER":[`` and ``,"POWER":[``)."""


def _power_order(game_map: GameMap) -> list[tuple[str, str, str]]:
    """The powers of ``game_map``, sorted, each with its JSON key written first and after another (made once)."""
    hit = _POWER_ORDER.get(id(game_map))
    if hit is None or hit[0] is not game_map:
        if len(_POWER_ORDER) >= 32:
            _POWER_ORDER.clear()
        heads = [(p, f"{_string(p)}:[", f",{_string(p)}:[") for p in sorted(game_map.powers)]
        hit = _POWER_ORDER[id(game_map)] = (game_map, heads)
    return hit[1]


def _groups(groups: dict[str, list[str]], parts: list[str], game_map: GameMap) -> None:
    """``"POWER":[items]`` for each power, powers in sorted order (the items are JSON already)."""
    # The map's powers in sorted order, each with its JSON key: no sort and no quoting per answer.
    mark = len(parts)
    found = 0
    first = True
    for power, head, later in _power_order(game_map):
        items = groups.get(power)
        if items is not None:
            parts.append(head if first else later)
            parts.append(",".join(items))
            parts.append("]")
            first = False
            found += 1
    if found == len(groups):
        return
    del parts[mark:]  # a power the map does not name: sorted the general way
    first = True
    for power in sorted(groups):
        parts.append(f"{'' if first else ','}{_string(power)}:[{','.join(groups[power])}]")
        first = False
