"""Province values after David Norman's description of DumbBot, written from that description.

Each supply centre gets a base value: a centre another power owns is worth
that power's *size* (a quadratic of its centre count, so the leader is the
first target), a neutral centre a fixed size, and a centre of ours is worth
the size of the strongest power next to it (what it would cost to lose it).
These values then spread over the board: ``prox[n]`` is, for every place,
the sum of ``prox[n-1]`` over the place and its neighbours divided by five, so
a place near many valuable centres is itself valuable.  A place's value for a
unit kind is the weighted sum of the spread layers, plus the strength we have
next to it and minus the strongest competitor's.  Weights change with the
season (spring looks further, autumn takes centres).

Everything is computed from the :class:`~arbitre.bots.board.BotBoard`, that is
from the power's view only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arbitre.bots.board import UNKNOWN, BotBoard

SPRING_PROX = (100.0, 1000.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
AUTUMN_PROX = (1000.0, 100.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
"""Weights of the spread layers (layer 0 is the place itself)."""


@dataclass(frozen=True)
class Weights:
    """The weights of one kind of decision."""

    prox: tuple[float, ...]
    attack: float
    defence: float
    strength: float
    competition: float


UNIT_WEIGHT = 1.0e6
"""Strength and competition per unit, on the scale of the spread values (a neutral centre next door: ~2e7)."""
SPRING = Weights(SPRING_PROX, 700.0, 300.0, UNIT_WEIGHT, UNIT_WEIGHT)
AUTUMN = Weights(AUTUMN_PROX, 600.0, 400.0, UNIT_WEIGHT, UNIT_WEIGHT)
BUILD = Weights(AUTUMN_PROX, 0.0, 1000.0, 0.0, 0.0)
RETREAT = Weights(AUTUMN_PROX, 600.0, 400.0, 0.0, 0.0)


def size(centres: int) -> float:
    """How much a power weighs: grows faster than its centre count, so leaders are attacked first."""
    return float(centres * centres + 4 * centres + 16)


def _neighbour_powers(board: BotBoard, province: str) -> dict[str, int]:
    """Power → number of its (visible) units that could move into ``province``."""
    out: dict[str, int] = {}
    nb = board.gmap.province_neighbours
    for prov, (power, kind, place) in board.units.items():
        if province in nb.get(kind, {}).get(place, ()) or prov == province:
            out[power] = out.get(power, 0) + 1
    return out


def base_values(board: BotBoard, weights: Weights) -> dict[str, float]:
    """Province → value before spreading (supply centres only)."""
    out: dict[str, float] = {}
    for sc in board.gmap.supply_centers:
        owner = board.owner(sc)
        if owner == board.me:
            near = _neighbour_powers(board, sc)
            threat = max((size(board.centres.get(p, 0)) for p in near if p not in (board.me, UNKNOWN)), default=0.0)
            out[sc] = weights.defence * threat
        elif owner is None:
            out[sc] = weights.attack * size(2)
        else:
            out[sc] = weights.attack * size(board.centres.get(owner, 0))
    return out


def place_values(board: BotBoard, weights: Weights) -> dict[str, dict[str, float]]:
    """Unit kind → place → value (see the module's description)."""
    base = base_values(board, weights)
    gmap = board.gmap
    strength: dict[str, int] = {}
    competition: dict[str, dict[str, int]] = {}
    nb = gmap.province_neighbours
    for prov, (power, kind, place) in board.units.items():
        reach = set(nb.get(kind, {}).get(place, ())) | {prov}
        for target in reach:
            if power == board.me:
                strength[target] = strength.get(target, 0) + 1
            else:
                per = competition.setdefault(target, {})
                per[power] = per.get(power, 0) + 1
    out: dict[str, dict[str, float]] = {}
    for kind, table in gmap.province_neighbours.items():
        out[kind] = _spread(gmap.province_of, table, base, weights, strength, competition)
    _value_hidden_layers(board, out, weights, competition)
    return out


HIDDEN_SHARE = 0.97
"""A place only a special unit kind enters (a depth place) is worth this share of its best neighbour (plus the surface's competition: nothing but a torpedo reaches it)."""


def _value_hidden_layers(
    board: BotBoard, out: dict[str, dict[str, float]], weights: Weights, competition: Mapping[str, Mapping[str, int]]
) -> None:
    """Places no army or fleet can enter (Submarines' depths) are worth nearly what their surface is.

    Spreading alone would make them worthless (no centre is under the sea),
    yet a unit there is safe and strikes the surface: value them from their
    neighbours (without the neighbour's competition: no army or fleet
    reaches the depths), a little less, so a unit dives when the surface is
    contested and surfaces when it is not.
    """
    province_of = board.gmap.province_of
    common = set(board.gmap.adjacency.get("A", {})) | set(board.gmap.adjacency.get("F", {}))
    for kind, table in board.gmap.adjacency.items():
        if kind in ("A", "F"):
            continue
        values = out[kind]
        for place in sorted(table):
            if place in common:
                continue
            near = [
                values.get(n, 0.0)
                + weights.competition * max(competition.get(province_of.get(n, n), {}).values(), default=0)
                for n in table[place]
                if n in common
            ]
            if near:
                values[place] = max(values.get(place, 0.0), HIDDEN_SHARE * max(near))


def _spread(
    province_of: Mapping[str, str],
    table: Mapping[str, frozenset[str]],
    base: Mapping[str, float],
    weights: Weights,
    strength: Mapping[str, int],
    competition: Mapping[str, Mapping[str, int]],
) -> dict[str, float]:
    places = sorted(table)
    layer = {p: base.get(province_of.get(p, p), 0.0) for p in places}
    # Provinces reachable from a place (by province): spread through the province graph of this kind.
    by_prov: dict[str, float] = {}
    total = {p: weights.prox[0] * layer[p] for p in places}
    prov_table: dict[str, set[str]] = {}
    for p in places:
        prov_table.setdefault(province_of.get(p, p), set()).update(table[p])
    provs = sorted(prov_table)
    by_prov = {q: base.get(q, 0.0) for q in provs}
    for w in weights.prox[1:]:
        by_prov = {q: (by_prov[q] + sum(by_prov.get(n, 0.0) for n in prov_table[q])) / 5.0 for q in provs}
        for p in places:
            total[p] += w * by_prov.get(province_of.get(p, p), 0.0)
    for p in places:
        q = province_of.get(p, p)
        total[p] += weights.strength * strength.get(q, 0)
        total[p] -= weights.competition * max(competition.get(q, {}).values(), default=0)
    return total
