"""Draw a :class:`~arbitre.views.model.View` as SVG.

Only a view is drawn: everything on the picture comes from the view (units,
owners, orders, results) or from the board geometry.  A power's map therefore
shows exactly what that power's view holds.

Style (our own):

* Powers have colours from the Okabe-Ito palette (told apart with the common
  colour-vision deficiencies), and each also has a letter (on its units) and a
  hatching pattern (on the provinces of its supply centres).
* Units: an army is a disc, a fleet a hull, a submarine a hull with a conning
  tower; a unit whose nationality is hidden (a sonar contact) is grey with
  ``?``; a submerged submarine of the viewer's own is drawn dashed and pale.
* Orders are arrows in the power's colour: a move is a solid arrow (dashed and
  ending in a bar when it failed), a support a thin dashed line to the middle of
  the supported move (or a ring around a unit supported to hold), a convoy a
  dotted line, a train move a railway line to the station where the train really
  stopped, a Suez passage an arrow through the canal, a torpedo a dark red line
  with a burst on a hit.
* Results: a standoff is a red star, a dislodged unit is drawn beside its place
  with a red ring, a retreat is an arrow from there, a disband a red cross, a
  build a unit with a ``+`` badge.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, ClassVar
from xml.sax.saxutils import escape

from arbitre.render.board import Geometry, Point, lines_to_path, load_geometry, rings_to_path
from arbitre.rules.kinds import DrawStyle
from arbitre.views.model import MASTER, OBSERVER, View, VisibleDislodged, VisibleOrder, VisibleUnit
from arbitre.words.phases import PHASE_KINDS, SEASONS

# Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "black": "#1F1F1F",
}
PATTERNS = ("slash", "backslash", "horizontal", "vertical", "cross", "dots", "grid")


@dataclass(frozen=True, slots=True)
class PowerStyle:
    """How a power is told apart: colour, letter and hatching pattern."""

    colour: str
    letter: str
    pattern: str


@cache
def map_power_styles(map_name: str) -> dict[str, PowerStyle]:
    """The power styles a map's palette file gives (``arbitre/render/palettes/<map>.json``); none if it has none."""
    path = resources.files("arbitre.render") / "palettes" / f"{map_name}.json"
    if not path.is_file():
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {
        power: PowerStyle(OKABE_ITO[colour], letter, pattern)
        for power, (colour, letter, pattern) in raw["powers"].items()
    }


POWER_STYLES: dict[str, PowerStyle] = map_power_styles("standard")
"""The standard map's power styles."""

LAND = "#EDE4CC"
LAND_NEUTRAL = "#D9D2C0"
SEA = "#B9D5E8"
IMPASSABLE = "#C9C1AE"
BORDER = "#857A63"
SEA_BORDER = "#8FB2CB"
INK = "#222222"
RED = "#C0120C"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
FOOTER = 58.0


def power_style(power: str, map_name: str = "standard") -> PowerStyle:
    """The colour, letter and pattern of a power on a map: its palette's, else the standard map's, else a stable fallback."""
    style = map_power_styles(map_name).get(power) or POWER_STYLES.get(power)
    if style is not None:
        return style
    colours = list(OKABE_ITO.values())
    h = sum(map(ord, power))
    return PowerStyle(colours[h % len(colours)], power[:1].upper(), PATTERNS[h % len(PATTERNS)])


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _on(colour: str) -> str:
    """Black or white, whichever reads on ``colour``."""
    return INK if _luminance(colour) > 0.45 else "#FFFFFF"


def _mix(colour: str, other: str, t: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * t + y * (1 - t)):02X}" for x, y in zip(a, b, strict=True))


