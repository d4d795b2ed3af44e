"""Draw a :class:`~arbitre.views.model.View` as SVG.

Only a view is drawn: everything on the picture comes from the view (units,
owners, orders, results) or from the board geometry.  A power's map therefore
shows exactly what that power's view holds.

Style (our own):

* Powers have colours from the Okabe-Ito palette (told apart with the common
  colour-vision deficiencies), and each also has a letter (on its units) and a
  hatching pattern (on the provinces of its supply centres).
* Units: each unit kind is drawn from its declaration (an army is a disc, a
  fleet a hull; a rule module's kind brings its own outline); a kind nobody
  declares is a square with its letter.  A unit whose nationality is hidden is
  grey with ``?``; a unit only its owner sees is drawn dashed and pale.
* Orders are drawn from their kind's declared drawing
  (:mod:`arbitre.rules.drawing`), read here as data: a ring, an arrow (along a
  line of the board or through its canal when it names one; dashed and ending
  in a bar when it failed), a link to the middle of the move it acts on, a
  mark beside a unit, or the new unit.  Nothing here names an order kind
  other than through its drawing.
* Results: a standoff is a red star, a dislodged unit is drawn beside its place
  with a red ring, a retreat is an arrow from there, a disband a red cross over
  the unit kind's own outline (dashed), a build the unit framed by its kind's
  outline with a ``+`` badge.  An order that was not valid is a red octagon
  with ``!`` at its unit (its reason as the title), never an arrow.  An arrow
  stops short of its target's label when the label is in its way.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape

from arbitre.render.board import Geometry, Point, lines_to_path, load_geometry, rings_to_path
from arbitre.rules.drawing import ERROR, MOVE, N_, NOT_VALID, NOTHING, POWER, Drawing, Shape, Symbol, UnitShape
from arbitre.rules.kinds import STANDARD_UNIT_KINDS, OrderKind, UnitKind
from arbitre.variants.registry import registered_order_kinds, registered_unit_kinds
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
SEA_LABEL = "#2B5D7E"
MUTED = "#555555"
INK = "#222222"
RED = "#C0120C"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
DARK = (
    "@media (prefers-color-scheme: dark){"
    ".m-sea{fill:#2B4257}.m-ln{fill:#4F4B42}.m-land{fill:#625B4A}.m-imp{fill:#3B3832}"
    ".m-tint{opacity:.55}.m-bsea{stroke:#557896}.m-bland{stroke:#B3A78D}.m-bcoast{stroke:#86AECB}"
    ".m-ink{fill:#F3F0E8}.m-halo{stroke:#15181C}.m-sealabel{fill:#A9CFEA}.m-muted{fill:#BCC3CC}"
    ".m-legend{fill:#1D232B}}"
)
"""The map's dark theme: a ``<style>`` in the drawing recolours its classed parts (``m-…``) when the reader's
system asks for dark colours, whether the map is put in the page or shown as an image.  The light colours
stay in the attributes (what any SVG reader draws); labels keep light text on a dark halo (contrast)."""
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


# --------------------------------------------------------------------------- declared kinds
NOT_DONE = ("illegal", "invalid")
"""The outcomes of an order that was not valid: drawn as an error at its unit, never by its kind's shape."""
CANAL = N_("canal")
"""The title of the mark where an arrow goes through a canal of the board."""
UNKNOWN_UNIT = UnitShape("M-9 -9 H9 V9 H-9 Z")
"""A unit kind no module declares: a square with its letter (never mistaken for a declared kind)."""


def _order_kinds() -> Mapping[str, OrderKind]:
    """Every registered order kind by name: a view names its orders' kinds, whose drawings are data."""
    return registered_order_kinds()


@cache
def _drawings() -> dict[str, Drawing]:
    """Every registered drawing by name (for an order whose kind the registry does not know)."""
    return {kind.draw.name: kind.draw for kind in registered_order_kinds().values()}


@cache
def _unit_kinds() -> dict[str, UnitKind]:
    """Every declared unit kind by letter: the registered modules', the standard ones winning a letter both use."""
    return {**registered_unit_kinds(), **{k.letter: k for k in STANDARD_UNIT_KINDS}}


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


