"""Board geometry: the shapes and positions a map is drawn with.

A geometry file (``arbitre/render/geometry/NAME.json``) is made by
``tools/build_render_geometry.py`` from the project's own data; its ``source``
field names where every coordinate comes from.  It holds, per province, its
outline (a list of rings), the positions of its unit, label and supply centre,
and for seas the position of the depth place ``X-1`` (Submarines); plus coast
positions (``STP/NC``), neutral areas, crossings (land bridges drawn as such)
and, for Colonial, the railway and the canal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

Point = tuple[float, float]


class UnknownGeometryError(ValueError):
    """Raised when no geometry file exists for a map name."""


@dataclass(frozen=True, slots=True)
class ProvinceShape:
    """One province as drawn: outline rings and where its things go."""

    abbr: str
    terrain: str
    rings: tuple[tuple[Point, ...], ...]
    unit: Point | None
    label: Point
    sc: Point | None = None
    depth: Point | None = None

    def path(self) -> str:
        """The outline as SVG path data (all rings; draw with ``fill-rule: evenodd``)."""
        return rings_to_path(self.rings)


@dataclass(frozen=True, slots=True)
class Crossing:
    """A drawn passage between two provinces that the shapes alone cannot show."""

    a: str
    b: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Geometry:
    """All shapes and positions of one map, in canvas pixels (y down)."""

    name: str
    width: float
    height: float
    source: str
    provinces: dict[str, ProvinceShape]
    coasts: dict[str, Point]
    neutral: tuple[tuple[str, tuple[tuple[Point, ...], ...]], ...]
    crossings: tuple[Crossing, ...]
    railway: tuple[str, ...] = ()
    canals: dict[str, dict[str, Any]] = field(default_factory=dict)
    borders: dict[str, tuple[tuple[Point, ...], ...]] = field(default_factory=dict)

    def point(self, place: str) -> Point:
        """Where a unit on ``place`` is drawn: ``PAR``, ``STP/NC`` (a coast) or ``MED-1`` (the depths)."""
        if place in self.coasts:
            return self.coasts[place]
        if place.endswith("-1") and place[:-2] in self.provinces:
            shape = self.provinces[place[:-2]]
            if shape.depth is not None:
                return shape.depth
        prov = self.provinces.get(place.split("/")[0])
        if prov is None:
            raise KeyError(f"no position for {place!r} on the {self.name} board")
        return prov.unit if prov.unit is not None else prov.label


@cache  # shapes are fixed per map: each outline is written once per process, not on every drawing
def _path(pieces: tuple[tuple[Point, ...], ...], closed: bool) -> str:
    """SVG path data for polylines, each closed (``z``) or open.

    Each piece starts at an absolute point and goes on by relative steps (``l``) between the points
    rounded to a tenth: the same outline as absolute coordinates to a tenth, in far fewer bytes (short
    numbers that repeat, which compression likes: a map is a third of its absolute-coordinate weight)."""
    parts = []
    for piece in pieces:
        if len(piece) < (3 if closed else 2):
            continue
        tenths = [(round(x * 10), round(y * 10)) for x, y in piece]
        x0, y0 = tenths[0]
        steps = []
        for x, y in tenths[1:]:
            steps.append(f"{_t(x - x0)}{_signed(_t(y - y0))}")
            x0, y0 = x, y
        body = "".join(_signed(step) if i else step for i, step in enumerate(steps))
        parts.append(f"M{_t(tenths[0][0])} {_t(tenths[0][1])}l{body}" + ("z" if closed else ""))
    return "".join(parts)


def _t(tenths: int) -> str:
    """A whole number of tenths as SVG number text (``15`` → ``1.5``, ``-20`` → ``-2``)."""
    sign = "-" if tenths < 0 else ""
    whole, part = divmod(abs(tenths), 10)
    return f"{sign}{whole}.{part}" if part else f"{sign}{whole}"


def _signed(number: str) -> str:
    """A number that follows another in path data: a minus sign separates it, else a space does."""
    return number if number.startswith("-") else f" {number}"


def rings_to_path(rings: tuple[tuple[Point, ...], ...]) -> str:
    """SVG path data for closed rings."""
    return _path(rings, closed=True)


def lines_to_path(lines: tuple[tuple[Point, ...], ...]) -> str:
    """SVG path data for open polylines."""
    return _path(lines, closed=False)


def _n(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def geometry_from_dict(raw: dict[str, Any]) -> Geometry:
    """Build a :class:`Geometry` from the JSON structure of a geometry file."""

    def pt(v: Any) -> Point | None:
        return (float(v[0]), float(v[1])) if v is not None else None

    def rings(v: Any) -> tuple[tuple[Point, ...], ...]:
        return tuple(tuple((float(x), float(y)) for x, y in ring) for ring in v)

    provinces = {}
    for abbr, p in raw["provinces"].items():
        label = pt(p.get("label")) or pt(p.get("unit")) or (0.0, 0.0)
        provinces[abbr] = ProvinceShape(
            abbr, p["terrain"], rings(p["rings"]), pt(p.get("unit")), label, pt(p.get("sc")), pt(p.get("depth"))
        )
    return Geometry(
        name=raw["map"],
        width=float(raw["width"]),
        height=float(raw["height"]),
        source=raw.get("source", ""),
        provinces=provinces,
        coasts={k: (float(v[0]), float(v[1])) for k, v in raw.get("coasts", {}).items()},
        neutral=tuple((n["terrain"], rings(n["rings"])) for n in raw.get("neutral", ())),
        crossings=tuple(
            Crossing(c["a"], c["b"], tuple((float(x), float(y)) for x, y in c["points"]))
            for c in raw.get("crossings", ())
        ),
        railway=tuple(raw.get("railway", ())),
        canals=dict(raw.get("canals", {})),
        borders={k: rings(v) for k, v in raw.get("borders", {}).items()},
    )


def available_geometries() -> list[str]:
    """Names of the maps that have a geometry file in the package."""
    folder = resources.files("arbitre.render") / "geometry"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def load_geometry(name: str) -> Geometry:
    """Load the geometry of a shipped map by name (``"standard"``, ``"colonial"``); cached."""
    if name not in available_geometries():
        raise UnknownGeometryError(f"no drawing for the map {name!r}; known: {', '.join(available_geometries())}")
    text = (resources.files("arbitre.render") / "geometry" / f"{name}.json").read_text(encoding="utf-8")
    return geometry_from_dict(json.loads(text))