def _f(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


Words = Callable[[str], str]
"""A translation of the drawing's words (message ids in English, as the gettext catalogs key them)."""


def _same(text: str) -> str:
    return text


def phase_title(phase: str, words: Words = _same) -> str:
    """``S1901M`` → ``Spring 1901, movement`` (other strings are returned as they are), in ``words``' language."""
    if len(phase) >= 6 and phase[0] in SEASONS and phase[-1] in PHASE_KINDS and phase[1:-1].isdigit():
        return f"{words(SEASONS[phase[0]])} {phase[1:-1]}, {words(PHASE_KINDS[phase[-1]])}"
    return phase


# --------------------------------------------------------------------------- geometry helpers
def _curve(p: Point, q: Point, r0: float, r1: float, bend: float = 0.12) -> tuple[Point, Point, Point]:
    """A gentle quadratic curve from p to q, cut by r0 at the start and r1 at the end."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    c = ((p[0] + q[0]) / 2 - uy * d * bend, (p[1] + q[1]) / 2 + ux * d * bend)
    s = _toward(p, c, r0)
    e = _toward(q, c, r1)
    return s, c, e


def _toward(p: Point, q: Point, r: float) -> Point:
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy)
    if d <= r or d == 0:
        return p
    return p[0] + dx / d * r, p[1] + dy / d * r


def _mid(s: Point, c: Point, e: Point) -> Point:
    return (0.25 * s[0] + 0.5 * c[0] + 0.25 * e[0], 0.25 * s[1] + 0.5 * c[1] + 0.25 * e[1])


def _head(tip: Point, frm: Point, size: float) -> str:
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    w = size * 0.55
    pts = [tip, (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)]
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in pts)


def _bar(tip: Point, frm: Point, size: float) -> tuple[Point, Point]:
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    return (tip[0] - uy * size, tip[1] + ux * size), (tip[0] + uy * size, tip[1] - ux * size)


# --------------------------------------------------------------------------- the drawing
class _Drawing:
    def __init__(self, view: View, geometry: Geometry, words: Words = _same) -> None:
        self.view = view
        self.g = geometry
        self.words = words
        self.out: list[str] = []
        self.r = 9.0
        self.dislodged_at: dict[str, Point] = {}

    # ---- basics
    def add(self, s: str) -> None:
        self.out.append(s)

    def style(self, power: str | None) -> PowerStyle:
        if power is None:
            return PowerStyle("#9A9A9A", "?", "dots")
        return power_style(power, self.g.name)

    def point(self, place: str) -> Point:
        return self.g.point(place)

    def unit_point(self, place: str) -> Point:
        """Where the unit ordered from ``place`` is drawn (beside its place if dislodged)."""
        return self.dislodged_at.get(place, self.point(place))

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float,
        fill: str = INK,
        weight: str = "bold",
        halo: str | None = "#FFFFFF",
        anchor: str = "middle",
        italic: bool = False,
    ) -> None:
        attrs = f'x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" font-weight="{weight}" text-anchor="{anchor}"' + (
            ' font-style="italic"' if italic else ""
        )
        body = escape(s)
        if halo:
            self.add(
                f'<text {attrs} fill="none" stroke="{halo}" stroke-width="2.6" '
                f'stroke-linejoin="round" opacity="0.85">{body}</text>'
            )
        self.add(f'<text {attrs} fill="{fill}">{body}</text>')

    # ---- board
    def defs(self, powers: Iterable[str]) -> None:
        self.add("<defs>")
        for p in powers:
            st = self.style(p)
            self.add(self._pattern(f"pat-{p}", st))
        self.add(
            '<pattern id="pat-impassable" width="6" height="6" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)"><rect width="6" height="6" fill="#C9C1AE"/>'
            '<line x1="0" y1="0" x2="0" y2="6" stroke="#A89F8A" stroke-width="1.6"/></pattern>'
        )
        self.add("</defs>")

    def _pattern(self, pid: str, st: PowerStyle) -> str:
        tint = _mix(st.colour, LAND, 0.34)
        line = _mix(st.colour, INK, 0.8)
        size = 8
        head = f'<pattern id="{pid}" width="{size}" height="{size}" patternUnits="userSpaceOnUse"'
        bg = f'<rect width="{size}" height="{size}" fill="{tint}"/>'
        stroke = f'stroke="{line}" stroke-width="1" stroke-opacity="0.4"'
        kind = st.pattern
        if kind in ("slash", "backslash"):
            rot = 45 if kind == "slash" else -45
            return (
                f'{head} patternTransform="rotate({rot})">{bg}'
                f'<line x1="0" y1="0" x2="0" y2="{size}" {stroke}/></pattern>'
            )
        if kind == "horizontal":
            return f'{head}>{bg}<line x1="0" y1="4" x2="{size}" y2="4" {stroke}/></pattern>'
        if kind == "vertical":
            return f'{head}>{bg}<line x1="4" y1="0" x2="4" y2="{size}" {stroke}/></pattern>'
        if kind == "cross":
            return (
                f'{head}>{bg}<line x1="0" y1="4" x2="{size}" y2="4" {stroke}/>'
                f'<line x1="4" y1="0" x2="4" y2="{size}" {stroke}/></pattern>'
            )
        if kind == "grid":
            return (
                f'{head} patternTransform="rotate(45)">{bg}<line x1="0" y1="4" x2="{size}" y2="4" {stroke}/>'
                f'<line x1="4" y1="0" x2="4" y2="{size}" {stroke}/></pattern>'
            )
        return (
            f'{head}>{bg}<circle cx="2" cy="2" r="1.2" fill="{line}" fill-opacity="0.6"/>'
            f'<circle cx="6" cy="6" r="1.2" fill="{line}" fill-opacity="0.6"/></pattern>'
        )

    def board(self, names: Mapping[str, str]) -> None:
        g = self.g
        self.add(f'<rect x="0" y="0" width="{_f(g.width)}" height="{_f(g.height)}" fill="{SEA}"/>')
        self.add('<g id="neutral" fill-rule="evenodd" stroke="none">')
        for terrain, rings in g.neutral:
            fill = SEA if terrain == "sea" else LAND_NEUTRAL
            self.add(f'<path d="{rings_to_path(rings)}" fill="{fill}"/>')
        self.add("</g>")
        owners = self.view.owners
        for layer in ("sea", "land", "impassable"):
            self.add(f'<g id="{layer}" fill-rule="evenodd" stroke="none">')
            for abbr, shape in sorted(g.provinces.items()):
                if shape.terrain != layer:
                    continue
                if layer == "sea":
                    fill = SEA
                elif layer == "impassable":
                    fill = "url(#pat-impassable)"
                else:
                    owner = owners.get(abbr)
                    fill = f"url(#pat-{owner})" if owner else LAND
                title = escape(names.get(abbr, abbr))
                self.add(
                    f'<path id="p-{abbr}" d="{shape.path()}" fill="{fill}"{self.place_attrs(abbr)}>'
                    f"<title>{title}</title></path>"
                )
            self.add("</g>")
        styles = {
            "sea": f'stroke="{SEA_BORDER}" stroke-width="1" stroke-dasharray="4 2.5"',
            "land": f'stroke="{BORDER}" stroke-width="0.9"',
            "coast": 'stroke="#4E6E86" stroke-width="1.2"',
        }
        for kind in ("sea", "land", "coast"):
            lines = g.borders.get(kind, ())
            if lines:
                self.add(
                    f'<path id="borders-{kind}" d="{lines_to_path(lines)}" fill="none" {styles[kind]} '
                    'stroke-linejoin="round" stroke-linecap="round"/>'
                )
        self.add(
            f'<rect x="0.5" y="0.5" width="{_f(g.width - 1)}" height="{_f(g.height - 1)}" fill="none" '
            f'stroke="{BORDER}" stroke-width="1"/>'
        )

    def crossings(self) -> None:
        g = self.g
        self.add('<g id="crossings" stroke-linecap="round">')
        for c in g.crossings:
            pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in c.points)
            self.add(f'<polyline points="{pts}" fill="none" stroke="{BORDER}" stroke-width="7"/>')
            self.add(f'<polyline points="{pts}" fill="none" stroke="{LAND}" stroke-width="4.4"/>')
            self.add(
                f'<polyline points="{pts}" fill="none" stroke="{BORDER}" stroke-width="4.4" '
                f'stroke-dasharray="1 3" stroke-linecap="butt"/>'
            )
        for name, canal in sorted(g.canals.items()):
            pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in canal.get("points", ()))
            self.add(
                f'<polyline points="{pts}" fill="none" stroke="#4F8DB8" stroke-width="3.2">'
                f"<title>{escape(name)}</title></polyline>"
            )
        if len(g.railway) > 1:
            pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in (self.point(s) for s in g.railway))
            self.add(
                f'<polyline points="{pts}" fill="none" stroke="#4A4A4A" stroke-width="3.6" stroke-linejoin="round"/>'
            )
            self.add(
                f'<polyline points="{pts}" fill="none" stroke="#FFFFFF" stroke-width="1.6" '
                f'stroke-dasharray="5 5" stroke-linejoin="round"/>'
            )
        self.add("</g>")

    def labels(self) -> None:
        g = self.g
        self.add(f'<g id="labels" font-family="{FONT}">')
        for abbr, shape in sorted(g.provinces.items()):
            x, y = shape.label
            if shape.terrain == "sea":
                self.text(x, y + 3.5, abbr, 9.5, fill="#2B5D7E", halo=None, italic=True)
            else:
                self.text(x, y + 3.5, abbr, 9.5)
        self.add("</g>")

    def centres(self) -> None:
        g = self.g
        self.add('<g id="centres">')
        for abbr, shape in sorted(g.provinces.items()):
            if shape.sc is None:
                continue
            x, y = shape.sc
            owner = self.view.owners.get(abbr)
            if owner:
                colour = self.style(owner).colour
                self.add(
                    f'<circle cx="{_f(x)}" cy="{_f(y)}" r="4.8" fill="{colour}" stroke="{INK}" stroke-width="1.2"/>'
                )
            else:
                self.add(
                    f'<circle cx="{_f(x)}" cy="{_f(y)}" r="4.8" fill="#FFFFFF" stroke="{INK}" stroke-width="1.2"/>'
                )
                self.add(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="1.6" fill="{INK}"/>')
        self.add("</g>")

    # ---- units
    def place_attrs(self, place: str) -> str:
        """Attributes that make ``place`` clickable on a page: its name and where its unit is drawn."""
        try:
            x, y = self.point(place)
        except KeyError:
            return f' data-place="{escape(place)}"'
        shape = self.g.provinces.get(place)
        # where a sea's depths are drawn (Submarines); the page makes them clickable when an order names them
        depth = (
            f' data-depth-x="{_f(shape.depth[0])}" data-depth-y="{_f(shape.depth[1])}"'
            if shape is not None and shape.depth is not None
            else ""
        )
        return f' data-place="{escape(place)}" data-x="{_f(x)}" data-y="{_f(y)}"{depth}'

    def spots(self) -> None:
        """Small targets for the coasts of a province (``STP/NC``)."""
        self.add('<g id="spots" fill="#FFFFFF" fill-opacity="0.01" stroke="none">')
        for place in sorted(self.g.coasts):
            x, y = self.point(place)
            self.add(
                f'<circle class="spot" cx="{_f(x)}" cy="{_f(y)}" r="7"{self.place_attrs(place)}>'
                f"<title>{escape(place)}</title></circle>"
            )
        self.add("</g>")

    def unit(self, u: VisibleUnit, at: Point, scale: float = 1.0, extra: str = "") -> None:
        st = self.style(u.power)
        x, y = at
        fill = st.colour
        dash = ' stroke-dasharray="2.5 1.8"' if (u.hidden or u.power is None) else ""
        opacity = ' fill-opacity="0.6"' if u.hidden else ""
        stroke = f'stroke="{INK}" stroke-width="1.3"{dash}{opacity}'
        kind = u.kind.upper()
        t = f'transform="translate({_f(x)} {_f(y)}) scale({_f(scale)})"'
        title = f"{u.power or 'unknown power'} {kind} {u.place}" + (" (submerged)" if u.hidden else "")
        data = f' data-unit="{escape(f"{kind} {u.place}")}" data-power="{escape(u.power or "")}"'
        self.add(f'<g class="unit" {t}{extra}{data}{self.place_attrs(u.place)}><title>{escape(title)}</title>')
        if kind == "A":
            self.add(f'<circle r="9" fill="{fill}" {stroke}/>')
            ty = 3.6
        elif kind == "F":
            self.add(
                f'<path d="M-12.5 -5.5 L12.5 -5.5 L8.5 7 L-8.5 7 Z" fill="{fill}" {stroke} stroke-linejoin="round"/>'
            )
            ty = 4.2
        else:  # submarine
            self.add(f'<path d="M-4 -5 L-3 -10 L3 -10 L4 -5 Z" fill="{fill}" {stroke} stroke-linejoin="round"/>')
            self.add(f'<rect x="-13" y="-5" width="26" height="11" rx="5.5" fill="{fill}" {stroke}/>')
            ty = 4.0
        letter = st.letter
        self.add(
            f'<text y="{_f(ty)}" font-size="10.5" font-weight="bold" text-anchor="middle" '
            f'font-family="{FONT}" fill="{_on(fill)}">{escape(letter)}</text>'
        )
        if u.hidden:
            self.add('<path d="M-10 10 q2.5 -2.5 5 0 t5 0 t5 0 t5 0" fill="none" stroke="#1F4E79" stroke-width="1.3"/>')
        self.add("</g>")

    def units(self) -> None:
        gone = {d.unit.place for d in self.view.dislodged}
        self.add('<g id="units">')
        for u in sorted(self.view.units, key=lambda u: (u.hidden, u.place)):
            if u.place in gone and any(d.unit == u for d in self.view.dislodged):
                continue
            self.unit(u, self.point(u.place))
        self.add("</g>")

    def dislodged(self) -> None:
        self.add('<g id="dislodged">')
        for d in self.view.dislodged:
            x, y = self.point(d.unit.place)
            at = (x + 13.0, y + 11.0)
            self.dislodged_at[d.unit.place] = at
        for d in self.view.dislodged:
            at = self.dislodged_at[d.unit.place]
            self._retreat_options(d, at)
            self.add(
                f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="13" fill="#FFFFFF" fill-opacity="0.55" '
                f'stroke="{RED}" stroke-width="2.2"/>'
            )
            self.unit(d.unit, at, 0.85)
        self.add("</g>")

    def _retreat_options(self, d: VisibleDislodged, at: Point) -> None:
        if not d.retreats:
            return
        colour = self.style(d.unit.power).colour
        for place in d.retreats:
            q = self.point(place)
            s, _c, e = _curve(at, q, 12, 6, 0.0)
            self.add(
                f'<line x1="{_f(s[0])}" y1="{_f(s[1])}" x2="{_f(e[0])}" y2="{_f(e[1])}" stroke="{colour}" '
                'stroke-width="1.4" stroke-dasharray="1.5 3" stroke-linecap="round"/>'
            )
            self.add(
                f'<circle cx="{_f(e[0])}" cy="{_f(e[1])}" r="2.2" fill="{colour}" stroke="{INK}" stroke-width="0.6"/>'
            )

    def bounces(self) -> None:
        self.add('<g id="bounces">')
        for prov in self.view.bounced:
            if prov not in self.g.provinces:
                continue
            x, y = self.point(prov)
            pts = []
            for i in range(16):
                a = math.pi * i / 8
                r = 10.5 if i % 2 == 0 else 4.5
                pts.append(f"{_f(x + r * math.cos(a))},{_f(y + r * math.sin(a))}")
            self.add(
                f'<polygon points="{" ".join(pts)}" fill="{RED}" stroke="#FFFFFF" stroke-width="1.2">'
                f"<title>standoff in {escape(prov)}</title></polygon>"
            )
        self.add("</g>")

    # ---- orders
    def arrow(
        self,
        s: Point,
        c: Point,
        e: Point,
        colour: str,
        failed: bool,
        width: float = 3.0,
        casing: str | None = None,
        head: bool = True,
    ) -> None:
        d = f"M{_f(s[0])} {_f(s[1])} Q{_f(c[0])} {_f(c[1])} {_f(e[0])} {_f(e[1])}"
        case = casing or ("#FFFFFF" if _luminance(colour) < 0.3 else INK)
        dash = ' stroke-dasharray="7 4"' if failed else ""
        if head and not failed:
            hs = 4.2 * width
            tip = e
            base = _toward(e, c, hs * 0.8)
            d = f"M{_f(s[0])} {_f(s[1])} Q{_f(c[0])} {_f(c[1])} {_f(base[0])} {_f(base[1])}"
            self.add(
                f'<path d="{d}" fill="none" stroke="{case}" stroke-width="{_f(width + 2.4)}" stroke-linecap="round"/>'
            )
            self.add(
                f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_f(width)}" stroke-linecap="round"{dash}/>'
            )
            self.add(
                f'<polygon points="{_head(tip, c, hs)}" fill="{colour}" stroke="{case}" '
                'stroke-width="1.1" stroke-linejoin="round"/>'
            )
            return
        self.add(f'<path d="{d}" fill="none" stroke="{case}" stroke-width="{_f(width + 2.4)}" stroke-linecap="round"/>')
        self.add(
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_f(width)}" stroke-linecap="butt"{dash}/>'
        )
        if failed:
            a, b = _bar(e, c, 6.5)
            self.add(
                f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" stroke="{case}" '
                'stroke-width="5" stroke-linecap="round"/>'
            )
            self.add(
                f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" stroke="{RED}" '
                'stroke-width="2.6" stroke-linecap="round"/>'
            )

    def polyline_arrow(
        self, pts: list[Point], colour: str, failed: bool, width: float = 3.0, casing: str | None = None
    ) -> None:
        case = casing or ("#FFFFFF" if _luminance(colour) < 0.3 else INK)
        if len(pts) < 2:
            return
        tip, prev = pts[-1], pts[-2]
        hs = 4.2 * width
        body = [*pts[:-1], _toward(tip, prev, hs * 0.8)] if not failed else pts
        line = " ".join(f"{_f(x)},{_f(y)}" for x, y in body)
        dash = ' stroke-dasharray="7 4"' if failed else ""
        self.add(
            f'<polyline points="{line}" fill="none" stroke="{case}" stroke-width="{_f(width + 2.4)}" '
            'stroke-linejoin="round" stroke-linecap="round"/>'
        )
        self.add(
            f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="{_f(width)}" '
            f'stroke-linejoin="round"{dash}/>'
        )
        if failed:
            a, b = _bar(tip, prev, 6.5)
            self.add(
                f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" stroke="{RED}" '
                'stroke-width="2.6" stroke-linecap="round"/>'
            )
        else:
            self.add(
                f'<polygon points="{_head(tip, prev, hs)}" fill="{colour}" stroke="{case}" '
                'stroke-width="1.1" stroke-linejoin="round"/>'
            )

    def _move_curve(self, frm: str, to: str) -> tuple[Point, Point, Point]:
        return _curve(self.unit_point(frm), self.point(to), self.r + 2, self.r + 3)

    ABOVE_UNITS: ClassVar[frozenset[DrawStyle]] = frozenset(
        {DrawStyle.TORPEDO, DrawStyle.BUILD, DrawStyle.DISBAND, DrawStyle.SPY, DrawStyle.GUARD}
    )
    """Drawing styles drawn over the units (the others go under them)."""
    RANK: ClassVar[dict[DrawStyle, int]] = {
        DrawStyle.SUPPORT: 0,
        DrawStyle.CONVOY: 1,
        DrawStyle.HOLD: 2,
        DrawStyle.MOVE: 3,
        DrawStyle.RETREAT: 3,
        DrawStyle.RAILWAY: 3,
        DrawStyle.CANAL: 3,
        DrawStyle.TORPEDO: 4,
        DrawStyle.SPY: 4,
        DrawStyle.GUARD: 4,
        DrawStyle.BUILD: 5,
        DrawStyle.DISBAND: 6,
    }
    """Drawing order: lines first, arrows over them, marks last."""

    def orders(self, above: bool) -> None:
        """Draw the orders: arrows under the units (``above`` False), marks over them (True)."""
        self.add(f'<g id="orders-{"above" if above else "below"}">')
        chosen = [o for o in self.view.orders if (o.draw in self.ABOVE_UNITS) == above]
        for o in sorted(chosen, key=lambda o: self.RANK.get(DrawStyle(o.draw), 5)):
            try:
                self.order(o)
            except KeyError:
                continue  # a place the board cannot draw: skip rather than fail the picture
        self.add("</g>")

    def order(self, o: VisibleOrder) -> None:
        """Draw one order by the drawing style its kind declares (``data-kind``/``data-draw`` name both)."""
        colour = self.style(o.power).colour
        failed = o.outcome is not None and o.outcome not in ("succeeds", "partial")
        style = DrawStyle(o.draw)
        places = o.places
        title = f"<title>{escape(o.text)}{' — ' + escape(o.outcome) if o.outcome else ''}</title>"
        self.add(
            f'<g class="order {escape(o.kind)}" data-kind="{escape(o.kind)}" data-draw="{style}" '
            f'data-places="{escape(" ".join(places))}">{title}'
        )
        draw = self.DRAWERS.get(style)
        if draw is not None:
            draw(self, o, colour, failed)
        self.add("</g>")

    def _draw_move(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        places = o.places
        if len(places) < 2:
            return
        if self._canal_between(places[0], places[-1]) is not None:
            self.canal_passage(places[0], places[-1], colour, failed)
            return
        s, c, e = self._move_curve(places[0], places[-1])
        retreat = o.draw == DrawStyle.RETREAT
        self.arrow(s, c, e, colour, failed, 2.4 if retreat else 3.0, casing=RED if retreat else None)

    def _draw_support(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        places = o.places
        if len(places) >= 3:
            s0, c0, e0 = self._move_curve(places[1], places[2])
            m = _mid(s0, c0, e0)
            s, c, e = _curve(self.unit_point(places[0]), m, self.r + 2, 2.5, 0.1)
            self._thin(s, c, e, colour, "5 3", failed)
            self.add(
                f'<circle cx="{_f(m[0])}" cy="{_f(m[1])}" r="3.2" fill="{colour}" stroke="{INK}" stroke-width="1"/>'
            )
        elif len(places) == 2:
            q = self.unit_point(places[1])
            s, c, e = _curve(self.unit_point(places[0]), q, self.r + 2, self.r + 6, 0.1)
            self._thin(s, c, e, colour, "5 3", failed)
            self.add(
                f'<circle cx="{_f(q[0])}" cy="{_f(q[1])}" r="{_f(self.r + 5)}" fill="none" '
                f'stroke="{colour}" stroke-width="2.2" stroke-dasharray="5 3"/>'
            )

    def _draw_convoy(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        places = o.places
        if len(places) < 3:
            return
        s0, c0, e0 = self._move_curve(places[1], places[2])
        m = _mid(s0, c0, e0)
        s, c, e = _curve(self.unit_point(places[0]), m, self.r + 2, 3, 0.1)
        self._thin(s, c, e, colour, "0.5 4", failed, cap="round", width=2.6)
        self.add(f'<circle cx="{_f(m[0])}" cy="{_f(m[1])}" r="3.6" fill="#FFFFFF" stroke="{colour}" stroke-width="2"/>')

    def _draw_hold(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        if o.places:
            x, y = self.unit_point(o.places[0])
            self.add(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(self.r + 4.5)}" fill="none" stroke="{colour}" '
                'stroke-width="2.4"/>'
            )

    def _draw_railway(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        if len(o.places) >= 2:
            self.train(o, colour)

    def _draw_canal(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        if len(o.places) >= 2:
            self.canal_passage(o.places[0], o.places[-1], colour, failed)

    def _draw_torpedo(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        if len(o.places) >= 2:
            self.torpedo(o)

    def _draw_disband(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        if not o.places:
            return
        x, y = self.unit_point(o.places[0])
        for a, b in (((-8, -8), (8, 8)), ((-8, 8), (8, -8))):
            self.add(
                f'<line x1="{_f(x + a[0])}" y1="{_f(y + a[1])}" x2="{_f(x + b[0])}" y2="{_f(y + b[1])}" '
                f'stroke="#FFFFFF" stroke-width="5.5" stroke-linecap="round"/>'
            )
            self.add(
                f'<line x1="{_f(x + a[0])}" y1="{_f(y + a[1])}" x2="{_f(x + b[0])}" y2="{_f(y + b[1])}" '
                f'stroke="{RED}" stroke-width="3" stroke-linecap="round"/>'
            )

    def _draw_build(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        if not o.places or failed:
            return
        unit_kind = (o.text.split() or ["A"])[0].upper()
        unit_kind = {"SM": "S", "U": "S"}.get(unit_kind, unit_kind)
        if unit_kind not in ("A", "F", "S"):
            unit_kind = "A"
        at = self.point(o.places[0])
        self.add(
            f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="{_f(self.r + 5.5)}" fill="#FFFFFF" '
            f'fill-opacity="0.6" stroke="{colour}" stroke-width="2.2" stroke-dasharray="3 2"/>'
        )
        self.unit(VisibleUnit(o.power, unit_kind, o.places[0]), at, extra=' data-build="1"')
        bx, by = at[0] + 10, at[1] - 10
        self.add(f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="5.5" fill="#FFFFFF" stroke="{INK}" stroke-width="1"/>')
        self.add(
            f'<path d="M{_f(bx - 3.2)} {_f(by)} h6.4 M{_f(bx)} {_f(by - 3.2)} v6.4" stroke="{INK}" stroke-width="1.8"/>'
        )

    def _draw_spy(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        """An eye in the spying power's colour beside the watched unit."""
        if not o.places:
            return
        x, y = self.unit_point(o.places[-1])
        x, y = x - 11, y - 11
        self.add(
            f'<path d="M{_f(x - 7)} {_f(y)} Q{_f(x)} {_f(y - 6)} {_f(x + 7)} {_f(y)} Q{_f(x)} {_f(y + 6)} '
            f'{_f(x - 7)} {_f(y)}Z" fill="#FFFFFF" stroke="{INK}" stroke-width="1.2"/>'
        )
        self.add(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="2.6" fill="{colour}" stroke="{INK}" stroke-width="0.8"/>')

    def _draw_guard(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        """A small shield in the guarding power's colour beside its own unit."""
        if not o.places:
            return
        x, y = self.unit_point(o.places[-1])
        x, y = x + 11, y - 11
        self.add(
            f'<path d="M{_f(x - 5)} {_f(y - 6)} h10 v5 Q{_f(x + 5)} {_f(y + 5)} {_f(x)} {_f(y + 7)} '
            f'Q{_f(x - 5)} {_f(y + 5)} {_f(x - 5)} {_f(y - 1)}Z" fill="{colour}" stroke="{INK}" '
            'stroke-width="1.2"/>'
        )

    DRAWERS: ClassVar[dict[DrawStyle, Callable[[_Drawing, VisibleOrder, str, bool], None]]] = {
        DrawStyle.MOVE: _draw_move,
        DrawStyle.RETREAT: _draw_move,
        DrawStyle.SUPPORT: _draw_support,
        DrawStyle.CONVOY: _draw_convoy,
        DrawStyle.HOLD: _draw_hold,
        DrawStyle.RAILWAY: _draw_railway,
        DrawStyle.CANAL: _draw_canal,
        DrawStyle.TORPEDO: _draw_torpedo,
        DrawStyle.DISBAND: _draw_disband,
        DrawStyle.BUILD: _draw_build,
        DrawStyle.SPY: _draw_spy,
        DrawStyle.GUARD: _draw_guard,
    }
    """Drawing style → how to draw it (``NONE`` draws nothing)."""

    def _thin(
        self, s: Point, c: Point, e: Point, colour: str, dash: str, failed: bool, cap: str = "butt", width: float = 2.0
    ) -> None:
        d = f"M{_f(s[0])} {_f(s[1])} Q{_f(c[0])} {_f(c[1])} {_f(e[0])} {_f(e[1])}"
        case = "#FFFFFF" if _luminance(colour) < 0.3 else INK
        op = ' stroke-opacity="0.5"' if failed else ""
        self.add(
            f'<path d="{d}" fill="none" stroke="{case}" stroke-width="{_f(width + 2)}" stroke-linecap="round"{op}/>'
        )
        self.add(
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_f(width)}" '
            f'stroke-dasharray="{dash}" stroke-linecap="{cap}"{op}/>'
        )
        if failed:
            m = _mid(s, c, e)
            self.add(
                f'<path d="M{_f(m[0] - 4)} {_f(m[1] - 4)} l8 8 m0 -8 l-8 8" stroke="{RED}" '
                'stroke-width="2.4" stroke-linecap="round"/>'
            )

    def train(self, o: VisibleOrder, colour: str) -> None:
        origin, target = o.places[0], o.places[-1]
        end = o.final_place or (origin if (o.outcome and o.outcome not in ("succeeds", "partial")) else target)
        line = list(self.g.railway)
        o_prov, t_prov, e_prov = (p.split("/")[0] for p in (origin, target, end))

        def route(a: str, b: str) -> list[Point]:
            if a in line and b in line:
                i, j = line.index(a), line.index(b)
                step = 1 if j >= i else -1
                return [self.point(s) for s in line[i : j + step : step]]
            return [self.point(a), self.point(b)]

        if e_prov != o_prov:
            pts = route(o_prov, e_prov)
            pts[0] = _toward(pts[0], pts[1], self.r + 2)
            pts[-1] = _toward(pts[-1], pts[-2], self.r + 3)
            self.polyline_arrow(pts, colour, False, 3.4, casing="#4A4A4A")
        if e_prov != t_prov:
            rest = route(e_prov, t_prov)
            rest[0] = _toward(rest[0], rest[1], self.r + 2)
            rest[-1] = _toward(rest[-1], rest[-2], self.r + 3)
            self.polyline_arrow(rest, colour, True, 1.8, casing="#FFFFFF")
        tx, ty = self.point(t_prov)
        self.add(
            f'<circle cx="{_f(tx)}" cy="{_f(ty)}" r="{_f(self.r + 6)}" fill="none" stroke="{colour}" '
            'stroke-width="1.6" stroke-dasharray="2 2"><title>train target</title></circle>'
        )

    def _canal_between(self, a: str, b: str) -> dict[str, Any] | None:
        """The board's canal joining the provinces of ``a`` and ``b``, if there is one."""
        ends = {a.split("/")[0], b.split("/")[0]}
        for canal in self.g.canals.values():
            if set(canal.get("between", ())) == ends:
                return canal
        return None

    def canal_passage(self, frm: str, to: str, colour: str, failed: bool) -> None:
        """An arrow from ``frm`` to ``to`` through the board's canal between them (straight if none)."""
        canal = self._canal_between(frm, to) or next(iter(self.g.canals.values()), None)
        a, b = self.unit_point(frm), self.point(to)
        mid: list[Point] = []
        if canal:
            cps = [(float(x), float(y)) for x, y in canal.get("points", ())]
            if cps and math.dist(a, cps[0]) > math.dist(a, cps[-1]):
                cps.reverse()
            mid = cps
        pts = [a, *mid, b]
        pts[0] = _toward(pts[0], pts[1], self.r + 2)
        pts[-1] = _toward(pts[-1], pts[-2], self.r + 3)
        self.polyline_arrow(pts, colour, failed, 3.0)
        if mid:
            x, y = mid[len(mid) // 2]
            self.add(
                f'<rect x="{_f(x - 4)}" y="{_f(y - 4)}" width="8" height="8" fill="#4F8DB8" stroke="{INK}" '
                'stroke-width="1"><title>canal</title></rect>'
            )

    def torpedo(self, o: VisibleOrder) -> None:
        a, b = self.unit_point(o.places[0]), self.point(o.places[1])
        s, c, e = _curve(a, b, self.r + 1, self.r - 2, 0.25)
        d = f"M{_f(s[0])} {_f(s[1])} Q{_f(c[0])} {_f(c[1])} {_f(e[0])} {_f(e[1])}"
        self.add(f'<path d="{d}" fill="none" stroke="#FFFFFF" stroke-width="4.4" stroke-linecap="round"/>')
        self.add(f'<path d="{d}" fill="none" stroke="#7A0A0A" stroke-width="2.2" stroke-dasharray="4 2"/>')
        self.add(f'<polygon points="{_head(e, c, 8)}" fill="#7A0A0A"/>')
        hit = o.outcome == "succeeds"
        pts = []
        for i in range(12):
            ang = math.pi * i / 6
            r = (9 if i % 2 == 0 else 4) if hit else (5 if i % 2 == 0 else 3)
            pts.append(f"{_f(b[0] + r * math.cos(ang))},{_f(b[1] + r * math.sin(ang))}")
        fill = "#F28C28" if hit else "#FFFFFF"
        self.add(
            f'<polygon points="{" ".join(pts)}" fill="{fill}" stroke="#7A0A0A" stroke-width="1.4" '
            f'fill-opacity="0.6"><title>torpedo {"hit" if hit else "miss"}</title></polygon>'
        )

    # ---- footer
    def footer(self, powers: list[str]) -> None:
        g, v = self.g, self.view
        y0 = g.height
        self.add(f'<g id="legend" font-family="{FONT}">')
        self.add(
            f'<rect x="0" y="{_f(y0)}" width="{_f(g.width)}" height="{_f(FOOTER)}" fill="#F7F4EC" '
            f'stroke="{BORDER}" stroke-width="1"/>'
        )
        w = self.words
        who = {MASTER: w("game master"), OBSERVER: w("observer")}.get(v.viewer, w(v.viewer.title()))
        self.text(10, y0 + 19, f"{phase_title(v.phase, w)}", 13, anchor="start", halo=None)
        self.text(
            g.width - 10,
            y0 + 19,
            f"{v.map_name} · {w('seen by')} {who}",
            11,
            anchor="end",
            weight="normal",
            halo=None,
            fill="#555555",
        )
        counts: dict[str, int] = {}
        for owner in v.owners.values():
            counts[owner] = counts.get(owner, 0) + 1
        n = max(1, len(powers))
        step = (g.width - 20) / n
        for i, p in enumerate(powers):
            st = self.style(p)
            x = 10 + i * step
            y = y0 + 41
            self.add(
                f'<rect x="{_f(x)}" y="{_f(y - 9)}" width="22" height="16" fill="url(#pat-{p})" stroke="{BORDER}"/>'
            )
            self.add(
                f'<circle cx="{_f(x + 11)}" cy="{_f(y - 1)}" r="6.5" fill="{st.colour}" stroke="{INK}" '
                'stroke-width="1"/>'
            )
            self.add(
                f'<text x="{_f(x + 11)}" y="{_f(y + 2.6)}" font-size="9" font-weight="bold" '
                f'text-anchor="middle" fill="{_on(st.colour)}">{st.letter}</text>'
            )
            self.text(
                x + 27,
                y + 3.5,
                f"{self.words(p.title())} {counts.get(p, 0)}",
                10.5,
                anchor="start",
                halo=None,
                weight="normal",
            )
        self.add("</g>")


def _powers_of(view: View) -> list[str]:
    seen: set[str] = set(view.owners.values())
    seen.update(u.power for u in view.units if u.power)
    seen.update(d.unit.power for d in view.dislodged if d.unit.power)
    seen.update(o.power for o in view.orders if o.power)
    powers = view.extras.get("powers")
    if isinstance(powers, (list, tuple)):
        seen.update(str(p) for p in powers)
    return sorted(seen)


def render_svg(
    view: View,
    geometry: Geometry | None = None,
    *,
    names: Mapping[str, str] | None = None,
    legend: bool = True,
    words: Words = _same,
) -> str:
    """Draw ``view`` on its board and return the SVG document as text.

    ``geometry`` defaults to the shipped geometry of ``view.map_name``;
    ``names`` maps province abbreviations to full names (shown as tooltips);
    ``words`` translates the legend's words (season, phase kind, "seen by", power names).
    The picture holds only what ``view`` holds.
    """
    g = geometry or load_geometry(view.map_name)
    d = _Drawing(view, g, words)
    powers = _powers_of(view)
    height = g.height + (FOOTER if legend else 0)
    d.add(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(g.width)} {_f(height)}" '
        f'width="{_f(g.width)}" height="{_f(height)}" font-family="{FONT}">'
    )
    d.add(f"<title>{escape(view.map_name)} {escape(view.phase)} ({escape(view.viewer)})</title>")
    d.defs(powers)
    d.board(names or {})
    d.crossings()
    d.centres()
    d.labels()
    d.spots()
    # Dislodged positions must be known before orders are drawn (retreats start there).
    for dis in view.dislodged:
        x, y = g.point(dis.unit.place)
        d.dislodged_at[dis.unit.place] = (x + 13.0, y + 11.0)
    d.orders(above=False)
    d.units()
    d.dislodged()
    d.orders(above=True)
    d.bounces()
    if legend:
        d.footer(powers)
    d.add("</svg>")
    return "\n".join(d.out)