def _back(tip: Point, frm: Point, r: float) -> Point:
    """The point ``r`` behind ``tip`` on the line from ``frm`` (past ``frm`` when it is nearer than ``r``)."""
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    d = math.hypot(dx, dy) or 1.0
    return tip[0] - dx / d * r, tip[1] - dy / d * r


def _inside(p: Point, box: tuple[float, float, float, float], margin: float = 0.0) -> bool:
    """Is ``p`` within ``box`` (left, top, right, bottom) grown by ``margin``?"""
    return box[0] - margin <= p[0] <= box[2] + margin and box[1] - margin <= p[1] <= box[3] + margin


def _mid(s: Point, c: Point, e: Point) -> Point:
    return (0.25 * s[0] + 0.5 * c[0] + 0.25 * e[0], 0.25 * s[1] + 0.5 * c[1] + 0.25 * e[1])


def _head_corners(tip: Point, frm: Point, size: float) -> list[Point]:
    """The three corners of an arrowhead pointing at ``tip`` from the direction of ``frm``."""
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    w = size * 0.55
    return [tip, (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)]


def _head(tip: Point, frm: Point, size: float) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in _head_corners(tip, frm, size))


def _bar(tip: Point, frm: Point, size: float) -> tuple[Point, Point]:
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    return (tip[0] - uy * size, tip[1] + ux * size), (tip[0] + uy * size, tip[1] - ux * size)


