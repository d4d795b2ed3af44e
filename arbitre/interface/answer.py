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
from arbitre.orders import Order
from arbitre.rules import RuleSet
from arbitre.rules.events import MASTER
from arbitre.rules.facets import Disclosure
from arbitre.state import Position
from arbitre.views.build import final_place

_SEP: Final = "\0"
"""Joins a power and a place into one sort key: it sorts below every character of a name, so the keys
sort as the (power, place) pairs do, and plain strings sort faster than tuples."""


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
        _next_position(outcome.after, parts)
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


def _next_position(after: Position, parts: list[str]) -> None:
    """``next_position_data`` of a position without variant state, keys sorted."""
    parts.append('{"dislodged":{')
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
        entry.append(_string(f"{d.unit.kind} {d.unit.place}"))
        entry.append("}")
        by_power.setdefault(d.unit.power, []).append("".join(entry))
    _groups(by_power, parts)
    parts.append('},"phase":')
    parts.append(_string(str(after.phase)))
    parts.append(',"supply_centers":{')
    centres: dict[str, list[str]] = {}
    owners = after.owners
    for centre in sorted(owners):
        centres.setdefault(owners[centre], []).append(_string(centre))
    _groups(centres, parts)
    parts.append('},"units":{')
    units = {u.power + _SEP + u.place: u for u in after.units.values()}
    placed: dict[str, list[str]] = {}
    for key in sorted(units):
        u = units[key]
        placed.setdefault(u.power, []).append(_string(f"{u.kind} {u.place}"))
    _groups(placed, parts)
    parts.append("}}")


def _groups(groups: dict[str, list[str]], parts: list[str]) -> None:
    """``"POWER":[items]`` for each power, powers in sorted order (the items are JSON already)."""
    first = True
    for power in sorted(groups):
        if not first:
            parts.append(",")
        first = False
        parts.append(_string(power))
        parts.append(":[")
        parts.append(",".join(groups[power]))
        parts.append("]")
