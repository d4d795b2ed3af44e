"""Civil disorder: which units the standard rules remove when a power gives too few disbands.

The rule set asks this once (:meth:`~arbitre.rules.RuleSet.civil_disorder_removals`),
then each module implementing :class:`~arbitre.rules.facets.CivilDisorder`;
the adjudicator asks only the rule set.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from arbitre.maps import ARMY, FLEET, GameMap
from arbitre.rules.options import RuleOptions
from arbitre.state import Position, Unit


def _distances(gmap: GameMap, sources: set[str], kinds: Sequence[str]) -> dict[str, int]:
    """Moves from every province to the nearest of ``sources`` for a unit that may move like any of ``kinds``."""
    links: dict[str, set[str]] = {}
    for kind in kinds:
        for place, ns in gmap.province_neighbours.get(kind, {}).items():
            links.setdefault(gmap.province_of[place], set()).update(ns)
    dist = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        p = queue.popleft()
        for q in links.get(p, ()):
            if q not in dist:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def _distances_to_owned(gmap: GameMap, owned: set[str]) -> dict[str, int]:
    """Distance from every province to the nearest owned centre, over land and sea (2023 rule)."""
    return _distances(gmap, owned, list(gmap.province_neighbours))


def _distances_to_homes(gmap: GameMap, homes: set[str]) -> dict[str, dict[str, int]]:
    """Per unit kind, distance to the nearest home centre (pre-2023 rule: armies may cross water)."""
    return {ARMY: _distances(gmap, homes, list(gmap.province_neighbours)), FLEET: _distances(gmap, homes, [FLEET])}


def standard_removal_order(
    gmap: GameMap, options: RuleOptions, position: Position, power: str, exclude: AbstractSet[str]
) -> list[Unit]:
    """``power``'s units (but those in ``exclude``) in the order the standard rules remove them when it gives too
    few disbands: farthest first, fleets before armies, then by province name (DATC 4.D.8, by option)."""
    units = [u for p, u in position.units.items() if u.power == power and p not in exclude]
    far = 10**6
    if options.civil_disorder == "2023":
        dist = _distances_to_owned(gmap, {c for c, p in position.owners.items() if p == power})

        def distance(u: Unit) -> int:
            return dist.get(gmap.province_of[u.place], far)
    else:
        by_kind = _distances_to_homes(gmap, set(gmap.home_centers(power)))

        def distance(u: Unit) -> int:
            return by_kind.get(u.kind, by_kind[ARMY]).get(gmap.province_of[u.place], far)

    units.sort(
        key=lambda u: (-distance(u), 0 if u.kind == FLEET else 1, gmap.provinces[gmap.province_of[u.place]].name)
    )
    return units
