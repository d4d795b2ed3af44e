"""The drawn boards do not mislead: provinces drawn as touching are exactly the adjacent ones.

Touching is computed from the polygons themselves (a shared edge of positive
length), plus the passages the board draws as crossings; it is then compared
with the army and fleet adjacency of the map data.
"""

from __future__ import annotations

import math

import pytest

from arbitre.maps import load_map
from arbitre.render import load_geometry
from arbitre.render.board import Geometry, ProvinceShape

MAPS = ["standard", "colonial"]


def _segments(shape: ProvinceShape) -> set[tuple[tuple[float, float], tuple[float, float]]]:
    out = set()
    for ring in shape.rings:
        n = len(ring)
        for i in range(n):
            a = (round(ring[i][0], 1), round(ring[i][1], 1))
            b = (round(ring[(i + 1) % n][0], 1), round(ring[(i + 1) % n][1], 1))
            if a != b:
                out.add((min(a, b), max(a, b)))
    return out


def drawn_touching(geo: Geometry) -> set[frozenset[str]]:
    """Pairs of provinces whose outlines share at least one edge."""
    owner: dict[tuple, set[str]] = {}
    for abbr, shape in geo.provinces.items():
        for seg in _segments(shape):
            owner.setdefault(seg, set()).add(abbr)
    pairs: set[frozenset[str]] = set()
    for provs in owner.values():
        for a in provs:
            for b in provs:
                if a < b:
                    pairs.add(frozenset((a, b)))
    return pairs


def data_adjacent(name: str) -> set[frozenset[str]]:
    """Province pairs adjacent for armies or fleets (coasts folded), impassable provinces left out."""
    gmap = load_map(name)
    playable = {a for a, p in gmap.provinces.items() if p.terrain != "impassable"}
    pairs = set()
    for table in gmap.adjacency.values():
        for place, targets in table.items():
            for t in targets:
                a, b = gmap.province_of[place], gmap.province_of[t]
                if a != b and a in playable and b in playable:
                    pairs.add(frozenset((a, b)))
    return pairs


@pytest.mark.parametrize("name", MAPS)
def test_touching_is_exactly_adjacency(name: str) -> None:
    geo = load_geometry(name)
    gmap = load_map(name)
    playable = {a for a, p in gmap.provinces.items() if p.terrain != "impassable"}
    touching = {p for p in drawn_touching(geo) if p <= playable}
    crossings = {frozenset((c.a, c.b)) for c in geo.crossings}
    adjacent = data_adjacent(name)
    assert not (crossings & touching), "a crossing is drawn where the provinces already share a border"
    assert touching - adjacent == set(), (
        f"drawn as touching but not adjacent: {sorted(map(sorted, touching - adjacent))}"
    )
    assert adjacent - touching - crossings == set(), (
        f"adjacent but not drawn: {sorted(map(sorted, adjacent - touching - crossings))}"
    )
    # Crossings are the exception, not the rule.
    assert len(crossings) <= 3


@pytest.mark.parametrize("name", MAPS)
def test_every_place_has_a_shape_and_positions(name: str) -> None:
    geo = load_geometry(name)
    gmap = load_map(name)
    assert set(geo.provinces) == set(gmap.provinces)
    for abbr, prov in gmap.provinces.items():
        shape = geo.provinces[abbr]
        assert shape.rings, abbr
        if prov.terrain == "impassable":
            continue
        assert shape.unit is not None, abbr
        if prov.supply_center:
            assert shape.sc is not None, abbr
        if prov.terrain == "sea":
            assert shape.depth is not None, abbr  # Submarines: X-1 under every sea
            assert geo.point(f"{abbr}-1") == shape.depth
        for coast in prov.coasts:
            assert coast in geo.coasts, coast


def _inside(pt: tuple[float, float], shape: ProvinceShape) -> bool:
    x, y = pt
    inside = False
    for ring in shape.rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


@pytest.mark.parametrize("name", MAPS)
def test_positions_lie_in_their_province(name: str) -> None:
    geo = load_geometry(name)
    for abbr, shape in geo.provinces.items():
        for pt in (shape.unit, shape.label, shape.sc, shape.depth):
            if pt is not None:
                assert _inside(pt, shape), (abbr, pt)
    for coast, pt in geo.coasts.items():
        assert _inside(pt, geo.provinces[coast.split("/")[0]]), coast


@pytest.mark.parametrize("name", MAPS)
def test_labels_and_units_do_not_overlap(name: str) -> None:
    """Label boxes keep clear of each other and of other provinces' unit spots."""
    geo = load_geometry(name)
    boxes = []
    for abbr, shape in geo.provinces.items():
        x, y = shape.label
        boxes.append((abbr, "label", x, y, 3.3 * len(abbr) + 1.5, 5.5))
        if shape.unit is not None:
            boxes.append((abbr, "unit", shape.unit[0], shape.unit[1], 12.0, 9.0))
    clashes = []
    for i, (a, ka, xa, ya, wa, ha) in enumerate(boxes):
        for b, kb, xb, yb, wb, hb in boxes[i + 1 :]:
            if abs(xa - xb) < wa + wb and abs(ya - yb) < ha + hb:
                clashes.append((a, ka, b, kb))
    assert clashes == []


def test_colonial_draws_its_railway_and_canal() -> None:
    geo = load_geometry("colonial")
    assert geo.railway == ("MOS", "PRM", "OMS", "KRA", "IRK", "VLA")
    (canal,) = geo.canals.values()
    assert canal["between"] == ["MED", "RED"] and canal["via"] == "EGY"
    a, b = canal["points"]
    assert math.dist(a, b) > 5