def _bends(bend: float) -> list[float]:
    """The bends an arrow tries, in order, to bring its head in clear of a label: the declared one, the same
    the other way, then bent more in either direction (up to about half the way's length)."""
    side = 1.0 if bend >= 0 else -1.0
    sizes = [abs(bend) + step * 0.13 for step in range(4)]
    return [b for size in sizes for b in (side * size, -side * size)]


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
                f'<text class="m-halo" {attrs} fill="none" stroke="{halo}" stroke-width="2.6" '
                f'stroke-linejoin="round" opacity="0.85">{body}</text>'
            )
        theme = {INK: ' class="m-ink"', SEA_LABEL: ' class="m-sealabel"', MUTED: ' class="m-muted"'}.get(fill, "")
        self.add(f'<text{theme} {attrs} fill="{fill}">{body}</text>')

    # ---- board
    def defs(self, powers: Iterable[str]) -> None:
        self.add("<defs>")
        self.add(f"<style>{DARK}</style>")
        for p in powers:
            st = self.style(p)
            self.add(self._pattern(f"pat-{p}", st))
        self.add(
            '<pattern id="pat-impassable" width="6" height="6" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)"><rect class="m-imp" width="6" height="6" fill="#C9C1AE"/>'
            '<line x1="0" y1="0" x2="0" y2="6" stroke="#A89F8A" stroke-width="1.6"/></pattern>'
        )
        self.add("</defs>")

    def _pattern(self, pid: str, st: PowerStyle) -> str:
        tint = _mix(st.colour, LAND, 0.34)
        line = _mix(st.colour, INK, 0.8)
        size = 8
        head = f'<pattern id="{pid}" width="{size}" height="{size}" patternUnits="userSpaceOnUse"'
        bg = f'<rect class="m-tint" width="{size}" height="{size}" fill="{tint}"/>'
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
        self.add(f'<rect class="m-sea" x="0" y="0" width="{_f(g.width)}" height="{_f(g.height)}" fill="{SEA}"/>')
        self.add('<g id="neutral" fill-rule="evenodd" stroke="none">')
        for terrain, rings in g.neutral:
            fill, theme = (SEA, "m-sea") if terrain == "sea" else (LAND_NEUTRAL, "m-ln")
            self.add(f'<path class="{theme}" d="{rings_to_path(rings)}" fill="{fill}"/>')
        self.add("</g>")
        owners = self.view.owners
        for layer in ("sea", "land", "impassable"):
            self.add(f'<g id="{layer}" fill-rule="evenodd" stroke="none">')
            for abbr, shape in sorted(g.provinces.items()):
                if shape.terrain != layer:
                    continue
                theme = ""
                if layer == "sea":
                    fill, theme = SEA, ' class="m-sea"'
                elif layer == "impassable":
                    fill = "url(#pat-impassable)"
                else:
                    owner = owners.get(abbr)
                    fill, theme = (f"url(#pat-{owner})", "") if owner else (LAND, ' class="m-land"')
                title = escape(names.get(abbr, abbr))
                self.add(
                    f'<path id="p-{abbr}"{theme} d="{shape.path()}" fill="{fill}"{self.place_attrs(abbr)}>'
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
                    f'<path id="borders-{kind}" class="m-b{kind}" d="{lines_to_path(lines)}" fill="none" {styles[kind]} '
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
                self.text(x, y + 3.5, abbr, 9.5, fill=SEA_LABEL, halo=None, italic=True)
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
        declared = _unit_kinds().get(kind)
        # The title names the kind in the reader's words (the kind's declared words: a module's unit kind brings
        # its own), and, for a unit only its owner sees, why (the outline's words).
        named = [self.words(declared.words)] if declared is not None else []
        if u.hidden:
            named.append(self.words((declared.shape if declared else UNKNOWN_UNIT).words))
        about = f" ({', '.join(named)})" if named else ""
        title = f"{self.words(u.power.title() if u.power else 'unknown power')} {kind} {u.place}{about}"
        data = f' data-unit="{escape(f"{kind} {u.place}")}" data-power="{escape(u.power or "")}"'
        self.add(f'<g class="unit" {t}{extra}{data}{self.place_attrs(u.place)}><title>{escape(title)}</title>')
        outline = declared.shape if declared is not None else UNKNOWN_UNIT
        self.add(f'<path d="{outline.path}" fill="{fill}" {stroke} stroke-linejoin="round"/>')
        ty = outline.letter_y
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
                f"<title>{escape(self.words('standoff in {province}').replace('{province}', prov))}</title></polygon>"
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
        dash: str | None = None,
    ) -> None:
        d = f"M{_f(s[0])} {_f(s[1])} Q{_f(c[0])} {_f(c[1])} {_f(e[0])} {_f(e[1])}"
        case = casing or ("#FFFFFF" if _luminance(colour) < 0.3 else INK)
        dash = ' stroke-dasharray="7 4"' if failed else (f' stroke-dasharray="{dash}"' if dash else "")
        if head and not failed:
            hs = 4.2 * width
            tip = e
            base = _back(e, c, hs * 0.8)  # under the head, even when the curve is shorter than it
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
        """The curve of a move from ``frm`` to ``to`` as :meth:`_route_arrow` draws it (a support points at its middle)."""
        return self._way(self.unit_point(frm), self.point(to), to, MOVE.line.bend, 4.2 * MOVE.line.width)

    def kind_of(self, o: VisibleOrder) -> OrderKind | None:
        """The declaration of the order's kind (the registry's), if known."""
        return _order_kinds().get(o.kind)

    def drawing_of(self, o: VisibleOrder) -> Drawing:
        """How the order's kind is drawn: its declared drawing (else the drawing the view names, else nothing)."""
        kind = self.kind_of(o)
        if kind is not None:
            return kind.draw
        return _drawings().get(o.draw, NOTHING)

    def orders(self, above: bool) -> None:
        """Draw the orders: arrows under the units (``above`` False), marks over them (True)."""
        self.add(f'<g id="orders-{"above" if above else "below"}">')
        chosen = []
        for o in self.view.orders:
            kind = self.kind_of(o)
            drawing = self.drawing_of(o)
            over = kind.above_units if kind is not None else drawing.shape in (Shape.MARK, Shape.NEW_UNIT)
            if over == above:
                chosen.append((drawing.rank, o, drawing))
        for _rank, o, drawing in sorted(chosen, key=lambda c: c[0]):
            try:
                self.order(o, drawing)
            except KeyError:
                continue  # a place the board cannot draw: skip rather than fail the picture
        self.add("</g>")

    def order(self, o: VisibleOrder, drawing: Drawing) -> None:
        """Draw one order by the drawing its kind declares (``data-kind``/``data-draw`` name both)."""
        colour = self.style(o.power).colour
        failed = o.outcome is not None and o.outcome not in ("succeeds", "partial")
        places = o.places
        outcome = f" — {self.words(o.outcome)}" if o.outcome else ""  # in the reader's language
        title = f"<title>{escape(o.text)}{escape(outcome)}</title>"
        self.add(
            f'<g class="order {escape(o.kind)}" data-kind="{escape(o.kind)}" data-draw="{escape(drawing.name)}" '
            f'data-places="{escape(" ".join(places))}">{title}'
        )
        shape = drawing.shape
        if o.outcome in NOT_DONE:
            self._error(o)
        elif shape is Shape.RING:
            self._ring(o, drawing, colour)
        elif shape is Shape.ARROW:
            self._arrow_order(o, drawing, colour, failed)
        elif shape is Shape.LINK:
            self._link(o, drawing, colour, failed)
        elif shape is Shape.MARK:
            if places:
                x, y = self.unit_point(places[-1])
                if drawing.outline and drawing.symbol is not None:
                    self._halo(self._kind_at(o, places[-1]), (x, y), drawing.symbol.stroke, "data-halo")
                self.symbol(drawing.symbol, (x + drawing.offset[0], y + drawing.offset[1]), colour, drawing.words)
        elif shape is Shape.NEW_UNIT:
            self._new_unit(o, colour, failed)
        self.add("</g>")

    def _error(self, o: VisibleOrder) -> None:
        """An order that was not valid: the error mark at its unit, its reason as the mark's title."""
        if not o.places:
            return
        try:
            x, y = self.unit_point(o.places[0])
        except KeyError:
            return
        reason = o.message or self.words(NOT_VALID)
        self.add(f'<g class="error" data-error="{escape(o.outcome or "")}">')
        self.symbol(ERROR, (x + 11.0, y - 11.0), RED, None)
        self.add(f"<title>{escape(o.text)} — {escape(reason)}</title></g>")

    def _kind_at(self, o: VisibleOrder, place: str) -> str:
        """The letter of the unit an order acts on at ``place``: the view's unit there, else the order's first word."""
        for u in (*self.view.units, *(d.unit for d in self.view.dislodged)):
            if u.place == place and (o.power is None or u.power in (o.power, None)):
                return u.kind.upper()
        return (o.text.split() or ["?"])[0].upper()

    def _halo(self, kind: str, at: Point, colour: str, mark: str) -> None:
        """The unit kind's own outline, enlarged and dashed, around ``at`` (a build's or a disband's frame)."""
        declared = _unit_kinds().get(kind)
        outline = declared.shape if declared is not None else UNKNOWN_UNIT
        self.add(
            f'<path {mark}="{escape(kind)}" transform="translate({_f(at[0])} {_f(at[1])}) scale(1.6)" '
            f'd="{outline.path}" fill="#FFFFFF" fill-opacity="0.6" stroke="{colour}" stroke-width="1.4" '
            'stroke-dasharray="2.5 1.5" stroke-linejoin="round"/>'
        )

    def _ring(self, o: VisibleOrder, drawing: Drawing, colour: str) -> None:
        if o.places:
            x, y = self.unit_point(o.places[0])
            self.add(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(self.r + 4.5)}" fill="none" stroke="{colour}" '
                f'stroke-width="{_f(drawing.line.width)}"/>'
            )

    def _arrow_order(self, o: VisibleOrder, drawing: Drawing, colour: str, failed: bool) -> None:
        """An arrow from the unit to the last place; to where the unit stopped first when it stopped short."""
        places = o.places
        if len(places) < 2:
            return
        start, target = places[0], places[-1]
        line = drawing.line
        ink = colour if line.colour == POWER else line.colour
        stop = o.final_place
        provinces = {start.split("/")[0], target.split("/")[0]}
        if stop is not None and stop.split("/")[0] not in provinces:
            # The unit stopped on the way (a train held up at a station): there, then the rest dashed.
            self._route_arrow(drawing, start, stop, ink, False, line.width, line.casing)
            self._route_arrow(drawing, stop, target, ink, True, line.width * 0.55, "#FFFFFF")
        else:
            self._route_arrow(drawing, start, target, ink, failed, line.width, line.casing)
        hit = o.outcome == "succeeds" and drawing.hit is not None
        symbol = drawing.hit if hit else drawing.symbol
        if symbol is not None:
            self.symbol(symbol, self.point(target), colour, drawing.words_hit if hit else drawing.words)

    def _route_arrow(
        self, drawing: Drawing, a: str, b: str, colour: str, failed: bool, width: float, casing: str | None
    ) -> None:
        """An arrow from ``a`` to ``b``: along the drawing's board line, through a canal, or a curve."""
        route = self._route(drawing.along, a, b)
        if route is None:
            s, c, e = self._way(self.unit_point(a), self.point(b), b, drawing.line.bend, 4.2 * width)
            self.arrow(s, c, e, colour, failed, width, casing=casing, head=drawing.line.head, dash=drawing.line.dash)
            return
        pts, canal = route
        pts[0] = _toward(pts[0], pts[1], self.r + 2)
        pts[-1] = _toward(pts[-1], pts[-2], self.r + 3)
        self.polyline_arrow(pts, colour, failed, width, casing=casing)
        if canal:
            x, y = canal[len(canal) // 2]
            self.add(
                f'<rect x="{_f(x - 4)}" y="{_f(y - 4)}" width="8" height="8" fill="#4F8DB8" stroke="{INK}" '
                f'stroke-width="1"><title>{escape(self.words(CANAL))}</title></rect>'
            )

    def label_box(self, place: str) -> tuple[float, float, float, float] | None:
        """The box a province's label covers (left, top, right, bottom), as :meth:`labels` writes it."""
        shape = self.g.provinces.get(place.split("/")[0])
        if shape is None:
            return None
        x, y = shape.label
        half = len(place.split("/")[0]) * 3.4 + 1.5
        return x - half, y - 4.0, x + half, y + 6.0

    def _way(self, frm: Point, to: Point, place: str, bend: float, head: float) -> tuple[Point, Point, Point]:
        """The curve of an arrow from ``frm`` to ``place`` (at ``to``) whose head (``head`` long) covers no part
        of the place's label: the declared ``bend``, ended a little earlier when the label is in the way; when no
        end of that curve is clear (the label lies along the whole way), the curve bent the other way, then
        more in either direction, so that the head comes in beside the label; else the arrow as it always was."""
        box = self.label_box(place)
        if box is not None:
            for tried in _bends(bend):
                end = self._clear_end(frm, to, box, tried, head)
                if end is not None:
                    return _curve(frm, to, self.r + 2, end, tried)
        return _curve(frm, to, self.r + 2, self.r + 3, bend)

    def _clear_end(
        self, frm: Point, to: Point, box: tuple[float, float, float, float], bend: float, head: float
    ) -> float | None:
        """How far before ``to`` an arrow bent by ``bend`` ends so that its head (``head`` long) lies clear of
        ``box`` (a label's): the unit's radius and a margin, more when the label is in the way; ``None``:
        no end of that curve is clear (an arrow keeps at least its head)."""
        end = self.r + 3
        longest = math.dist(frm, to) - self.r - 2 - head
        while end + 2.0 <= longest:
            _s, c, e = _curve(frm, to, self.r + 2, end, bend)
            corners = _head_corners(e, c, head)
            if not any(_inside(p, box, 1.5) for p in (*corners, _toward(e, c, head))):
                return end
            end += 2.0
        return None

    def _route(self, along: str | None, a: str, b: str) -> tuple[list[Point], list[Point]] | None:
        """The points of the way from ``a`` to ``b`` along the board's line ``along`` (its stations), or
        through the board's canal joining them (any canal when ``along`` is ``canal``), and the canal's
        points; ``None``: no such way (a curve is drawn)."""
        line = list(self.g.railway) if along == "railway" else []
        pa, pb = a.split("/")[0], b.split("/")[0]
        if pa in line and pb in line:
            i, j = line.index(pa), line.index(pb)
            step = 1 if j >= i else -1
            return [self.point(s) for s in line[i : j + step : step]], []
        canal = self._canal_between(a, b)
        if canal is None and along == "canal":
            canal = next(iter(self.g.canals.values()), None)
        if canal is None:
            return ([self.point(pa), self.point(pb)], []) if along == "railway" else None
        first, last = self.unit_point(a), self.point(b)
        cps = [(float(x), float(y)) for x, y in canal.get("points", ())]
        if cps and math.dist(first, cps[0]) > math.dist(first, cps[-1]):
            cps.reverse()
        return [first, *cps, last], cps

    def _link(self, o: VisibleOrder, drawing: Drawing, colour: str, failed: bool) -> None:
        """A thin line to the middle of the move it acts on (or to the unit it acts on, ringed)."""
        places = o.places
        line = drawing.line
        ink = colour if line.colour == POWER else line.colour
        cap = "round" if line.dash and line.dash.startswith("0") else "butt"
        if len(places) >= 3:
            s0, c0, e0 = self._move_curve(places[1], places[2])
            m = _mid(s0, c0, e0)
            s, c, e = _curve(self.unit_point(places[0]), m, self.r + 2, 3, 0.1)
            self._thin(s, c, e, ink, line.dash or "", failed, cap=cap, width=line.width)
            self.symbol(drawing.symbol, m, colour, None)
        elif len(places) == 2:
            q = self.unit_point(places[1])
            s, c, e = _curve(self.unit_point(places[0]), q, self.r + 2, self.r + 6, 0.1)
            self._thin(s, c, e, ink, line.dash or "", failed, cap=cap, width=line.width)
            self.add(
                f'<circle cx="{_f(q[0])}" cy="{_f(q[1])}" r="{_f(self.r + 5)}" fill="none" '
                f'stroke="{ink}" stroke-width="2.2" stroke-dasharray="{line.dash or ""}"/>'
            )

    def symbol(self, symbol: Symbol | None, at: Point, colour: str, words: str | None) -> None:
        """Draw a declared symbol at ``at`` (its colours: :data:`~arbitre.rules.drawing.POWER` is ``colour``)."""
        if symbol is None:
            return
        fill = colour if symbol.fill == POWER else symbol.fill
        stroke = colour if symbol.stroke == POWER else symbol.stroke
        title = f"<title>{escape(self.words(words))}</title>" if words else ""
        move = f'transform="translate({_f(at[0])} {_f(at[1])})"'
        if symbol.path:
            dash = f' stroke-dasharray="{symbol.dash}"' if symbol.dash else ""
            if fill == "none" and not symbol.dash:
                # A stroked figure (a cross): cased in white so that it reads on any ground.
                self.add(
                    f'<path {move} d="{symbol.path}" fill="none" stroke="#FFFFFF" '
                    f'stroke-width="{_f(symbol.width + 2.5)}" stroke-linecap="round"/>'
                )
            self.add(
                f'<path {move} d="{symbol.path}" fill="{fill}" stroke="{stroke}" stroke-width="{_f(symbol.width)}" '
                f'stroke-linecap="round" stroke-linejoin="round"{dash}>{title}</path>'
            )
            title = ""
        if symbol.dot:
            self.add(
                f'<circle {move} r="{_f(symbol.dot)}" fill="{colour}" stroke="{INK}" stroke-width="0.8">{title}</circle>'
            )

    def _new_unit(self, o: VisibleOrder, colour: str, failed: bool) -> None:
        """The unit a build makes, framed by its kind's own outline (dashed), with a ``+`` badge."""
        if not o.places or failed:
            return
        word = (o.text.split() or ["A"])[0].upper()
        at = self.point(o.places[0])
        self._halo(word, at, colour, "data-halo")
        self.unit(VisibleUnit(o.power, word, o.places[0]), at, extra=' data-build="1"')
        bx, by = at[0] + 10, at[1] - 10
        self.add(f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="5.5" fill="#FFFFFF" stroke="{INK}" stroke-width="1"/>')
        self.add(
            f'<path d="M{_f(bx - 3.2)} {_f(by)} h6.4 M{_f(bx)} {_f(by - 3.2)} v6.4" stroke="{INK}" stroke-width="1.8"/>'
        )

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

    def _canal_between(self, a: str, b: str) -> dict[str, Any] | None:
        """The board's canal joining the provinces of ``a`` and ``b``, if there is one."""
        ends = {a.split("/")[0], b.split("/")[0]}
        for canal in self.g.canals.values():
            if set(canal.get("between", ())) == ends:
                return canal
        return None

    # ---- footer
    def footer(self, powers: list[str]) -> None:
        g, v = self.g, self.view
        y0 = g.height
        self.add(f'<g id="legend" font-family="{FONT}">')
        self.add(
            f'<rect class="m-legend" x="0" y="{_f(y0)}" width="{_f(g.width)}" height="{_f(FOOTER)}" fill="#F7F4EC" '
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
            fill=MUTED,
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
    d.add(f"<title>{escape(view.map_name)} {escape(phase_title(view.phase, words))}</title>")
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
